import { describe, expect, it } from "vitest";
import { acrossStages } from "./across-stages";
import type { PackData, PackDecision, PackRun, PackServing } from "./pack-data";
import { storedMetricsFixture } from "@/test/metrics-fixtures";
import { comparisonsAgainst, significanceReading } from "./significance";

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
  precisionFloor: null,
  operatingThreshold: 0.5,
  quorum: 2,
  status: "DRAFT",
  archivedAt: null,
  evaluationDatasetVersionId: null,
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
const run = (candidateId: string, recall: number, lower: number, apPi: number, cost: number): PackRun => ({
  runId: 1,
  candidateId,
  itemCount: 1000,
  missingCount: 0,
  unknownCount: 0,
  parseFailureCount: 0,
  computedAt: null,
  dataset: null,
  metrics: storedMetricsFixture({
    n: 1000,
    positives: 100,
    report: {
      n: 1000,
      atThreshold: { recall },
      reweighted: { precision: 0.5, averagePrecision: apPi, expectedCostPer1k: cost },
    },
    recallInterval: [lower, 0.99],
  }),
});
// hourly price 3.6 per hour at r req/s → 3.6 / (r · 3600) · 1000 = 1/r per 1,000 requests.
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

const data: PackData = {
  decision,
  candidates: [candidate("a", "Atlas"), candidate("o", "Orca"), candidate("s", "Sentry")],
  scores: [
    {
      candidateId: "a",
      stage: "LEADERBOARD",
      suite: "MMLU",
      metric: "acc",
      value: 0.86,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      votes: null,
      higherIsBetter: true,
      source: "x",
      retrievedAt: "2026-11-01",
      relevanceNote: "",
    },
    {
      candidateId: "o",
      stage: "LEADERBOARD",
      suite: "MMLU",
      metric: "acc",
      value: 0.8,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      votes: null,
      higherIsBetter: true,
      source: "x",
      retrievedAt: "2026-11-01",
      relevanceNote: "",
    },
    {
      candidateId: "s",
      stage: "LEADERBOARD",
      suite: "MMLU",
      metric: "acc",
      value: 0.6,
      stderr: null,
      ciLow: null,
      ciHigh: null,
      votes: null,
      higherIsBetter: true,
      source: "x",
      retrievedAt: "2026-11-01",
      relevanceNote: "",
    },
  ],
  resemblances: [],
  runs: [run("a", 0.75, 0.7, 0.5, 250), run("o", 0.86, 0.82, 0.6, 170), run("s", 0.97, 0.95, 0.8, 75)],
  serving: [serving("a", 400, 100), serving("o", 1700, 25), serving("s", 350, 125)],
  comparisons: [
    {
      candidateAId: "o",
      candidateBId: "s",
      deltaAp: -0.1,
      deltaApInterval: [-0.15, -0.05],
      onlyACorrect: 900,
      onlyBCorrect: 450,
      mcnemarP: 1e-9,
      items: 1000,
    },
    {
      candidateAId: "a",
      candidateBId: "o",
      deltaAp: -0.1,
      deltaApInterval: [-0.2, 0.01],
      onlyACorrect: 10,
      onlyBCorrect: 12,
      mcnemarP: 0.83,
      items: 1000,
    },
  ],
};

describe("across stages", () => {
  const across = acrossStages(data);

  it("says at which stage each rejected candidate fell, and why", () => {
    expect(across.funnel.map((f) => [f.name, f.fellAt])).toEqual([
      ["Atlas", 4],
      ["Orca", 5],
      ["Sentry", null],
    ]);
    expect(across.funnel[0]!.reasons.join()).toContain("recall 0.750");
    expect(across.funnel[1]!.reasons.join()).toContain("p95 E2E latency ≤ 800 ms: measured 1700 ms");
  });

  it("flags a recall whose interval reaches below the floor", () => {
    expect(across.gates.map((g) => g.recallLowerBoundMeetsFloor)).toEqual([false, false, true]);
  });

  it("adds expected error cost and serving cost per 1,000 items", () => {
    expect(across.totals.map((t) => t.totalPer1k)).toEqual(
      [250 + 1 / 100, 170 + 1 / 25, 75 + 1 / 125].map((v) => expect.closeTo(v, 12)),
    );
  });

  it("picks the cheapest candidate passing every gate and orients its comparisons (A = best)", () => {
    expect(across.bestCandidateId).toBe("s");
    expect(across.significance).toEqual([
      expect.objectContaining({
        candidateAId: "s",
        candidateBId: "o",
        deltaAp: 0.1,
        deltaApInterval: [0.05, 0.15],
        onlyACorrect: 450,
        onlyBCorrect: 900,
        apSignificant: true,
        errorsSignificant: true,
      }),
    ]);
  });

  it("compares ranks across stages with Kendall's τ and calls out the reversals", () => {
    const tau = across.ranks.taus.find((t) => t.a === "MMLU" && t.b === "AP at 2% prevalence")!.tau;
    expect(tau).toBe(-1);
    expect(across.ranks.reversals.filter((r) => r.kind === "leader").map((r) => r.text)).toEqual([
      "Atlas: #1 on MMLU, but #3 on AP at 2% prevalence and #3 on recall at 2% prevalence and #3 on expected cost",
    ]);
    expect(across.ranks.reversals.find((r) => r.kind === "order")?.text).toMatch(
      /^MMLU disagrees with AP at 2% prevalence \(τ = -1\.00\)/,
    );
  });
});

describe("significance in the decision's terms", () => {
  const names: Record<string, string> = { s: "Sentry", o: "Orca" };
  const money = (v: number) => `$${v.toFixed(2)}`;
  it("puts the cost at π first, and says when fewer errors still cost more", () => {
    const [oriented] = comparisonsAgainst("s", [
      {
        candidateAId: "o",
        candidateBId: "s",
        deltaAp: 0.02,
        deltaApInterval: [-0.01, 0.05],
        deltaCostPer1k: 12.5,
        deltaCostInterval: [8, 17],
        onlyACorrect: 900,
        onlyBCorrect: 450,
        mcnemarP: 1e-9,
        items: 20000,
      },
    ]);
    expect(oriented).toMatchObject({
      candidateAId: "s",
      deltaCostPer1k: -12.5,
      deltaCostInterval: [-17, -8],
      costSignificant: true,
      apSignificant: false,
      errorsSignificant: true,
    });
    expect(significanceReading(oriented!, (id) => names[id]!, money)).toBe(
      "Sentry costs $12.50 less per 1,000 items at π than Orca: significant on this data; AP difference not significant; counting every error alike, Orca makes significantly fewer — yet costs more, because its errors are the expensive kind.",
    );
  });
});
