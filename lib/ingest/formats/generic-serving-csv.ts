import { columnIndex, csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields, missingColumns } from "./csv-fields";
import { fileFailure } from "./issues";
import { compactPct } from "./percentile";
import { VERDICT_TPOT, finishServing } from "./serving-common";
import type { Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * Verdict's own serving-benchmark CSV, one row per run. Header names, any order, case-insensitive:
 *   required  model, request_throughput (req/s)
 *   optional  tool, tool_version, concurrency, request_rate (req/s), completed, failed, duration_s,
 *             mean_input_tokens, mean_output_tokens, output_token_throughput (tok/s),
 *             total_token_throughput (tok/s), goodput (req/s), tpot_source,
 *             <m>_<stat>_ms for m ∈ ttft, tpot, itl, e2e and stat ∈ mean, p50, p90, p95, p99
 * Latencies are MILLISECONDS. `tpot_*` must be Verdict's TPOT — (e2e − TTFT)/(output tokens − 1),
 * first token excluded (vLLM's TPOT, GuideLLM's/GenAI-Perf's ITL); `itl_*` is the pooled
 * per-chunk gap (vLLM's ITL). A `tpot_source` cell overrides the default provenance sentence.
 */
const FORMAT = "generic-serving-csv";
const METRICS = ["ttft", "tpot", "itl", "e2e"] as const;
const STATS = ["mean", "p50", "p90", "p95", "p99"] as const;
const SCALARS = [
  "tool",
  "tool_version",
  "concurrency",
  "request_rate",
  "completed",
  "failed",
  "duration_s",
  "mean_input_tokens",
  "mean_output_tokens",
  "output_token_throughput",
  "total_token_throughput",
  "goodput",
  "tpot_source",
];
const LATENCY_COLUMNS = METRICS.flatMap((m) => STATS.map((s) => `${m}_${s}_ms`));
const DEFAULT_TPOT = `Generic CSV: tpot_*_ms columns are, by this format's definition, ${VERDICT_TPOT}; taken as given, not recomputed.`;

function detect(content: string): number {
  const cols = csvHeaderCells(content).map((c) => c.toLowerCase());
  return cols.includes("model") && cols.includes("request_throughput") && cols.some((c) => LATENCY_COLUMNS.includes(c))
    ? 0.9
    : 0;
}

function parse(content: string) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  const col = columnIndex(header);
  const missing = missingColumns(["model", "request_throughput"], col);
  if (missing.length > 0) {
    return fileFailure(FORMAT, {
      line: 1,
      field: missing.join(", "),
      value: header.join(","),
      reason: `missing required column(s); expected model, request_throughput and optional ${[...SCALARS, "<ttft|tpot|itl|e2e>_<mean|p50|p90|p95|p99>_ms"].join(", ")}`,
    });
  }
  const issues = csvIssues(read.table);
  const known = new Set(["model", "request_throughput", ...SCALARS, ...LATENCY_COLUMNS]);
  const extra = header.filter((h) => !known.has(h.toLowerCase()));
  if (extra.length > 0)
    issues.warn(`Ignored columns (latency columns must be named <metric>_<stat>_ms): ${extra.join(", ")}.`);
  const f = new CsvFields(issues, header);
  const records: ServingRecord[] = [];
  for (const row of rows) {
    if (!f.checkWidth(row)) continue;
    const before = issues.count;
    const n = (name: string, required = false) => f.num(row, col(name), { required });
    const pct = (m: string): Pct => compactPct(Object.fromEntries(STATS.map((s) => [s, n(`${m}_${s}_ms`)])) as Pct);
    const model = f.required(row, col("model"));
    const requestThroughput = n("request_throughput", true);
    const itl = pct("itl");
    const record: ServingRecord = {
      model: model ?? "",
      tool: f.text(row, col("tool")) ?? "CSV import",
      toolVersion: f.text(row, col("tool_version")),
      concurrency: n("concurrency"),
      requestRate: n("request_rate"),
      completed: n("completed"),
      failed: n("failed"),
      durationS: n("duration_s"),
      meanInputTokens: n("mean_input_tokens"),
      meanOutputTokens: n("mean_output_tokens"),
      requestThroughput: requestThroughput ?? 0,
      outputTokenThroughput: n("output_token_throughput"),
      totalTokenThroughput: n("total_token_throughput"),
      goodput: n("goodput"),
      ttftMs: pct("ttft"),
      tpotMs: pct("tpot"),
      itlMs: Object.keys(itl).length ? itl : undefined,
      e2eMs: pct("e2e"),
      tpotSource: f.text(row, col("tpot_source")) ?? DEFAULT_TPOT,
    };
    if (issues.count > before) continue;
    const ok = finishServing(record, { line: row.line }, issues);
    if (ok) records.push(ok);
  }
  return endParse(FORMAT, issues, records, { noRows: rows.length === 0 });
}

export const genericServingCsv = formatParser<ServingRecord>(
  FORMAT,
  "Generic serving CSV (model, request_throughput, <metric>_<stat>_ms...)",
  detect,
  parse,
);
