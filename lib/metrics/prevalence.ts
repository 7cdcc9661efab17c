import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/** Per-class weights for re-weighting a sample of prevalence p to a deployment prevalence π. */
export interface ClassWeights {
  readonly positive: number;
  readonly negative: number;
}

/**
 * SPEC §4: each positive weighs π/p and each negative (1−π)/(1−p), with p = P/(P+N).
 * Undefined when the sample lacks a class; π must lie in the open interval (0, 1) (π = 0 or 1
 * would give a class zero weight, which scikit-learn drops from the sample).
 */
export function prevalenceWeights(positives: number, negatives: number, prevalence: number): Maybe<ClassWeights> {
  if (!(prevalence > 0 && prevalence < 1)) throw new RangeError(`prevalence must be in (0, 1), got ${prevalence}`);
  if (positives === 0 || negatives === 0) return undefinedBecause(REASONS.noPrevalence);
  const p = positives / (positives + negatives);
  return defined({ positive: prevalence / p, negative: (1 - prevalence) / (1 - p) });
}

/**
 * Precision at prevalence π (SPEC §4): precision_π = π·TPR / (π·TPR + (1−π)·FPR).
 * Undefined when nothing is predicted positive (TPR = FPR = 0).
 */
export function precisionAtPrevalence(tpr: number, fpr: number, prevalence: number): Maybe<number> {
  const denominator = prevalence * tpr + (1 - prevalence) * fpr;
  return denominator === 0 ? undefinedBecause(REASONS.noPredictedPositives) : defined((prevalence * tpr) / denominator);
}

/** Default prevalence grid for the precision-versus-prevalence table. */
export const PREVALENCE_GRID = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5] as const;

export interface PrecisionAtPrevalenceRow {
  readonly prevalence: number;
  readonly precision: number | null;
}

/** precision_π at one fixed threshold (fixed TPR, FPR) for each π of a grid. */
export function precisionVersusPrevalence(
  tpr: number,
  fpr: number,
  grid: readonly number[],
): PrecisionAtPrevalenceRow[] {
  return [...new Set(grid)]
    .sort((a, b) => a - b)
    .map((prevalence) => ({ prevalence, precision: precisionAtPrevalence(tpr, fpr, prevalence).value }));
}
