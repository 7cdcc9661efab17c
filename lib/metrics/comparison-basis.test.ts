import { describe, expect, it } from "vitest";
import {
  basisPredictions,
  countsOfPredictions,
  mcnemarOfPredictions,
  pairedCostDifferenceOfPredictions,
  summarize,
  Xoshiro128,
  type OperatingPoint,
  type SelectionRule,
} from "./index";

const rule: SelectionRule = {
  kind: "COST_OPTIMAL",
  prevalence: 0.02,
  costFalseNegative: 50,
  costFalsePositive: 1,
  recallFloor: 0,
  precisionFloor: null,
};
const gaussian = (rng: Xoshiro128) =>
  Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());

describe("the comparison basis (issue 27)", () => {
  it("reproduces the stored held-out counts, and the paired Δcost is the difference of the held-out costs: never of the other sign beyond noise", () => {
    let significant = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new Xoshiro128(seed);
      const n = 800;
      const labels = Uint8Array.from({ length: n }, (_, i) => (i % 8 === 0 ? 1 : 0));
      const slices = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? "long" : null));
      const [a, b] = [1.2 + (seed % 4) * 0.3, 1.6].map((mu) => {
        const scores = Float64Array.from(labels, (y) => Math.round((gaussian(rng) + y * mu) * 100) / 100);
        const op = summarize(labels, scores, {
          prevalence: rule.prevalence,
          costFalseNegative: 50,
          costFalsePositive: 1,
          operatingRule: rule,
          slices,
          splitSeed: 77,
          bootstrap: 0,
          maxCurvePoints: 2,
        }).operatingPoint as OperatingPoint;
        const predicted = basisPredictions(labels, scores, slices, op.threshold, op);
        expect(countsOfPredictions(labels, predicted)).toEqual({ tp: op.heldOut.tp, fp: op.heldOut.fp });
        return { op, predicted };
      }) as [{ op: OperatingPoint; predicted: Uint8Array }, { op: OperatingPoint; predicted: Uint8Array }];
      const d = pairedCostDifferenceOfPredictions(labels, a.predicted, b.predicted, rule).value!;
      expect(d.deltaPer1k).toBeCloseTo(a.op.heldOut.expectedCostPer1k - b.op.heldOut.expectedCostPer1k, 9);
      const [low, high] = d.interval;
      if (high < 0 || low > 0) {
        significant++;
        expect(Math.sign(d.deltaPer1k)).toBe(high < 0 ? -1 : 1);
      }
      const m = mcnemarOfPredictions(labels, a.predicted, b.predicted);
      const errors = (o: OperatingPoint) => o.heldOut.positives - o.heldOut.tp + o.heldOut.fp;
      expect(m.onlyACorrect - m.onlyBCorrect).toBe(errors(b.op) - errors(a.op));
    }
    expect(significant).toBeGreaterThan(5);
  });

  it("is the predictions at the threshold without a cross-fitted operating point", () => {
    const labels = Uint8Array.of(1, 0, 1, 0);
    const scores = Float64Array.of(0.9, 0.6, 0.4, 0.1);
    expect(Array.from(basisPredictions(labels, scores, undefined, 0.5, undefined))).toEqual([1, 1, 0, 0]);
  });
});
