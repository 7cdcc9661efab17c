import { describe, expect, it } from "vitest";
import { FROZEN_TEXT } from "@/lib/format";
import { candidateGates, failedGates } from "./gates";
import { storedMetricsFixture } from "@/test/metrics-fixtures";

const decision = {
  recallFloor: 0.85,
  precisionFloor: 0.3,
  prevalence: 0.02,
  sloP95E2eMs: 800,
  sloP95TtftMs: 300,
  sloMinThroughputRps: 20,
  sloThroughputConcurrency: 32,
  sloMaxCostPer1kRequests: null,
};
const pricing = { priceInputPerMTok: null, priceOutputPerMTok: null, pricePerHour: null };
const run = (recall: number, precision: number) =>
  storedMetricsFixture({
    report: { n: 1000, positives: 30, atThreshold: { threshold: 0.5, recall }, reweighted: { precision } },
  });
const row = (concurrency: number, e2e: number, ttft: number, rps: number) => ({
  concurrency,
  requestThroughput: rps,
  meanInputTokens: null,
  meanOutputTokens: null,
  ttftMs: { p95: ttft },
  e2eMs: { p95: e2e },
});

describe("candidateGates", () => {
  it("passes a candidate with every floor and SLO met at the stated concurrency", () => {
    const gates = candidateGates(decision, pricing, run(0.9, 0.4), [row(8, 100, 50, 5), row(32, 700, 250, 25)]);
    expect(failedGates(gates)).toEqual([]);
    expect(gates.map((g) => g.key)).toEqual([
      "stage3-evidence",
      "stage4-evidence",
      "recall-floor",
      "precision-floor",
      "stage5-evidence",
      "slo-p95E2e",
      "slo-p95Ttft",
      "slo-throughput",
    ]);
  });

  it("fails the recall floor, the precision floor at π and a latency SLO", () => {
    const gates = candidateGates(decision, pricing, run(0.84, 0.2), [row(32, 900, 250, 25)]);
    expect(failedGates(gates).map((g) => g.key)).toEqual(["recall-floor", "precision-floor", "slo-p95E2e"]);
  });

  it("treats missing evidence as failing, never as passing", () => {
    const gates = candidateGates(decision, pricing, null, [row(8, 100, 50, 5)]);
    expect(failedGates(gates).map((g) => g.key)).toEqual([
      "stage3-evidence",
      "stage4-evidence",
      "recall-floor",
      "precision-floor",
      "stage5-evidence",
    ]);
  });

  it("states a throughput below 0.1 req/s as measured, while a frozen revision keeps the text it was signed with", () => {
    const slow = row(32, 700, 250, 0.03);
    const shown = candidateGates(decision, pricing, run(0.9, 0.4), [slow]).find((g) => g.key === "slo-throughput")!;
    expect(shown).toMatchObject({ pass: false, detail: "measured 0.03 req/s at concurrency 32" });
    const frozen = candidateGates(decision, pricing, run(0.9, 0.4), [slow], FROZEN_TEXT);
    expect(frozen.find((g) => g.key === "slo-throughput")!.detail).toBe("measured 0.0 req/s at concurrency 32");
  });
});
