/**
 * The coverage simulation behind `npm run bench:intervals` (issue 27): populations of known
 * truth — negatives' scores N(0, 1), positives' N(μ, 1), so every figure has a closed form or a
 * one-dimensional integral — from which datasets are drawn and every interval the pack prints is
 * computed exactly as an eval run computes it; each interval's coverage is the share of datasets
 * whose interval contains the population value.
 */
import {
  basisPredictions,
  bootstrapReplicates,
  chooseOperatingPoint,
  expectedCostPer1k,
  pairedCostDifferenceOfPredictions,
  precisionAtPrevalence,
  prepareRanking,
  splitInHalves,
  percentileInterval,
  Xoshiro128,
  type Interval,
  type OperatingPoint,
  type SelectionRule,
} from "../lib/metrics/index";

/** Φ, the standard normal CDF, by erfc (Numerical Recipes' Chebyshev fit, |relative error| < 1.2e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

export interface Setting {
  /** Share of positives in the sample. */
  samplePrevalence: number;
  positives: number;
}

export const SETTINGS: Setting[] = [
  { samplePrevalence: 0.02, positives: 40 },
  { samplePrevalence: 0.02, positives: 300 },
  { samplePrevalence: 0.1, positives: 40 },
  { samplePrevalence: 0.1, positives: 300 },
];

/** The deployment: π = 2 %, a missed positive costs 50, a false alarm 1 (the demo's terms). */
export const RULE: SelectionRule = {
  kind: "COST_OPTIMAL",
  prevalence: 0.02,
  costFalseNegative: 50,
  costFalsePositive: 1,
  recallFloor: 0,
  precisionFloor: null,
};
/** Separation of the candidate audited and of the one it is compared with (Δcost). */
export const MU = 2;
export const MU_OTHER = 1.6;

const tpr = (mu: number, t: number) => 1 - normalCdf(t - mu);
const fpr = (t: number) => 1 - normalCdf(t);
const populationCost = (mu: number, t: number) => expectedCostPer1k(tpr(mu, t), fpr(t), RULE);

/** The cost-optimal threshold of the population: π·C_FN·φ(t − μ) = (1 − π)·C_FP·φ(t). */
export const populationOptimum = (mu: number) =>
  (Math.log(((1 - RULE.prevalence) * RULE.costFalsePositive) / (RULE.prevalence * RULE.costFalseNegative)) +
    (mu * mu) / 2) /
  mu;

/** AP at prevalence p of the population: ∫ p·TPR/(p·TPR + (1−p)·FPR) dTPR (Simpson on t ∈ [μ − 9, μ + 9]). */
export function populationAp(mu: number, p: number): number {
  const steps = 4000;
  const lo = mu - 9;
  const h = 18 / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const t = lo + i * h;
    const r = tpr(mu, t);
    const f = fpr(t);
    const density = Math.exp(-((t - mu) ** 2) / 2) / Math.sqrt(2 * Math.PI);
    const precision = r + f > 0 ? (p * r) / (p * r + (1 - p) * f) : 1;
    sum += (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2) * precision * density;
  }
  return (sum * h) / 3;
}

const gaussian = (rng: Xoshiro128) =>
  Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());

export const INTERVALS = [
  "threshold",
  "recall (Wilson)",
  "precision at π",
  "expected cost",
  "AP (bootstrap)",
  "ROC-AUC (bootstrap)",
  "Δ expected cost (paired)",
] as const;
export type IntervalName = (typeof INTERVALS)[number];

const inside = (x: number, i: Interval | null) => i !== null && i[0] <= x && x <= i[1];

/** One simulated dataset of `setting`: whether each interval covers its population value. */
export function simulateDataset(setting: Setting, seed: number, replicates: number): Record<IntervalName, boolean> {
  const n = Math.round(setting.positives / setting.samplePrevalence);
  const step = n / setting.positives;
  const rng = new Xoshiro128(seed);
  const labels = Uint8Array.from({ length: n }, (_, i) => (i % step === 0 ? 1 : 0));
  const scores = Float64Array.from(labels, (y) => gaussian(rng) + y * MU);
  const other = Float64Array.from(labels, (y) => gaussian(rng) + y * MU_OTHER);
  const rankings = [prepareRanking(labels, scores), prepareRanking(labels, other)];
  const [rep, repOther] = bootstrapReplicates(rankings, {
    replicates,
    seed,
    prevalence: RULE.prevalence,
    selection: RULE,
  });
  const part = splitInHalves(labels, undefined, seed);
  const ops = [rep!, repOther!].map((r, c) =>
    chooseOperatingPoint(rankings[c]!, labels, part, RULE, seed, r.threshold!),
  ) as [OperatingPoint, OperatingPoint];
  const [op, opOther] = ops;
  const heldOutTruth = (mu: number, o: OperatingPoint) => {
    const [a, b] = o.split.parts.map((x) => x.threshold!) as [number, number];
    return {
      recall: (tpr(mu, a) + tpr(mu, b)) / 2,
      fpr: (fpr(a) + fpr(b)) / 2,
      cost: (populationCost(mu, a) + populationCost(mu, b)) / 2,
    };
  };
  const truth = heldOutTruth(MU, op);
  const truthOther = heldOutTruth(MU_OTHER, opOther);
  const predicted = ops.map((o, c) => basisPredictions(labels, c === 0 ? scores : other, undefined, o.threshold, o));
  const delta = pairedCostDifferenceOfPredictions(labels, predicted[0]!, predicted[1]!, RULE).value;
  const percentile = percentileInterval;
  return {
    threshold: inside(populationOptimum(MU), op.thresholdInterval),
    "recall (Wilson)": inside(truth.recall, op.heldOut.recallInterval),
    "precision at π": inside(
      precisionAtPrevalence(truth.recall, truth.fpr, RULE.prevalence).value ?? NaN,
      op.heldOut.precisionInterval,
    ),
    "expected cost": inside(truth.cost, op.heldOut.costInterval),
    "AP (bootstrap)": inside(populationAp(MU, setting.samplePrevalence), percentile(rep!.averagePrecision)),
    "ROC-AUC (bootstrap)": inside(normalCdf(MU / Math.SQRT2), percentile(rep!.rocAuc)),
    "Δ expected cost (paired)": inside(truth.cost - truthOther.cost, delta?.interval ?? null),
  };
}
