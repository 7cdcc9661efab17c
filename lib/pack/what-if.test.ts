import { describe, expect, it } from "vitest";
import { summarize } from "@/lib/metrics";
import {
  costOptimumOfPoints,
  pointAtThreshold,
  prAtPrevalenceFromPr,
  precisionAtPrevalence,
  whatIfAt,
  type RocCurve,
} from "./what-if";

// 10 items, 4 positives; scores chosen so that at t = 0.5: TP = 3, FP = 1 (TPR 0.75, FPR 1/6).
const labels = Uint8Array.from([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
const scores = Float64Array.from([0.9, 0.8, 0.6, 0.3, 0.7, 0.4, 0.2, 0.1, 0.05, 0.45]);
const prevalence = 0.02;
const costs = { prevalence, costFn: 50, costFp: 1 };
const metrics = summarize(labels, scores, {
  threshold: 0.5,
  prevalence,
  costFalseNegative: 50,
  costFalsePositive: 1,
  bootstrap: 0,
});
const roc = metrics.curves.roc as unknown as RocCurve;

describe("what-if figures from the stored ROC points", () => {
  it("equal the engine's stored figures at the stored threshold", () => {
    const f = whatIfAt(roc, 0.5, costs);
    expect(f.storedThreshold).toBe(0.6); // the lowest observed score ≥ 0.5
    expect(f.recall).toBe(0.75);
    expect(f.fpr).toBeCloseTo(1 / 6, 15);
    expect(f.precision).toBeCloseTo(metrics.report.reweighted!.precision!, 12);
    expect(f.expectedCostPer1k).toBeCloseTo(metrics.report.reweighted!.expectedCostPer1k!, 9);
  });

  it("computes precision at π and expected cost by hand at another threshold and π", () => {
    // t = 0.3: TP = 4, FP = 3 (0.7, 0.4, 0.45) → TPR 1, FPR 0.5; π = 0.1:
    const f = whatIfAt(roc, 0.3, { prevalence: 0.1, costFn: 50, costFp: 1 });
    expect(f.exact).toBe(true);
    expect(f.precision).toBeCloseTo((0.1 * 1) / (0.1 * 1 + 0.9 * 0.5), 12);
    expect(f.expectedCostPer1k).toBeCloseTo(1000 * (0.1 * 0 * 50 + 0.9 * 0.5 * 1), 9);
  });

  it("predicts nothing above every score, where precision is undefined, not 0", () => {
    const p = pointAtThreshold(roc, 5);
    expect(p).toMatchObject({ threshold: null, tpr: 0, fpr: 0 });
    expect(precisionAtPrevalence(0, 0, 0.02)).toBeNull();
  });

  it("finds the cost-optimal stored threshold as the engine does (all points are stored here)", () => {
    expect(costOptimumOfPoints(roc, costs)).toEqual({
      threshold: metrics.costOptimum!.threshold,
      expectedCostPer1k: expect.closeTo(metrics.costOptimum!.expectedCostPer1k, 9),
    });
  });

  it("re-weights the stored PR curve to π exactly as the engine's PR curve at π", () => {
    const pr = metrics.curves.pr!;
    const atPi = metrics.curves.prAtPrevalence!;
    const ours = prAtPrevalenceFromPr(pr, 4, 6, prevalence);
    for (let i = 0; i < atPi.x.length; i++) {
      const threshold = atPi.thresholds[i];
      if (threshold === null || atPi.x[i] === 0) continue;
      const mine = ours.find((p) => p.threshold === threshold)!;
      expect(mine.y).toBeCloseTo(atPi.y[i]!, 12);
    }
  });
});
