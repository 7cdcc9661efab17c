import { describe, expect, it } from "vitest";
import { computeComparisons, recomputeDecisionEvidence } from "./comparisons";
import { database, db } from "./db";
import { computeEvalRun } from "./eval-runs";
import { getPackComparisons, getPackRuns } from "./evidence-pack";
import { makeActor, makeDecision, unique } from "@/test/factories";

const labels = [true, true, true, false, false, false];
const scoresA = [0.9, 0.8, 0.3, 0.2, 0.6, 0.1];
const scoresB = [0.9, 0.4, 0.7, 0.8, 0.1, 0.2];

async function seedTwoRuns() {
  const analyst = await makeActor(["ANALYST"]);
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const [a, b] = await Promise.all(["A", "B"].map((n) => prisma.candidate.create({ data: { decisionId, name: unique(n), provider: "p" }, select: { id: true } })));
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({ data: { datasetId: dataset.id, version: 1, itemCount: 6, positiveCount: 3 }, select: { id: true } });
  await prisma.datasetItem.createMany({ data: labels.map((label, i) => ({ datasetVersionId: version.id, itemId: `i${i + 1}`, label })) });
  const runs = [];
  for (const [candidate, scores] of [[a!, scoresA], [b!, scoresB]] as const) {
    const run = await prisma.evalRun.create({ data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id }, select: { id: true } });
    await prisma.prediction.createMany({ data: scores.map((score, i) => ({ evalRunId: run.id, itemId: `i${i + 1}`, score })) });
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
    const delta = c!.candidateAId === a ? ap([1, 1, 0.75]) - ap([1, 2 / 3, 0.75]) : ap([1, 2 / 3, 0.75]) - ap([1, 1, 0.75]);
    expect(new Set([c!.candidateAId, c!.candidateBId])).toEqual(new Set([a, b]));
    expect(c!.deltaAp).toBeCloseTo(delta, 12);
    expect(c!.deltaApInterval![0]).toBeLessThanOrEqual(c!.deltaApInterval![1]);
    // At t = 0.5: only A right on items 2 and 4, only B right on items 3 and 5 → p = 1.
    expect([c!.onlyACorrect, c!.onlyBCorrect]).toEqual([2, 2]);
    expect(c!.mcnemarP).toBeCloseTo(1, 12);
    expect(c!.items).toBe(6);
  });

  it("recomputes the stored metrics after π changes, for analysts only", async () => {
    const { analyst, decisionId } = await seedTwoRuns();
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(recomputeDecisionEvidence(reviewer, decisionId)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const prisma = await db();
    await prisma.decision.update({ where: { id: decisionId }, data: { prevalence: 0.1 } });
    expect(await recomputeDecisionEvidence(analyst, decisionId)).toBe(2);
    const runs = await prisma.evalRun.findMany({ where: { decisionId }, select: { metrics: true } });
    for (const r of runs) expect((r.metrics as { parameters: { prevalence: number } }).parameters.prevalence).toBe(0.1);
    expect(await getPackRuns(analyst, decisionId)).toHaveLength(2);
  });
});
