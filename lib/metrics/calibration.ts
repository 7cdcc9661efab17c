import { defined, REASONS, undefinedBecause, type Maybe } from "./result";
import { checkBinaryInput, countPositives, type Labels, type Scores } from "./validate";

function scoresAreProbabilities(scores: Scores): boolean {
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (s < 0 || s > 1) return false;
  }
  return true;
}

/**
 * Brier score = (1/n)·Σ (yᵢ − sᵢ)², scikit-learn's `brier_score_loss`. Undefined (scikit-learn
 * raises) when a score lies outside [0, 1].
 */
export function brierScore(labels: Labels, scores: Scores): Maybe<number> {
  checkBinaryInput(labels, scores);
  if (labels.length === 0) return undefinedBecause(REASONS.noItems);
  if (!scoresAreProbabilities(scores)) return undefinedBecause(REASONS.notProbabilities);
  let sum = 0;
  for (let i = 0; i < labels.length; i++) {
    const d = (labels[i] as number) - (scores[i] as number);
    sum += d * d;
  }
  return defined(sum / labels.length);
}

export const LOG_LOSS_EPS = 1e-15;

/**
 * Log loss = −(1/n)·Σ [yᵢ·ln pᵢ + (1−yᵢ)·ln(1−pᵢ)] with pᵢ = clip(sᵢ, ε, 1−ε), ε = 1e-15, as
 * scikit-learn 1.2's `log_loss(y, s, eps=1e-15)` — including its renormalisation of the two
 * clipped columns (1−pᵢ, pᵢ) by their sum. Scores outside [0, 1] are clipped, as there.
 * Undefined (scikit-learn raises) when y holds only one class.
 */
export function logLoss(labels: Labels, scores: Scores, eps = LOG_LOSS_EPS): Maybe<number> {
  checkBinaryInput(labels, scores);
  const n = labels.length;
  if (n === 0) return undefinedBecause(REASONS.noItems);
  const positives = countPositives(labels);
  if (positives === 0 || positives === n) return undefinedBecause(REASONS.oneClassLogLoss);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.min(Math.max(scores[i] as number, eps), 1 - eps);
    const q = 1 - p;
    const total = q + p;
    sum -= Math.log((labels[i] === 1 ? p : q) / total);
  }
  return defined(sum / n);
}

export interface ReliabilityBin {
  /** Bin [lower, upper]; scikit-learn assigns a score equal to an inner edge to the lower bin. */
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
  /** Mean score in the bin (`prob_pred`); null for an empty bin — a gap, not a zero. */
  readonly meanPredicted: number | null;
  /** Fraction of positives in the bin (`prob_true`); null for an empty bin. */
  readonly fractionPositive: number | null;
}

/**
 * Reliability-diagram table with equal-width bins, as scikit-learn's
 * `calibration_curve(y, s, n_bins=10, strategy="uniform")`: edges eₖ = k/bins
 * (numpy `linspace`), bin index = `searchsorted(inner edges, s)` (left side), and per bin
 * prob_true = Σy/count, prob_pred = Σs/count. Undefined when a score lies outside [0, 1].
 */
export function reliabilityTable(labels: Labels, scores: Scores, bins = 10): Maybe<ReliabilityBin[]> {
  checkBinaryInput(labels, scores);
  if (labels.length === 0) return undefinedBecause(REASONS.noItems);
  if (!scoresAreProbabilities(scores)) return undefinedBecause(REASONS.notProbabilities);
  const step = 1 / bins;
  const edges = Array.from({ length: bins + 1 }, (_, k) => (k === bins ? 1 : k * step));
  const count = new Float64Array(bins);
  const sumScore = new Float64Array(bins);
  const sumLabel = new Float64Array(bins);
  for (let i = 0; i < labels.length; i++) {
    const s = scores[i] as number;
    let b = 0; // first inner edge ≥ s (searchsorted, side="left")
    while (b < bins - 1 && (edges[b + 1] as number) < s) b++;
    count[b]! += 1;
    sumScore[b]! += s;
    sumLabel[b]! += labels[i] as number;
  }
  return defined(
    Array.from({ length: bins }, (_, b) => {
      const c = count[b] as number;
      return {
        lower: edges[b] as number,
        upper: edges[b + 1] as number,
        count: c,
        meanPredicted: c === 0 ? null : (sumScore[b] as number) / c,
        fractionPositive: c === 0 ? null : (sumLabel[b] as number) / c,
      };
    }),
  );
}
