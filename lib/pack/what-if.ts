import { cheapestPoint, expectedCostPer1k, type CostModel } from "@/lib/metrics/cost";
import { precisionAtPrevalence as precisionAtPrevalenceOrReason } from "@/lib/metrics/prevalence";

export { precisionVersusPrevalence } from "@/lib/metrics/prevalence";

/**
 * The stress test's "what if" (SPEC §4), pure and cheap enough to run in the browser on every
 * keystroke. It works on the stored, downsampled ROC curve, whose points carry their thresholds,
 * TPR and FPR, and evaluates them with the metrics engine's own formulas (lib/metrics: precision
 * at π, expected cost per 1,000, the cost optimum's tie rule, precision versus prevalence), so every
 * figure is exact at the points shown and equals the stored one at the stored parameters.
 * A threshold between two stored points snaps to the stored point predicting the same positives
 * as the nearest stored threshold at or above it (predicted positive ⇔ s ≥ t); the figures say
 * which stored threshold they are for.
 */
export interface RocCurve {
  /** FPR per point. */
  x: number[];
  /** TPR per point. */
  y: number[];
  /** Threshold per point, descending; null (JSON of +∞) for "predict nothing". */
  thresholds: (number | null)[];
  operatingIndex: number | null;
}

export interface CostParameters {
  prevalence: number;
  costFn: number;
  costFp: number;
}

export interface RocPoint {
  /** The stored threshold of the point (null: predict nothing positive). */
  threshold: number | null;
  tpr: number;
  fpr: number;
}

/** The engine's cost model for the pack's parameters (the decision names its costs C_FN and C_FP). */
export function costModel(p: CostParameters): CostModel {
  return { prevalence: p.prevalence, costFalseNegative: p.costFn, costFalsePositive: p.costFp };
}

/** Precision at π as the pack shows it: the engine's figure, null where it is undefined. */
export function precisionAtPrevalence(tpr: number, fpr: number, prevalence: number): number | null {
  return precisionAtPrevalenceOrReason(tpr, fpr, prevalence).value;
}

/** The stored points; the first is scikit-learn's prepended (0, 0) point (threshold max + 1 or +∞): predict nothing. */
export function rocPoints(roc: RocCurve): RocPoint[] {
  return roc.x.map((fpr, i) => ({ threshold: i === 0 ? null : (roc.thresholds[i] ?? null), tpr: roc.y[i]!, fpr }));
}

/** The stored point for threshold t: the lowest stored threshold ≥ t (none → predict nothing). */
export function pointAtThreshold(roc: RocCurve, threshold: number): RocPoint & { exact: boolean } {
  const points = rocPoints(roc);
  let best: RocPoint | null = null;
  for (const p of points) {
    if (p.threshold !== null && p.threshold >= threshold && (best === null || p.threshold < best.threshold!)) best = p;
  }
  const chosen = best ?? points.find((p) => p.threshold === null) ?? { threshold: null, tpr: 0, fpr: 0 };
  return { ...chosen, exact: chosen.threshold === threshold };
}

export interface WhatIfFigures {
  storedThreshold: number | null;
  exact: boolean;
  recall: number;
  fpr: number;
  precision: number | null;
  expectedCostPer1k: number;
}

export function whatIfAt(roc: RocCurve, threshold: number, p: CostParameters): WhatIfFigures {
  const point = pointAtThreshold(roc, threshold);
  return {
    storedThreshold: point.threshold,
    exact: point.exact,
    recall: point.tpr,
    fpr: point.fpr,
    precision: precisionAtPrevalence(point.tpr, point.fpr, p.prevalence),
    expectedCostPer1k: expectedCostPer1k(point.tpr, point.fpr, costModel(p)),
  };
}

/**
 * PR curve at π from the stored PR curve (denser where precision changes): at each point the
 * sample's precision P and recall R give FPR = R·(positives/negatives)·(1−P)/P exactly, hence
 * precision_π. A point with P = 0 or R = 0 has no defined precision at π here: a gap.
 */
export function prAtPrevalenceFromPr(
  pr: { x: number[]; y: number[]; thresholds: (number | null)[] },
  positives: number,
  negatives: number,
  prevalence: number,
): { x: number; y: number | null; threshold: number | null }[] {
  return pr.x
    .map((recall, i) => {
      const p = pr.y[i]!;
      const threshold = pr.thresholds[i] ?? null;
      if (threshold === null || recall === 0 || p === 0 || negatives === 0) return { x: recall, y: null, threshold };
      const fpr = (recall * (positives / negatives) * (1 - p)) / p;
      return { x: recall, y: precisionAtPrevalence(recall, fpr, prevalence), threshold };
    })
    .sort((a, b) => a.x - b.x);
}

/** PR curve at π from the stored ROC points: x = recall, y = precision_π (a gap where undefined). */
export function prAtPrevalence(
  roc: RocCurve,
  prevalence: number,
): { x: number; y: number | null; threshold: number | null }[] {
  return rocPoints(roc)
    .map((p) => ({ x: p.tpr, y: precisionAtPrevalence(p.tpr, p.fpr, prevalence), threshold: p.threshold }))
    .sort((a, b) => a.x - b.x);
}

/** Expected cost per 1,000 items at each stored threshold (x = threshold, ascending). */
export function costByThreshold(roc: RocCurve, p: CostParameters): { x: number; y: number; threshold: number }[] {
  const model = costModel(p);
  return rocPoints(roc)
    .filter((pt): pt is RocPoint & { threshold: number } => pt.threshold !== null)
    .map((pt) => ({ x: pt.threshold, y: expectedCostPer1k(pt.tpr, pt.fpr, model), threshold: pt.threshold }))
    .sort((a, b) => a.x - b.x);
}

/** The cost-optimal stored threshold, by the engine's tie rule (ties go to the higher threshold). */
export function costOptimumOfPoints(
  roc: RocCurve,
  p: CostParameters,
): { threshold: number; expectedCostPer1k: number } | null {
  return cheapestPoint(costByThreshold(roc, p).map((pt) => ({ threshold: pt.threshold, expectedCostPer1k: pt.y })));
}

/** 0.1% … 50%, log-spaced, for the precision-versus-prevalence chart. */
export const PREVALENCE_CHART_GRID: readonly number[] = Array.from({ length: 41 }, (_, i) =>
  Number((0.001 * Math.pow(500, i / 40)).toPrecision(4)),
);
