import type { Pct } from "./types";

/**
 * Percentile with linear interpolation between closest ranks — numpy's default
 * (`np.percentile(x, q)`, method "linear"), which vLLM and LLMPerf (via pandas/numpy) use:
 * h = (n − 1)·q/100, result = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) on the sorted values.
 */
export function percentile(sorted: ArrayLike<number>, q: number): number | undefined {
  const n = sorted.length;
  if (n === 0) return undefined;
  const h = ((n - 1) * q) / 100;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, n - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** Mean and p50/p90/p95/p99 of raw values, scaled (e.g. ×1000 for seconds → ms). */
export function summarize(values: readonly number[], scale = 1): Pct {
  if (values.length === 0) return {};
  // A Float64Array sorts numerically without a comparator call per comparison: several times
  // faster on the harness's tens of thousands of latencies a run.
  const sorted = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) sorted[i] = values[i]! * scale;
  sorted.sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const mean = sum / sorted.length;
  return {
    mean,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

/** Drops undefined members so records compare and serialise cleanly. */
export function compactPct(p: Pct): Pct {
  const out: Pct = {};
  for (const key of ["mean", "p50", "p90", "p95", "p99"] as const) {
    const v = p[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

export const PERCENTILE_NOTE = "percentiles recomputed with numpy's default linear interpolation";
