import { describe, expect, it } from "vitest";
import { NOMINAL_BAND, summarize, wilsonInterval, Xoshiro128, type OperatingPoint, type SelectionRule } from "./index";

/**
 * An independent check of the threshold interval's coverage (issue 27), apart from
 * bench/intervals.ts and its binormal populations: here scores are exponential — negatives at
 * rate 1, positives at rate λ < 1 — so the likelihood ratio λ·e^{(1−λ)s} rises in s and the
 * cost-optimal threshold of the population has a closed form. The 40 positives sit at random
 * places among 2,000 items (a seeded shuffle, not every 50th item), and the datasets go through
 * `summarize`, the path an eval run takes.
 *
 * What it finds: the interval does not under-cover here (the failure issue 27 reported: 0.875 on
 * a binormal simulation), but it covers ≈ 0.97–0.98, above the band [0.93, 0.97]: the percentile
 * level calibrated on the bench's binormal population (99 at 40 positives) is conservative for
 * this one. The level that gives 95 % depends on the population, not only on the positives
 * (README, "Interval coverage"), so the test holds the interval to the side that matters — it
 * must not promise more than it covers — and prints the figure.
 */
const LAMBDA = 0.25;
const rule: SelectionRule = {
  kind: "COST_OPTIMAL",
  prevalence: 0.02,
  costFalseNegative: 50,
  costFalsePositive: 1,
  recallFloor: 0,
  precisionFloor: null,
};
// d/dt cost = 0 ⇔ π·C_FN·λe^{−λt} = (1 − π)·C_FP·e^{−t} ⇔ t* = ln((1 − π)·C_FP / (π·C_FN·λ)) / (1 − λ) ≈ 1.822.
const populationOptimum =
  Math.log(((1 - rule.prevalence) * rule.costFalsePositive) / (rule.prevalence * rule.costFalseNegative * LAMBDA)) /
  (1 - LAMBDA);

function exponentialDataset(seed: number, items: number, positives: number) {
  const rng = new Xoshiro128(0x9e3779b9 ^ seed);
  const labels = new Uint8Array(items);
  labels.fill(1, 0, positives);
  for (let i = items - 1; i > 0; i--) {
    const j = Math.floor(rng.nextDouble() * (i + 1));
    [labels[i], labels[j]] = [labels[j]!, labels[i]!];
  }
  const scores = Float64Array.from(labels, (y) => -Math.log(1 - rng.nextDouble()) / (y ? LAMBDA : 1));
  return { labels, scores };
}

/** How many of `datasets` runs' threshold intervals contain the population optimum. */
function coverage(datasets: number, items: number, positives: number): { covered: number; level: number } {
  let covered = 0;
  let level = 0;
  for (let d = 0; d < datasets; d++) {
    const { labels, scores } = exponentialDataset(d, items, positives);
    const op = summarize(labels, scores, {
      prevalence: rule.prevalence,
      costFalseNegative: rule.costFalseNegative,
      costFalsePositive: rule.costFalsePositive,
      operatingRule: rule,
      bootstrap: 1000,
      seed: 7 + d,
      maxCurvePoints: 2,
    }).operatingPoint as OperatingPoint;
    level = op.thresholdIntervalLevel!;
    const [low, high] = op.thresholdInterval!;
    if (low <= populationOptimum && populationOptimum <= high) covered++;
  }
  return { covered, level };
}

describe("the threshold interval on an independent population of known optimum (issue 27)", () => {
  it("covers the exponential population's optimum at least 93 % of the time at 40 positives among 2,000 items", () => {
    const datasets = 400;
    const { covered, level } = coverage(datasets, 2000, 40);
    const [low, high] = wilsonInterval(covered, datasets).value!;
    console.log(
      `threshold interval, exponential populations (λ = ${LAMBDA}, t* = ${populationOptimum.toFixed(4)}), 40 positives / 2,000 items: ` +
        `${covered}/${datasets} = ${(covered / datasets).toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}] at percentile level ${level}`,
    );
    expect(level).toBe(99);
    expect(covered / datasets).toBeGreaterThanOrEqual(NOMINAL_BAND[0]);
  }, 60_000);
});
