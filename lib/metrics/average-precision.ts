import { pointPrecision } from "./pr-curve";
import type { ClassWeights } from "./prevalence";
import type { RankedCounts } from "./ranking";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/**
 * Average precision, AP = Σₙ (Rₙ − Rₙ₋₁)·Pₙ over the PR curve's points, without interpolation —
 * scikit-learn's `average_precision_score`, which evaluates −Σ diff(recall)·precision[:-1]
 * over `precision_recall_curve`'s output. Here the same terms are summed from the counts.
 * With class weights (π/p, (1−π)/(1−p)) it is AP at prevalence π (SPEC §4), equal to
 * `average_precision_score(y, s, sample_weight=w)`.
 * Undefined without positives (scikit-learn warns and returns 0).
 */
export function averagePrecision(counts: RankedCounts, weights?: ClassWeights): Maybe<number> {
  if (counts.thresholds.length === 0) return undefinedBecause(REASONS.noItems);
  if (counts.positives === 0) return undefinedBecause(REASONS.noPositives);
  const { tps, fps, positives } = counts;
  const m = counts.thresholds.length;
  let sum = 0;
  for (let i = 0; i < m; i++) {
    const tp = tps[i] as number;
    const nextRecall = i + 1 < m ? (tps[i + 1] as number) / positives : 0;
    sum += (nextRecall - tp / positives) * pointPrecision(tp, fps[i] as number, weights);
  }
  return defined(-sum);
}
