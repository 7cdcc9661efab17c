import type { RankedCounts } from "./ranking";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/**
 * The ROC curve as scikit-learn's `roc_curve(y, s)` with its default drop_intermediate=True:
 * points in descending threshold order, a point dropped when both second differences of
 * (FP, TP) are zero (collinear with its neighbours), then the start point (0, 0) prepended at
 * threshold max(s) + 1. FPR = FP/N, TPR = TP/P.
 */
export interface RocCurve {
  readonly fpr: Float64Array;
  readonly tpr: Float64Array;
  readonly thresholds: Float64Array;
}

export function rocCurve(counts: RankedCounts, dropIntermediate = true): Maybe<RocCurve> {
  const m = counts.thresholds.length;
  if (m === 0) return undefinedBecause(REASONS.noItems);
  if (counts.positives === 0) return undefinedBecause(REASONS.noPositives);
  if (counts.negatives === 0) return undefinedBecause(REASONS.noNegatives);
  const { tps, fps, thresholds } = counts;
  // Descending position d ↔ ascending index m−1−d (scikit-learn's _binary_clf_curve order).
  const at = (a: Float64Array, d: number) => a[m - 1 - d] as number;
  const keep: number[] = [];
  for (let d = 0; d < m; d++) {
    const interior = dropIntermediate && m > 2 && d > 0 && d < m - 1;
    if (interior) {
      // np.diff(x, 2)[d−1] = (x[d+1] − x[d]) − (x[d] − x[d−1])
      const fpBend = at(fps, d + 1) - at(fps, d) - (at(fps, d) - at(fps, d - 1));
      const tpBend = at(tps, d + 1) - at(tps, d) - (at(tps, d) - at(tps, d - 1));
      if (fpBend === 0 && tpBend === 0) continue;
    }
    keep.push(d);
  }
  const fpr = new Float64Array(keep.length + 1);
  const tpr = new Float64Array(keep.length + 1);
  const th = new Float64Array(keep.length + 1);
  th[0] = at(thresholds, 0) + 1;
  keep.forEach((d, j) => {
    fpr[j + 1] = at(fps, d) / counts.negatives;
    tpr[j + 1] = at(tps, d) / counts.positives;
    th[j + 1] = at(thresholds, d);
  });
  return defined({ fpr, tpr, thresholds: th });
}

/**
 * ROC-AUC as scikit-learn's `roc_auc_score`: the trapezoidal area under (FPR, TPR), which
 * counts a tied positive-negative pair as one half. Summed over every distinct threshold (the
 * dropped points are collinear, so they do not change the area). Undefined with one class.
 */
export function rocAuc(counts: RankedCounts): Maybe<number> {
  const m = counts.thresholds.length;
  if (m === 0) return undefinedBecause(REASONS.noItems);
  if (counts.positives === 0 || counts.negatives === 0) return undefinedBecause(REASONS.oneClassRoc);
  const { tps, fps, positives, negatives } = counts;
  let area = 0;
  let prevFpr = 0;
  let prevTpr = 0;
  for (let i = m - 1; i >= 0; i--) {
    const fpr = (fps[i] as number) / negatives;
    const tpr = (tps[i] as number) / positives;
    area += (fpr - prevFpr) * ((tpr + prevTpr) / 2);
    prevFpr = fpr;
    prevTpr = tpr;
  }
  return defined(area);
}
