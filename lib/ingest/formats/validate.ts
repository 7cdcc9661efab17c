import type { z } from "zod";
import type { IssueCollector } from "./issues";
import { show } from "./issues";

/**
 * Final zod check of every built record (finite numbers, non-negative latencies, ordered CI).
 * `where` locates the record: a CSV line or a JSON path.
 */
export function checkRecord<S extends z.ZodType>(
  schema: S,
  record: z.input<S>,
  where: { line?: number; record?: string },
  issues: IssueCollector,
): z.output<S> | undefined {
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  for (const problem of result.error.issues) {
    const field = problem.path.join(".") || "(record)";
    const value = problem.path.reduce<unknown>(
      (v, k) =>
        v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined,
      record,
    );
    issues.add({ ...where, field, value: show(value), reason: problem.message });
  }
  return undefined;
}

/**
 * Accuracy-like values are stored as fractions: `raw / divisor` must land in [0,1] (divisor 100
 * for percents). Out of range means a percent/fraction mix-up, reported with the value as written.
 */
export function checkFraction(
  raw: number | undefined,
  where: { line?: number; record?: string; field: string },
  issues: IssueCollector,
  divisor = 1,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = raw / divisor;
  if (value >= 0 && value <= 1) return value;
  issues.add({ ...where, value: String(raw), reason: `expected a score in ${divisor === 100 ? "0–100" : "0–1"}` });
  return undefined;
}
