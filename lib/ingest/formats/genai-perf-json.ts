import { IssueCollector, fileFailure, show } from "./issues";
import { JsonFields, isObject, parseJson, path, sniffObject, type JsonObject } from "./json";
import { compactPct } from "./percentile";
import { VERDICT_TPOT, finishServing } from "./serving-common";
import type { ParseOptions, Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * NVIDIA GenAI-Perf `<stem>_genai_perf.json`: `{<metric>: {unit, avg, p25..p99, min, max, std}, ...,
 * input_config}`. Latencies are in the metric's `unit` (ms in practice; s/us/ns converted).
 * GenAI-Perf's `inter_token_latency` is (request latency − TTFT)/(output tokens − 1) per request —
 * Verdict's TPOT — and is stored as such; it reports no pooled per-chunk ITL. 2024 builds have no
 * request count and no version; `input_config` is flat in 2024 (`model: [..]`, `concurrency`) and
 * nested in 2025 (`model_names`, `perf_analyzer.stimulus`).
 */
const FORMAT = "genai-perf-json";
export const GENAI_PERF_TOOL = "GenAI-Perf";
export const GENAI_PERF_TPOT = `GenAI-Perf's inter_token_latency = ${VERDICT_TPOT}, Verdict's TPOT; taken from the export's statistics (GenAI-Perf's own percentiles), not recomputed (no per-request data in the export).`;

/** Factor to milliseconds for a unit label; undefined when it is not a time unit we know. */
export function toMs(unit: string): number | undefined {
  const u = unit.trim().toLowerCase();
  if (u === "ms") return 1;
  if (u === "s" || u === "sec") return 1000;
  if (u === "us" || u === "µs") return 1e-3;
  if (u === "ns") return 1e-6;
  return undefined;
}

function detect(content: string): number {
  const doc = sniffObject(content);
  if (!doc || !isObject(doc.input_config)) return 0;
  const stat = doc.time_to_first_token ?? doc.request_latency;
  return isObject(stat) && "unit" in stat && "avg" in stat ? 0.95 : 0;
}

function modelOf(config: JsonObject): string | undefined {
  for (const key of ["model", "model_names", "formatted_model_name"]) {
    const v = config[key];
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === "string" && first.trim()) return first.trim();
  }
  return undefined;
}

function parse(content: string, options: ParseOptions = {}) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  const doc = parsed.value;
  if (!isObject(doc) || !isObject(doc.request_throughput)) {
    return fileFailure(FORMAT, {
      field: "request_throughput",
      reason: "not a GenAI-Perf export: no request_throughput statistics",
    });
  }
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const config = isObject(doc.input_config) ? doc.input_config : {};
  const stimulus =
    isObject(config.perf_analyzer) && isObject(config.perf_analyzer.stimulus) ? config.perf_analyzer.stimulus : {};
  const model = options.model ?? modelOf(config);
  if (!model) issues.add({ record: "input_config", field: "model", reason: "the export does not name the model" });

  const avg = (metric: string): number | undefined => {
    const stat = isObject(doc[metric]) ? (doc[metric] as JsonObject) : undefined;
    return stat ? fields.num(stat, "avg", metric) : undefined;
  };
  const latency = (metric: string): Pct => {
    const stat = isObject(doc[metric]) ? (doc[metric] as JsonObject) : undefined;
    if (!stat) return {};
    const unit = typeof stat.unit === "string" ? stat.unit : "";
    const factor = toMs(unit);
    if (factor === undefined) {
      issues.add({
        record: metric,
        field: "unit",
        value: show(stat.unit),
        reason: "expected a time unit (ms, s, us, ns)",
      });
      return {};
    }
    const n = (k: string) => {
      const v = fields.num(stat, k, metric);
      return v === undefined ? undefined : v * factor;
    };
    return compactPct({ mean: n("avg"), p50: n("p50"), p90: n("p90"), p95: n("p95"), p99: n("p99") });
  };
  const requestThroughput = fields.num(doc.request_throughput, "avg", "request_throughput", { required: true });
  if (requestThroughput === undefined || !model) return endParse<ServingRecord>(FORMAT, issues, []);
  const record = finishServing(
    {
      model,
      tool: GENAI_PERF_TOOL,
      concurrency:
        fields.num(config, "concurrency", "input_config") ??
        fields.num(stimulus, "concurrency", path("input_config", "perf_analyzer.stimulus")),
      requestRate:
        fields.num(config, "request_rate", "input_config") ??
        fields.num(stimulus, "request_rate", path("input_config", "perf_analyzer.stimulus")),
      completed: avg("request_count"),
      meanInputTokens: avg("input_sequence_length"),
      meanOutputTokens: avg("output_sequence_length"),
      requestThroughput,
      outputTokenThroughput: avg("output_token_throughput"),
      goodput: avg("request_goodput"),
      ttftMs: latency("time_to_first_token"),
      tpotMs: latency("inter_token_latency"),
      e2eMs: latency("request_latency"),
      tpotSource: GENAI_PERF_TPOT,
    },
    { record: "" },
    issues,
  );
  if (avg("request_count") === undefined)
    issues.warn("This GenAI-Perf export has no request count: completed and failed requests are unknown.");
  issues.warn("GenAI-Perf exports do not record the GenAI-Perf version.");
  return endParse(FORMAT, issues, record ? [record] : []);
}

export const genaiPerfJson = formatParser<ServingRecord>(
  FORMAT,
  "GenAI-Perf profile export JSON (*_genai_perf.json)",
  detect,
  parse,
);
