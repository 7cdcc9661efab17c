import { describe, expect, it } from "vitest";
import { summarize } from "@/lib/metrics";
import { wilsonInterval } from "@/lib/metrics/intervals";
import type { PackData, PackDecision, PackRun, PackServing } from "./pack-data";
import { packResults } from "./pack-results";
import type { StoredRunMetrics } from "./run-input";
import { verdictSummaryOf } from "./verdict-summary";
import { isStoredParameters, packResultsAt, whatIfPack } from "./what-if-pack";

// A small pack with real stored metrics (the engine's summarize()), three candidates on the same
// 1,000 items. Scores have two decimals, so the stored ROC holds every distinct score (≤ 101 points
// < 200) and a what-if threshold that is an observed score is exact: the test's oracle below counts
// the items itself (predicted positive ⇔ s ≥ t).
const decision: PackDecision = {
  id: "d",
  title: "t",
  description: "",
  positiveClass: "violating",
  prevalence: 0.02,
  costFn: 50,
  costFp: 1,
  currency: "USD",
  recallFloor: 0.85,
  precisionFloor: 0.1,
  operatingThreshold: 0.5,
  quorum: 1,
  status: "DRAFT",
  archivedAt: null,
  evaluationDatasetVersionId: 1,
  sloP95E2eMs: 800,
  sloP95TtftMs: 300,
  sloMinThroughputRps: 20,
  sloThroughputConcurrency: 32,
  sloMaxCostPer1kRequests: 0.5,
};
const candidate = (id: string, name: string) => ({
  id,
  name,
  provider: "p",
  version: "",
  shortlistRationale: "",
  operatingThreshold: null,
  priceInputPerMTok: null,
  priceOutputPerMTok: null,
  pricePerHour: 3.6,
});

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const labels = Uint8Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? 1 : 0)); // 100 positives
/** Scores with the positives centred on `pos` and the negatives on `neg`, rounded to two decimals. */
const scoresFor = (pos: number, neg: number) =>
  Float64Array.from(labels, (y) =>
    Math.min(1, Math.max(0, Math.round(((y ? pos : neg) + (random() - 0.5) * 0.6) * 100) / 100)),
  );
const scores = { a: scoresFor(0.55, 0.3), o: scoresFor(0.7, 0.3), s: scoresFor(0.75, 0.2) };

const run = (candidateId: keyof typeof scores): PackRun => {
  const metrics = summarize(labels, scores[candidateId], {
    threshold: 0.5,
    prevalence: 0.02,
    costFalseNegative: 50,
    costFalsePositive: 1,
    bootstrap: 0,
  });
  return {
    runId: 1,
    candidateId,
    itemCount: 1000,
    missingCount: 0,
    unknownCount: 0,
    parseFailureCount: 0,
    computedAt: null,
    dataset: { name: "x", version: 1, itemCount: 1000, positiveCount: 100 },
    metrics: { ...metrics, input: { scoreKind: "scores", parseFailures: 0, missing: 0 } } as StoredRunMetrics,
  };
};
// 3.6 per hour at r req/s → 1/r per 1,000 requests.
const serving = (candidateId: string, e2e: number, rps: number): PackServing => ({
  candidateId,
  tool: "vllm",
  toolVersion: null,
  concurrency: 32,
  requestThroughput: rps,
  outputTokenThroughput: null,
  completed: 100,
  failed: 0,
  meanInputTokens: null,
  meanOutputTokens: null,
  ttftMs: { p95: 100 },
  tpotMs: { p95: 10 },
  e2eMs: { p95: e2e },
  tpotSource: "",
});
const score = (candidateId: string, value: number) => ({
  candidateId,
  stage: "LEADERBOARD" as const,
  suite: "MMLU",
  metric: "acc",
  value,
  stderr: null,
  ciLow: null,
  ciHigh: null,
  votes: null,
  higherIsBetter: true,
  source: "x",
  retrievedAt: "2026-11-01",
  relevanceNote: "",
});

const data: PackData = {
  decision,
  candidates: [candidate("a", "Atlas"), candidate("o", "Orca"), candidate("s", "Sentry")],
  scores: [score("a", 0.86), score("o", 0.8), score("s", 0.6)],
  resemblances: [],
  runs: [run("a"), run("o"), run("s")],
  serving: [serving("a", 400, 100), serving("o", 700, 25), serving("s", 350, 125)],
  comparisons: [],
};
const pack = whatIfPack(data);
const stored = { threshold: null, prevalence: decision.prevalence };

/** The test's own SPEC §4 arithmetic, counting the items: TPR, FPR and the expected cost per 1,000 at (t, π). */
function oracle(id: keyof typeof scores, t: number, pi: number) {
  let tp = 0;
  let fp = 0;
  scores[id].forEach((s, i) => {
    if (s < t) return;
    if (labels[i]) tp++;
    else fp++;
  });
  const tpr = tp / 100;
  const fpr = fp / 900;
  return {
    tp,
    recall: tpr,
    precision: (pi * tpr) / (pi * tpr + (1 - pi) * fpr),
    cost: 1000 * (pi * (1 - tpr) * 50 + (1 - pi) * fpr * 1),
  };
}
const gate = (results: ReturnType<typeof packResults>, id: string, key: string) =>
  results.gates.find((g) => g.candidateId === id)!.gates.find((g) => g.key === key)!;

describe("the what-if derivation of the whole pack", () => {
  it("equals the stored results exactly at the stored parameters (gates, funnel, cost, ranks, verdict)", () => {
    expect(isStoredParameters(pack, stored)).toBe(true);
    const whatIf = packResultsAt(pack, stored);
    expect(JSON.stringify(whatIf)).toBe(JSON.stringify(packResults(data)));
    expect(JSON.stringify(verdictSummaryOf(pack, whatIf, []))).toBe(
      JSON.stringify(verdictSummaryOf(data, packResults(data), [])),
    );
  });

  it("at each candidate's own threshold named explicitly, gives the stored recall and cost", () => {
    const at = packResultsAt(pack, { threshold: 0.5, prevalence: 0.02 });
    const base = packResults(data);
    for (const id of ["a", "o", "s"] as const) {
      expect(gate(at, id, "recall-floor").pass).toBe(gate(base, id, "recall-floor").pass);
      const cost = at.totalCostPer1k.find((t) => t.candidateId === id)!;
      expect(cost.errorCostPer1k).toBeCloseTo(
        base.totalCostPer1k.find((t) => t.candidateId === id)!.errorCostPer1k!,
        9,
      );
      expect(cost.errorCostPer1k).toBeCloseTo(oracle(id, 0.5, 0.02).cost, 9);
    }
  });

  it("a higher threshold moves the gates, the funnel, the total cost and the verdict as SPEC §4 defines them", () => {
    const base = packResults(data);
    const t = 0.7;
    const at = packResultsAt(pack, { threshold: t, prevalence: 0.02 });
    for (const id of ["a", "o", "s"] as const) {
      const o = oracle(id, t, 0.02);
      const recallGate = gate(at, id, "recall-floor");
      expect(recallGate.pass).toBe(o.recall >= 0.85);
      expect(recallGate.detail).toContain(`recall ${o.recall.toFixed(3)}`);
      // The interval is Wilson's on (TP, P) at the new threshold.
      expect(recallGate.detail).toContain(`lower bound ${wilsonInterval(o.tp, 100).value![0].toFixed(3)}`);
      expect(gate(at, id, "precision-floor").pass).toBe(o.precision >= 0.1);
      const total = at.totalCostPer1k.find((x) => x.candidateId === id)!;
      const servingCost = base.totalCostPer1k.find((x) => x.candidateId === id)!.servingCostPer1k!;
      expect(total.errorCostPer1k).toBeCloseTo(o.cost, 9);
      expect(total.totalPer1k).toBeCloseTo(o.cost + servingCost, 9);
      const fell = at.funnel.find((f) => f.candidateId === id)!;
      expect(fell.fellAt === null).toBe(at.gates.find((g) => g.candidateId === id)!.passes);
    }
    // The figures this pack is built on: Sentry passes at t = 0.5 and falls at stage 4 at t = 0.7.
    expect(gate(base, "s", "recall-floor").pass).toBe(true);
    expect(gate(at, "s", "recall-floor").pass).toBe(false);
    expect(at.funnel.find((f) => f.candidateId === "s")!.fellAt).toBe(4);
    const before = verdictSummaryOf(data, base, []);
    const after = verdictSummaryOf(pack, at, []);
    expect(before.recommendation?.name).toBe("Sentry");
    expect(after.recommendation?.candidateId ?? null).toBe(
      at.funnel.some((f) => f.fellAt === null) ? at.bestCandidateId : null,
    );
    expect(after.outcomes.find((o) => o.candidateId === "s")!.passes).toBe(false);
  });

  it("another prevalence re-weights precision and cost, leaves recall, and drops AP at π (it needs every item)", () => {
    const base = packResults(data);
    const at = packResultsAt(pack, { threshold: null, prevalence: 0.2 });
    for (const id of ["a", "o", "s"] as const) {
      const o = oracle(id, 0.5, 0.2);
      expect(gate(at, id, "recall-floor").detail).toBe(gate(base, id, "recall-floor").detail);
      expect(gate(at, id, "precision-floor").detail).toBe(`precision at π ${o.precision.toFixed(3)}`);
      expect(at.totalCostPer1k.find((x) => x.candidateId === id)!.errorCostPer1k).toBeCloseTo(o.cost, 9);
      expect(gate(at, id, "stage4-evidence").detail).toBe("re-weighted to π = 0.2");
    }
    const ap = at.rankComparison.rankings.find((r) => r.key === "ap-at-prevalence")!;
    expect(ap.label).toBe("AP at 20% prevalence");
    expect(ap.ranks).toEqual({});
  });
});
