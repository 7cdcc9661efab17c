import { describe, expect, it } from "vitest";
import { expectedCostPer1k, selectGroup, splitInHalves, summarize, Xoshiro128, type OperatingPoint, type SelectionRule } from "./index";

/** Φ, the standard normal CDF (Abramowitz & Stegun 7.1.26 on erf; |error| < 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

function gaussian(rng: Xoshiro128): number {
  const u = 1 - rng.nextDouble();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.nextDouble());
}

// Two known score distributions: negatives N(0, 1), positives N(μ, 1); 2 % positives, deployed at π = 2 %.
const MU = 2;
const rule: SelectionRule = { kind: "COST_OPTIMAL", prevalence: 0.02, costFalseNegative: 50, costFalsePositive: 1, recallFloor: 0, precisionFloor: null };
const populationCost = (t: number) => expectedCostPer1k(1 - normalCdf(t - MU), 1 - normalCdf(t), rule);
// d/dt = 0 ⇔ π·C_FN·φ(t − μ) = (1 − π)·C_FP·φ(t) ⇔ t* = (ln((1 − π)·C_FP / (π·C_FN)) + μ²/2) / μ.
const populationOptimum = (Math.log(((1 - rule.prevalence) * rule.costFalsePositive) / (rule.prevalence * rule.costFalseNegative)) + (MU * MU) / 2) / MU;

function dataset(seed: number, n = 2000, positives = 40) {
  const rng = new Xoshiro128(seed);
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = i % (n / positives) === 0 ? 1 : 0;
    scores[i] = gaussian(rng) + (labels[i] ? MU : 0);
  }
  return { labels, scores };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const standardError = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
};

describe("operating points on simulated data with a known population optimum", () => {
  it("in-sample figures are optimistic, held-out ones are not, and the threshold intervals cover the optimum", () => {
    const runs = 200;
    const optimism: number[] = [];
    const heldOutError: number[] = [];
    const heldOutVsDeployed: number[] = [];
    let covered = 0;
    for (let d = 0; d < runs; d++) {
      const { labels, scores } = dataset(1000 + d);
      const op = summarize(labels, scores, { prevalence: rule.prevalence, costFalseNegative: 50, costFalsePositive: 1, operatingRule: rule, bootstrap: 1000, seed: d, maxCurvePoints: 2 }).operatingPoint as OperatingPoint;
      expect(op.method).toBe("cross-fitted");
      optimism.push(op.inSample.expectedCostPer1k - populationCost(op.threshold));
      // The held-out figure pools B at t_A and A at t_B (equal halves), so its population value is the mean of the two.
      const [a, b] = op.split.parts.map((p) => p.threshold!) as [number, number];
      heldOutError.push(op.heldOut.expectedCostPer1k - (populationCost(a) + populationCost(b)) / 2);
      heldOutVsDeployed.push(op.heldOut.expectedCostPer1k - populationCost(op.threshold));
      const [low, high] = op.thresholdInterval!;
      if (low <= populationOptimum && populationOptimum <= high) covered++;
    }
    const figures = {
      populationOptimum: populationOptimum.toFixed(4),
      populationCostAtOptimum: populationCost(populationOptimum).toFixed(2),
      inSampleMinusPopulation: `${mean(optimism).toFixed(2)} ± ${standardError(optimism).toFixed(2)} (SE)`,
      heldOutMinusPopulationAtItsThresholds: `${mean(heldOutError).toFixed(2)} ± ${standardError(heldOutError).toFixed(2)} (SE)`,
      heldOutMinusPopulationAtDeployedThreshold: `${mean(heldOutVsDeployed).toFixed(2)} ± ${standardError(heldOutVsDeployed).toFixed(2)} (SE)`,
      thresholdIntervalCoverage: `${covered}/${runs} = ${(covered / runs).toFixed(3)} (nominal 0.95)`,
    };
    console.log("operating-point simulation (200 datasets × 2,000 items, 2 % positives; cost per 1,000 items):", figures);
    // The optimism: in-sample cost at the chosen threshold is below its population cost, clearly.
    expect(mean(optimism)).toBeLessThan(-3 * standardError(optimism));
    // Held-out: unbiased for the population cost at the thresholds it is measured at.
    expect(Math.abs(mean(heldOutError))).toBeLessThanOrEqual(2 * standardError(heldOutError));
    // …and not optimistic for the threshold deployed (chosen on all items), if anything conservative.
    expect(mean(heldOutVsDeployed)).toBeGreaterThan(-2 * standardError(heldOutVsDeployed));
    expect(covered / runs).toBeGreaterThanOrEqual(0.88);
    expect(covered / runs).toBeLessThanOrEqual(0.99);
  });
});
