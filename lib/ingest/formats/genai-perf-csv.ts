import { csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields } from "./csv-fields";
import { GENAI_PERF_TOOL, GENAI_PERF_TPOT, toMs } from "./genai-perf-json";
import { fileFailure } from "./issues";
import { compactPct } from "./percentile";
import { finishServing } from "./serving-common";
import type { ParseOptions, Pct, ServingRecord } from "./types";
import { endParse, formatParser } from "./parser-end";

/**
 * NVIDIA GenAI-Perf `<stem>_genai_perf.csv`: table 1 `Metric,avg,min,max,p99,p95,p90,p75,p50,p25[,p10,p5,p1]`
 * with rows like "Time To First Token (ms)", a blank line, then table 2 `Metric,Value` with rows
 * like "Request Throughput (per sec)". Values are Python f"{v:,.2f}" strings: thousands
 * separators inside quotes ("1,019.69") and "N/A" for missing. The CSV does not name the model
 * (pass `options.model`) nor the concurrency; prefer the JSON export. "Inter Token Latency" is
 * Verdict's TPOT (see genai-perf-json.ts).
 */
const FORMAT = "genai-perf-csv";

function detect(content: string): number {
  const [first, second] = csvHeaderCells(content);
  return first === "Metric" &&
    second === "avg" &&
    /(Time To First Token|Request Latency|Inter Token Latency)/.test(content)
    ? 0.9
    : 0;
}

/** "Time To First Token (ms)" → ["time to first token", "ms"]. */
function splitName(label: string): [string, string] {
  const m = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(label.trim());
  return m ? [(m[1] as string).toLowerCase(), m[2] as string] : [label.trim().toLowerCase(), ""];
}

function parse(content: string, options: ParseOptions = {}) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  if (header[0] !== "Metric" || !header.includes("avg")) {
    return fileFailure(FORMAT, {
      line: 1,
      field: "(header)",
      value: header.join(","),
      reason: "expected a GenAI-Perf header Metric,avg,min,max,p99,...",
    });
  }
  const issues = csvIssues(read.table);
  const stats = new Map<string, Pct>();
  const values = new Map<string, number>();
  let fields = new CsvFields(issues, header);
  let inSystemTable = false;
  for (const row of rows) {
    if (row.cells[0]?.trim() === "Metric") {
      // Second table: Metric,Value
      fields = new CsvFields(
        issues,
        row.cells.map((c) => c.trim()),
      );
      inSystemTable = true;
      continue;
    }
    if (!fields.checkWidth(row)) continue;
    const [name, unit] = splitName(row.cells[0] ?? "");
    if (inSystemTable) {
      const v = fields.num(row, 1, { thousands: true });
      if (v !== undefined) values.set(name, v);
      continue;
    }
    const factor = unit === "" || unit === "tokens" ? 1 : toMs(unit);
    if (factor === undefined) {
      issues.add({ line: row.line, field: "Metric", value: row.cells[0], reason: "unknown unit" });
      continue;
    }
    const col = (stat: string) => {
      const v = fields.num(row, header.indexOf(stat), { thousands: true });
      return v === undefined ? undefined : v * factor;
    };
    stats.set(
      name,
      compactPct({ mean: col("avg"), p50: col("p50"), p90: col("p90"), p95: col("p95"), p99: col("p99") }),
    );
  }
  if (!options.model)
    issues.add({
      field: "model",
      reason: "the GenAI-Perf CSV does not name the model: pass it explicitly (or import the JSON export)",
    });
  const requestThroughput = values.get("request throughput");
  if (requestThroughput === undefined)
    issues.add({ field: "Request Throughput (per sec)", reason: "missing required row" });
  if (issues.failed || requestThroughput === undefined) return endParse<ServingRecord>(FORMAT, issues, []);
  const record = finishServing(
    {
      model: options.model as string,
      tool: GENAI_PERF_TOOL,
      completed: values.get("request count"),
      meanInputTokens: stats.get("input sequence length")?.mean,
      meanOutputTokens: stats.get("output sequence length")?.mean,
      requestThroughput,
      outputTokenThroughput: values.get("output token throughput"),
      goodput: values.get("request goodput"),
      ttftMs: stats.get("time to first token") ?? {},
      tpotMs: stats.get("inter token latency") ?? {},
      e2eMs: stats.get("request latency") ?? {},
      tpotSource: GENAI_PERF_TPOT,
    },
    { line: 1 },
    issues,
  );
  issues.warn(
    "GenAI-Perf CSV values are rounded to 2 decimals and carry no model, concurrency or version; the JSON export is more precise.",
  );
  return endParse(FORMAT, issues, record ? [record] : []);
}

export const genaiPerfCsv = formatParser<ServingRecord>(
  FORMAT,
  "GenAI-Perf profile export CSV (*_genai_perf.csv)",
  detect,
  parse,
);
