import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { buildRunInput, type JoinedRow } from "@/lib/pack/run-input";
import { runsThatCount } from "@/lib/pack/run-that-counts";
import {
  averagePrecision,
  basisPredictions,
  mcnemarOfPredictions,
  pairedCostDifferenceOfPredictions,
  pairedDeltaApInterval,
  rankCounts,
  type OperatingPoint,
  type RuleNotApplied,
} from "@/lib/metrics";
import { BOOTSTRAP_SEED } from "./eval-runs";
import { claimComparisons, comparisonsWanted } from "./comparison-state";
import { jobCheckpoint } from "./job-checkpoint";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Paired significance of every pair of a decision's newest computed runs on the same dataset
 * version (SPEC §4): the paired bootstrap interval of ΔAP = AP(A) − AP(B) and the exact McNemar
 * test on their errors, and the difference in expected cost per 1,000 at π with its paired
 * (Newcombe) interval, both on the predictions the verdict counts (issue 27): under a rule that chooses the
 * threshold, the held-out predictions (`basisPredictions`), so Δcost is exactly the difference of
 * the held-out costs the gates and the ranking use and the two tables cannot disagree; otherwise
 * each run at its operating threshold. All of it needs the two runs' per-item scores
 * aligned on the same items, so this runs once after runs are computed (like computeEvalRun) and
 * stores its results; a page only reads them. Scores are built exactly as computeEvalRun builds
 * them (parse failures and missing items count as errors), ordered by item id so they align.
 *
 * Returns how many pairs it stored, or null when their inputs changed while it computed (the
 * comparisons were marked stale again, comparison-state.ts): nothing is stored then, and the
 * change's own job (or recovery) computes them.
 */
type StoredMetrics = {
  parameters?: { threshold?: number };
  operatingPoint?: OperatingPoint | RuleNotApplied;
} | null;
const storedThreshold = (metrics: unknown): number | null => (metrics as StoredMetrics)?.parameters?.threshold ?? null;
const storedOperatingPoint = (metrics: unknown) => (metrics as StoredMetrics)?.operatingPoint;

/** Each run's stored operating threshold: the rule's choice where the decision has one (issue 14). */
function thresholdOf(run: {
  metrics: unknown;
  candidate: { operatingThreshold: number | null };
  decision: { operatingThreshold: number };
}): number {
  return storedThreshold(run.metrics) ?? run.candidate.operatingThreshold ?? run.decision.operatingThreshold;
}

export async function computeComparisons(database: Database, decisionId: string): Promise<number | null> {
  const prisma = database.prisma;
  // Before the inputs: a change committed after this read marks a newer generation, and the store refuses.
  const wanted = await comparisonsWanted(database, decisionId);
  const runs = await prisma.evalRun.findMany({
    where: { decisionId, status: "DONE" },
    select: {
      id: true,
      candidateId: true,
      datasetVersionId: true,
      status: true,
      metrics: true,
      candidate: { select: { operatingThreshold: true } },
      decision: {
        select: {
          operatingThreshold: true,
          evaluationDatasetVersionId: true,
          prevalence: true,
          costFn: true,
          costFp: true,
        },
      },
    },
  });
  const counting = runsThatCount(runs, runs[0]?.decision.evaluationDatasetVersionId ?? null);
  // Group by dataset version: only runs on the same items can be paired.
  const byVersion = new Map<number, (typeof runs)[number][]>();
  for (const r of [...counting.values()].sort((a, b) => b.id - a.id))
    byVersion.set(r.datasetVersionId, [...(byVersion.get(r.datasetVersionId) ?? []), r]);

  const results: Prisma.RunComparisonCreateManyInput[] = [];
  for (const [versionId, group] of byVersion) {
    if (group.length < 2) continue;
    const inputs = new Map<number, ReturnType<typeof buildRunInput>>();
    const predictions = new Map<number, Uint8Array>();
    for (const run of group) {
      const rows = await rawQuery<JoinedRow>(
        database,
        `SELECT di.label, p.score, p.predicted, COALESCE(p."parseFailure", false) AS "parseFailure",
                (p."itemId" IS NULL) AS missing, di.slice
           FROM "DatasetItem" di
           LEFT JOIN "Prediction" p ON p."evalRunId" = $1 AND p."itemId" = di."itemId"
          WHERE di."datasetVersionId" = $2
          ORDER BY di."itemId"`,
        [run.id, versionId],
      );
      const input = buildRunInput(rows);
      inputs.set(run.id, input);
      // The slices as computeEvalRun passes them, so the split into halves is the one it made.
      const slices = input.slices.some((v) => v !== null) ? input.slices : undefined;
      predictions.set(
        run.id,
        basisPredictions(input.labels, input.scores, slices, thresholdOf(run), storedOperatingPoint(run.metrics)),
      );
    }
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = group[i]!;
        const b = group[j]!;
        const ia = inputs.get(a.id)!;
        const ib = inputs.get(b.id)!;
        const thresholdA = thresholdOf(a);
        const thresholdB = thresholdOf(b);
        const pa = predictions.get(a.id)!;
        const pb = predictions.get(b.id)!;
        const apA = averagePrecision(rankCounts(ia.labels, ia.scores)).value;
        const apB = averagePrecision(rankCounts(ib.labels, ib.scores)).value;
        const interval = pairedDeltaApInterval(ia.labels, ia.scores, ib.scores, {
          replicates: 1000,
          seed: BOOTSTRAP_SEED,
        }).value;
        const mcnemar = mcnemarOfPredictions(ia.labels, pa, pb);
        const d = a.decision;
        const cost = pairedCostDifferenceOfPredictions(ia.labels, pa, pb, {
          prevalence: d.prevalence,
          costFalseNegative: d.costFn,
          costFalsePositive: d.costFp,
        }).value;
        results.push({
          runAId: a.id,
          runBId: b.id,
          decisionId,
          items: ia.labels.length,
          deltaAp: apA !== null && apB !== null ? apA - apB : null,
          deltaApLow: interval?.[0] ?? null,
          deltaApHigh: interval?.[1] ?? null,
          deltaCostPer1k: cost?.deltaPer1k ?? null,
          deltaCostLow: cost?.interval[0] ?? null,
          deltaCostHigh: cost?.interval[1] ?? null,
          onlyACorrect: mcnemar.onlyACorrect,
          onlyBCorrect: mcnemar.onlyBCorrect,
          mcnemarP: Number.isFinite(mcnemar.pValue) ? mcnemar.pValue : null,
          thresholdA,
          thresholdB,
        });
        await jobCheckpoint("comparison-pair");
      }
    }
  }
  return (await storeComparisons(database, decisionId, wanted, results)) ? results.length : null;
}

/** Replaces the decision's pairs, in one transaction that records them as computed — unless they were marked stale meanwhile. */
async function storeComparisons(
  database: Database,
  decisionId: string,
  wanted: number,
  results: Prisma.RunComparisonCreateManyInput[],
): Promise<boolean> {
  const superseded = new Error("superseded");
  try {
    await database.prisma.$transaction(async (tx) => {
      await tx.runComparison.deleteMany({ where: { decisionId } });
      await tx.runComparison.createMany({ data: results });
      if (!(await claimComparisons(tx, decisionId, wanted))) throw superseded;
    });
    return true;
  } catch (error) {
    if (error === superseded) return false;
    throw error;
  }
}
