import type { IssueCollector } from "./issues";
import { JsonFields, type JsonObject } from "./json";
import { compactPct } from "./percentile";
import type { Pct, ServingRecord } from "./types";
import { servingRecordSchema } from "./types";
import { checkRecord } from "./validate";

/**
 * A recomputed distribution is trusted only if its mean reproduces the tool's own mean
 * (relative 1e-6): otherwise the per-request arrays were truncated, filtered or edited, and the
 * tool's summary is kept instead (with a warning).
 */
export function agrees(recomputed: Pct, fileMean: number | undefined): boolean {
  if (recomputed.mean === undefined) return false;
  if (fileMean === undefined) return true;
  return Math.abs(recomputed.mean - fileMean) <= 1e-6 * Math.max(1, Math.abs(fileMean));
}

/** Reads `{mean, p50, ...}` from keys named by `key(stat)`, scaled to milliseconds. */
export function readPct(
  fields: JsonFields,
  obj: JsonObject,
  record: string,
  key: (stat: keyof Pct) => string | string[],
  scale = 1,
  allowString = false,
): Pct {
  const out: Pct = {};
  for (const stat of ["mean", "p50", "p90", "p95", "p99"] as const) {
    const keys = [key(stat)].flat();
    const found = keys.find((k) => obj[k] !== undefined && obj[k] !== null);
    if (found === undefined) continue;
    const v = fields.num(obj, found, record, { allowString });
    if (v !== undefined) out[stat] = v * scale;
  }
  return compactPct(out);
}

/** Drops undefined optional members, then validates (finite, non-negative latencies). */
export function finishServing(
  record: ServingRecord,
  where: { line?: number; record?: string },
  issues: IssueCollector,
): ServingRecord | undefined {
  const clean = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as ServingRecord;
  return checkRecord(servingRecordSchema, clean, where, issues);
}

export const VERDICT_TPOT = "decode time per output token, first token excluded: (e2e − TTFT)/(output tokens − 1)";
