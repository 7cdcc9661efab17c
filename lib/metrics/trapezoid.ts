import type { PrCurve } from "./pr-curve";
import { defined, REASONS, undefinedBecause, type Maybe } from "./result";

/**
 * Area under a curve by the trapezoidal rule, as scikit-learn's `auc(x, y)`:
 * area = direction · Σ (xᵢ₊₁ − xᵢ)·(yᵢ₊₁ + yᵢ)/2 (numpy's `trapz`), where x must be monotonic;
 * direction = −1 when x is non-increasing. Undefined (scikit-learn raises) for fewer than two
 * points or non-monotonic x.
 */
export function trapezoidArea(x: ArrayLike<number>, y: ArrayLike<number>): Maybe<number> {
  const n = x.length;
  if (n !== y.length) throw new RangeError("x and y differ in length");
  if (n < 2) return undefinedBecause("fewer than 2 points: area under curve is undefined");
  let increasing = true;
  let decreasing = true;
  for (let i = 1; i < n; i++) {
    const d = (x[i] as number) - (x[i - 1] as number);
    if (d < 0) increasing = false;
    if (d > 0) decreasing = false;
  }
  if (!increasing && !decreasing) return undefinedBecause("x is neither increasing nor decreasing");
  let area = 0;
  for (let i = 1; i < n; i++) {
    area += ((x[i] as number) - (x[i - 1] as number)) * (((y[i] as number) + (y[i - 1] as number)) / 2);
  }
  return defined(increasing ? area : -area);
}

/** The trapezoidal PR area `auc(recall, precision)` — shown only when labelled as such (SPEC §4). */
export function prAucTrapezoid(curve: PrCurve): Maybe<number> {
  if (!curve.recall) return undefinedBecause(curve.recallReason ?? REASONS.noPositives);
  return trapezoidArea(curve.recall, curve.precision);
}
