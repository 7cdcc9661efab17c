import { describe, expect, it } from "vitest";
import type { PackCandidate, PackRun, PackServing } from "@/lib/pack/pack-data";
import { storedMetricsFixture } from "@/test/metrics-fixtures";
import { reliabilityChart, servingLatencyChart } from "./stage-charts";
import { candidateStyles, OKABE_ITO } from "./palette";
import { tableRows } from "./xy";

const candidate = (id: string): PackCandidate => ({
  id,
  name: id.toUpperCase(),
  provider: "p",
  version: "",
  shortlistRationale: "",
  operatingThreshold: null,
  priceInputPerMTok: null,
  priceOutputPerMTok: null,
  pricePerHour: null,
});

describe("chart preparation", () => {
  it("assigns each candidate one Okabe–Ito colour in candidate order, dashing when the palette repeats", () => {
    const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const styles = candidateStyles(ids);
    expect(styles.get("c0")).toEqual({ colour: "#E69F00", dashed: false });
    expect(styles.get("c7")).toEqual({ colour: OKABE_ITO[7], dashed: false });
    expect(styles.get("c8")).toEqual({ colour: OKABE_ITO[0], dashed: true });
  });

  it("keeps an empty reliability bin as a gap, never a zero, and names a candidate without evidence", () => {
    const bins = [
      { lower: 0, upper: 0.1, count: 10, meanPredicted: 0.05, fractionPositive: 0.1 },
      { lower: 0.1, upper: 0.2, count: 0, meanPredicted: null, fractionPositive: null },
    ];
    const runs = [{ candidateId: "a", metrics: storedMetricsFixture({ reliability: bins }) } as PackRun];
    const chart = reliabilityChart([candidate("a"), candidate("b")], runs, candidateStyles(["a", "b"]));
    expect(chart.series).toHaveLength(1);
    expect(chart.series[0]!.points[1]).toEqual({ x: expect.closeTo(0.15, 12), y: null });
    expect(chart.description).toContain("No evidence for B.");
    expect(chart.x.unit).toBe("probability");
  });

  it("orders serving points by concurrency, draws the SLO line and keeps a missing percentile as a gap", () => {
    const row = (concurrency: number, p95: number | null): PackServing => ({
      candidateId: "a",
      tool: "t",
      toolVersion: null,
      concurrency,
      requestThroughput: 1,
      outputTokenThroughput: null,
      completed: 1,
      failed: 0,
      meanInputTokens: null,
      meanOutputTokens: null,
      ttftMs: {},
      tpotMs: {},
      e2eMs: { p95 },
      tpotSource: "",
    });
    const chart = servingLatencyChart(
      [candidate("a")],
      [row(32, 900), row(1, 300), row(8, null)],
      candidateStyles(["a"]),
      "e2eMs",
      "p95",
      800,
    );
    expect(chart.series[0]!.points).toEqual([
      { x: 1, y: 300 },
      { x: 8, y: null },
      { x: 32, y: 900 },
    ]);
    expect(chart.references).toEqual([{ axis: "y", value: 800, label: "SLO p95 ≤ 800 ms" }]);
    expect(chart.y.unit).toBe("ms");
  });

  it("thins a long series for its table, keeping both ends", () => {
    const points = Array.from({ length: 200 }, (_, i) => ({ x: i, y: i }));
    const rows = tableRows(points, 25);
    expect(rows).toHaveLength(25);
    expect(rows[0]).toEqual({ x: 0, y: 0 });
    expect(rows[24]).toEqual({ x: 199, y: 199 });
  });
});
