import { radixSortFloat64 } from "./sort";
import { checkBinaryInput, countPositives, type Labels, type Scores } from "./validate";

/**
 * Cumulative true/false positive counts at every distinct score: the sort-once core from
 * which the PR curve, AP, the ROC curve, ROC-AUC and the cost curve are all derived.
 *
 * Mirrors scikit-learn's private `_binary_clf_curve`, stored in ascending threshold order
 * (the order of `precision_recall_curve`'s output): for the i-th smallest distinct score tᵢ,
 *   tps[i] = #{positives with s ≥ tᵢ},   fps[i] = #{negatives with s ≥ tᵢ}.
 * Ties are one point. Counts are integers, so every derived ratio is bit-for-bit the one
 * scikit-learn computes from the same integers.
 */
export interface RankedCounts {
  /** Distinct scores, ascending. */
  readonly thresholds: Float64Array;
  readonly tps: Float64Array;
  readonly fps: Float64Array;
  readonly positives: number;
  readonly negatives: number;
}

/**
 * Build {@link RankedCounts} with one radix sort of the scores and one of the positives'
 * scores (no comparator, no permutation array):
 *   #{s ≥ tᵢ} = n − (index of tᵢ's first occurrence in the sorted scores),
 *   tps[i] = P − #{positive scores < tᵢ}   (pointer walk over the sorted positive scores),
 *   fps[i] = #{s ≥ tᵢ} − tps[i].
 * The sorted copy is compacted in place into the thresholds. tps and fps each reserve one
 * spare slot so that {@link precisionRecallCurveInPlace} can append scikit-learn's end point.
 * Peak extra memory: 16n (sorted scores + the sort's scratch, reused for tps) + 8m (fps) + 8P,
 * i.e. the three output arrays of the PR curve plus the positives' scores.
 */
export function rankCounts(labels: Labels, scores: Scores): RankedCounts {
  checkBinaryInput(labels, scores);
  const n = scores.length;
  const positives = countPositives(labels);
  // Two buffers of n+1 doubles: the sort ping-pongs between them; the one not holding the
  // result is then reused for tps (m + 1 ≤ n + 1 slots).
  const a = new Float64Array(new ArrayBuffer(8 * (n + 1)), 0, n);
  const b = new Float64Array(new ArrayBuffer(8 * (n + 1)), 0, n);
  copyInto(scores, a);
  const sorted = radixSortFloat64(a, b);
  const spare = sorted === a ? b : a;
  const sortedPositives = positiveScores(labels, scores, positives).sort(); // in place: the positives are few
  const m = countDistinct(sorted);
  const tps = new Float64Array(spare.buffer, 0, m);
  const fps = new Float64Array(new ArrayBuffer(8 * (m + 1)), 0, m);
  compactCounts(sorted, sortedPositives, tps, fps);
  return { thresholds: sorted.subarray(0, m), tps, fps, positives, negatives: n - positives };
}

// The passes are small separate functions so that each is optimised on its own (one long
// function with many loops keeps falling back to the interpreter between them).

function copyInto(source: Scores, target: Float64Array): void {
  for (let i = 0; i < target.length; i++) target[i] = source[i] as number;
}

function positiveScores(labels: Labels, scores: Scores, positives: number): Float64Array {
  const out = new Float64Array(positives);
  for (let i = 0, j = 0; i < labels.length; i++) if (labels[i] === 1) out[j++] = scores[i] as number;
  return out;
}

function countDistinct(sorted: Float64Array): number {
  let m = sorted.length > 0 ? 1 : 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) m++;
  return m;
}

/**
 * One pass over the sorted scores: at the first occurrence (index i) of each distinct score t,
 * #{s ≥ t} = n − i and tps = P − #{positive scores < t}; t is written to slot k ≤ i in place.
 */
function compactCounts(
  sorted: Float64Array,
  sortedPositives: Float64Array,
  tps: Float64Array,
  fps: Float64Array,
): void {
  const n = sorted.length;
  const positives = sortedPositives.length;
  let k = 0;
  let below = 0;
  for (let i = 0; i < n; i++) {
    const t = sorted[i] as number;
    if (i > 0 && t === sorted[i - 1]) continue;
    while (below < positives && (sortedPositives[below] as number) < t) below++;
    const tp = positives - below;
    sorted[k] = t;
    tps[k] = tp;
    fps[k] = n - i - tp;
    k++;
  }
}

/** Index of the smallest distinct threshold ≥ t (m when none): the operating point for s ≥ t. */
export function thresholdIndex(counts: RankedCounts, t: number): number {
  const th = counts.thresholds;
  let lo = 0;
  let hi = th.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((th[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** (TP, FP) of the rule "predict positive ⇔ s ≥ t", read from the cumulative counts. */
export function countsAt(counts: RankedCounts, t: number): { tp: number; fp: number } {
  const i = thresholdIndex(counts, t);
  return i < counts.thresholds.length ? { tp: counts.tps[i] as number, fp: counts.fps[i] as number } : { tp: 0, fp: 0 };
}
