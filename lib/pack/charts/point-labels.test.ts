import { describe, expect, it } from "vitest";
import type { PackCandidate, PackServing } from "@/lib/pack/pack-data";
import { candidateStyles } from "./palette";
import { servingLatencyChart, throughputChart } from "./stage-charts";
import { pointLabels } from "./xy";

// Issue 25 item 4 on the page: a candidate measured at one serving level is a lone dot that
// carries its figure; a candidate with a line carries none. The text runs towards the plot's
// middle, so it stays inside the plot and off the tick labels.

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
const row = (candidateId: string, concurrency: number, e2e: number, rps: number): PackServing => ({
  candidateId,
  tool: "vllm",
  toolVersion: null,
  concurrency,
  requestThroughput: rps,
  outputTokenThroughput: null,
  completed: 100,
  failed: 0,
  meanInputTokens: null,
  meanOutputTokens: null,
  ttftMs: { p95: 100 },
  tpotMs: { p95: 10 },
  e2eMs: { p95: e2e },
  tpotSource: "",
});
const candidates = [candidate("a"), candidate("b")];
const styles = candidateStyles(["a", "b"]);

describe("the figure beside a lone serving point", () => {
  it("labels only the candidate measured at one level, with its figure and unit", () => {
    const serving = [row("a", 1, 300, 3), row("a", 8, 500, 14), row("a", 64, 900, 30), row("b", 64, 412.4, 0.03)];
    const latency = pointLabels(servingLatencyChart(candidates, serving, styles, "e2eMs", "p95", 800));
    expect([...latency.keys()]).toEqual(["b"]);
    // At the highest concurrency (right edge): the text runs left, into the plot; mid-height: above.
    expect(latency.get("b")).toEqual({ text: "412 ms", anchor: "end", below: false });
    // 0.03 req/s at the chart's one decimal is not rounded to zero (lib/format.ts).
    const throughput = pointLabels(throughputChart(candidates, serving, styles, 20, 32));
    expect(throughput.get("b")!.text).toBe("0.03 req/s");
  });

  it("runs right of a point at the left edge and below a point at the top", () => {
    const serving = [row("a", 8, 300, 3), row("a", 64, 500, 14), row("b", 1, 2000, 1)];
    expect(pointLabels(servingLatencyChart(candidates, serving, styles, "e2eMs", "p95", null)).get("b")).toEqual({
      text: "2000 ms",
      anchor: "start",
      below: true,
    });
  });

  it("labels nothing when every candidate has a line", () => {
    const serving = [row("a", 1, 300, 3), row("a", 8, 500, 14), row("b", 1, 350, 2), row("b", 8, 600, 12)];
    expect(pointLabels(servingLatencyChart(candidates, serving, styles, "e2eMs", "p95", 800)).size).toBe(0);
  });
});
