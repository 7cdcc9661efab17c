import type { RocCurve } from "./what-if";

/**
 * A stored curve sent to the browser as integer counts: a rate is k/n, so the counts (TP, FP)
 * recover it exactly (round(rate·n) = k for any n below 2⁵²) in a third of the bytes of the
 * rates' 17-digit decimals. The what-if controls expand them once.
 */
export interface CompactCurve {
  tp: number[];
  /** null where the count cannot be recovered (a PR point with precision 0 and recall 0). */
  fp: (number | null)[];
  thresholds: (number | null)[];
}

type RateCurve = { x: number[]; y: number[]; thresholds: (number | null)[] };

export function compactRoc(roc: RateCurve, positives: number, negatives: number): CompactCurve {
  return {
    tp: roc.y.map((tpr) => Math.round(tpr * positives)),
    fp: roc.x.map((fpr) => Math.round(fpr * negatives)),
    thresholds: roc.thresholds,
  };
}

export function expandRoc(c: CompactCurve, positives: number, negatives: number): RocCurve {
  return {
    x: c.fp.map((fp) => (fp ?? 0) / negatives),
    y: c.tp.map((tp) => tp / positives),
    thresholds: c.thresholds,
    operatingIndex: null,
  };
}

/** PR: recall = TP/P and precision = TP/(TP+FP), so FP = TP·(1−precision)/precision. */
export function compactPr(pr: RateCurve, positives: number): CompactCurve {
  const tp = pr.x.map((recall) => Math.round(recall * positives));
  return { tp, fp: pr.y.map((p, i) => (p > 0 ? Math.round((tp[i]! * (1 - p)) / p) : null)), thresholds: pr.thresholds };
}

export function expandPr(c: CompactCurve, positives: number): RateCurve {
  return {
    x: c.tp.map((tp) => tp / positives),
    // scikit-learn's end point (TP = FP = 0) has precision 1; an unrecoverable point had precision 0.
    y: c.tp.map((tp, i) => {
      const fp = c.fp[i];
      if (fp === null || fp === undefined) return 0;
      return tp + fp === 0 ? 1 : tp / (tp + fp);
    }),
    thresholds: c.thresholds,
  };
}
