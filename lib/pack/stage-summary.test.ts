import { describe, expect, it } from "vitest";
import { stageHeadlines, type PackInput } from "./stage-summary";

const row = (candidateId: string, concurrency: number | null) => ({
  candidateId,
  concurrency,
  requestThroughput: 0.03,
  meanInputTokens: null,
  meanOutputTokens: null,
  ttftMs: { p95: 120 },
  e2eMs: { p95: 640 },
});

const pack = (serving: PackInput["serving"]): PackInput => ({
  currency: "USD",
  recallFloor: 0.85,
  precisionFloor: null,
  prevalence: 0.02,
  sloP95E2eMs: 800,
  sloP95TtftMs: null,
  sloMinThroughputRps: null,
  sloThroughputConcurrency: 32,
  sloMaxCostPer1kRequests: null,
  candidates: ["a", "b", "c"].map((id) => ({
    id,
    name: id.toUpperCase(),
    priceInputPerMTok: null,
    priceOutputPerMTok: null,
    pricePerHour: null,
  })),
  scores: [],
  runs: [],
  serving,
});

describe("stageHeadlines: the five-stage overview of stage 5", () => {
  it("says 'measured, concurrency unknown' with the figure for a serving file that states no concurrency", () => {
    const operational = stageHeadlines(pack([row("a", 32), row("b", null)])).operational;
    expect(operational.get("a")).toMatchObject({ text: "p95 E2E 640 ms at concurrency 32" });
    expect(operational.get("a")!.detail).toContain("0.03 req/s");
    expect(operational.get("b")).toMatchObject({ text: "measured, concurrency unknown", tone: "warn" });
    expect(operational.get("b")!.detail).toBe("p95 E2E 640 ms · 0.03 req/s · not measured at the SLO's concurrency");
    // No serving file at all is still "no evidence" (null).
    expect(operational.get("c")).toBe(null);
  });
});
