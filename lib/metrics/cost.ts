import type { RankedCounts } from "./ranking";
import { countsAt } from "./ranking";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/** Deployment parameters of a decision: prevalence π and the unit costs of each error. */
export interface CostModel {
  readonly prevalence: number;
  readonly costFalseNegative: number;
  readonly costFalsePositive: number;
}

/** Expected cost per 1,000 items (SPEC §4): 1000·(π·(1−TPR)·C_FN + (1−π)·FPR·C_FP). */
export function expectedCostPer1k(tpr: number, fpr: number, model: CostModel): number {
  return (
    1000 *
    (model.prevalence * (1 - tpr) * model.costFalseNegative + (1 - model.prevalence) * fpr * model.costFalsePositive)
  );
}

/** Expected cost per 1,000 items of the rule s ≥ t; undefined without both classes. */
export function expectedCostAt(counts: RankedCounts, threshold: number, model: CostModel): Maybe<number> {
  if (counts.positives === 0) return undefinedBecause(REASONS.noPositives);
  if (counts.negatives === 0) return undefinedBecause(REASONS.noNegatives);
  const { tp, fp } = countsAt(counts, threshold);
  return defined(expectedCostPer1k(tp / counts.positives, fp / counts.negatives, model));
}

export interface CostPoint {
  readonly threshold: number;
  readonly expectedCostPer1k: number;
}

export interface CostOptimum extends CostPoint {
  /** Cost of predicting nothing positive (TPR = FPR = 0), shown beside the optimum for reference. */
  readonly predictNothingCostPer1k: number;
}

/**
 * The cost optimum's tie rule (SPEC §4): a lower expected cost wins and, at an equal cost, the
 * higher threshold (fewer items flagged). It does not depend on the order the points are visited
 * in, so the engine (every observed score) and the pack's what-if (the stored curve points) agree.
 */
export function isCheaper(point: CostPoint, best: CostPoint | null): boolean {
  return (
    best === null ||
    point.expectedCostPer1k < best.expectedCostPer1k ||
    (point.expectedCostPer1k === best.expectedCostPer1k && point.threshold > best.threshold)
  );
}

/** The cost-optimal point among some (threshold, cost) points by {@link isCheaper}; null when there are none. */
export function cheapestPoint(points: Iterable<CostPoint>): CostPoint | null {
  let best: CostPoint | null = null;
  for (const point of points) if (isCheaper(point, best)) best = point;
  return best;
}

/**
 * Cost-optimal threshold: argmin over the observed distinct scores t of the expected cost of
 * s ≥ t (SPEC §4). Only observed scores are candidates, so the answer is always a threshold one
 * can deploy; "predict nothing positive" (t = +∞) is reported beside it, not chosen. Ties go to
 * the highest threshold (fewest items flagged), by {@link isCheaper}.
 */
export function costOptimalThreshold(counts: RankedCounts, model: CostModel): Maybe<CostOptimum> {
  if (counts.thresholds.length === 0) return undefinedBecause(REASONS.noItems);
  if (counts.positives === 0) return undefinedBecause(REASONS.noPositives);
  if (counts.negatives === 0) return undefinedBecause(REASONS.noNegatives);
  let best: CostPoint | null = null;
  for (let i = counts.thresholds.length - 1; i >= 0; i--) {
    const point: CostPoint = {
      threshold: counts.thresholds[i] as number,
      expectedCostPer1k: expectedCostPer1k(
        (counts.tps[i] as number) / counts.positives,
        (counts.fps[i] as number) / counts.negatives,
        model,
      ),
    };
    if (isCheaper(point, best)) best = point;
  }
  const optimum = best!; // there is at least one threshold, so one point was taken
  return defined({
    threshold: optimum.threshold,
    expectedCostPer1k: optimum.expectedCostPer1k,
    predictNothingCostPer1k: expectedCostPer1k(0, 0, model),
  });
}

/** Expected cost per 1,000 items at every distinct threshold, ascending (downsample for charts). */
export function costCurve(
  counts: RankedCounts,
  model: CostModel,
): Maybe<{ thresholds: Float64Array; costPer1k: Float64Array }> {
  if (counts.positives === 0) return undefinedBecause(REASONS.noPositives);
  if (counts.negatives === 0) return undefinedBecause(REASONS.noNegatives);
  const costPer1k = new Float64Array(counts.thresholds.length);
  for (let i = 0; i < costPer1k.length; i++) {
    costPer1k[i] = expectedCostPer1k(
      (counts.tps[i] as number) / counts.positives,
      (counts.fps[i] as number) / counts.negatives,
      model,
    );
  }
  return defined({ thresholds: counts.thresholds, costPer1k });
}
