import "server-only";
import type { Database } from "@/lib/db/connect";
import { frozenReason } from "@/lib/decisions/editable";
import { measureServing, type MeasuredRequest, type ServingMeasurement } from "@/lib/harness/measure";
import { recordAudit } from "../audit/write";
import type { Tx } from "../db";
import { lockDecisionRow } from "../decisions/lock";
import type { EndpointSnapshot } from "./execute-chunk";

const SYSTEM = { id: null, roles: [] } as const;

/** How stage 5 names what Verdict measured itself; "simulated" wherever a simulated endpoint's figures appear. */
export const harnessToolName = (simulated: boolean) =>
  simulated ? "Verdict harness (simulated endpoint)" : "Verdict harness";
const TPOT_SOURCE =
  "Verdict harness, per request: TPOT = (E2E − TTFT) / (output tokens − 1), first token excluded; ITL pools every gap between content chunks (vLLM's definitions)";

export interface FinishedRun {
  evalRunId: number | null;
  nextSweepLevel: number | null;
}

/**
 * Once every item of a run is stored: in one transaction, its serving measurement (stage 5 at the
 * run's concurrency) and, for an EVAL run, an eval run whose predictions are the parsed outputs —
 * the same rows an upload stores, so stages 3–4 come from the same metrics job (the caller queues
 * it after the commit). Items whose request failed have no prediction: they are missing, and so
 * errors. The run's row lock makes this happen once however many workers finish chunks together.
 * A decision frozen meanwhile (submitted) takes no new evidence: the run fails, saying so.
 */
export async function finishRunIfComplete(database: Database, runId: number): Promise<FinishedRun | null> {
  return database.prisma.$transaction(
    async (tx) => {
      const run = await lockCompleteRun(tx, runId);
      if (!run) return null;
      const decision = await lockDecisionRow(tx, run.decisionId, "SHARE");
      const frozen = frozenReason(decision);
      if (frozen) return failFrozenRun(tx, run, frozen);
      const slos = await tx.decision.findUniqueOrThrow({
        where: { id: run.decisionId },
        select: { sloP95E2eMs: true, sloP95TtftMs: true },
      });
      // Raw, with each ITL list as JSON (one JSON.parse a row): Prisma's findMany of these rows,
      // float8[] and all, cost several times the CPU at the benchmark's 12,000 items a run.
      const items = await tx.$queryRawUnsafe<(MeasuredRequest & { parseFailed: boolean })[]>(
        `SELECT completed, "ttftMs", "e2eMs", coalesce(array_to_json("itlMs"), '[]') AS "itlMs", "inputTokens", "outputTokens", "startedAt", "parseFailure" IS NOT NULL AS "parseFailed"
           FROM "HarnessItem" WHERE "harnessRunId" = $1`,
        runId,
      );
      const m = measureServing(items, slos);
      const servingBenchmarkId = await storeServingBenchmark(tx, run, m);
      const evalRunId = run.kind === "EVAL" ? await storeEvalRun(tx, run) : null;
      const parseFailures = items.filter((i) => i.parseFailed).length;
      await tx.harnessRun.update({
        where: { id: runId },
        data: { status: "DONE", finishedAt: new Date(), evalRunId, servingBenchmarkId },
      });
      await recordAudit(tx, {
        actor: SYSTEM,
        action: "harness_run.finish",
        entityType: "HarnessRun",
        entityId: String(runId),
        decisionId: run.decisionId,
        after: {
          status: "DONE",
          evalRunId,
          servingBenchmarkId,
          completed: m.completed,
          failed: m.failed,
          parseFailures,
          inputTokens: m.totalInputTokens,
          outputTokens: m.totalOutputTokens,
        },
      });
      return { evalRunId, nextSweepLevel: await nextSweepLevelOf(tx, run) };
    },
    { timeout: 120_000 },
  );
}

interface LockedRun {
  id: number;
  status: string;
  kind: string;
  decisionId: string;
  candidateId: string;
  datasetVersionId: number;
  concurrency: number;
  itemCount: number;
  doneCount: number;
  endpoint: EndpointSnapshot;
  sweepId: string | null;
  protocolSha256: string;
}

/** The run under its row lock, when it is still open and every item is stored; otherwise null. */
async function lockCompleteRun(tx: Tx, runId: number): Promise<LockedRun | null> {
  const [run] = await tx.$queryRawUnsafe<LockedRun[]>(
    `SELECT id, status::text AS status, kind, "decisionId", "candidateId", "datasetVersionId", concurrency, "itemCount", "doneCount", endpoint, "sweepId", "protocolSha256" FROM "HarnessRun" WHERE id = $1 FOR UPDATE`,
    runId,
  );
  if (!run || (run.status !== "RUNNING" && run.status !== "QUEUED") || run.doneCount < run.itemCount) return null;
  return run;
}

/** A decision frozen while the run ran takes no new evidence: the run fails, saying why. */
async function failFrozenRun(tx: Tx, run: LockedRun, frozen: string): Promise<FinishedRun> {
  await tx.harnessRun.update({
    where: { id: run.id },
    data: { status: "FAILED", error: `Not stored: ${frozen}`, finishedAt: new Date() },
  });
  await recordAudit(tx, {
    actor: SYSTEM,
    action: "harness_run.finish",
    entityType: "HarnessRun",
    entityId: String(run.id),
    decisionId: run.decisionId,
    after: { status: "FAILED", reason: frozen },
  });
  return { evalRunId: null, nextSweepLevel: null };
}

/** The run's serving measurement, stored as stage 5 evidence at the run's concurrency. */
async function storeServingBenchmark(tx: Tx, run: LockedRun, m: ServingMeasurement): Promise<string> {
  const serving = await tx.servingBenchmark.create({
    data: {
      decisionId: run.decisionId,
      candidateId: run.candidateId,
      tool: harnessToolName(run.endpoint.simulated),
      toolVersion: `protocol ${run.protocolSha256.slice(0, 12)}`,
      concurrency: run.concurrency,
      completed: m.completed,
      failed: m.failed,
      durationS: m.durationS,
      meanInputTokens: m.meanInputTokens,
      meanOutputTokens: m.meanOutputTokens,
      requestThroughput: m.requestThroughput,
      outputTokenThroughput: m.outputTokenThroughput,
      totalTokenThroughput: m.totalTokenThroughput,
      goodput: m.goodput,
      ttftMs: m.ttftMs,
      tpotMs: m.tpotMs,
      itlMs: m.itlMs,
      e2eMs: m.e2eMs,
      tpotSource: TPOT_SOURCE,
    },
    select: { id: true },
  });
  return serving.id;
}

/** An EVAL run's eval run, its predictions copied from the completed items (failed requests stay missing). */
async function storeEvalRun(tx: Tx, run: LockedRun): Promise<number> {
  const evalRun = await tx.evalRun.create({
    data: {
      decisionId: run.decisionId,
      candidateId: run.candidateId,
      datasetVersionId: run.datasetVersionId,
      status: "PENDING",
      itemCount: run.itemCount,
    },
    select: { id: true },
  });
  await tx.$executeRawUnsafe(
    `INSERT INTO "Prediction" ("evalRunId", "itemId", score, predicted, "parseFailure", "rawOutput", "latencyMs", "inputTokens", "outputTokens")
     SELECT $1, "itemId", score, predicted, "parseFailure" IS NOT NULL, "rawOutput", "e2eMs", "inputTokens", "outputTokens" FROM "HarnessItem" WHERE "harnessRunId" = $2 AND completed`,
    evalRun.id,
    run.id,
  );
  return evalRun.id;
}

/** The sweep's next queued level after this one, for the caller to queue; null outside a sweep or at its end. */
async function nextSweepLevelOf(tx: Tx, run: LockedRun): Promise<number | null> {
  if (!run.sweepId) return null;
  const next = await tx.harnessRun.findFirst({
    where: { sweepId: run.sweepId, status: "QUEUED", id: { gt: run.id } },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return next?.id ?? null;
}
