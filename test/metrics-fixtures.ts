import type { StoredRunMetrics } from "../lib/pack/run-input.ts";
import { storedRunMetrics } from "../lib/pack/run-input.ts";

type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * Stored metrics for a pure test that reads only a few figures: the fields given are type-checked
 * against StoredRunMetrics (a misspelt or mistyped one does not compile), the rest left out.
 */
export function storedMetricsFixture(partial: DeepPartial<StoredRunMetrics>): StoredRunMetrics {
  return partial as unknown as StoredRunMetrics;
}

/** A computed run's EvalRun.metrics, read by a test that knows the run is computed. */
export function computedMetrics(json: unknown): StoredRunMetrics {
  const metrics = storedRunMetrics(json);
  if (!metrics) throw new Error("the eval run has no metrics: it is not computed");
  return metrics;
}
