import { splitInHalves, type OperatingPoint, type RuleNotApplied } from "./operating-point";
import type { Labels, Scores } from "./validate";

/** 1 where s ≥ t: the predictions at one threshold. */
export function predictionsAtThreshold(scores: Scores, threshold: number): Uint8Array {
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = (scores[i] as number) >= threshold ? 1 : 0;
  return out;
}

/**
 * The predictions a run's verdict figures count (issue 27: one basis for every comparison). Under
 * a rule that chose by cross-fitting, each item is predicted at the threshold chosen on the other
 * half — half B's items at t_A, half A's at t_B — so the counts over these predictions are the
 * held-out counts the gates, costs and recommendation use (`chooseOperatingPoint`). Otherwise
 * (FIXED, hard labels, a half without a class: the figures are in-sample) at the one threshold.
 * The split is recomputed from the stored seed with the labels, slices and item order the run was
 * computed with (`splitInHalves` is deterministic in them).
 */
export function basisPredictions(
  labels: Labels,
  scores: Scores,
  slices: ArrayLike<string | null> | undefined,
  threshold: number,
  operatingPoint: OperatingPoint | RuleNotApplied | undefined,
): Uint8Array {
  const op = operatingPoint;
  if (!op?.applies || op.method !== "cross-fitted") return predictionsAtThreshold(scores, threshold);
  const [a, b] = op.split.parts;
  const tA = a?.threshold;
  const tB = b?.threshold;
  if (tA == null || tB == null) return predictionsAtThreshold(scores, threshold);
  const part = splitInHalves(labels, slices, op.split.seed);
  const out = new Uint8Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = (scores[i] as number) >= (part[i] === 1 ? tA : tB) ? 1 : 0;
  return out;
}

/** (TP, FP) of a prediction vector: what {@link basisPredictions} must reproduce of the stored figures. */
export function countsOfPredictions(labels: Labels, predicted: Uint8Array): { tp: number; fp: number } {
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < labels.length; i++) {
    if (predicted[i] !== 1) continue;
    if (labels[i] === 1) tp++;
    else fp++;
  }
  return { tp, fp };
}
