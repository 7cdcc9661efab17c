import { describe, expect, it } from "vitest";
import { checkSlos, costPer1kRequests, highestPassingConcurrency, type ServingRow } from "./serving";

const slos = {
  sloP95E2eMs: 800,
  sloP95TtftMs: 300,
  sloMinThroughputRps: 20,
  sloThroughputConcurrency: 32,
  sloMaxCostPer1kRequests: 0.5,
};
const row = (concurrency: number, e2eP95: number, ttftP95: number, rps: number): ServingRow => ({
  concurrency,
  requestThroughput: rps,
  meanInputTokens: 400,
  meanOutputTokens: 100,
  ttftMs: { p95: ttftP95 },
  e2eMs: { p95: e2eP95 },
});

describe("operational arithmetic", () => {
  it("prices requests per token or per instance hour", () => {
    // 400 × $1/M + 100 × $3/M = $0.0007 per request → $0.70 per 1,000.
    expect(
      costPer1kRequests({ priceInputPerMTok: 1, priceOutputPerMTok: 3, pricePerHour: null }, row(1, 0, 0, 1)),
    ).toBeCloseTo(0.7, 12);
    // $3.60 per hour at 10 req/s = 36,000 requests per hour → $0.10 per 1,000.
    expect(
      costPer1kRequests({ priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: 3.6 }, row(1, 0, 0, 10)),
    ).toBeCloseTo(0.1, 12);
    expect(
      costPer1kRequests({ priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: null }, row(1, 0, 0, 10)),
    ).toBeNull();
  });

  it("checks each SLO; the bounds are inclusive; an unmeasured figure fails", () => {
    const pricing = { priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: 3.6 };
    const checks = checkSlos(slos, pricing, row(32, 800, 300.5, 20));
    expect(Object.fromEntries(checks.map((c) => [c.key, c.pass]))).toEqual({
      p95E2e: true,
      p95Ttft: false,
      throughput: true,
      cost: true,
    });
    const noPrice = checkSlos(
      slos,
      { priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: null },
      row(32, 100, 100, 50),
    );
    expect(noPrice.find((c) => c.key === "cost")).toMatchObject({ actual: null, pass: false });
  });

  it("finds the highest concurrency meeting every latency and cost SLO", () => {
    const pricing = { priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: 1 };
    const rows = [row(1, 200, 80, 5), row(16, 500, 150, 40), row(32, 790, 290, 60), row(64, 1400, 600, 70)];
    expect(highestPassingConcurrency(slos, pricing, rows)?.concurrency).toBe(32);
    expect(highestPassingConcurrency(slos, pricing, [row(8, 900, 100, 10)])).toBeNull();
  });
});
