/**
 * Chart downsampling: choose at most `maxPoints` indices of a curve (x, y) such that
 *  - both ends and every index in `keep` (e.g. the operating point) are always kept;
 *  - every corner is kept when the corners fit: points collinear with both neighbours
 *    (cross product exactly 0) are dropped first, as they change nothing on the chart;
 *  - otherwise the remaining corners are thinned by Largest-Triangle-Three-Buckets
 *    (Steinarsson, 2013), which keeps the points that shape the curve most.
 * Returns ascending indices. Metrics such as AP are always computed from the full curve.
 */
export function downsampleIndices(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  maxPoints: number,
  keep: readonly number[] = [],
): number[] {
  const n = x.length;
  if (n !== y.length) throw new RangeError("x and y differ in length");
  if (n === 0) return [];
  const mandatory = new Set<number>([0, n - 1, ...keep.filter((i) => i >= 0 && i < n)]);
  if (maxPoints < mandatory.size)
    throw new RangeError(`maxPoints ${maxPoints} is less than the ${mandatory.size} points that must be kept`);
  if (n <= maxPoints) return range(n);
  const corners: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    if (mandatory.has(i)) continue;
    const cross =
      ((x[i] as number) - (x[i - 1] as number)) * ((y[i + 1] as number) - (y[i] as number)) -
      ((y[i] as number) - (y[i - 1] as number)) * ((x[i + 1] as number) - (x[i] as number));
    if (cross !== 0) corners.push(i);
  }
  const budget = maxPoints - mandatory.size;
  const chosen = corners.length <= budget ? corners : largestTriangleBuckets(x, y, corners, budget);
  return [...new Set([...mandatory, ...chosen])].sort((a, b) => a - b);
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** LTTB over candidate indices: one point per bucket, the one with the largest triangle. */
function largestTriangleBuckets(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  candidates: number[],
  buckets: number,
): number[] {
  if (buckets <= 0) return [];
  const chosen: number[] = [];
  const size = candidates.length / buckets;
  let prevX = x[0] as number;
  let prevY = y[0] as number;
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor(b * size);
    const end = Math.floor((b + 1) * size);
    const nextStart = end;
    const nextEnd = Math.min(Math.floor((b + 2) * size), candidates.length);
    let avgX = x[x.length - 1] as number;
    let avgY = y[y.length - 1] as number;
    if (nextEnd > nextStart) {
      avgX = 0;
      avgY = 0;
      for (let j = nextStart; j < nextEnd; j++) {
        avgX += x[candidates[j] as number] as number;
        avgY += y[candidates[j] as number] as number;
      }
      avgX /= nextEnd - nextStart;
      avgY /= nextEnd - nextStart;
    }
    let best = -1;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      const i = candidates[j] as number;
      const area = Math.abs((prevX - avgX) * ((y[i] as number) - prevY) - (prevX - (x[i] as number)) * (avgY - prevY));
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    if (best >= 0) {
      chosen.push(best);
      prevX = x[best] as number;
      prevY = y[best] as number;
    }
  }
  return chosen;
}

/** Pick the given indices of an array (for charts: the downsampled points of a curve). */
export function pick(values: ArrayLike<number>, indices: readonly number[]): number[] {
  return indices.map((i) => values[i] as number);
}
