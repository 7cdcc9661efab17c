import { defined, undefinedBecause, type Maybe } from "./result";

/** z = Φ⁻¹(0.975), the two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

export type Interval = readonly [number, number];

/**
 * Wilson score interval for a proportion k/n (statsmodels `proportion_confint(method="wilson")`):
 *   centre = (p̂ + z²/2n) / (1 + z²/n),
 *   half   = z/(1 + z²/n) · √(p̂(1−p̂)/n + z²/4n²).
 * Undefined for n = 0.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Maybe<Interval> {
  if (trials === 0) return undefinedBecause("no trials: the interval is undefined");
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return defined([Math.max(0, centre - half), Math.min(1, centre + half)]);
}

/**
 * Percentile of a sample with linear interpolation between order statistics (numpy's default
 * `np.percentile(x, q, method="linear")`): h = (n−1)·q/100, x₍⌊h⌋₎ + (h−⌊h⌋)(x₍⌊h⌋+1₎ − x₍⌊h⌋₎).
 * `sorted` must be ascending.
 */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) throw new RangeError("percentile of an empty sample");
  const h = ((n - 1) * q) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  const a = sorted[lo] as number;
  return a + (h - lo) * ((sorted[hi] as number) - a);
}

/** Percentile 95% interval [P2.5, P97.5] of bootstrap replicates (NaN-free). */
export function percentileInterval(replicates: ArrayLike<number>): Interval {
  const sorted = Float64Array.from(replicates).sort();
  return [percentile(sorted, 2.5), percentile(sorted, 97.5)];
}
