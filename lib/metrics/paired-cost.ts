import { percentileInterval, type Interval } from "./intervals";
import { fillUniformIndices, replicateSeed, Xoshiro128 } from "./random";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";
import { predictionsAtThreshold } from "./comparison-basis";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

export interface PairedCostOptions {
  /** Deployment prevalence π. */
  readonly prevalence: number;
  readonly costFalseNegative: number;
  readonly costFalsePositive: number;
  /** Number of resamples B (default 1,000). */
  readonly replicates?: number;
  readonly seed?: number;
}

export interface PairedCostDifference {
  /** Expected cost per 1,000 items at π of A minus that of B (negative: A is cheaper). */
  readonly deltaPer1k: number;
  /** Stratified paired bootstrap percentile 95% interval of the difference. */
  readonly interval: Maybe<Interval>;
}

/**
 * The difference in expected cost per 1,000 items at prevalence π (SPEC §4) between two
 * candidates scored on the same items, each at its own operating threshold (predicted positive ⇔
 * s ≥ t). See {@link pairedCostDifferenceOfPredictions}.
 */
export function pairedCostDifference(
  labels: Labels,
  scoresA: Scores,
  thresholdA: number,
  scoresB: Scores,
  thresholdB: number,
  options: PairedCostOptions,
): Maybe<PairedCostDifference> {
  checkBinaryInput(labels, scoresA);
  checkBinaryInput(labels, scoresB);
  return pairedCostDifferenceOfPredictions(
    labels,
    predictionsAtThreshold(scoresA, thresholdA),
    predictionsAtThreshold(scoresB, thresholdB),
    options,
  );
}

/**
 * The difference in expected cost per 1,000 items at π between two candidates' predictions
 * (1 = positive) on the same items — the predictions their verdict figures count
 * (`basisPredictions`: held out under a choosing rule, so Δ is exactly the difference of the
 * costs the ranking uses):
 *   Δ = 1000·(π·C_FN·(FN_A − FN_B)/P + (1−π)·C_FP·(FP_A − FP_B)/N).
 * Its interval is a paired, stratified bootstrap: positives and negatives are resampled
 * separately (class counts kept) and both candidates are judged on the same resample. Δ only
 * needs, per item, whether A errs and B does not or the reverse, so a replicate sums those
 * differences over the drawn items.
 */
export function pairedCostDifferenceOfPredictions(
  labels: Labels,
  predictedA: Uint8Array,
  predictedB: Uint8Array,
  options: PairedCostOptions,
): Maybe<PairedCostDifference> {
  if (predictedA.length !== labels.length || predictedB.length !== labels.length)
    throw new RangeError("labels and predictions differ in length");
  const positives: number[] = [];
  const negatives: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i] as number;
    (y === 1 ? positives : negatives).push(Number(predictedA[i] !== y) - Number(predictedB[i] !== y));
  }
  const P = positives.length;
  const N = negatives.length;
  if (P === 0) return undefinedBecause(REASONS.noPositives);
  if (N === 0) return undefinedBecause(REASONS.noNegatives);
  const perMissed = (1000 * options.prevalence * options.costFalseNegative) / P;
  const perFalseAlarm = (1000 * (1 - options.prevalence) * options.costFalsePositive) / N;
  const pos = Int8Array.from(positives);
  const neg = Int8Array.from(negatives);
  const sum = (xs: Int8Array) => xs.reduce((s, x) => s + x, 0);
  const deltaPer1k = perMissed * sum(pos) + perFalseAlarm * sum(neg);

  const B = options.replicates ?? 1000;
  const seed = options.seed ?? 0;
  const replicates = new Float64Array(B);
  const drawP = new Uint32Array(P);
  const drawN = new Uint32Array(N);
  for (let b = 0; b < B; b++) {
    const rng = new Xoshiro128(replicateSeed(seed, b));
    fillUniformIndices(rng, drawP, P);
    fillUniformIndices(rng, drawN, N);
    let dp = 0;
    for (let i = 0; i < P; i++) dp += pos[drawP[i] as number] as number;
    let dn = 0;
    for (let j = 0; j < N; j++) dn += neg[drawN[j] as number] as number;
    replicates[b] = perMissed * dp + perFalseAlarm * dn;
  }
  return defined({
    deltaPer1k,
    interval: B > 0 ? defined(percentileInterval(replicates)) : undefinedBecause("no resamples"),
  });
}
