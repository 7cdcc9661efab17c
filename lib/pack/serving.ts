/**
 * Stage 5 arithmetic (SPEC §5), pure. Percentile objects hold milliseconds.
 */
export interface Pct {
  mean?: number | null;
  p50?: number | null;
  p90?: number | null;
  p95?: number | null;
  p99?: number | null;
}

export interface ServingRow {
  concurrency: number | null;
  requestThroughput: number;
  meanInputTokens: number | null;
  meanOutputTokens: number | null;
  ttftMs: Pct;
  e2eMs: Pct;
}

export interface Pricing {
  priceInputPerMTok: number | null;
  priceOutputPerMTok: number | null;
  pricePerHour: number | null;
}

export interface Slos {
  sloP95E2eMs: number | null;
  sloP95TtftMs: number | null;
  sloMinThroughputRps: number | null;
  sloThroughputConcurrency: number | null;
  sloMaxCostPer1kRequests: number | null;
}

/**
 * Cost per 1,000 requests: per-token prices × mean tokens per request, or an hourly instance
 * price ÷ request throughput (req/s × 3,600 s/h). Null when no price or no token counts.
 */
export function costPer1kRequests(pricing: Pricing, row: ServingRow): number | null {
  if (pricing.pricePerHour !== null && row.requestThroughput > 0) {
    return (pricing.pricePerHour / (row.requestThroughput * 3600)) * 1000;
  }
  if (
    pricing.priceInputPerMTok !== null &&
    pricing.priceOutputPerMTok !== null &&
    row.meanInputTokens !== null &&
    row.meanOutputTokens !== null
  ) {
    return (
      ((row.meanInputTokens * pricing.priceInputPerMTok + row.meanOutputTokens * pricing.priceOutputPerMTok) / 1e6) *
      1000
    );
  }
  return null;
}

export type SloKey = "p95E2e" | "p95Ttft" | "throughput" | "cost";

export interface SloCheck {
  key: SloKey;
  label: string;
  target: number;
  actual: number | null;
  pass: boolean | null;
}

/** Checks one load level against every SLO the decision sets (null actual → not measurable → fails). */
export function checkSlos(slos: Slos, pricing: Pricing, row: ServingRow): SloCheck[] {
  const checks: SloCheck[] = [];
  const add = (
    key: SloKey,
    label: string,
    target: number | null,
    actual: number | null,
    ok: (a: number, t: number) => boolean,
  ) => {
    if (target === null) return;
    checks.push({ key, label, target, actual, pass: actual === null ? false : ok(actual, target) });
  };
  add("p95E2e", "p95 E2E latency", slos.sloP95E2eMs, row.e2eMs.p95 ?? null, (a, t) => a <= t);
  add("p95Ttft", "p95 TTFT", slos.sloP95TtftMs, row.ttftMs.p95 ?? null, (a, t) => a <= t);
  add("throughput", "throughput", slos.sloMinThroughputRps, row.requestThroughput, (a, t) => a >= t);
  add(
    "cost",
    "cost per 1,000 requests",
    slos.sloMaxCostPer1kRequests,
    costPer1kRequests(pricing, row),
    (a, t) => a <= t,
  );
  return checks;
}

/** The row measured at the SLO's stated concurrency (or, without one, the highest measured). */
export function rowAtSloConcurrency<R extends ServingRow>(slos: Slos, rows: readonly R[]): R | null {
  if (rows.length === 0) return null;
  if (slos.sloThroughputConcurrency !== null)
    return rows.find((r) => r.concurrency === slos.sloThroughputConcurrency) ?? null;
  return [...rows].sort((a, b) => (b.concurrency ?? 0) - (a.concurrency ?? 0))[0] ?? null;
}

/**
 * The highest measured concurrency at which every latency and cost SLO holds (throughput is a
 * floor stated at one concurrency, so it is judged there, not at every level).
 */
export function highestPassingConcurrency<R extends ServingRow>(
  slos: Slos,
  pricing: Pricing,
  rows: readonly R[],
): R | null {
  const passing = rows.filter((row) =>
    checkSlos({ ...slos, sloMinThroughputRps: null }, pricing, row).every((c) => c.pass),
  );
  return passing.sort((a, b) => (b.concurrency ?? 0) - (a.concurrency ?? 0))[0] ?? null;
}
