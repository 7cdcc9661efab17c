import { IssueCollector, fileFailure, show } from "./issues";
import { JsonFields, isObject, parseJson, parseJsonMemo, path, type JsonObject } from "./json";
import { readNumberValue } from "./numbers";
import { PERCENTILE_NOTE, summarize } from "./percentile";
import { VERDICT_TPOT, agrees, finishServing, readPct } from "./serving-common";
import type { ParseIssue, Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * vLLM `vllm bench serve` / `benchmarks/benchmark_serving.py --save-result` JSON.
 * Summary stats are milliseconds (`mean_ttft_ms`, `median_*`, `p99_*`), per-request arrays
 * (`ttfts`, `latencies`, `itls`, only with --save-detailed) are SECONDS. vLLM's TPOT is
 * Verdict's TPOT ((e2e − TTFT)/(output tokens − 1), first token excluded); vLLM's ITL pools every
 * gap between streamed chunks and is stored separately as itlMs (it can be ≫ TPOT when a chunk
 * carries several tokens). When every request failed the stats are 0.0, not null: they are
 * dropped. `--append-result` files hold one JSON object per line → one record each.
 * 2024 files: `*_latency_ms` instead of `*_e2el_ms`, no `failed` (= num_prompts − completed),
 * `input_throughput` + `output_throughput` instead of `total_token_throughput`.
 */
const FORMAT = "vllm-bench-serve";
const TOOL = "vLLM bench serve";

function isVllm(o: unknown): o is JsonObject {
  return isObject(o) && "request_throughput" in o && "completed" in o && ("mean_ttft_ms" in o || "median_ttft_ms" in o);
}

/** Whole-file JSON, else JSON Lines (one result appended per line). */
function readObjects(
  content: string,
): { ok: true; objects: { value: unknown; line?: number }[] } | { ok: false; issue: ParseIssue } {
  const whole = parseJson(content);
  if (whole.ok) return { ok: true, objects: [{ value: whole.value }] };
  const lines = content.replace(/^\uFEFF/, "").split("\n");
  // JSON Lines only if the first line is a whole object; otherwise report the whole-file error.
  const firstLine = lines.find((l) => l.trim()) ?? "";
  if (lines.filter((l) => l.trim()).length < 2 || !parseJson(firstLine).ok) return whole;
  const objects: { value: unknown; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]?.trim()) continue;
    const one = parseJson(lines[i] as string);
    if (!one.ok) return { ok: false, issue: { ...one.issue, line: i + 1 } };
    objects.push({ value: one.value, line: i + 1 });
  }
  return { ok: true, objects };
}

function detect(content: string): number {
  const head = content.trimStart().replace(/^\uFEFF/, "");
  if (!head.startsWith("{")) return 0;
  const whole = parseJsonMemo(content);
  if (whole.ok) return isVllm(whole.value) ? 0.95 : 0;
  const first = parseJson(head.split("\n", 1)[0] ?? "");
  return first.ok && isVllm(first.value) ? 0.9 : 0;
}

/** Per-request arrays (seconds), or undefined when absent; length mismatches are errors. */
function arrays(o: JsonObject, record: string, issues: IssueCollector) {
  const n = Array.isArray(o.ttfts) ? o.ttfts.length : undefined;
  if (n === undefined) return undefined;
  const read = (key: string): number[] | undefined => {
    const raw = o[key];
    if (raw === undefined) return undefined;
    if (!Array.isArray(raw) || raw.length !== n) {
      issues.add({
        record,
        field: key,
        value: show(Array.isArray(raw) ? raw.length : raw),
        reason: `expected a list of ${n} per-request values like ttfts`,
      });
      return undefined;
    }
    return raw.map((v, i) => {
      const r = readNumberValue(v);
      if (!r.ok) issues.add({ record: path(record, key), field: String(i), value: show(v), reason: r.reason });
      return r.ok ? r.value : NaN;
    });
  };
  const errors = Array.isArray(o.errors) && o.errors.length === n ? o.errors : undefined;
  // A request counts when vLLM recorded no error for it (errors[i] === "").
  const ok = (i: number) => (errors ? errors[i] === "" || errors[i] === null : true);
  return { n, ok, ttfts: read("ttfts"), latencies: read("latencies"), outputLens: read("output_lens") };
}

function recordFrom(
  o: JsonObject,
  record: string,
  issues: IssueCollector,
  fields: JsonFields,
): ServingRecord | undefined {
  const model = fields.str(o, "model_id", record, true);
  const completed = fields.num(o, "completed", record, { required: true });
  const requestThroughput = fields.num(o, "request_throughput", record, { required: true });
  const numPrompts = fields.num(o, "num_prompts", record);
  const failed =
    fields.num(o, "failed", record) ??
    (numPrompts !== undefined && completed !== undefined ? numPrompts - completed : undefined);
  const rate =
    o.request_rate === "inf" || o.request_rate === "Infinity"
      ? undefined
      : fields.num(o, "request_rate", record, { allowString: true });
  const inputThroughput = fields.num(o, "input_throughput", record);
  const outputThroughput = fields.num(o, "output_throughput", record);
  const totalTokens =
    fields.num(o, "total_token_throughput", record) ??
    (inputThroughput !== undefined && outputThroughput !== undefined ? inputThroughput + outputThroughput : undefined);
  const totalIn = fields.num(o, "total_input_tokens", record);
  const totalOut = fields.num(o, "total_output_tokens", record);
  const summary = (m: string): Pct =>
    readPct(fields, o, record, (s) =>
      s === "mean" ? `mean_${m}_ms` : s === "p50" ? [`median_${m}_ms`, `p50_${m}_ms`] : `${s}_${m}_ms`,
    );
  let ttftMs = summary("ttft");
  let tpotMs = summary("tpot");
  let itlMs = summary("itl");
  let e2eMs = "mean_e2el_ms" in o ? summary("e2el") : summary("latency");
  let tpotSource = `vLLM TPOT = ${VERDICT_TPOT}, Verdict's definition; taken from the file's summary (no per-request latencies to recompute from).`;

  const a = arrays(o, record, issues);
  if (a?.ttfts) {
    const idx = [...Array(a.n).keys()].filter(a.ok);
    const ttft = summarize(
      idx.map((i) => a.ttfts?.[i] as number),
      1000,
    );
    if (agrees(ttft, ttftMs.mean)) ttftMs = ttft;
    else
      issues.warn(
        `${record || "result"}: per-request ttfts disagree with mean_ttft_ms (arrays truncated?); kept the summary.`,
      );
    if (a.latencies && a.outputLens) {
      const decode = idx.filter((i) => (a.outputLens?.[i] ?? 0) > 1);
      const tpot = summarize(
        decode.map(
          (i) => ((a.latencies?.[i] as number) - (a.ttfts?.[i] as number)) / ((a.outputLens?.[i] as number) - 1),
        ),
        1000,
      );
      const e2e = summarize(
        idx.map((i) => a.latencies?.[i] as number),
        1000,
      );
      if (agrees(tpot, tpotMs.mean)) {
        tpotMs = tpot;
        tpotSource = `vLLM TPOT = ${VERDICT_TPOT}, Verdict's definition; recomputed per request from latencies, ttfts and output_lens, ${PERCENTILE_NOTE}.`;
      } else issues.warn(`${record || "result"}: per-request TPOT disagrees with mean_tpot_ms; kept the summary.`);
      if (agrees(e2e, e2eMs.mean)) e2eMs = e2e;
    }
  }
  if (completed === 0) {
    // vLLM writes 0.0 for every statistic when nothing completed: those are not measurements.
    ttftMs = {};
    tpotMs = {};
    itlMs = {};
    e2eMs = {};
    tpotSource = "No TPOT: every request failed, and vLLM's 0.0 statistics are placeholders, not measurements.";
    issues.warn(`${record || "result"}: all requests failed (completed = 0); latency statistics not imported.`);
  }
  if (!model || completed === undefined || requestThroughput === undefined) return undefined;
  const mean = (total: number | undefined) => (total !== undefined && completed > 0 ? total / completed : undefined);
  return finishServing(
    {
      model,
      tool: TOOL,
      concurrency: fields.num(o, "max_concurrency", record),
      requestRate: rate,
      completed,
      failed,
      durationS: fields.num(o, "duration", record),
      meanInputTokens: mean(totalIn),
      meanOutputTokens: mean(totalOut),
      requestThroughput,
      outputTokenThroughput: outputThroughput,
      totalTokenThroughput: totalTokens,
      goodput: fields.num(o, "request_goodput", record),
      ttftMs,
      tpotMs,
      itlMs: Object.keys(itlMs).length ? itlMs : undefined,
      e2eMs,
      tpotSource,
    },
    { record },
    issues,
  );
}

function parse(content: string) {
  const read = readObjects(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const records: ServingRecord[] = [];
  read.objects.forEach(({ value, line }, i) => {
    const record = read.objects.length > 1 ? `[${i}]` : "";
    if (!isVllm(value)) {
      issues.add({
        line,
        record,
        field: "(result)",
        reason: "not a vLLM benchmark result (needs model_id, completed, request_throughput, mean_ttft_ms)",
      });
      return;
    }
    const r = recordFrom(value, record, issues, fields);
    if (r) records.push(r);
  });
  issues.warn("vLLM result files do not record the vLLM version.");
  return endParse(FORMAT, issues, records);
}

export const vllmBenchServe = formatParser<ServingRecord>(
  FORMAT,
  "vLLM bench serve / benchmark_serving result JSON",
  detect,
  parse,
);
