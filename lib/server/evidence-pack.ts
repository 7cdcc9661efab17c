import "server-only";
import { cache } from "react";
import { can } from "@/lib/auth/permissions";
import type { PackCandidate, PackComparison, PackData, PackDecision, PackResemblance, PackRun, PackScore, PackServing } from "@/lib/evidence/pack-data";
import type { StoredRunMetrics } from "@/lib/evidence/run-input";
import { runsThatCount } from "@/lib/evidence/run-that-counts";
import type { Pct } from "@/lib/evidence/serving";
import { db } from "./db";
import { forbiddenError, notFoundError } from "./errors";
import type { Actor } from "./session";

/**
 * Reads of the evidence pack, one per stage so each streamed section waits only for its own
 * evidence. Each is cached per request (React cache) and reads stored results only: the size of
 * a read does not grow with the number of items (curves are stored downsampled).
 */
function check(actor: Actor) {
  if (!can(actor, "decision.read")) throw forbiddenError();
}

const decisionAndCandidates = cache(async (decisionId: string): Promise<{ decision: PackDecision; candidates: PackCandidate[] }> => {
  const prisma = await db();
  const d = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: {
      id: true, title: true, description: true, positiveClass: true, prevalence: true, costFn: true, costFp: true, currency: true, recallFloor: true,
      precisionFloor: true, operatingThreshold: true, sloP95E2eMs: true, sloP95TtftMs: true, sloMinThroughputRps: true, sloThroughputConcurrency: true,
      sloMaxCostPer1kRequests: true, quorum: true, status: true, archivedAt: true, evaluationDatasetVersionId: true,
      candidates: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, name: true, provider: true, version: true, shortlistRationale: true, operatingThreshold: true, priceInputPerMTok: true, priceOutputPerMTok: true, pricePerHour: true },
      },
    },
  });
  if (!d) throw notFoundError("The decision");
  const { candidates, ...decision } = d;
  return { decision, candidates };
});

export async function getPackDecision(actor: Actor, decisionId: string) {
  check(actor);
  return decisionAndCandidates(decisionId);
}

const scoresOf = cache(async (decisionId: string): Promise<{ scores: PackScore[]; resemblances: PackResemblance[] }> => {
  const prisma = await db();
  const [scores, resemblances] = await Promise.all([
    prisma.leaderboardScore.findMany({
      // Rows of models not shortlisted are shortlisting material, not evidence about a candidate.
      where: { decisionId, candidateId: { not: null } },
      orderBy: [{ stage: "asc" }, { suite: "asc" }, { createdAt: "asc" }],
      select: { candidateId: true, stage: true, suite: true, metric: true, value: true, stderr: true, ciLow: true, ciHigh: true, votes: true, higherIsBetter: true, source: true, sourceUrl: true, retrievedAt: true, relevanceNote: true },
    }),
    prisma.suiteResemblance.findMany({
      where: { decisionId },
      orderBy: { suite: "asc" },
      select: { suite: true, task: true, taskNote: true, distribution: true, distributionNote: true, promptScoring: true, promptScoringNote: true },
    }),
  ]);
  return { scores: scores.map((s) => ({ ...s, candidateId: s.candidateId!, retrievedAt: s.retrievedAt.toISOString() })), resemblances };
});

export async function getPackScores(actor: Actor, decisionId: string) {
  check(actor);
  return scoresOf(decisionId);
}

const runsOf = cache(async (decisionId: string): Promise<PackRun[]> => {
  const prisma = await db();
  // The run that counts per candidate: ids first (small), then only those runs' stored metrics.
  const { decision } = await decisionAndCandidates(decisionId);
  const ids = await prisma.evalRun.findMany({ where: { decisionId, status: "DONE" }, select: { id: true, candidateId: true, datasetVersionId: true, status: true } });
  const counting = runsThatCount(ids, decision.evaluationDatasetVersionId);
  const runs = await prisma.evalRun.findMany({
    where: { id: { in: [...counting.values()].map((r) => r.id) } },
    select: {
      id: true, candidateId: true, itemCount: true, missingCount: true, unknownCount: true, parseFailureCount: true, computedAt: true, metrics: true,
      datasetVersion: { select: { version: true, itemCount: true, positiveCount: true, dataset: { select: { name: true } } } },
    },
  });
  return runs.map((r) => ({
    runId: r.id,
    candidateId: r.candidateId,
    itemCount: r.itemCount,
    missingCount: r.missingCount,
    unknownCount: r.unknownCount,
    parseFailureCount: r.parseFailureCount,
    computedAt: r.computedAt?.toISOString() ?? null,
    dataset: { name: r.datasetVersion.dataset.name, version: r.datasetVersion.version, itemCount: r.datasetVersion.itemCount, positiveCount: r.datasetVersion.positiveCount },
    metrics: r.metrics as unknown as StoredRunMetrics | null,
  }));
});

export async function getPackRuns(actor: Actor, decisionId: string) {
  check(actor);
  return runsOf(decisionId);
}

const servingOf = cache(async (decisionId: string): Promise<PackServing[]> => {
  const prisma = await db();
  const rows = await prisma.servingBenchmark.findMany({
    where: { decisionId },
    orderBy: [{ candidateId: "asc" }, { concurrency: "asc" }],
    select: {
      candidateId: true, tool: true, toolVersion: true, concurrency: true, requestThroughput: true, outputTokenThroughput: true, goodput: true, completed: true, failed: true,
      meanInputTokens: true, meanOutputTokens: true, ttftMs: true, tpotMs: true, e2eMs: true, tpotSource: true,
    },
  });
  return rows.map((r) => ({ ...r, ttftMs: r.ttftMs as Pct, tpotMs: r.tpotMs as Pct, e2eMs: r.e2eMs as Pct }));
});

export async function getPackServing(actor: Actor, decisionId: string) {
  check(actor);
  return servingOf(decisionId);
}

const comparisonsOf = cache(async (decisionId: string): Promise<PackComparison[]> => {
  const prisma = await db();
  const rows = await prisma.runComparison.findMany({
    where: { decisionId },
    select: {
      items: true, deltaAp: true, deltaApLow: true, deltaApHigh: true, onlyACorrect: true, onlyBCorrect: true, mcnemarP: true,
      runA: { select: { candidateId: true } },
      runB: { select: { candidateId: true } },
    },
  });
  return rows.map((r) => ({
    candidateAId: r.runA.candidateId,
    candidateBId: r.runB.candidateId,
    deltaAp: r.deltaAp,
    deltaApInterval: r.deltaApLow !== null && r.deltaApHigh !== null ? [r.deltaApLow, r.deltaApHigh] : null,
    onlyACorrect: r.onlyACorrect,
    onlyBCorrect: r.onlyBCorrect,
    mcnemarP: r.mcnemarP,
    items: r.items,
  }));
});

export async function getPackComparisons(actor: Actor, decisionId: string) {
  check(actor);
  return comparisonsOf(decisionId);
}

/** How many of the decision's runs are waiting for or in their metrics job: the pack says "recomputing" meanwhile. */
export async function countComputingRuns(actor: Actor, decisionId: string): Promise<number> {
  check(actor);
  const prisma = await db();
  return prisma.evalRun.count({ where: { decisionId, status: { in: ["PENDING", "RUNNING"] } } });
}

/** The whole pack's data (exports, the across-stages section). */
export async function getPackData(actor: Actor, decisionId: string): Promise<PackData> {
  check(actor);
  const [core, scores, runs, serving, comparisons] = await Promise.all([
    decisionAndCandidates(decisionId),
    scoresOf(decisionId),
    runsOf(decisionId),
    servingOf(decisionId),
    comparisonsOf(decisionId),
  ]);
  return { ...core, ...scores, runs, serving, comparisons };
}

/** Pack revisions and the signatures on them so far (SPEC §7), for the exports. */
export async function getPackSignoff(actor: Actor, decisionId: string) {
  check(actor);
  const prisma = await db();
  const revisions = await prisma.packRevision.findMany({
    where: { decisionId },
    orderBy: { number: "desc" },
    select: {
      id: true, number: true, sha256: true, createdAt: true, supersededAt: true,
      signatures: {
        orderBy: { signedAt: "asc" },
        select: { id: true, printedName: true, signerId: true, meaning: true, candidateId: true, reason: true, waiver: true, signedAt: true, revisionSha256: true },
      },
    },
  });
  return revisions.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    supersededAt: r.supersededAt?.toISOString() ?? null,
    signatures: r.signatures.map((s) => ({ ...s, signedAt: s.signedAt.toISOString() })),
  }));
}
