import { describe, expect, it } from "vitest";
import { PREVALENCE_GRID, summarize, Xoshiro128 } from "@/lib/metrics";
import { compactRoc, expandRoc } from "./compact-curves";
import { costOptimumOfPoints, precisionVersusPrevalence, whatIfAt, type CostParameters } from "./what-if";

// The what-if (issue 23 item 2) evaluated at a decision's own parameters must reproduce the figures
// the metrics engine stored for the run, exactly (toBe, not toBeCloseTo): both go through the same
// lib/metrics formulas, so any second formula, rounding or tie rule on the pack side shows here.
// The ROC points reach the what-if as the page receives them: compacted to counts and expanded.

interface Case {
  name: string;
  labels: Uint8Array;
  scores: Float64Array;
  threshold: number;
  costs: CostParameters;
}

/** Seeded labelled scores: positives score higher on average; `levels` > 0 rounds them (ties). */
function dataset(seed: number, n: number, levels: number): { labels: Uint8Array; scores: Float64Array } {
  const rng = new Xoshiro128(seed);
  const uniform = () => rng.nextUint32() / 2 ** 32;
  const labels = Uint8Array.from({ length: n }, () => (uniform() < 0.3 ? 1 : 0));
  const scores = Float64Array.from(labels, (y) => {
    const s = Math.min(1, 0.7 * uniform() + 0.3 * y * uniform());
    return levels > 0 ? Math.round(s * levels) / levels : s;
  });
  return { labels, scores };
}

/**
 * 8 positives and 8 negatives at π = ½ with equal unit costs: every rate is a multiple of 1/8, so
 * the costs are exact and many thresholds tie at the optimum; the engine takes the highest of them.
 */
const tied: Case = {
  name: "balanced, exact ties at the cost optimum",
  labels: Uint8Array.from([1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]),
  scores: Float64Array.from([0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.1]),
  threshold: 0.5,
  costs: { prevalence: 0.5, costFn: 1, costFp: 1 },
};

const cases: Case[] = [
  tied,
  {
    name: "rounded scores, threshold between two of them",
    ...dataset(11, 400, 40),
    threshold: 0.42,
    costs: { prevalence: 0.02, costFn: 50, costFp: 1 },
  },
  {
    name: "rounded scores, threshold on an observed score",
    ...dataset(12, 300, 25),
    threshold: 0.4,
    costs: { prevalence: 0.15, costFn: 7, costFp: 3 },
  },
];

function stored(c: Case) {
  const metrics = summarize(c.labels, c.scores, {
    threshold: c.threshold,
    prevalence: c.costs.prevalence,
    costFalseNegative: c.costs.costFn,
    costFalsePositive: c.costs.costFp,
    bootstrap: 0,
  });
  const { positives, negatives } = metrics;
  const roc = expandRoc(compactRoc(metrics.curves.roc!, positives, negatives), positives, negatives);
  return { metrics, roc };
}

describe("the what-if at the stored parameters reproduces the engine's stored figures", () => {
  for (const c of cases) {
    describe(c.name, () => {
      const { metrics, roc } = stored(c);
      const reweighted = metrics.report.reweighted!;

      it("stores every threshold, so the stored ROC points are the whole curve", () => {
        expect(metrics.curves.roc!.fullLength).toBe(roc.x.length);
      });

      it("precision at π, recall and expected cost per 1,000 at the decision's threshold", () => {
        const f = whatIfAt(roc, c.threshold, c.costs);
        expect(f.recall).toBe(metrics.report.atThreshold.recall);
        expect(f.precision).toBe(reweighted.precision);
        expect(f.expectedCostPer1k).toBe(reweighted.expectedCostPer1k);
      });

      it("the cost-optimal threshold and its cost, ties included", () => {
        expect(costOptimumOfPoints(roc, c.costs)).toEqual({
          threshold: metrics.costOptimum!.threshold,
          expectedCostPer1k: metrics.costOptimum!.expectedCostPer1k,
        });
        expect(costOptimumOfPoints(roc, c.costs)!.threshold).toBe(reweighted.costOptimalThreshold);
      });

      it("precision versus prevalence at the decision's threshold, on the engine's grid", () => {
        const f = whatIfAt(roc, c.threshold, c.costs);
        const grid = [...PREVALENCE_GRID, c.costs.prevalence, metrics.positives / metrics.n];
        expect(precisionVersusPrevalence(f.recall, f.fpr, grid)).toEqual(metrics.precisionVsPrevalence);
      });
    });
  }

  it("the tied case has several thresholds at the optimal cost, so the tie rule is exercised", () => {
    const { metrics } = stored(tied);
    const costs = metrics.curves.cost!.y;
    expect(costs.filter((y) => y === metrics.costOptimum!.expectedCostPer1k).length).toBeGreaterThan(1);
  });

  it("a downsampled curve still reproduces the figures at the decision's threshold (its point is kept)", () => {
    const c: Case = {
      name: "downsampled",
      ...dataset(13, 3000, 0),
      threshold: 0.5,
      costs: { prevalence: 0.01, costFn: 100, costFp: 1 },
    };
    const { metrics, roc } = stored(c);
    expect(roc.x.length).toBeLessThan(metrics.curves.roc!.fullLength);
    const f = whatIfAt(roc, c.threshold, c.costs);
    expect(f.precision).toBe(metrics.report.reweighted!.precision);
    expect(f.expectedCostPer1k).toBe(metrics.report.reweighted!.expectedCostPer1k);
  });
});
