import { IssueCollector, fileFailure, show } from "./issues";
import { JsonFields, isObject, parseJson, path, sniffArray, sniffObject, type JsonObject } from "./json";
import { PERCENTILE_NOTE, summarize } from "./percentile";
import { VERDICT_TPOT, agrees, finishServing, readPct } from "./serving-common";
import type { ParseOptions, Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * Ray LLMPerf `token_benchmark_ray.py` output: `<model>_<in>_<out>_summary.json` (flat keys
 * `results_<metric>_quantiles_p25..p99`, `_mean`, ...) and `..._individual_responses.json` (a list
 * of per-request records). Every latency is in SECONDS (×1000 here). Naming trap: LLMPerf's
 * `inter_token_latency_s` is end-to-end time / output tokens — it includes the first token, so
 * it is NOT Verdict's TPOT and is never stored as such. Verdict's TPOT needs the individual
 * responses (`options.individualResponses`): then TTFT, TPOT = (e2e − TTFT)/(output tokens − 1)
 * and E2E are recomputed per successful request (error_code null); without them TPOT is left
 * empty and said so. Request throughput = completed requests per minute / 60; numbers written
 * as strings ("150", numpy ints via default=str) are accepted.
 */
const FORMAT = "llmperf";
const TOOL = "LLMPerf";

function isResponses(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && isObject(v[0]) && "ttft_s" in v[0] && "end_to_end_latency_s" in v[0];
}

function detect(content: string): number {
  const doc = sniffObject(content);
  if (doc) return "results_ttft_s_mean" in doc || "results_ttft_s_quantiles_p50" in doc ? 0.95 : 0;
  return isResponses(sniffArray(content)) ? 0.9 : 0;
}

const summaryPct = (fields: JsonFields, doc: JsonObject, metric: string): Pct =>
  readPct(
    fields,
    doc,
    "",
    (s) => (s === "mean" ? `results_${metric}_mean` : `results_${metric}_quantiles_${s}`),
    1000,
    true,
  );

type Recomputed = { ttftMs: Pct; tpotMs: Pct; e2eMs: Pct; n: number };

/** Per-request recomputation from the individual responses; problems are reported under `individualResponses`. */
function recompute(text: string, issues: IssueCollector, fields: JsonFields): Recomputed | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    issues.add({ ...parsed.issue, record: "individualResponses" });
    return undefined;
  }
  if (!isResponses(parsed.value)) {
    issues.add({ record: "individualResponses", field: "(file)", reason: "not an LLMPerf individual responses list" });
    return undefined;
  }
  const ttft: number[] = [];
  const e2e: number[] = [];
  const tpot: number[] = [];
  parsed.value.forEach((r, i) => {
    const where = path("individualResponses", i);
    if (!isObject(r)) {
      issues.add({ record: where, field: "(response)", value: show(r), reason: "expected an object" });
      return;
    }
    if (r.error_code !== null && r.error_code !== undefined) return; // failed request
    const t = fields.num(r, "ttft_s", where, { required: true, allowString: true });
    const e = fields.num(r, "end_to_end_latency_s", where, { required: true, allowString: true });
    const out = fields.num(r, "number_output_tokens", where, { required: true, allowString: true });
    if (t === undefined || e === undefined || out === undefined) return;
    ttft.push(t);
    e2e.push(e);
    if (out > 1) tpot.push((e - t) / (out - 1));
  });
  return { ttftMs: summarize(ttft, 1000), tpotMs: summarize(tpot, 1000), e2eMs: summarize(e2e, 1000), n: ttft.length };
}

function parse(content: string, options: ParseOptions = {}) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  if (isResponses(parsed.value)) {
    return fileFailure(FORMAT, {
      field: "(file)",
      reason:
        "this is LLMPerf's _individual_responses.json, which holds neither the model nor the throughput: import the _summary.json and attach this file to it",
    });
  }
  const doc = parsed.value;
  if (!isObject(doc) || !("results_ttft_s_mean" in doc || "results_ttft_s_quantiles_p50" in doc)) {
    return fileFailure(FORMAT, { field: "(file)", reason: "not an LLMPerf summary: no results_ttft_s_* keys" });
  }
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const model = fields.str(doc, "model", "", true);
  const completed = fields.num(doc, "results_num_completed_requests", "", { required: true, allowString: true });
  const perMinute = fields.num(doc, "results_num_completed_requests_per_min", "", {
    required: true,
    allowString: true,
  });
  let ttftMs = summaryPct(fields, doc, "ttft_s");
  let e2eMs = summaryPct(fields, doc, "end_to_end_latency_s");
  let tpotMs: Pct = {};
  let tpotSource =
    "Not available: LLMPerf's inter_token_latency_s is end-to-end time / output tokens (first token included), not Verdict's TPOT; attach the _individual_responses.json to recompute it.";
  if (options.individualResponses !== undefined) {
    const r = recompute(options.individualResponses, issues, fields);
    if (r && r.n === completed && agrees(r.ttftMs, ttftMs.mean)) {
      ttftMs = r.ttftMs;
      e2eMs = r.e2eMs;
      tpotMs = r.tpotMs;
      tpotSource = `Verdict's TPOT (${VERDICT_TPOT}) recomputed per successful request from LLMPerf's individual responses (ttft_s, end_to_end_latency_s, number_output_tokens as re-counted by LLMPerf's tokenizer), ${PERCENTILE_NOTE}; LLMPerf's own inter_token_latency_s includes the first token and is not used.`;
    } else if (r) {
      issues.add({
        record: "individualResponses",
        field: "(file)",
        value: `${r.n} successful responses`,
        reason: `does not match the summary (${completed} completed requests, mean TTFT ${ttftMs.mean} ms): not this run's responses`,
      });
    }
  } else {
    issues.warn(
      "TPOT not imported: the LLMPerf summary only has inter-token latency including the first token; attach the individual responses to recompute it.",
    );
  }
  const version = fields.str(doc, "version", "");
  if (!model || completed === undefined || perMinute === undefined)
    return endParse<ServingRecord>(FORMAT, issues, [], { producerVersion: version });
  const requestThroughput = perMinute / 60;
  const record = finishServing(
    {
      model,
      tool: TOOL,
      toolVersion: version, // LLMPerf's RESULTS_VERSION, the only version it writes
      concurrency: fields.num(doc, "num_concurrent_requests", "", { allowString: true }),
      completed,
      failed: fields.num(doc, "results_number_errors", "", { allowString: true }),
      durationS: requestThroughput > 0 ? completed / requestThroughput : undefined,
      meanInputTokens: fields.num(doc, "results_number_input_tokens_mean", "", { allowString: true }),
      meanOutputTokens: fields.num(doc, "results_number_output_tokens_mean", "", { allowString: true }),
      requestThroughput,
      outputTokenThroughput: fields.num(doc, "results_mean_output_throughput_token_per_s", "", { allowString: true }),
      ttftMs,
      tpotMs,
      e2eMs,
      tpotSource,
    },
    { record: "" },
    issues,
  );
  return endParse(FORMAT, issues, record ? [record] : [], { producerVersion: version });
}

export const llmperf = formatParser<ServingRecord>(
  FORMAT,
  "LLMPerf summary JSON (+ optional individual responses)",
  detect,
  parse,
);
