import type { RankedCounts } from "./ranking";
import { countsAt } from "./ranking";
import { defined, ratio, REASONS, undefinedBecause, type Maybe } from "./result";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

/** Confusion counts of the rule "predict positive ⇔ score ≥ threshold" (SPEC §4). */
export interface Confusion {
  readonly tp: number;
  readonly fp: number;
  readonly tn: number;
  readonly fn: number;
}

/** TP, FP, TN, FN at threshold t by one pass over the items (`confusion_matrix(y, s >= t)`). */
export function confusionAt(labels: Labels, scores: Scores, threshold: number): Confusion {
  checkBinaryInput(labels, scores);
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (let i = 0; i < labels.length; i++) {
    const positive = labels[i] === 1;
    if (positive) positives++;
    if ((scores[i] as number) >= threshold) {
      if (positive) tp++;
      else fp++;
    }
  }
  return { tp, fp, fn: positives - tp, tn: labels.length - positives - fp };
}

/** The same confusion counts, read from the sorted cumulative counts in O(log m). */
export function confusionFromCounts(counts: RankedCounts, threshold: number): Confusion {
  const { tp, fp } = countsAt(counts, threshold);
  return { tp, fp, fn: counts.positives - tp, tn: counts.negatives - fp };
}

export interface ThresholdRates {
  readonly precision: Maybe<number>;
  readonly recall: Maybe<number>;
  readonly f1: Maybe<number>;
  readonly fpr: Maybe<number>;
}

/**
 * precision = TP/(TP+FP) (`precision_score`), recall = TPR = TP/(TP+FN) (`recall_score`),
 * FPR = FP/(FP+TN), and F1 = 2PR/(P+R) written as 2TP/(2TP+FP+FN) (`f1_score`), which — like
 * scikit-learn — is 0, not undefined, when precision alone is undefined, and undefined only
 * when there are neither positives nor predicted positives. A zero denominator is undefined.
 */
export function ratesAt(c: Confusion): ThresholdRates {
  const f1Denominator = 2 * c.tp + c.fp + c.fn;
  return {
    precision: ratio(c.tp, c.tp + c.fp, REASONS.noPredictedPositives),
    recall: ratio(c.tp, c.tp + c.fn, REASONS.noPositives),
    f1: f1Denominator === 0 ? undefinedBecause(REASONS.noPositivesOrPredictions) : defined((2 * c.tp) / f1Denominator),
    fpr: ratio(c.fp, c.fp + c.tn, REASONS.noNegatives),
  };
}
