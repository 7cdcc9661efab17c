import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { buildRunInput, type JoinedRow, type StoredRunMetrics } from "@/lib/evidence/run-input";
import { summarize } from "@/lib/metrics";

/** Seeded, so the same evidence always gives the same intervals (and the same pack hash). */
export const BOOTSTRAP_SEED = 20_261_202;

/**
 * Computes an eval run's metrics once and stores them (SPEC §8: pages never recompute over
 * millions of items on a request). Every dataset item is joined to its prediction; items without
 * one are missing (counted as errors), predictions for unknown ids are counted.
 */
export async function computeEvalRun(database: Database, runId: number): Promise<void> {
  const prisma = database.prisma;
  const run = await prisma.evalRun.findUniqueOrThrow({
    where: { id: runId },
    select: {
      id: true,
      datasetVersionId: true,
      candidate: { select: { operatingThreshold: true } },
      decision: { select: { prevalence: true, costFn: true, costFp: true, operatingThreshold: true } },
    },
  });
  await prisma.evalRun.update({ where: { id: runId }, data: { status: "RUNNING", progress: 0 } });
  try {
    const rows = await rawQuery<JoinedRow>(
      database,
      `SELECT di.label, p.score, p.predicted, COALESCE(p."parseFailure", false) AS "parseFailure",
              (p."itemId" IS NULL) AS missing, di.slice
         FROM "DatasetItem" di
         LEFT JOIN "Prediction" p ON p."evalRunId" = $1 AND p."itemId" = di."itemId"
        WHERE di."datasetVersionId" = $2
        ORDER BY di."itemId"`,
      [runId, run.datasetVersionId],
    );
    const [unknown] = await rawQuery<{ count: string | number }>(
      database,
      `SELECT count(*) AS count FROM "Prediction" p
        WHERE p."evalRunId" = $1
          AND NOT EXISTS (SELECT 1 FROM "DatasetItem" di WHERE di."datasetVersionId" = $2 AND di."itemId" = p."itemId")`,
      [runId, run.datasetVersionId],
    );
    const input = buildRunInput(rows);
    const metrics: StoredRunMetrics = {
      ...summarize(input.labels, input.scores, {
        threshold: run.candidate.operatingThreshold ?? run.decision.operatingThreshold,
        prevalence: run.decision.prevalence,
        costFalseNegative: run.decision.costFn,
        costFalsePositive: run.decision.costFp,
        slices: input.slices.some((s) => s !== null) ? input.slices : undefined,
        bootstrap: 1000,
        seed: BOOTSTRAP_SEED,
      }),
      input: { scoreKind: input.scoreKind, parseFailures: input.parseFailures, missing: input.missing },
    };
    await prisma.evalRun.update({
      where: { id: runId },
      data: {
        status: "DONE",
        progress: 1,
        itemCount: rows.length,
        missingCount: input.missing,
        parseFailureCount: input.parseFailures,
        unknownCount: Number(unknown?.count ?? 0),
        metrics: JSON.parse(JSON.stringify(metrics)),
        computedAt: new Date(),
        error: null,
      },
    });
  } catch (error) {
    await prisma.evalRun.update({ where: { id: runId }, data: { status: "FAILED", error: error instanceof Error ? error.message : String(error) } });
    throw error;
  }
}
