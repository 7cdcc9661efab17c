import { describe, expect, it } from "vitest";
import { computeComparisons } from "./comparisons";
import { database, db } from "../db";
import { setEvaluationDatasetVersion, updateDecisionParameters } from "../decisions/decisions";
import { comparisonsStale } from "./comparison-state";
import { computeEvalRun } from "./eval-runs";
import { getPackComparisons, getPackModel, getPackRuns } from "../pack/get-pack";
import { drainInlineJobs } from "./queue";
import { holdInlineJobs } from "./queue.test-helpers";
import { computedMetrics } from "@/test/metrics-fixtures";
import { makeActor, makeDecision, unique } from "@/test/factories";
import { Xoshiro128, type OperatingPoint } from "@/lib/metrics";

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

const gaussian = (rng: Xoshiro128) =>
  Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());

/**
 * A decision whose rule chooses the threshold (COST_OPTIMAL), with four candidates of binormal
 * scores (separations `mus`) on one dataset version of `n` items, 10 % positives, three slices.
 */
async function seedRuleDecision(seed: number, mus: number[], n = 600) {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  await prisma.decision.update({
    where: { id: decisionId },
    data: { operatingRule: "COST_OPTIMAL", prevalence: 0.02, costFn: 50, costFp: 1, recallFloor: 0 },
  });
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const itemLabels = Array.from({ length: n }, (_, i) => i % 10 === 0);
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: n, positiveCount: n / 10 },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  const itemId = (i: number) => `item-${String(i).padStart(4, "0")}`;
  await prisma.datasetItem.createMany({
    data: itemLabels.map((label, i) => ({
      datasetVersionId: version.id,
      itemId: itemId(i),
      label,
      slice: ["short", "long", null][i % 3] ?? null,
    })),
  });
  const rng = new Xoshiro128(seed);
  for (const mu of mus) {
    const candidate = await prisma.candidate.create({
      data: { decisionId, name: unique(`mu${mu}`), provider: "p" },
      select: { id: true },
    });
    const run = await prisma.evalRun.create({
      data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id },
      select: { id: true },
    });
    await prisma.prediction.createMany({
      data: itemLabels.map((label, i) => ({
        evalRunId: run.id,
        itemId: itemId(i),
        score: gaussian(rng) + (label ? mu : 0),
      })),
    });
    await computeEvalRun(await database(), run.id);
  }
  return { analyst, decisionId };
}

describe("paired comparisons under a rule that chooses the threshold (issue 27: one basis)", () => {
  it("count the held-out predictions the gates and the ranking use, so the table and the ranking never disagree beyond noise", async () => {
    let significantPairs = 0;
    for (const [seed, mus] of [
      [1, [0.8, 1.6, 2.4, 2.5]],
      [2, [1.2, 1.3, 2.0, 3.0]],
    ] as const) {
      const { analyst, decisionId } = await seedRuleDecision(seed, [...mus]);
      expect(await computeComparisons(await database(), decisionId)).toBe(6);
      const model = await getPackModel(analyst, decisionId);
      const op = (id: string) =>
        model.runs.find((r) => r.candidateId === id)!.metrics!.operatingPoint as OperatingPoint;
      const errorCost = (id: string) => model.results.totalCostPer1k.find((t) => t.candidateId === id)!.errorCostPer1k!;
      const costRank = model.results.rankComparison.rankings.find((r) => r.key === "expected-cost")!.ranks;
      expect(model.comparisons).toHaveLength(6);
      for (const c of model.comparisons) {
        const [a, b] = [op(c.candidateAId), op(c.candidateBId)];
        expect([a.method, b.method]).toEqual(["cross-fitted", "cross-fitted"]);
        // Δcost is the difference of the held-out costs the ranking orders by, not of in-sample ones.
        expect(c.deltaCostPer1k).toBeCloseTo(errorCost(c.candidateAId) - errorCost(c.candidateBId), 9);
        expect(errorCost(c.candidateAId)).toBe(a.heldOut.expectedCostPer1k);
        // McNemar's discordant counts on the same held-out predictions: errors(B) − errors(A).
        const errors = (o: OperatingPoint) => o.heldOut.positives - o.heldOut.tp + o.heldOut.fp;
        expect(c.onlyACorrect - c.onlyBCorrect).toBe(errors(b) - errors(a));
        const [low, high] = c.deltaCostInterval!;
        expect(low).toBeLessThanOrEqual(c.deltaCostPer1k!);
        expect(high).toBeGreaterThanOrEqual(c.deltaCostPer1k!);
        if (high < 0 || low > 0) {
          significantPairs++;
          const [cheaper, dearer] = high < 0 ? [c.candidateAId, c.candidateBId] : [c.candidateBId, c.candidateAId];
          expect(costRank[cheaper]!).toBeLessThan(costRank[dearer]!);
        }
      }
      // The oriented table (best against each other) agrees with the recommendation.
      for (const s of model.results.significance) if (s.costSignificant) expect(s.deltaCostPer1k!).toBeLessThan(0);
    }
    expect(significantPairs).toBeGreaterThan(3);
  }, 120_000);
});
