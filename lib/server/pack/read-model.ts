import "server-only";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import type {
  OtherRun,
  PackCandidate,
  PackComparison,
  PackDecision,
  PackResemblance,
  PackRun,
  PackScore,
  PackServing,
} from "@/lib/pack/pack-data";
import type { StoredRunMetrics } from "@/lib/pack/run-input";
import { runsThatCount } from "@/lib/pack/run-that-counts";
import type { Pct } from "@/lib/pack/serving";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Tx } from "../db";
import { notFoundError } from "../errors";
import { TASK_PARAMETERS } from "../decisions/decisions";
import { LISTED_EVAL_RUN, PACK_CANDIDATE, PACK_RESEMBLANCE, PACK_SCORE } from "../decisions/fields";

/**
 * The pack's read model: the one way the evidence of a decision is read — by the page (each
 * streamed section reads its part, cached per request in lib/server/pack/get-pack.ts), the JSON
 * API, both exports and the frozen pack revision (inside the sign-off transaction). Each part
 * takes the client it runs on (the app's client or a transaction), so every reader gets the same
 * rows and the same rule for the run that counts (lib/pack/run-that-counts.ts).
 */
type Client = PrismaClient | Tx;

export async function readDecisionCore(
  client: Client,
  decisionId: string,
): Promise<{ decision: PackDecision; candidates: PackCandidate[] }> {
  const d = await client.decision.findUnique({
    where: { id: decisionId },
    select: {
      ...TASK_PARAMETERS,
      status: true,
      archivedAt: true,
      evaluationDatasetVersionId: true,
      createdAt: true,
      candidates: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: PACK_CANDIDATE },
    },
  });
  if (!d) throw notFoundError("The decision");
  const { candidates, createdAt, ...rest } = d;
  return { decision: { ...rest, createdAt: createdAt.toISOString() }, candidates };
}

export async function readScores(
  client: Client,
  decisionId: string,
): Promise<{ scores: PackScore[]; resemblances: PackResemblance[] }> {
  // One query after the other: inside a transaction the client has a single connection.
  const scores = await client.leaderboardScore.findMany({
    // Rows of models not shortlisted are shortlisting material, not evidence about a candidate.
    where: { decisionId, candidateId: { not: null } },
    orderBy: [{ stage: "asc" }, { suite: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    // asOf is read beside the frozen list (PACK_SCORE): a revision states it only when a source gave one.
    select: { ...PACK_SCORE, asOf: true },
  });
  const resemblances = await client.suiteResemblance.findMany({
    where: { decisionId },
    orderBy: { suite: "asc" },
    select: { ...PACK_RESEMBLANCE, relevanceNote: true },
  });
  // A candidate's score on a suite and metric is the newest import's: a re-import replaces it.
  const newest = new Map<string, (typeof scores)[number]>();
  for (const s of scores) newest.set(JSON.stringify([s.candidateId, s.stage, s.suite, s.metric]), s);
  return {
    scores: [...newest.values()].map((s) => ({
      ...s,
      candidateId: s.candidateId!,
      retrievedAt: s.retrievedAt.toISOString(),
      asOf: s.asOf?.toISOString() ?? null,
    })),
    resemblances,
  };
}

/** The file a tool run was read from, set only on such runs (Verdict's own runs keep their shape). */
function toolFile(r: {
  toolRun: unknown;
  import: { fileName: string; sha256: string } | null;
}): Pick<PackRun, "toolFile"> {
  return r.toolRun && r.import ? { toolFile: { name: r.import.fileName, sha256: r.import.sha256 } } : {};
}

/**
 * The run that counts per candidate (with its stored metrics), and every other run listed apart
 * with why it does not count — another dataset version, superseded by a newer run, not finished.
 */
export async function readRuns(
  client: Client,
  decisionId: string,
  evaluationDatasetVersionId: number | null,
): Promise<{ runs: PackRun[]; otherRuns: OtherRun[] }> {
  const all = await client.evalRun.findMany({
    where: { decisionId },
    orderBy: { id: "asc" },
    select: {
      ...LISTED_EVAL_RUN,
      // A tool run's file, for stage 3's provenance line (issue 24 §3).
      import: { select: { fileName: true, sha256: true } },
      datasetVersion: {
        select: { version: true, itemCount: true, positiveCount: true, dataset: { select: { name: true } } },
      },
    },
  });
  const counting = runsThatCount(all, evaluationDatasetVersionId);
  const countingIds = new Set([...counting.values()].map((r) => r.id));
  // Only the counting runs' metrics are read: the part of a read that grows with the evidence.
  const metrics = new Map(
    (
      await client.evalRun.findMany({ where: { id: { in: [...countingIds] } }, select: { id: true, metrics: true } })
    ).map((r) => [r.id, r.metrics as unknown as StoredRunMetrics | null]),
  );
  const dataset = (r: (typeof all)[number]) => ({
    name: r.datasetVersion.dataset.name,
    version: r.datasetVersion.version,
    itemCount: r.datasetVersion.itemCount,
    positiveCount: r.datasetVersion.positiveCount,
  });
  const runs: PackRun[] = all
    .filter((r) => countingIds.has(r.id))
    .map((r) => ({
      runId: r.id,
      candidateId: r.candidateId,
      itemCount: r.itemCount,
      missingCount: r.missingCount,
      unknownCount: r.unknownCount,
      parseFailureCount: r.parseFailureCount,
      computedAt: r.computedAt?.toISOString() ?? null,
      dataset: dataset(r),
      metrics: metrics.get(r.id) ?? null,
      scoreBasis: (r.scoreBasis as ScoreBasis | null) ?? null,
      toolRun: (r.toolRun as unknown as RunProvenance | null) ?? null,
      ...toolFile(r),
    }));
  const otherRuns: OtherRun[] = all
    .filter((r) => !countingIds.has(r.id))
    .map((r) => ({
      runId: r.id,
      candidateId: r.candidateId,
      status: r.status,
      dataset: dataset(r),
      reason:
        r.status !== "DONE"
          ? (`not finished (${r.status.toLowerCase()})` as const)
          : evaluationDatasetVersionId !== null && r.datasetVersionId !== evaluationDatasetVersionId
            ? ("another dataset version" as const)
            : ("superseded by a newer run" as const),
    }));
  return { runs, otherRuns };
}

export async function readServing(client: Client, decisionId: string): Promise<PackServing[]> {
  const rows = await client.servingBenchmark.findMany({
    where: { decisionId },
    orderBy: [{ candidateId: "asc" }, { concurrency: "asc" }, { id: "asc" }],
    select: {
      candidateId: true,
      tool: true,
      toolVersion: true,
      concurrency: true,
      requestThroughput: true,
      outputTokenThroughput: true,
      goodput: true,
      completed: true,
      failed: true,
      meanInputTokens: true,
      meanOutputTokens: true,
      ttftMs: true,
      tpotMs: true,
      itlMs: true,
      e2eMs: true,
      tpotSource: true,
    },
  });
  // ITL (inter-token latency) is read for the page, the API and the exports; the frozen revision
  // takes its serving rows from its own select (build-pack.ts), so its bytes do not move.
  return rows.map((r) => ({
    ...r,
    ttftMs: r.ttftMs as Pct,
    tpotMs: r.tpotMs as Pct,
    itlMs: (r.itlMs ?? {}) as Pct,
    e2eMs: r.e2eMs as Pct,
  }));
}

/** Paired comparisons between runs that count (a stored pair with a run that no longer counts is stale). */
export async function readComparisons(
  client: Client,
  decisionId: string,
  countingRunIds: ReadonlySet<number>,
): Promise<PackComparison[]> {
  const rows = await client.runComparison.findMany({
    where: { decisionId },
    orderBy: [{ runAId: "asc" }, { runBId: "asc" }],
    select: {
      runAId: true,
      runBId: true,
      items: true,
      deltaAp: true,
      deltaApLow: true,
      deltaApHigh: true,
      deltaCostPer1k: true,
      deltaCostLow: true,
      deltaCostHigh: true,
      onlyACorrect: true,
      onlyBCorrect: true,
      mcnemarP: true,
      runA: { select: { candidateId: true } },
      runB: { select: { candidateId: true } },
    },
  });
  return rows
    .filter((r) => countingRunIds.has(r.runAId) && countingRunIds.has(r.runBId))
    .map((r) => ({
      candidateAId: r.runA.candidateId,
      candidateBId: r.runB.candidateId,
      deltaAp: r.deltaAp,
      deltaApInterval: r.deltaApLow !== null && r.deltaApHigh !== null ? [r.deltaApLow, r.deltaApHigh] : null,
      deltaCostPer1k: r.deltaCostPer1k,
      deltaCostInterval: r.deltaCostLow !== null && r.deltaCostHigh !== null ? [r.deltaCostLow, r.deltaCostHigh] : null,
      onlyACorrect: r.onlyACorrect,
      onlyBCorrect: r.onlyBCorrect,
      mcnemarP: r.mcnemarP,
      items: r.items,
    }));
}

/** The whole read model at once (API, exports, the frozen revision). */
export async function readPackModel(client: Client, decisionId: string) {
  const core = await readDecisionCore(client, decisionId);
  const scores = await readScores(client, decisionId);
  const { runs, otherRuns } = await readRuns(client, decisionId, core.decision.evaluationDatasetVersionId);
  const serving = await readServing(client, decisionId);
  const comparisons = await readComparisons(client, decisionId, new Set(runs.map((r) => r.runId)));
  return { ...core, ...scores, runs, otherRuns, serving, comparisons };
}

export type PackModel = Awaited<ReturnType<typeof readPackModel>>;
