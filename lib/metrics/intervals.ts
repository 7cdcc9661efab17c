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

/** Percentile interval of bootstrap replicates (NaN-free): [P2.5, P97.5] at the default level 95. */
export function percentileInterval(replicates: ArrayLike<number>, level = 95): Interval {
  const sorted = Float64Array.from(replicates).sort();
  const tail = (100 - level) / 2;
  return [percentile(sorted, tail), percentile(sorted, 100 - tail)];
}

/**
 * MOVER (method of variance estimates recovery; Zou & Donner 2008, Newcombe 2013) for
 * a·p₁ + b·p₂ of two independent proportions from their own intervals (Wilson's): each side of
 * the sum's interval recovers the variance of each term from the distance of the matching end
 * to its estimate,
 *   L = θ̂ − √Σ (c_i·p̂_i − min(c_i·l_i, c_i·u_i))²,  U = θ̂ + √Σ (max(c_i·l_i, c_i·u_i) − c_i·p̂_i)².
 * Unlike joining the intervals' corners (the sum of both ends at once, near 99 % coverage), it
 * keeps the nominal level (bench:intervals measures it).
 */
export function moverSum(terms: readonly { c: number; p: number; interval: Interval }[]): Interval {
  let estimate = 0;
  let down = 0;
  let up = 0;
  for (const { c, p, interval } of terms) {
    const ends = [c * interval[0], c * interval[1]];
    estimate += c * p;
    down += (c * p - Math.min(...ends)) ** 2;
    up += (Math.max(...ends) - c * p) ** 2;
  }
  return [estimate - Math.sqrt(down), estimate + Math.sqrt(up)];
}

/**
 * MOVER-R (Donner & Zou 2012) for the ratio p₁/p₂ of two independent proportions from their
 * intervals (l₁, u₁), (l₂, u₂):
 *   L = [p₁p₂ − √((p₁p₂)² − l₁u₂(2p₁ − l₁)(2p₂ − u₂))] / [u₂(2p₂ − u₂)],
 *   U = [p₁p₂ + √((p₁p₂)² − u₁l₂(2p₁ − u₁)(2p₂ − l₂))] / [l₂(2p₂ − l₂)];
 * an end whose denominator is not positive is unbounded (0 or +∞). Needs p₂ > 0.
 */
export function moverRatio(p1: number, i1: Interval, p2: number, i2: Interval): Interval {
  const [l1, u1] = i1;
  const [l2, u2] = i2;
  const pp = p1 * p2;
  const lowDen = u2 * (2 * p2 - u2);
  const highDen = l2 * (2 * p2 - l2);
  const root = (x: number) => Math.sqrt(Math.max(0, x));
  const low = lowDen > 0 ? (pp - root(pp * pp - l1 * u2 * (2 * p1 - l1) * (2 * p2 - u2))) / lowDen : 0;
  const high = highDen > 0 ? (pp + root(pp * pp - u1 * l2 * (2 * p1 - u1) * (2 * p2 - l2))) / highDen : Infinity;
  return [Math.max(0, low), high];
}

/**
 * Newcombe's interval for the difference p₁ − p₂ of two proportions measured on the same n units
 * (Newcombe 1998, "Improved confidence intervals for the difference between binomial proportions
 * based on paired data", method 10), from the paired 2×2 table: `both` units count for p₁ and p₂,
 * `onlyFirst` for p₁ alone, `onlySecond` for p₂ alone, `neither` for none. It is MOVER on the two
 * margins' Wilson intervals (l_i, u_i) with their correlation φ:
 *   L = θ̂ − √((p₁ − l₁)² − 2φ(p₁ − l₁)(u₂ − p₂) + (u₂ − p₂)²),
 *   U = θ̂ + √((p₂ − l₂)² − 2φ(p₂ − l₂)(u₁ − p₁) + (u₁ − p₁)²),
 * where φ is the phi coefficient of the table with Newcombe's correction: (ad − bc − n/2) when
 * ad − bc > n/2, ad − bc when it is negative, else 0, over √ of the margins' product (0 when a
 * margin is empty). Identical margins unit by unit (no discordant unit) give [0, 0].
 */
export function newcombePairedDifference(
  both: number,
  onlyFirst: number,
  onlySecond: number,
  neither: number,
  z = Z_95,
): { difference: number; interval: Interval } {
  const n = both + onlyFirst + onlySecond + neither;
  const p1 = (both + onlyFirst) / n;
  const p2 = (both + onlySecond) / n;
  const [l1, u1] = wilsonInterval(both + onlyFirst, n, z).value!;
  const [l2, u2] = wilsonInterval(both + onlySecond, n, z).value!;
  const margins = (both + onlyFirst) * (onlySecond + neither) * (both + onlySecond) * (onlyFirst + neither);
  const cross = both * neither - onlyFirst * onlySecond;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = margins > 0 ? corrected / Math.sqrt(margins) : 0;
  const side = (x: number, y: number) => Math.sqrt(Math.max(0, x * x - 2 * phi * x * y + y * y));
  const difference = p1 - p2;
  return {
    difference,
    interval: [difference - side(p1 - l1, u2 - p2), difference + side(p2 - l2, u1 - p1)],
  };
}
