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
  const done = requests.filter((r) => r.completed);
  let first = Infinity;
  let last = -Infinity;
  for (const r of requests) {
    first = Math.min(first, r.startedAt);
    last = Math.max(last, r.startedAt + (r.e2eMs ?? 0));
  }
  const durationS = requests.length ? Math.max(1e-9, (last - first) / 1000) : 0;
  const ttft = done.flatMap((r) => (r.ttftMs === null ? [] : [r.ttftMs]));
  const e2e = done.flatMap((r) => (r.e2eMs === null ? [] : [r.e2eMs]));
  const tpot = done.flatMap((r) =>
    r.outputTokens !== null && r.outputTokens > 1 && r.e2eMs !== null && r.ttftMs !== null
      ? [(r.e2eMs - r.ttftMs) / (r.outputTokens - 1)]
      : [],
  );
  const itl = done.flatMap((r) => r.itlMs);
  const withTokens = done.filter((r) => r.inputTokens !== null && r.outputTokens !== null);
  const totalInputTokens = withTokens.reduce((s, r) => s + (r.inputTokens ?? 0), 0);
  const totalOutputTokens = withTokens.reduce((s, r) => s + (r.outputTokens ?? 0), 0);
  const meets = (r: MeasuredRequest) =>
    (slos.sloP95E2eMs === null || (r.e2eMs ?? Infinity) <= slos.sloP95E2eMs) &&
    (slos.sloP95TtftMs === null || (r.ttftMs ?? Infinity) <= slos.sloP95TtftMs);
  const rate = (n: number) => (durationS > 0 ? n / durationS : 0);
  return {
    completed: done.length,
    failed: requests.length - done.length,
    durationS,
    meanInputTokens: withTokens.length ? totalInputTokens / withTokens.length : null,
    meanOutputTokens: withTokens.length ? totalOutputTokens / withTokens.length : null,
    totalInputTokens,
    totalOutputTokens,
    requestThroughput: rate(done.length),
    outputTokenThroughput: rate(totalOutputTokens),
    totalTokenThroughput: rate(totalInputTokens + totalOutputTokens),
    goodput: slos.sloP95E2eMs === null && slos.sloP95TtftMs === null ? null : rate(done.filter(meets).length),
    ttftMs: summarize(ttft),
    tpotMs: summarize(tpot),
    itlMs: summarize(itl),
    e2eMs: summarize(e2e),
  };
}
