import { moverSum, newcombePairedDifference, type Interval } from "./intervals";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";
import { predictionsAtThreshold } from "./comparison-basis";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

export interface PairedCostOptions {
  /** Deployment prevalence π. */
  readonly prevalence: number;
  readonly costFalseNegative: number;
  readonly costFalsePositive: number;
}

export interface PairedCostDifference {
  /** Expected cost per 1,000 items at π of A minus that of B (negative: A is cheaper). */
  readonly deltaPer1k: number;
  /** 95 % interval of the difference: Newcombe's paired intervals per class, added by MOVER. */
  readonly interval: Interval;
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
 *   Δ = 1000·π·C_FN·(FN_A − FN_B)/P + 1000·(1−π)·C_FP·(FP_A − FP_B)/N,
 * a weighted sum of two paired differences of error rates, one among positives, one among
 * negatives. Its 95 % interval takes Newcombe's paired interval of each (`newcombePairedDifference`,
 * from the 2×2 table of which candidate errs on each item) and adds the two by MOVER (`moverSum`:
 * the classes are sampled apart, so the terms are independent) — the construction the held-out
 * cost interval uses for one candidate. Chosen by `npm run bench:intervals` (issue 27): the
 * stratified paired percentile bootstrap it replaces covered ≈ 0.93 at 40 positives among 400
 * items (0.917 on the bench's 400 datasets), because a sum over a dozen discordant positives is
 * skewed and the percentile interval is too short on its long side; Wilson's ends follow that skew.
 */
export function pairedCostDifferenceOfPredictions(
  labels: Labels,
  predictedA: Uint8Array,
  predictedB: Uint8Array,
  options: PairedCostOptions,
): Maybe<PairedCostDifference> {
  if (predictedA.length !== labels.length || predictedB.length !== labels.length)
    throw new RangeError("labels and predictions differ in length");
  // Per class (0: negatives, 1: positives): items where both err, only A, only B, neither.
  const tables = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ] as [number, number, number, number][];
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i] as 0 | 1;
    const errA = predictedA[i] !== y;
    const errB = predictedB[i] !== y;
    tables[y]![errA ? (errB ? 0 : 1) : errB ? 2 : 3]++;
  }
  const [negatives, positives] = tables.map((t) => t.reduce((s, x) => s + x, 0)) as [number, number];
  if (positives === 0) return undefinedBecause(REASONS.noPositives);
  if (negatives === 0) return undefinedBecause(REASONS.noNegatives);
  const missed = newcombePairedDifference(...tables[1]!);
  const falseAlarms = newcombePairedDifference(...tables[0]!);
  const terms = [
    { c: 1000 * options.prevalence * options.costFalseNegative, p: missed.difference, interval: missed.interval },
    {
      c: 1000 * (1 - options.prevalence) * options.costFalsePositive,
      p: falseAlarms.difference,
      interval: falseAlarms.interval,
    },
  ];
  return defined({
    deltaPer1k: terms.reduce((s, t) => s + t.c * t.p, 0),
    interval: moverSum(terms),
  });
}
