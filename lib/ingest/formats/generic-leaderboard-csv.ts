import { columnIndex, csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields, missingColumns } from "./csv-fields";
import { fileFailure } from "./issues";
import { defaultHigherIsBetter, defaultStage } from "./metric-direction";
import type { LeaderboardRecord, LeaderboardStage } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";

/**
 * Verdict's own leaderboard CSV. Columns (header names, any order, case-insensitive):
 *   required  model, suite, metric, value
 *   optional  stderr, ci_low, ci_high, votes, source, retrieved_at (or as_of), higher_is_better, stage
 * `retrieved_at`/`as_of` is the date the numbers are from (stored as asOf, apart from the import date).
 * `value` is stored as written (fractions for accuracy-like metrics, Elo points for ratings);
 * a trailing "%" marks a percent and is divided by 100. `higher_is_better` (true/false) defaults
 * from the metric name (loss, error, latency... are lower-is-better); `stage` (LEADERBOARD or
 * PREFERENCE) defaults to PREFERENCE for Elo/arena metrics. Other columns are ignored with a warning.
 */
const FORMAT = "generic-leaderboard-csv";
const REQUIRED = ["model", "suite", "metric", "value"];
const OPTIONAL = [
  "stderr",
  "ci_low",
  "ci_high",
  "votes",
  "source",
  "retrieved_at",
  "as_of",
  "higher_is_better",
  "stage",
];

function detect(content: string): number {
  const cols = csvHeaderCells(content).map((c) => c.toLowerCase());
  return REQUIRED.every((c) => cols.includes(c)) ? 0.9 : 0;
}

export function parseBool(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (["true", "1", "yes", "y"].includes(t)) return true;
  if (["false", "0", "no", "n"].includes(t)) return false;
  return undefined;
}

/** ISO 8601 from an ISO timestamp or a plain date (read as UTC midnight). */
export function toIso(text: string): string | undefined {
  const t = text.trim();
  const withZone = /^\d{4}-\d{2}-\d{2}$/.test(t) ? `${t}T00:00:00Z` : t;
  if (!/^\d{4}-\d{2}-\d{2}/.test(withZone)) return undefined;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

function parse(content: string) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  const col = columnIndex(header);
  const missing = missingColumns(REQUIRED, col);
  if (missing.length > 0) {
    return fileFailure(FORMAT, {
      line: 1,
      field: missing.join(", "),
      value: header.join(","),
      reason: `missing required column(s); expected ${REQUIRED.join(", ")} (optional: ${OPTIONAL.join(", ")})`,
    });
  }
  const issues = csvIssues(read.table);
  const extra = header.filter((h) => ![...REQUIRED, ...OPTIONAL].includes(h.toLowerCase()));
  if (extra.length > 0) issues.warn(`Ignored columns: ${extra.join(", ")}.`);
  const f = new CsvFields(issues, header);
  const records: LeaderboardRecord[] = [];
  for (const row of rows) {
    if (!f.checkWidth(row)) continue;
    const before = issues.count;
    const model = f.required(row, col("model"));
    const suite = f.required(row, col("suite"));
    const metric = f.required(row, col("metric"));
    const value = f.num(row, col("value"), { required: true, percent: true });
    const stderr = f.num(row, col("stderr"), { percent: true });
    const ciLow = f.num(row, col("ci_low"), { percent: true });
    const ciHigh = f.num(row, col("ci_high"), { percent: true });
    const votes = f.num(row, col("votes"));
    const hibText = f.text(row, col("higher_is_better"));
    const hib = hibText === undefined ? undefined : parseBool(hibText);
    if (hibText !== undefined && hib === undefined) {
      issues.add({ line: row.line, field: "higher_is_better", value: hibText, reason: "expected true or false" });
    }
    const stageText = f.text(row, col("stage"))?.toUpperCase();
    if (stageText !== undefined && stageText !== "LEADERBOARD" && stageText !== "PREFERENCE") {
      issues.add({ line: row.line, field: "stage", value: stageText, reason: "expected LEADERBOARD or PREFERENCE" });
    }
    const dateField = col("retrieved_at") >= 0 ? "retrieved_at" : "as_of";
    const dateText = f.text(row, col(dateField));
    const asOf = dateText === undefined ? undefined : toIso(dateText);
    if (dateText !== undefined && asOf === undefined) {
      issues.add({
        line: row.line,
        field: dateField,
        value: dateText,
        reason: "expected an ISO date (YYYY-MM-DD or full timestamp)",
      });
    }
    if (
      issues.count > before ||
      model === undefined ||
      suite === undefined ||
      metric === undefined ||
      value === undefined
    )
      continue;
    const record: LeaderboardRecord = {
      model,
      suite,
      metric,
      value,
      higherIsBetter: hib ?? defaultHigherIsBetter(metric),
      stage: (stageText as LeaderboardStage | undefined) ?? defaultStage(suite, metric),
      source: f.text(row, col("source")) ?? "CSV import",
    };
    if (stderr !== undefined) record.stderr = stderr;
    if (ciLow !== undefined) record.ciLow = ciLow;
    if (ciHigh !== undefined) record.ciHigh = ciHigh;
    if (votes !== undefined) record.votes = votes;
    if (asOf !== undefined) record.asOf = asOf;
    const ok = checkRecord(leaderboardRecordSchema, record, { line: row.line }, issues);
    if (ok) records.push(ok);
  }
  return endParse(FORMAT, issues, records, { noRows: rows.length === 0 });
}

export const genericLeaderboardCsv = formatParser<LeaderboardRecord>(
  FORMAT,
  "Generic leaderboard CSV (model, suite, metric, value)",
  detect,
  parse,
);
