import { expectedCostPer1k, type CostModel } from "./cost";
import { precisionAtPrevalence } from "./prevalence";

/**
 * The rules that choose a candidate's operating threshold (issue 14, SPEC §2 "operating-point
 * rule"). FIXED is no choice at all (the decision's or the candidate's typed threshold):
 *   COST_OPTIMAL — the lowest expected cost per 1,000 at π among thresholds whose recall meets the
 *     recall floor and whose precision at π meets the precision floor (when set);
 *   BEST_PRECISION_AT_RECALL_FLOOR — the highest precision at π among thresholds whose recall
 *     meets the recall floor.
 */
export const OPERATING_RULES = ["FIXED", "COST_OPTIMAL", "BEST_PRECISION_AT_RECALL_FLOOR"] as const;
export type OperatingRuleKind = (typeof OPERATING_RULES)[number];
export type SelectingRuleKind = Exclude<OperatingRuleKind, "FIXED">;

export interface SelectionRule extends CostModel {
  readonly kind: SelectingRuleKind;
  readonly recallFloor: number;
  readonly precisionFloor: number | null;
}

export interface Selection {
  /** Index of the chosen positive-score group (0 = the highest positive score). */
  readonly group: number;
  /** Whether the chosen threshold meets every floor on the data it was chosen on. */
  readonly meetsFloors: boolean;
}

/**
 * Applies a rule to one (possibly weighted or partial) sample given as histograms over the
 * positive-score groups of a PreparedRanking (bootstrap.ts): posHist[k] positives at the k-th
 * highest distinct positive score, negHist[2k] negatives strictly between it and the next higher
 * one, negHist[2k+1] negatives tied with it. O(K).
 *
 * Only thresholds at a positive score of this sample are candidates: between two of them recall
 * is constant while false positives only grow as the threshold falls, so every other threshold is
 * dominated in cost and in precision (the choice equals the argmin over every observed score, as
 * `costOptimalThreshold` computes it, restricted to the floors). Ties go to the highest threshold
 * for cost (fewest items flagged) and to the higher recall for precision.
 *
 * When no threshold meets the floors (only the precision floor can be out of reach: the lowest
 * positive score gives recall 1), the rule falls back to the highest precision at the recall floor
 * and says so (meetsFloors false); the pack then says by how much the candidate misses.
 * Returns null when the sample has no positive or no negative.
 */
export function selectGroup(
  posHist: ArrayLike<number>,
  negHist: ArrayLike<number>,
  positives: number,
  negatives: number,
  rule: SelectionRule,
): Selection | null {
  if (positives <= 0 || negatives <= 0) return null;
  let tp = 0;
  let fp = 0;
  let bestCost = -1;
  let bestCostValue = Infinity;
  let bestPrecision = -1;
  let bestPrecisionValue = -Infinity;
  for (let k = 0; k < posHist.length; k++) {
    const h = posHist[k] as number;
    tp += h;
    fp += (negHist[2 * k] as number) + (negHist[2 * k + 1] as number);
    if (h === 0) continue;
    const recall = tp / positives;
    if (recall < rule.recallFloor) continue;
    const fpr = fp / negatives;
    const precision = precisionAtPrevalence(recall, fpr, rule.prevalence).value ?? 0;
    if (precision >= bestPrecisionValue) {
      bestPrecisionValue = precision;
      bestPrecision = k;
    }
    if (rule.kind === "COST_OPTIMAL" && (rule.precisionFloor === null || precision >= rule.precisionFloor)) {
      const cost = expectedCostPer1k(recall, fpr, rule);
      if (cost < bestCostValue) {
        bestCostValue = cost;
        bestCost = k;
      }
    }
  }
  if (bestPrecision < 0) return null; // cannot happen with positives > 0 and a floor ≤ 1
  if (rule.kind === "COST_OPTIMAL")
    return bestCost >= 0 ? { group: bestCost, meetsFloors: true } : { group: bestPrecision, meetsFloors: false };
  return {
    group: bestPrecision,
    meetsFloors: rule.precisionFloor === null || bestPrecisionValue >= rule.precisionFloor,
  };
}
