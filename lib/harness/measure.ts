import { summarize } from "@/lib/ingest/formats/percentile";
import type { Pct } from "@/lib/ingest/formats/types";

/**
 * Stage 5 from a harness run's own requests (SPEC §5, names as vLLM's `bench serve` uses them).
 * Pure. Per request: TTFT; TPOT = (E2E − TTFT) / (output tokens − 1), decode time per token with
 * the first excluded (requests of one output token have none); ITL pools every gap between
 * content-bearing chunks; E2E from sending to the stream's end. A failed request (HTTP error,
 * malformed stream, stall) counts in `failed` and in no latency; a completed request whose output
 * broke the contract is still a served request (it counts as an error in stage 3, not here).
 * Duration: from the first request sent to the last one finished. Goodput: completed requests
 * meeting every latency SLO per request (E2E and TTFT within the decision's p95 targets) per second.
 */
export interface MeasuredRequest {
  completed: boolean;
  ttftMs: number | null;
  e2eMs: number | null;
  itlMs: readonly number[];
  inputTokens: number | null;
  outputTokens: number | null;
  /** Epoch ms when the request was sent. */
  startedAt: number;
}

export interface LatencySlos {
  sloP95E2eMs: number | null;
  sloP95TtftMs: number | null;
}

export interface ServingMeasurement {
  completed: number;
  failed: number;
  durationS: number;
  meanInputTokens: number | null;
  meanOutputTokens: number | null;
  totalInputTokens: number;
  totalOutputTokens: number;
  requestThroughput: number;
  outputTokenThroughput: number;
  totalTokenThroughput: number;
  goodput: number | null;
  ttftMs: Pct;
  tpotMs: Pct;
  itlMs: Pct;
  e2eMs: Pct;
}

export function measureServing(requests: readonly MeasuredRequest[], slos: LatencySlos): ServingMeasurement {
  // One pass, pushing into flat lists: a run stores tens of thousands of requests.
  let first = Infinity;
  let last = -Infinity;
  let completed = 0;
  let withTokens = 0;
  let totalInputTokens = 0;
  let totalOutputTokens = 0;
  let good = 0;
  const ttft: number[] = [];
  const e2e: number[] = [];
  const tpot: number[] = [];
  const itl: number[] = [];
  for (const r of requests) {
    first = Math.min(first, r.startedAt);
    last = Math.max(last, r.startedAt + (r.e2eMs ?? 0));
    if (!r.completed) continue;
    completed++;
    if (r.ttftMs !== null) ttft.push(r.ttftMs);
    if (r.e2eMs !== null) e2e.push(r.e2eMs);
    if (r.outputTokens !== null && r.outputTokens > 1 && r.e2eMs !== null && r.ttftMs !== null)
      tpot.push((r.e2eMs - r.ttftMs) / (r.outputTokens - 1));
    for (const gap of r.itlMs) itl.push(gap);
    if (r.inputTokens !== null && r.outputTokens !== null) {
      withTokens++;
      totalInputTokens += r.inputTokens;
      totalOutputTokens += r.outputTokens;
    }
    if (
      (slos.sloP95E2eMs === null || (r.e2eMs ?? Infinity) <= slos.sloP95E2eMs) &&
      (slos.sloP95TtftMs === null || (r.ttftMs ?? Infinity) <= slos.sloP95TtftMs)
    )
      good++;
  }
  const durationS = requests.length ? Math.max(1e-9, (last - first) / 1000) : 0;
  const rate = (n: number) => (durationS > 0 ? n / durationS : 0);
  return {
    completed,
    failed: requests.length - completed,
    durationS,
    meanInputTokens: withTokens ? totalInputTokens / withTokens : null,
    meanOutputTokens: withTokens ? totalOutputTokens / withTokens : null,
    totalInputTokens,
    totalOutputTokens,
    requestThroughput: rate(completed),
    outputTokenThroughput: rate(totalOutputTokens),
    totalTokenThroughput: rate(totalInputTokens + totalOutputTokens),
    goodput: slos.sloP95E2eMs === null && slos.sloP95TtftMs === null ? null : rate(good),
    ttftMs: summarize(ttft),
    tpotMs: summarize(tpot),
    itlMs: summarize(itl),
    e2eMs: summarize(e2e),
  };
}
