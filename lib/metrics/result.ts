/**
 * A metric value that may be undefined. Verdict never turns an undefined ratio into 0
 * (SPEC §4): where scikit-learn warns or raises, the value is `null` and `reason` says why.
 */
export type Maybe<T> = { readonly value: T; readonly reason: null } | { readonly value: null; readonly reason: string };

export function defined<T>(value: T): Maybe<T> {
  return { value, reason: null };
}

export function undefinedBecause<T>(reason: string): Maybe<T> {
  return { value: null, reason };
}

/** ratio = numerator / denominator, undefined when the denominator is 0. */
export function ratio(numerator: number, denominator: number, reason: string): Maybe<number> {
  return denominator === 0 ? undefinedBecause(reason) : defined(numerator / denominator);
}

export const REASONS = {
  noItems: "no items",
  noPositives: "no positive items: recall and ranking metrics are undefined",
  noNegatives: "no negative items: false-positive rate and ROC are undefined",
  oneClassRoc: "only one class present: ROC-AUC is undefined",
  oneClassLogLoss: "only one class present: log loss is undefined (scikit-learn raises)",
  notProbabilities: "scores are outside [0, 1]: not probabilities",
  noPredictedPositives: "no item scored at or above the threshold: precision is undefined",
  noPositivesOrPredictions: "no positives and no predicted positives: F1 is undefined",
  noPrevalence: "prevalence re-weighting needs both classes in the sample",
} as const;
