import { predictionsAtThreshold } from "./comparison-basis";
import { checkBinaryInput, type Labels, type Scores } from "./validate";

export interface McNemarResult {
  /** Items A classifies correctly and B does not. */
  readonly onlyACorrect: number;
  /** Items B classifies correctly and A does not. */
  readonly onlyBCorrect: number;
  readonly pValue: number;
}

/**
 * Binomial lower tail P[X ≤ k] for X ~ Binomial(n, ½), summed exactly term by term:
 * C(n,k)/2ⁿ is formed in log space (Σ ln((n−k+j)/j) − n ln 2) and the smaller terms by the
 * ratio C(n,i−1)/C(n,i) = i/(n−i+1).
 */
export function binomialHalfCdf(k: number, n: number): number {
  if (k >= n) return 1;
  if (k < 0) return 0;
  let logTerm = -n * Math.LN2;
  for (let j = 1; j <= k; j++) logTerm += Math.log((n - k + j) / j);
  let sum = 0;
  let r = 1;
  for (let i = k; i >= 0; i--) {
    sum += r;
    r *= i / (n - i + 1);
    if (r < sum * 1e-17) break;
  }
  return Math.exp(logTerm + Math.log(sum));
}

/**
 * Exact McNemar test (statsmodels `mcnemar(table, exact=True)`): with b and c the discordant
 * counts, p = min(1, 2·P[X ≤ min(b, c)]), X ~ Binomial(b + c, ½). p = 1 when b + c = 0.
 */
export function exactMcNemar(onlyACorrect: number, onlyBCorrect: number): McNemarResult {
  const n = onlyACorrect + onlyBCorrect;
  const pValue = Math.min(1, 2 * binomialHalfCdf(Math.min(onlyACorrect, onlyBCorrect), n));
  return { onlyACorrect, onlyBCorrect, pValue };
}

/** McNemar on the errors of two candidates at their own operating thresholds (s ≥ t). */
export function mcnemarAtThresholds(
  labels: Labels,
  scoresA: Scores,
  thresholdA: number,
  scoresB: Scores,
  thresholdB: number,
): McNemarResult {
  checkBinaryInput(labels, scoresA);
  checkBinaryInput(labels, scoresB);
  return mcnemarOfPredictions(
    labels,
    predictionsAtThreshold(scoresA, thresholdA),
    predictionsAtThreshold(scoresB, thresholdB),
  );
}

/**
 * McNemar on the errors of two candidates' predictions (1 = positive) on the same items — the
 * predictions their verdict figures count (`basisPredictions`: held out under a choosing rule).
 */
export function mcnemarOfPredictions(labels: Labels, predictedA: Uint8Array, predictedB: Uint8Array): McNemarResult {
  if (predictedA.length !== labels.length || predictedB.length !== labels.length)
    throw new RangeError("labels and predictions differ in length");
  let b = 0;
  let c = 0;
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i] as number;
    const aRight = predictedA[i] === y;
    const bRight = predictedB[i] === y;
    if (aRight && !bRight) b++;
    else if (bRight && !aRight) c++;
  }
  return exactMcNemar(b, c);
}
