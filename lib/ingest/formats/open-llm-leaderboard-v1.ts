import { columnIndex, csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields, missingColumns } from "./csv-fields";
import { fileFailure } from "./issues";
import type { LeaderboardRecord } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkFraction, checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";

/**
 * Open LLM Leaderboard v1 table as scraped from the leaderboard UI (2023): columns
 * Model, Average, ARC(25-shot), HellaSwag(10-shot), MMLU(5-shot), TruthfulQA(0-shot),
 * [Parameters, URL]. Scores are percents 0–100 → stored ÷100 as fractions, metric "score"
 * (the UI's per-benchmark headline: which lm-eval metric it was is not in the file).
 */
const FORMAT = "open-llm-leaderboard-v1";
const SOURCE = "Open LLM Leaderboard";
const SCORES = ["Average", "ARC(25-shot)", "HellaSwag(10-shot)", "MMLU(5-shot)", "TruthfulQA(0-shot)"];

function detect(content: string): number {
  const h = csvHeaderCells(content);
  return h.includes("ARC(25-shot)") && h.includes("HellaSwag(10-shot)") && h.includes("Model") ? 0.9 : 0;
}

function parse(content: string) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  const col = columnIndex(header);
  const missing = missingColumns(["Model", ...SCORES], col);
  if (missing.length > 0) {
    return fileFailure(FORMAT, {
      line: 1,
      field: missing.join(", "),
      reason: `missing column(s); expected Model, ${SCORES.join(", ")}`,
    });
  }
  const issues = csvIssues(read.table);
  const f = new CsvFields(issues, header);
  const records: LeaderboardRecord[] = [];
  for (const row of rows) {
    if (!f.checkWidth(row)) continue;
    const model = f.required(row, col("Model"));
    for (const column of SCORES) {
      const fraction = checkFraction(
        f.num(row, col(column), { required: true }),
        { line: row.line, field: column },
        issues,
        100,
      );
      if (model === undefined || fraction === undefined) continue;
      const suite = column.replace("(", " (");
      const record: LeaderboardRecord = {
        model,
        suite,
        metric: "score",
        value: fraction,
        higherIsBetter: true,
        stage: "LEADERBOARD",
        source: SOURCE,
      };
      const ok = checkRecord(leaderboardRecordSchema, record, { line: row.line }, issues);
      if (ok) records.push(ok);
    }
  }
  issues.warn("Scores are percents in the file and stored as fractions (÷100).");
  return endParse(FORMAT, issues, records, { noRows: rows.length === 0 });
}

export const openLlmLeaderboardV1 = formatParser<LeaderboardRecord>(
  FORMAT,
  "Open LLM Leaderboard v1 table (UI scrape CSV)",
  detect,
  parse,
);
