import { percentileInterval, type Interval } from "./intervals";
import { prevalenceWeights } from "./prevalence";
import { radixSortFloat64 } from "./sort";
import { countUniformDraws, fillUniformIndices, nibbleCountBytes, Xoshiro128, replicateSeed } from "./random";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";
import { selectGroup, type SelectionRule } from "./threshold-rule";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

/**
 * A ranking prepared for resampling without re-sorting. With K distinct positive scores
 * t₀ > t₁ > … > t_{K−1}, each positive maps to its group k, and each negative to a segment:
 * 2k (strictly above t_k, below t_{k−1}), 2k+1 (tied with t_k) or 2K (below every positive).
 * A stratified resample is then a multiplicity per item, i.e. a histogram over groups and
 * segments, and AP / AP_π / ROC-AUC follow in one O(K) pass (see {@link resampleMetrics}).
 */
export interface PreparedRanking {
  readonly groups: number;
  readonly positiveGroup: Uint32Array;
  readonly negativeSegment: Uint32Array;
  /** The distinct positive scores, descending: group k's threshold. */
  readonly groupScores: Float64Array;
}

/** Sort the positives' scores once and place every item (O(n log K)). */
export function prepareRanking(labels: Labels, scores: Scores): PreparedRanking {
  checkBinaryInput(labels, scores);
  let positives = 0;
  for (let i = 0; i < labels.length; i++) positives += labels[i] === 1 ? 1 : 0;
  const sorted = new Float64Array(positives);
  for (let i = 0, j = 0; i < labels.length; i++) if (labels[i] === 1) sorted[j++] = scores[i] as number;
  const ascending = radixSortFloat64(sorted, new Float64Array(positives));
  let k = 0;
  for (let i = 0; i < positives; i++)
    if (i === 0 || ascending[i] !== ascending[i - 1]) ascending[k++] = ascending[i] as number;
  const distinct = ascending.subarray(0, k);
  const positiveGroup = new Uint32Array(positives);
  const negativeSegment = new Uint32Array(labels.length - positives);
  for (let i = 0, p = 0, q = 0; i < labels.length; i++) {
    const s = scores[i] as number;
    const a = lowerBound(distinct, s); // first distinct ≥ s
    if (labels[i] === 1) positiveGroup[p++] = k - 1 - a;
    else negativeSegment[q++] = a < k && distinct[a] === s ? 2 * (k - 1 - a) + 1 : 2 * (k - a);
  }
  return { groups: k, positiveGroup, negativeSegment, groupScores: distinct.slice().reverse() };
}

function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface ResampleMetrics {
  averagePrecision: number;
  averagePrecisionAtPrevalence: number;
  rocAuc: number;
}

/**
 * AP, AP_π and ROC-AUC of one weighted resample, walking the positive groups in descending
 * score order with cumulative counts TP_k, FP_k (multiplicities, negatives tied with t_k included):
 *   AP   = Σ_k (h_k/P)·TP_k/(TP_k+FP_k)                       (`average_precision_score`)
 *   AP_π = Σ_k (h_k/P)·wₚTP_k/(wₚTP_k+wₙFP_k)                 (with π/p, (1−π)/(1−p) weights)
 *   AUC  = Σ_negatives [#positives above + ½·#positives tied] / (P·N)   (`roc_auc_score`)
 * where h_k is the multiplicity of group k.
 */
export function resampleMetrics(
  posHist: Int32Array,
  negHist: Int32Array,
  positives: number,
  negatives: number,
  wPos: number,
  wNeg: number,
  out: ResampleMetrics,
): void {
  const groups = posHist.length;
  let tp = 0;
  let fp = 0;
  let ap = 0;
  let apPi = 0;
  let auc = 0;
  for (let k = 0; k < groups; k++) {
    const above = negHist[2 * k] as number;
    auc += above * tp;
    fp += above;
    const h = posHist[k] as number;
    const tied = negHist[2 * k + 1] as number;
    auc += tied * (tp + h / 2);
    tp += h;
    fp += tied;
    if (h > 0) {
      ap += h * (tp / (tp + fp));
      apPi += h * ((wPos * tp) / (wPos * tp + wNeg * fp));
    }
  }
  auc += (negHist[2 * groups] as number) * positives;
  out.averagePrecision = ap / positives;
  out.averagePrecisionAtPrevalence = apPi / positives;
  out.rocAuc = auc / (positives * negatives);
}

/** Multiplicity per group/segment of one resample: hist[bin[drawn[i]]] += 1. */
function histogram(hist: Int32Array, bin: Uint32Array, drawn: Uint32Array): void {
  for (let i = 0; i < drawn.length; i++) hist[bin[drawn[i] as number] as number]!++;
}

/** Whether a Uint32Array over bytes b₀b₁b₂b₃ reads b₀ as its low byte (all of Node's platforms). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The same histogram from each item's multiplicity, a 4-bit count (countUniformDraws):
 * hist[bin[i]] += count(i), a sequential walk. `words` views `counts` eight items at a time: one
 * load and one bounds check per eight, and no branch on zero counts (a third of them,
 * unpredictable) — about a quarter of the time of a byte and a branch per item at 1M items.
 * Integer sums: the order of the additions changes nothing.
 */
function histogramOfCounts(hist: Int32Array, bin: Uint32Array, counts: Uint8Array, words: Uint32Array): void {
  const full = LITTLE_ENDIAN ? Math.min(words.length, bin.length >>> 3) : 0;
  for (let w = 0; w < full; w++) {
    const x = words[w] as number;
    const i = w << 3;
    hist[bin[i] as number]! += x & 15;
    hist[bin[i + 1] as number]! += (x >>> 4) & 15;
    hist[bin[i + 2] as number]! += (x >>> 8) & 15;
    hist[bin[i + 3] as number]! += (x >>> 12) & 15;
    hist[bin[i + 4] as number]! += (x >>> 16) & 15;
    hist[bin[i + 5] as number]! += (x >>> 20) & 15;
    hist[bin[i + 6] as number]! += (x >>> 24) & 15;
    hist[bin[i + 7] as number]! += x >>> 28;
  }
  for (let i = full << 3; i < bin.length; i++)
    hist[bin[i] as number]! += ((counts[i >>> 1] as number) >>> ((i & 1) << 2)) & 15;
}

export interface BootstrapOptions {
  /** Number of resamples B (default 1,000). */
  readonly replicates?: number;
  readonly seed?: number;
  /** Deployment prevalence π for AP_π; when absent AP_π equals AP. */
  readonly prevalence?: number;
  /** Compute only replicates [from, to) — lets workers split B deterministically. */
  readonly from?: number;
  readonly to?: number;
  /** An operating-point rule: each replicate also records the threshold it chooses (issue 14). */
  readonly selection?: SelectionRule;
  /** Called after each replicate with its index (progress; not sent to worker threads). */
  readonly onReplicate?: (replicate: number) => void;
}

export interface Replicates {
  readonly averagePrecision: Float64Array;
  readonly averagePrecisionAtPrevalence: Float64Array;
  readonly rocAuc: Float64Array;
  /** The threshold the operating-point rule chooses on each resample, with `selection`. */
  readonly threshold?: Float64Array;
}

export const DEFAULT_REPLICATES = 1000;

/**
 * Stratified bootstrap replicates (SPEC §4): in replicate b, P positives are drawn with
 * replacement from the positives and N negatives from the negatives (class counts kept), with
 * a xoshiro128** stream seeded by (seed, b). Every candidate in `rankings` sees the same draws,
 * which makes the bootstrap paired. Requires both classes.
 */
export function bootstrapReplicates(
  rankings: readonly PreparedRanking[],
  options: BootstrapOptions = {},
): Replicates[] {
  const first = rankings[0];
  if (!first) throw new RangeError("no ranking to resample");
  const positives = first.positiveGroup.length;
  const negatives = first.negativeSegment.length;
  if (positives === 0 || negatives === 0) throw new RangeError("the bootstrap needs both classes");
  const weights =
    options.prevalence === undefined
      ? { positive: 1, negative: 1 }
      : prevalenceWeights(positives, negatives, options.prevalence).value;
  if (!weights) throw new RangeError("prevalence weights undefined");
  const from = options.from ?? 0;
  const to = options.to ?? options.replicates ?? DEFAULT_REPLICATES;
  const seed = options.seed ?? 0;
  // Each replicate's draws are counted per item (4 bits each) rather than stored (a word per
  // draw): one pass draws, one sequential pass per candidate makes the histogram. The histograms
  // — and so every figure — are those of the stored draws; a count past 15 (about 2·10⁻¹⁴ per
  // item and replicate) falls back to storing the draws.
  const countsPos = new Uint8Array(nibbleCountBytes(positives));
  const countsNeg = new Uint8Array(nibbleCountBytes(negatives));
  const wordsPos = new Uint32Array(countsPos.buffer);
  const wordsNeg = new Uint32Array(countsNeg.buffer);
  let drawnPos: Uint32Array | null = null;
  let drawnNeg: Uint32Array | null = null;
  const hists = rankings.map((r) => ({ pos: new Int32Array(r.groups), neg: new Int32Array(2 * r.groups + 1) }));
  const out = rankings.map(() => ({
    averagePrecision: new Float64Array(to - from),
    averagePrecisionAtPrevalence: new Float64Array(to - from),
    rocAuc: new Float64Array(to - from),
    ...(options.selection ? { threshold: new Float64Array(to - from) } : {}),
  }));
  const one: ResampleMetrics = { averagePrecision: 0, averagePrecisionAtPrevalence: 0, rocAuc: 0 };
  for (let b = from; b < to; b++) {
    const rng = new Xoshiro128(replicateSeed(seed, b));
    const start = rng.exportState();
    countsPos.fill(0);
    countsNeg.fill(0);
    const counted =
      countUniformDraws(rng, countsPos, positives, positives) &&
      countUniformDraws(rng, countsNeg, negatives, negatives);
    if (!counted) {
      rng.importState(start);
      drawnPos ??= new Uint32Array(positives);
      drawnNeg ??= new Uint32Array(negatives);
      fillUniformIndices(rng, drawnPos, positives);
      fillUniformIndices(rng, drawnNeg, negatives);
    }
    for (let c = 0; c < rankings.length; c++) {
      const r = rankings[c]!;
      const h = hists[c]!;
      h.pos.fill(0);
      h.neg.fill(0);
      if (counted) {
        histogramOfCounts(h.pos, r.positiveGroup, countsPos, wordsPos);
        histogramOfCounts(h.neg, r.negativeSegment, countsNeg, wordsNeg);
      } else {
        histogram(h.pos, r.positiveGroup, drawnPos!);
        histogram(h.neg, r.negativeSegment, drawnNeg!);
      }
      resampleMetrics(h.pos, h.neg, positives, negatives, weights.positive, weights.negative, one);
      const o = out[c]!;
      o.averagePrecision[b - from] = one.averagePrecision;
      o.averagePrecisionAtPrevalence[b - from] = one.averagePrecisionAtPrevalence;
      o.rocAuc[b - from] = one.rocAuc;
      // The selection on the same histograms: O(K) more per replicate, no draw, no sort.
      if (o.threshold)
        o.threshold[b - from] =
          r.groupScores[selectGroup(h.pos, h.neg, positives, negatives, options.selection!)?.group ?? -1] ?? NaN;
    }
    options.onReplicate?.(b);
  }
  return out;
}

export interface BootstrapIntervals {
  readonly averagePrecision: Maybe<Interval>;
  readonly averagePrecisionAtPrevalence: Maybe<Interval>;
  readonly rocAuc: Maybe<Interval>;
}

function needsBothClasses(labels: Labels): string | null {
  let positives = 0;
  for (let i = 0; i < labels.length; i++) positives += labels[i] === 1 ? 1 : 0;
  if (positives === 0) return REASONS.noPositives;
  if (positives === labels.length) return REASONS.noNegatives;
  return null;
}

/** Percentile 95% intervals [P2.5, P97.5] of AP, AP_π and ROC-AUC over the stratified bootstrap. */
export function bootstrapIntervals(labels: Labels, scores: Scores, options: BootstrapOptions = {}): BootstrapIntervals {
  const reason = needsBothClasses(labels);
  if (reason)
    return {
      averagePrecision: undefinedBecause(reason),
      averagePrecisionAtPrevalence: undefinedBecause(reason),
      rocAuc: undefinedBecause(reason),
    };
  const [r] = bootstrapReplicates([prepareRanking(labels, scores)], options);
  return intervalsOf(r!);
}

export function intervalsOf(r: Replicates): BootstrapIntervals {
  return {
    averagePrecision: defined(percentileInterval(r.averagePrecision)),
    averagePrecisionAtPrevalence: defined(percentileInterval(r.averagePrecisionAtPrevalence)),
    rocAuc: defined(percentileInterval(r.rocAuc)),
  };
}

/**
 * Paired bootstrap interval for ΔAP = AP(A) − AP(B) of two candidates scored on the same items:
 * both are evaluated on the same resample in every replicate; percentile 95% interval.
 * An interval that excludes 0 means the difference is significant on this data.
 */
export function pairedDeltaApInterval(
  labels: Labels,
  scoresA: Scores,
  scoresB: Scores,
  options: BootstrapOptions = {},
): Maybe<Interval> {
  const reason = needsBothClasses(labels);
  if (reason) return undefinedBecause(reason);
  const [a, b] = bootstrapReplicates([prepareRanking(labels, scoresA), prepareRanking(labels, scoresB)], options);
  const delta = a!.averagePrecision.map((v, i) => v - (b!.averagePrecision[i] as number));
  return defined(percentileInterval(delta));
}
