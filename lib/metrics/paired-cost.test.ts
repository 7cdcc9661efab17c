import { describe, expect, it } from "vitest";
import { confusionAt, expectedCostPer1k, pairedCostDifference } from "./index";

const model = { prevalence: 0.02, costFalseNegative: 50, costFalsePositive: 1 };
const costOf = (labels: Uint8Array, scores: Float64Array, t: number) => {
  const c = confusionAt(labels, scores, t);
  return expectedCostPer1k(c.tp / (c.tp + c.fn), c.fp / (c.fp + c.tn), model);
};

describe("pairedCostDifference", () => {
  // 400 items, 40 positives; A misses fewer positives, B raises fewer false alarms.
  const n = 400;
  const labels = Uint8Array.from({ length: n }, (_, i) => (i % 10 === 0 ? 1 : 0));
  const a = Float64Array.from({ length: n }, (_, i) =>
    labels[i] ? 0.55 + ((i * 7) % 40) / 100 : ((i * 13) % 97) / 150,
  );
  const b = Float64Array.from({ length: n }, (_, i) =>
    labels[i] ? 0.3 + ((i * 11) % 60) / 100 : ((i * 17) % 89) / 200,
  );

  it("equals the difference of each candidate's expected cost at π, each at its own threshold", () => {
    const result = pairedCostDifference(labels, a, 0.5, b, 0.45, { ...model, replicates: 200, seed: 7 });
    expect(result.value!.deltaPer1k).toBeCloseTo(costOf(labels, a, 0.5) - costOf(labels, b, 0.45), 9);
  });

  it("has a seeded percentile interval that contains the difference; identical candidates differ by exactly 0", () => {
    const one = pairedCostDifference(labels, a, 0.5, b, 0.45, { ...model, replicates: 500, seed: 3 }).value!;
    const again = pairedCostDifference(labels, a, 0.5, b, 0.45, { ...model, replicates: 500, seed: 3 }).value!;
    expect(again).toEqual(one);
    const [low, high] = one.interval.value!;
    expect(low).toBeLessThanOrEqual(one.deltaPer1k);
    expect(high).toBeGreaterThanOrEqual(one.deltaPer1k);
    const same = pairedCostDifference(labels, a, 0.5, a, 0.5, { ...model, replicates: 100 }).value!;
    expect(same.deltaPer1k).toBe(0);
    expect(same.interval.value).toEqual([0, 0]);
  });

  it("is undefined without both classes", () => {
    expect(
      pairedCostDifference(new Uint8Array(3), new Float64Array(3), 0.5, new Float64Array(3), 0.5, model).reason,
    ).toMatch(/positive/);
  });
});
