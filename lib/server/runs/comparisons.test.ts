import { describe, expect, it } from "vitest";
import { computeComparisons } from "./comparisons";
import { database, db } from "../db";
import { setEvaluationDatasetVersion, updateDecisionParameters } from "../decisions/decisions";
import { comparisonsStale } from "./comparison-state";
import { computeEvalRun } from "./eval-runs";
import { getPackComparisons, getPackRuns } from "../pack/get-pack";
import { drainInlineJobs } from "./queue";
import { holdInlineJobs } from "./queue.test-helpers";
import { computedMetrics } from "@/test/metrics-fixtures";
import { makeActor, makeDecision, unique } from "@/test/factories";

// Recomputation jobs run in this process, so the test can wait for them (drainInlineJobs).
process.env.VERDICT_JOBS = "inline";

const labels = [true, true, true, false, false, false];
const scoresA = [0.9, 0.8, 0.3, 0.2, 0.6, 0.1];
const scoresB = [0.9, 0.4, 0.7, 0.8, 0.1, 0.2];

async function seedTwoRuns() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const [a, b] = await Promise.all(
    ["A", "B"].map((n) =>
      prisma.candidate.create({ data: { decisionId, name: unique(n), provider: "p" }, select: { id: true } }),
    ),
  );
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: 6, positiveCount: 3 },
    select: { id: true },
  });
  await prisma.datasetItem.createMany({
    data: labels.map((label, i) => ({ datasetVersionId: version.id, itemId: `i${i + 1}`, label })),
  });
  const runs = [];
  for (const [candidate, scores] of [
    [a!, scoresA],
    [b!, scoresB],
  ] as const) {
    const run = await prisma.evalRun.create({
      data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id },
      select: { id: true },
    });
    await prisma.prediction.createMany({
      data: scores.map((score, i) => ({ evalRunId: run.id, itemId: `i${i + 1}`, score })),
    });
    await computeEvalRun(await database(), run.id);
    runs.push(run.id);
  }
  return { analyst, decisionId, a: a!.id, b: b!.id };
}

describe("paired comparisons", () => {
  it("stores ΔAP with its paired interval and the exact McNemar test, computed by hand", async () => {
    const { analyst, decisionId, a, b } = await seedTwoRuns();
    expect(await computeComparisons(await database(), decisionId)).toBe(1);
    const [c] = await getPackComparisons(analyst, decisionId);
    // AP(A) = (1 + 1 + 3/4)/3, AP(B) = (1 + 2/3 + 3/4)/3 (sorted by score, precision at each positive).
    const ap = (x: number[]) => x.reduce((s, v) => s + v, 0) / 3;
    const delta =
      c!.candidateAId === a ? ap([1, 1, 0.75]) - ap([1, 2 / 3, 0.75]) : ap([1, 2 / 3, 0.75]) - ap([1, 1, 0.75]);
    expect(new Set([c!.candidateAId, c!.candidateBId])).toEqual(new Set([a, b]));
    expect(c!.deltaAp).toBeCloseTo(delta, 12);
    expect(c!.deltaApInterval![0]).toBeLessThanOrEqual(c!.deltaApInterval![1]);
    // At t = 0.5: only A right on items 2 and 4, only B right on items 3 and 5 → p = 1.
    expect([c!.onlyACorrect, c!.onlyBCorrect]).toEqual([2, 2]);
    expect(c!.mcnemarP).toBeCloseTo(1, 12);
    expect(c!.items).toBe(6);
  });

  it("a change of π and threshold marks the runs PENDING; the jobs recompute their metrics and the comparisons", async () => {
    const { analyst, decisionId, a, b } = await seedTwoRuns();
    expect(await computeComparisons(await database(), decisionId)).toBe(1);
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(updateDecisionParameters(reviewer, decisionId, { prevalence: 0.1 })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const prisma = await db();
    const release = holdInlineJobs();
    const { decision, recomputing } = await updateDecisionParameters(analyst, decisionId, {
      prevalence: 0.1,
      operatingThreshold: 0.3,
    });
    expect([decision.prevalence, decision.operatingThreshold]).toEqual([0.1, 0.3]);
    expect(recomputing).toHaveLength(2);
    // Marked in the change's own transaction; the jobs run after its commit.
    const marked = await prisma.evalRun.findMany({ where: { decisionId }, select: { id: true, status: true } });
    expect(marked.map((r) => r.status)).toEqual(["PENDING", "PENDING"]);
    expect(new Set(recomputing)).toEqual(new Set(marked.map((r) => r.id)));
    release();
    await drainInlineJobs();
    const runs = await prisma.evalRun.findMany({ where: { decisionId }, select: { status: true, metrics: true } });
    for (const r of runs) {
      expect(r.status).toBe("DONE");
      const metrics = computedMetrics(r.metrics);
      expect(metrics.parameters).toMatchObject({ prevalence: 0.1, threshold: 0.3 });
      // At t = 0.3 each run flags items 1–3 and one negative: recall 1, precision 3/4.
      expect(metrics.report.atThreshold).toMatchObject({ threshold: 0.3, tp: 3, fp: 1, recall: 1, precision: 0.75 });
    }
    expect(await getPackRuns(analyst, decisionId)).toHaveLength(2);
    // The comparison is recomputed once, at the new threshold: only A right on item 4, only B on item 5.
    const comparisons = await getPackComparisons(analyst, decisionId);
    expect(comparisons).toHaveLength(1);
    const [c] = comparisons;
    expect(new Set([c!.candidateAId, c!.candidateBId])).toEqual(new Set([a, b]));
    expect([c!.onlyACorrect, c!.onlyBCorrect]).toEqual([1, 1]);
    const stored = await prisma.runComparison.findFirstOrThrow({
      where: { decisionId },
      select: { thresholdA: true, thresholdB: true },
    });
    expect(stored).toEqual({ thresholdA: 0.3, thresholdB: 0.3 });
  });

  it("a change that is no metric input (the title) queues no recomputation", async () => {
    const { analyst, decisionId } = await seedTwoRuns();
    const { recomputing } = await updateDecisionParameters(analyst, decisionId, { title: unique("Renamed") });
    expect(recomputing).toEqual([]);
    const prisma = await db();
    expect(await prisma.evalRun.count({ where: { decisionId, status: "DONE" } })).toBe(2);
  });

  it("a change of the evaluation dataset version marks the pairs stale in its transaction, and a job pairs the runs that count now", async () => {
    const { analyst, decisionId } = await seedTwoRuns();
    const prisma = await db();
    expect(await computeComparisons(await database(), decisionId)).toBe(1);
    const { datasetId } = await prisma.datasetVersion.findFirstOrThrow({
      where: { dataset: { decisionId } },
      select: { datasetId: true },
    });
    const v2 = await prisma.datasetVersion.create({
      data: { datasetId, version: 2, itemCount: 0, positiveCount: 0 },
      select: { id: true },
    });
    const release = holdInlineJobs();
    await setEvaluationDatasetVersion(analyst, decisionId, v2.id);
    // Committed with the change, before its job: the pack says so, submitting waits.
    expect(await comparisonsStale(prisma, decisionId)).toBe(true);
    release();
    await drainInlineJobs();
    // No run on version 2 counts: the pairs of version 1 are gone.
    expect(await prisma.runComparison.count({ where: { decisionId } })).toBe(0);
    expect(await comparisonsStale(prisma, decisionId)).toBe(false);
  });
});
