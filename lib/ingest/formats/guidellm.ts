import { IssueCollector, fileFailure } from "./issues";
import { JsonFields, isObject, parseJson, path, sniffObject, type JsonObject } from "./json";
import { PERCENTILE_NOTE, compactPct, summarize } from "./percentile";
import { VERDICT_TPOT, agrees, finishServing } from "./serving-common";
import type { Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * GuideLLM benchmark reports (benchmarks.json), one record per benchmark (a sweep holds several).
 * Eras: v0.4–0.6 `{metadata: {version: 1, guidellm_version}, args, benchmarks}` with
 * `metrics.request_totals`; v0.2/0.3 `{benchmarks}` with `request_totals` and `worker.backend_model`
 * on each benchmark. Each metric is `{successful: {mean, median, percentiles: {p50, p90, p95, p99...}}}`.
 * Units: `*_ms` are milliseconds, `request_latency` is SECONDS (×1000 here).
 * Naming trap: GuideLLM's `time_per_output_token_ms` includes the first token (v0.4+: latency/tokens)
 * or divides by all tokens (v0.2), so it is NOT stored; GuideLLM's `inter_token_latency_ms` =
 * (latency − TTFT)/(output tokens − 1) is Verdict's TPOT. When the report keeps the per-request
 * records of the measured window (requests overlapping [start_time, end_time], as many as
 * `successful`), TTFT, TPOT and E2E are recomputed per request; otherwise the report's summaries
 * are used (in v0.4+ the token metrics are token-weighted over all output tokens).
 */
const FORMAT = "guidellm";
const TOOL = "GuideLLM";

function benchmarksOf(doc: JsonObject): unknown[] | undefined {
  return Array.isArray(doc.benchmarks) ? doc.benchmarks : undefined;
}

function detect(content: string): number {
  const doc = sniffObject(content);
  const first = doc && benchmarksOf(doc)?.[0];
  if (!isObject(first) || !isObject(first.metrics)) return 0;
  return "time_to_first_token_ms" in first.metrics || "inter_token_latency_ms" in first.metrics ? 0.95 : 0;
}

/** `metrics[name].successful` as a Pct (scaled), from mean/median/percentiles. */
function distribution(fields: JsonFields, metrics: JsonObject, name: string, record: string, scale = 1): Pct {
  const status = isObject(metrics[name]) ? (metrics[name] as JsonObject) : undefined;
  const d = status && isObject(status.successful) ? status.successful : undefined;
  if (!d) return {};
  const where = path(path(record, name), "successful");
  const p = isObject(d.percentiles) ? d.percentiles : {};
  const pw = path(where, "percentiles");
  const n = (obj: JsonObject, key: string, w: string) => {
    const v = fields.num(obj, key, w);
    return v === undefined ? undefined : v * scale;
  };
  return compactPct({
    mean: n(d, "mean", where),
    p50: n(p, "p50", pw) ?? n(d, "median", where),
    p90: n(p, "p90", pw),
    p95: n(p, "p95", pw),
    p99: n(p, "p99", pw),
  });
}

function mean(fields: JsonFields, metrics: JsonObject, name: string, record: string): number | undefined {
  return distribution(fields, metrics, name, record).mean;
}

/** Per-request records inside the measured window, or undefined when they cannot stand for the run. */
function measuredRequests(b: JsonObject, completed: number | undefined): JsonObject[] | undefined {
  const reqs =
    isObject(b.requests) && Array.isArray(b.requests.successful) ? b.requests.successful.filter(isObject) : [];
  const start = typeof b.start_time === "number" ? b.start_time : undefined;
  const end = typeof b.end_time === "number" ? b.end_time : undefined;
  if (completed === undefined || completed === 0 || reqs.length < completed || start === undefined || end === undefined)
    return undefined;
  const time = (r: JsonObject, key: "start" | "end"): number | undefined => {
    const timings =
      isObject(r.info) && isObject(r.info.timings)
        ? r.info.timings
        : isObject(r.scheduler_info)
          ? r.scheduler_info
          : {};
    const v = r[`request_${key}_time`] ?? timings[`request_${key}`];
    return typeof v === "number" ? v : undefined;
  };
  // Warm-up and cool-down requests are listed but not measured: keep those overlapping the window.
  const inWindow = reqs.filter((r) => (time(r, "end") ?? -Infinity) > start && (time(r, "start") ?? Infinity) < end);
  const complete = inWindow.every((r) =>
    ["time_to_first_token_ms", "inter_token_latency_ms", "request_latency"].every((k) => typeof r[k] === "number"),
  );
  return inWindow.length === completed && complete ? inWindow : undefined;
}

function strategyOf(b: JsonObject): JsonObject {
  const config = isObject(b.config) ? b.config : isObject(b.args) ? b.args : {};
  return isObject(config.strategy) ? config.strategy : {};
}

function modelOf(doc: JsonObject, b: JsonObject): string | undefined {
  const candidates = [
    isObject(b.config) && isObject(b.config.backend) ? b.config.backend.model : undefined,
    isObject(b.worker) ? b.worker.backend_model : undefined,
    isObject(doc.args) ? doc.args.model : undefined,
    isObject(doc.config) && isObject(doc.config.backend) ? doc.config.backend.model : undefined,
  ];
  const found = candidates.find((c) => typeof c === "string" && c.trim() !== "");
  return typeof found === "string" ? found : undefined;
}

function recordFrom(
  doc: JsonObject,
  b: JsonObject,
  record: string,
  issues: IssueCollector,
  fields: JsonFields,
): ServingRecord | undefined {
  const metrics = fields.obj(b, "metrics", record, true);
  if (!metrics) return undefined;
  const mw = path(record, "metrics");
  const totals = isObject(metrics.request_totals)
    ? metrics.request_totals
    : isObject(b.request_totals)
      ? b.request_totals
      : undefined;
  const tw = path(isObject(metrics.request_totals) ? mw : record, "request_totals");
  if (!totals) issues.add({ record, field: "request_totals", reason: "missing required object" });
  const completed = totals ? fields.num(totals, "successful", tw, { required: true }) : undefined;
  const failed = totals ? fields.num(totals, "errored", tw) : undefined;
  const incomplete = totals ? fields.num(totals, "incomplete", tw) : undefined;
  if (incomplete)
    issues.warn(
      `${record}: ${incomplete} requests were cut off at the end of the run (incomplete), counted neither completed nor failed.`,
    );
  const model = modelOf(doc, b);
  if (!model)
    issues.add({
      record,
      field: "model",
      reason: "the report does not name the model (config.backend.model, worker.backend_model or args.model)",
    });
  const strategy = strategyOf(b);
  const type = typeof strategy.type_ === "string" ? strategy.type_ : undefined;
  const concurrency =
    type === "synchronous"
      ? 1
      : (fields.num(strategy, "max_concurrency", record) ?? fields.num(strategy, "streams", record));
  const rate = type === "constant" || type === "poisson" ? fields.num(strategy, "rate", record) : undefined;
  const requestThroughput = mean(fields, metrics, "requests_per_second", mw);
  if (requestThroughput === undefined)
    issues.add({ record: mw, field: "requests_per_second", reason: "missing required distribution" });

  let ttftMs = distribution(fields, metrics, "time_to_first_token_ms", mw);
  let tpotMs = distribution(fields, metrics, "inter_token_latency_ms", mw);
  let e2eMs = distribution(fields, metrics, "request_latency", mw, 1000);
  let tpotSource = `GuideLLM's inter_token_latency_ms = ${VERDICT_TPOT}, Verdict's TPOT (its time_per_output_token_ms counts the first token and is not used); from the report's summary, not recomputed (no complete per-request records).`;
  const reqs = measuredRequests(b, completed);
  if (reqs) {
    const ttft = summarize(reqs.map((r) => r.time_to_first_token_ms as number));
    if (agrees(ttft, ttftMs.mean)) {
      ttftMs = ttft;
      tpotMs = summarize(reqs.map((r) => r.inter_token_latency_ms as number));
      e2eMs = summarize(
        reqs.map((r) => r.request_latency as number),
        1000,
      );
      tpotSource = `GuideLLM's per-request inter_token_latency_ms = ${VERDICT_TPOT}, Verdict's TPOT (its time_per_output_token_ms counts the first token and is not used); recomputed over the ${reqs.length} measured requests, ${PERCENTILE_NOTE}.`;
    }
  }
  if (!model || completed === undefined || requestThroughput === undefined) return undefined;
  return finishServing(
    {
      model,
      tool: TOOL,
      concurrency,
      requestRate: rate,
      completed,
      failed,
      durationS: fields.num(b, "duration", record),
      meanInputTokens: mean(fields, metrics, "prompt_token_count", mw),
      meanOutputTokens: mean(fields, metrics, "output_token_count", mw),
      requestThroughput,
      outputTokenThroughput: mean(fields, metrics, "output_tokens_per_second", mw),
      totalTokenThroughput: mean(fields, metrics, "tokens_per_second", mw),
      ttftMs,
      tpotMs,
      e2eMs,
      tpotSource,
    },
    { record },
    issues,
  );
}

function parse(content: string) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  const doc = parsed.value;
  const benchmarks = isObject(doc) ? benchmarksOf(doc) : undefined;
  if (!isObject(doc) || !benchmarks)
    return fileFailure(FORMAT, {
      record: "",
      field: "benchmarks",
      reason: 'not a GuideLLM report: no "benchmarks" list',
    });
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const records: ServingRecord[] = [];
  benchmarks.forEach((b, i) => {
    const record = path("benchmarks", i);
    if (!isObject(b)) {
      issues.add({ record, field: "(benchmark)", reason: "expected an object" });
      return;
    }
    const r = recordFrom(doc, b, record, issues, fields);
    if (r) records.push(r);
  });
  if (benchmarks.length === 0)
    issues.add({ record: "benchmarks", field: "benchmarks", reason: "the report holds no benchmark" });
  const metadata = isObject(doc.metadata) ? doc.metadata : {};
  const version = typeof metadata.guidellm_version === "string" ? metadata.guidellm_version : undefined;
  if (version) for (const r of records) r.toolVersion = version;
  else issues.warn("The report does not record its GuideLLM version (v0.2/0.3-era layout).");
  return endParse(FORMAT, issues, records, { producerVersion: version });
}

export const guidellm = formatParser<ServingRecord>(FORMAT, "GuideLLM benchmarks report JSON", detect, parse);
