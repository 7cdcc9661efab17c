import type { ClassWeights } from "./prevalence";
import type { RankedCounts } from "./ranking";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/**
 * The precision-recall curve, point for point as scikit-learn 1.2's `precision_recall_curve`:
 * thresholds are the distinct scores ascending; precision[i] = TP/(TP+FP) and
 * recall[i] = TP/P at threshold[i]; then the end point (precision 1, recall 0) is appended,
 * so precision and recall have one more entry than thresholds.
 * With no positives scikit-learn warns and sets recall to 1; here `recall` is null instead.
 */
export interface PrCurve {
  readonly precision: Float64Array;
  readonly recall: Float64Array | null;
  readonly thresholds: Float64Array;
  readonly recallReason: string | null;
}

/**
 * Precision of one point, as scikit-learn computes it: TP/(TP+FP), with optional class weights
 * (wₚ·TP)/(wₚ·TP + wₙ·FP) (`sample_weight`); 0 where TP+FP = 0, as scikit-learn's `np.divide(where=)`.
 */
export function pointPrecision(tp: number, fp: number, weights?: ClassWeights): number {
  const wtp = weights ? weights.positive * tp : tp;
  const predicted = weights ? wtp + weights.negative * fp : tp + fp;
  return predicted === 0 ? 0 : wtp / predicted;
}

/** `precision_recall_curve(y, s[, sample_weight=w])` from the shared counts (new arrays). */
export function precisionRecallCurve(counts: RankedCounts, weights?: ClassWeights): Maybe<PrCurve> {
  const m = counts.thresholds.length;
  if (m === 0) return undefinedBecause(REASONS.noItems);
  const precision = new Float64Array(m + 1);
  const recall = counts.positives > 0 ? new Float64Array(m + 1) : null;
  fillCurve(counts, precision, recall, weights);
  return defined(curveOf(precision, recall, counts));
}

/**
 * Same result as {@link precisionRecallCurve}, but it writes precision into the buffer of
 * `counts.fps` and recall into that of `counts.tps`, so a 10-million-item curve costs no new
 * memory. `counts` must not be used afterwards.
 */
export function precisionRecallCurveInPlace(counts: RankedCounts, weights?: ClassWeights): Maybe<PrCurve> {
  const m = counts.thresholds.length;
  if (m === 0) return undefinedBecause(REASONS.noItems);
  const precision = new Float64Array(counts.fps.buffer, counts.fps.byteOffset, m + 1);
  const recall = counts.positives > 0 ? new Float64Array(counts.tps.buffer, counts.tps.byteOffset, m + 1) : null;
  fillCurve(counts, precision, recall, weights);
  return defined(curveOf(precision, recall, counts));
}

function fillCurve(
  counts: RankedCounts,
  precision: Float64Array,
  recall: Float64Array | null,
  weights?: ClassWeights,
): void {
  const { tps, fps, positives } = counts;
  const m = counts.thresholds.length;
  for (let i = 0; i < m; i++) {
    const tp = tps[i] as number; // read both before either buffer may be overwritten
    const fp = fps[i] as number;
    precision[i] = pointPrecision(tp, fp, weights);
    if (recall) recall[i] = tp / positives;
  }
  precision[m] = 1;
  if (recall) recall[m] = 0;
}

function curveOf(precision: Float64Array, recall: Float64Array | null, counts: RankedCounts): PrCurve {
  return { precision, recall, thresholds: counts.thresholds, recallReason: recall ? null : REASONS.noPositives };
}
