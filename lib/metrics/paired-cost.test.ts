import { describe, expect, it } from "vitest";
import {
  confusionAt,
  expectedCostPer1k,
  moverSum,
  newcombePairedDifference,
  pairedCostDifference,
  wilsonInterval,
  Xoshiro128,
} from "./index";

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
    const result = pairedCostDifference(labels, a, 0.5, b, 0.45, model);
    expect(result.value!.deltaPer1k).toBeCloseTo(costOf(labels, a, 0.5) - costOf(labels, b, 0.45), 9);
  });

  it("has an interval around the difference, reversed with the candidates; identical candidates differ by 0, not surely", () => {
    const one = pairedCostDifference(labels, a, 0.5, b, 0.45, model).value!;
    const [low, high] = one.interval;
    expect(low).toBeLessThan(one.deltaPer1k);
    expect(high).toBeGreaterThan(one.deltaPer1k);
    const reversed = pairedCostDifference(labels, b, 0.45, a, 0.5, model).value!;
    expect(reversed.deltaPer1k).toBeCloseTo(-one.deltaPer1k, 9);
    expect(reversed.interval[0]).toBeCloseTo(-high, 9);
    expect(reversed.interval[1]).toBeCloseTo(-low, 9);
    // No discordant item among 400 does not prove two candidates cost the same in the population.
    const same = pairedCostDifference(labels, a, 0.5, a, 0.5, model).value!;
    expect(same.deltaPer1k).toBe(0);
    expect(same.interval[0]).toBeLessThan(0);
    expect(same.interval[1]).toBeGreaterThan(0);
  });

  it("is undefined without both classes", () => {
    expect(
      pairedCostDifference(new Uint8Array(3), new Float64Array(3), 0.5, new Float64Array(3), 0.5, model).reason,
    ).toMatch(/positive/);
  });
});

describe("Newcombe's paired difference (method 10)", () => {
  it("is MOVER on the two Wilson intervals when the units carry no correlation, and narrower with positive correlation", () => {
    // Both margins 15/50. Table (5, 10, 10, 25): ad − bc = 125 − 100 = 25 ≤ n/2, so the corrected φ is 0.
    const uncorrelated = newcombePairedDifference(5, 10, 10, 25);
    const independent = moverSum([
      { c: 1, p: 15 / 50, interval: wilsonInterval(15, 50).value! },
      { c: -1, p: 15 / 50, interval: wilsonInterval(15, 50).value! },
    ]);
    expect(uncorrelated.difference).toBe(0);
    expect(uncorrelated.interval[0]).toBeCloseTo(independent[0], 12);
    expect(uncorrelated.interval[1]).toBeCloseTo(independent[1], 12);
    // Table (12, 3, 3, 32): the same margins, but 44 of 50 units agree (φ = 350/525).
    const correlated = newcombePairedDifference(12, 3, 3, 32);
    expect(correlated.difference).toBe(0);
    expect(correlated.interval[1] - correlated.interval[0]).toBeLessThan(
      0.7 * (uncorrelated.interval[1] - uncorrelated.interval[0]),
    );
  });

  it("covers the population difference in [0.93, 0.97] of 4,000 paired samples of 40 units", () => {
    // Per unit: both err 0.1, only the first 0.15, only the second 0.05, neither 0.7, so p₁ − p₂ = 0.1.
    const rng = new Xoshiro128(2718);
    const samples = 4000;
    let covered = 0;
    for (let s = 0; s < samples; s++) {
      const table: [number, number, number, number] = [0, 0, 0, 0];
      for (let i = 0; i < 40; i++) {
        const u = rng.nextDouble();
        table[u < 0.1 ? 0 : u < 0.25 ? 1 : u < 0.3 ? 2 : 3]++;
      }
      const [low, high] = newcombePairedDifference(...table).interval;
      if (low <= 0.1 && 0.1 <= high) covered++;
    }
    expect(covered / samples).toBeGreaterThanOrEqual(0.93);
    expect(covered / samples).toBeLessThanOrEqual(0.97);
  });
});
