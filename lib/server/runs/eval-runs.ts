import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { env } from "@/lib/env";
import {
  buildRunInput,
  buildRunInputFromColumns,
  type JoinedColumns,
  type RunInput,
  type StoredRunMetrics,
} from "@/lib/pack/run-input";
import { summarizeRun } from "@/lib/compute/summarize-run";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import { recordAudit } from "../audit/write";
import { withRunLock } from "./run-lock";
import { withRawTx } from "../raw-tx";
import { analyzeRunTable, runTable } from "./partitions";
import { JOINED_ITEMS_SQL, writeRunItemsOnce, type ItemRow } from "./run-items";
import { operatingRuleOptions, type RuleInputs } from "./operating-rule";
import { markComparisonsStale } from "./comparison-state";
import { jobCheckpoint } from "./job-checkpoint";

/** Seeded, so the same evidence always gives the same intervals (and the same pack hash). */
export const BOOTSTRAP_SEED = 20_261_202;

/**
 * Computes an eval run's metrics once and stores them (SPEC §8: pages never recompute over
 * millions of items on a request). Every dataset item is joined to its prediction; items without
 * one are missing (counted as errors), predictions for unknown ids are counted.
 *
 * The job holds the run's computation lock throughout (jobs/run-lock.ts), which is how recovery
 * tells a live job from a lost one, and computes only a run that waits for it (PENDING, or RUNNING
 * left by a job that died): a stale or duplicate job finds the run DONE or FAILED and leaves it —
 * recomputing would change its computedAt, and so the pack's hash. Returns whether it computed.
 */
export async function computeEvalRun(database: Database, runId: number): Promise<boolean> {
  return withRunLock(database, runId, async () => {
    const current = await database.prisma.evalRun.findUnique({ where: { id: runId }, select: { status: true } });
    if (!current || current.status === "DONE" || current.status === "FAILED") return false;
    await computeLocked(database, runId);
    return true;
  });
}

/**
 * The upload's hand-over (issue 12 §2): the run's joined items as columns, read in the upload's
 * own transaction right after its COPY (lib/server/runs/joined-columns.ts), kept in this process
 * until the run's job takes them, so the job does not read a million rows back. Set only after
 * that transaction committed; predictions and dataset items never change once imported, so the
 * columns stay the run's. A job in another process (a pg-boss worker) reads the rows as before;
 * an entry nobody takes is dropped after ten minutes.
 */
type Handed = { columns: JoinedColumns };

/**
 * The run's predictions whose id is not in its dataset version ($1 the run, $2 the version): one
 * rule for the upload's refusal and the job's count. Read from the run's own table, which the
 * upload checks before it attaches it to "Prediction".
 */
export const unknownPredictions = (runId: number) => `FROM ${runTable(runId)} p
  WHERE p."evalRunId" = $1
    AND NOT EXISTS (SELECT 1 FROM "DatasetItem" d WHERE d."datasetVersionId" = $2 AND d."itemId" = p."itemId")`;
const handedHolder = globalThis as typeof globalThis & { __verdictHanded?: Map<number, Handed> };
const handed = (handedHolder.__verdictHanded ??= new Map<number, Handed>());
const HAND_OVER_MS = 10 * 60_000;

export function handOverRunInput(runId: number, columns: JoinedColumns): void {
  handed.set(runId, { columns });
  setTimeout(() => {
    if (handed.get(runId)?.columns === columns) handed.delete(runId);
  }, HAND_OVER_MS).unref?.();
}

/** Whether the run's input is waiting in this process, and how many are (tests). */
export const hasHandedInput = (runId: number) => handed.has(runId);
export const handedRunCount = () => handed.size;

/**
 * Computes until a result is stored or another job owns the run: when the inputs changed while
 * this job computed but nobody re-queued the run (the change's transaction read the run before
 * this job marked it RUNNING), the run is still this job's, so it computes again with the new ones.
 */
async function computeLocked(database: Database, runId: number): Promise<void> {
  const given = handed.get(runId);
  handed.delete(runId);
  // The run's predictions get their statistics: beside the bootstrap when the upload handed its
  // items over, before the read otherwise (so the read is planned on them). They only guide the
  // planner: a failure is reported, and the run computes regardless.
  const analyzed = analyzeRunTable(database, runId).catch((error: unknown) =>
    console.warn(`eval run ${runId}: statistics not taken: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (!given) await analyzed;
  try {
    for (let attempt = 1; ; attempt++) {
      const outcome = await computeOnce(database, runId, given);
      if (outcome !== "stale" || attempt >= 5) return;
    }
  } finally {
    await analyzed;
  }
}

async function computeOnce(database: Database, runId: number, given?: Handed): Promise<StoreOutcome> {
  const prisma = database.prisma;
  // RUNNING first, then read the inputs: a parameter change after this point marks the run
  // PENDING again, and the conditional writes below then leave this job's result unstored.
  await prisma.evalRun.update({ where: { id: runId }, data: { status: "RUNNING", progress: 0 } });
  const run = await prisma.evalRun.findUniqueOrThrow({ where: { id: runId }, select: RUN_INPUTS });
  try {
    const timing = phaseTimer(runId);
    let rows: ItemRow[] | null = null;
    let input: RunInput;
    let unknownCount: number;
    if (given) {
      // Handed over by the upload: the same rows, already read as columns.
      input = buildRunInputFromColumns(given.columns);
      unknownCount = 0; // the upload refuses unknown ids before it hands over
    } else {
      // Two queries on two connections, so PostgreSQL runs them side by side.
      const [read, [unknown]] = await Promise.all([
        joinQuery<ItemRow>(database, JOINED_ITEMS_SQL, [runId, run.datasetVersionId]),
        joinQuery<{ count: string | number }>(database, `SELECT count(*) AS count ${unknownPredictions(runId)}`, [
          runId,
          run.datasetVersionId,
        ]),
      ]);
      rows = read;
      input = buildRunInput(read);
      unknownCount = Number(unknown?.count ?? 0);
    }
    timing("read");
    await setProgress(database, runId, PHASE.bootstrap);
    // The bootstrap's workers report their replicates: the run's progress moves from the
    // bootstrap's start to storing, written at most twice a second.
    let lastWrite = performance.now();
    let written: Promise<void> = Promise.resolve();
    const bootstrapProgress = (fraction: number) => {
      const now = performance.now();
      if (now - lastWrite < 500 || fraction >= 1) return;
      lastWrite = now;
      written = written
        .then(() => setProgress(database, runId, PHASE.bootstrap + (PHASE.storing - PHASE.bootstrap) * fraction))
        .catch(() => {});
    };
    const metrics: StoredRunMetrics = {
      // summarizeRun: the bootstrap, the part that grows as B·n, on worker threads when it pays.
      ...(await summarizeRun(input.labels, input.scores, {
        threshold: run.candidate.operatingThreshold ?? run.decision.operatingThreshold,
        prevalence: run.decision.prevalence,
        costFalseNegative: run.decision.costFn,
        costFalsePositive: run.decision.costFp,
        slices: input.slices.some((s) => s !== null) ? input.slices : undefined,
        bootstrap: 1000,
        seed: BOOTSTRAP_SEED,
        onProgress: bootstrapProgress,
        ...operatingRuleOptions(run.decision, run.decisionId, input.scoreKind),
      })),
      input: { scoreKind: input.scoreKind, parseFailures: input.parseFailures, missing: input.missing },
    };
    timing("metrics");
    await written; // no bootstrap figure lands after "storing"
    await setProgress(database, runId, PHASE.storing);
    await jobCheckpoint("metrics-computed");
    const outcome = await storeIfCurrent(database, runId, run, {
      status: "DONE",
      progress: 1,
      itemCount: input.labels.length,
      missingCount: input.missing,
      parseFailureCount: input.parseFailures,
      unknownCount,
      metrics: JSON.parse(JSON.stringify(metrics)),
      computedAt: new Date(),
      error: null,
    });
    timing("stored");
    // The drill-down's rows come from this same input, so its cells list what the metrics count.
    // Written after the metrics are stored (the figures are ready sooner; a drill-down opened in
    // between writes them itself, under the same lock, from the same rows), in their own
    // transaction: a crash leaves none, and the drill-down's reader writes them then.
    if (outcome === "stored")
      await writeRunItemsOnce(database, runId, run.datasetVersionId, rows ? { rows, input } : { input });
    timing("drill-down items");
    return outcome;
  } catch (error) {
    const outcome = await storeIfCurrent(database, runId, run, {
      status: "FAILED",
      error: error instanceof Error ? error.message : String(error),
    });
    if (outcome === "stale") return outcome;
    throw error;
  }
}

/**
 * The run's progress while its job computes (EvalRun.progress, shown as a percentage): reading
 * its items, the bootstrap, storing. RUNNING at 0 is "reading".
 */
const PHASE = { bootstrap: 0.3, storing: 0.9 } as const;

async function setProgress(database: Database, runId: number, progress: number): Promise<void> {
  await rawQuery(database, `UPDATE "EvalRun" SET progress = $2 WHERE id = $1 AND status = 'RUNNING'`, [
    runId,
    progress,
  ]);
}

/**
 * A join over a run's items, in a read-only transaction of its own with room to sort in memory
 * and no nested loops: a freshly uploaded run's predictions have no statistics yet, so the
 * planner guesses a few thousand rows and would probe an index once per item, or sort on disk
 * (EXPLAIN ANALYZE at 1M items: the items' read 3.6 s → 2.6 s, the unknown count 2.8 s → 1.9 s).
 */
function joinQuery<T>(database: Database, sql: string, params: unknown[]): Promise<T[]> {
  return withRawTx(database, async (tx) => {
    await tx.query(`SET LOCAL work_mem = '256MB'`);
    await tx.query(`SET LOCAL enable_nestloop = off`);
    return tx.query<T>(sql, params);
  });
}

/** VERDICT_IMPORT_TIMING=1 prints the time of each phase of a run's computation (benchmarks). */
function phaseTimer(runId: number): (phase: string) => void {
  if (env().VERDICT_IMPORT_TIMING !== "1") return () => {};
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    console.error(`eval run ${runId}: ${phase} ${(now - last).toFixed(0)} ms`);
    last = now;
  };
}

/** stored; requeued: the run is no longer RUNNING (a change marked it PENDING and queued a job); stale: still this job's, but its inputs changed. */
type StoreOutcome = "stored" | "requeued" | "stale";

const RUN_INPUTS = {
  id: true,
  decisionId: true,
  datasetVersionId: true,
  candidate: { select: { operatingThreshold: true } },
  decision: {
    select: {
      prevalence: true,
      costFn: true,
      costFp: true,
      operatingThreshold: true,
      operatingRule: true,
      recallFloor: true,
      precisionFloor: true,
    },
  },
} as const;

type RunInputs = {
  decisionId: string;
  candidate: { operatingThreshold: number | null };
  decision: { prevalence: number; costFn: number; costFp: number; operatingThreshold: number } & RuleInputs;
};

const sameInputs = (a: RunInputs, b: RunInputs) =>
  a.candidate.operatingThreshold === b.candidate.operatingThreshold &&
  a.decision.prevalence === b.decision.prevalence &&
  a.decision.costFn === b.decision.costFn &&
  a.decision.costFp === b.decision.costFp &&
  a.decision.operatingThreshold === b.decision.operatingThreshold &&
  a.decision.operatingRule === b.decision.operatingRule &&
  a.decision.recallFloor === b.decision.recallFloor &&
  a.decision.precisionFloor === b.decision.precisionFloor;

/**
 * Stores a job's outcome only when it is still the run's current computation: the run is RUNNING
 * and π, the costs and the thresholds are those the job read. A parameter change meanwhile marked
 * the run PENDING and queued another job (lib/server/runs/recompute.ts); with several workers that job
 * may already be RUNNING, which is why the inputs are compared, under the run's row lock. What is
 * stored is audited in the same transaction (eval_run.computed, by the system: no actor), with the
 * SHA-256 of the metrics' canonical JSON; a result left unstored is not. A stored result changes
 * the inputs of the decision's paired comparisons: they are marked stale in the same transaction.
 */
async function storeIfCurrent(
  database: Database,
  runId: number,
  used: RunInputs,
  data: Prisma.EvalRunUpdateInput,
): Promise<StoreOutcome> {
  return database.prisma.$transaction(async (tx) => {
    // Lock order: the decision's row before the run's, as an edit takes them (lock.ts, then
    // recompute.ts). The audit event's foreign key would otherwise wait for an edit's decision lock
    // while holding the run the edit waits for.
    await tx.$queryRaw`SELECT 1 FROM "Decision" WHERE id = ${used.decisionId} FOR KEY SHARE`;
    const [row] = await tx.$queryRaw<
      { status: string }[]
    >`SELECT status::text AS status FROM "EvalRun" WHERE id = ${runId} FOR UPDATE`;
    if (row?.status !== "RUNNING") return "requeued";
    const now = await tx.evalRun.findUniqueOrThrow({ where: { id: runId }, select: RUN_INPUTS });
    if (!sameInputs(now, used)) return "stale";
    const stored = await tx.evalRun.update({
      where: { id: runId },
      data: data.status === "DONE" ? { ...data, recoveries: 0 } : data,
      select: {
        status: true,
        itemCount: true,
        missingCount: true,
        unknownCount: true,
        parseFailureCount: true,
        metrics: true,
        error: true,
      },
    });
    await markComparisonsStale(tx, used.decisionId);
    await recordAudit(tx, {
      actor: { id: null, roles: [] },
      action: "eval_run.computed",
      entityType: "EvalRun",
      entityId: String(runId),
      decisionId: used.decisionId,
      after: {
        status: stored.status,
        parameters: {
          prevalence: used.decision.prevalence,
          costFn: used.decision.costFn,
          costFp: used.decision.costFp,
          threshold: used.candidate.operatingThreshold ?? used.decision.operatingThreshold,
          ...(used.decision.operatingRule === "FIXED" ? {} : { operatingRule: used.decision.operatingRule }),
        },
        ...(stored.status === "DONE"
          ? {
              itemCount: stored.itemCount,
              missingCount: stored.missingCount,
              unknownCount: stored.unknownCount,
              parseFailureCount: stored.parseFailureCount,
              metricsSha256: createHash("sha256").update(canonicalJson(stored.metrics)).digest("hex"),
            }
          : { error: stored.error }),
      },
    });
    return "stored";
  });
}
