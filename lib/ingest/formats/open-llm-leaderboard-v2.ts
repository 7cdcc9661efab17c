import { columnIndex, csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields, missingColumns } from "./csv-fields";
import { toIso } from "./generic-leaderboard-csv";
import { fileFailure } from "./issues";
import type { LeaderboardRecord } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkFraction, checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";

/**
 * Open LLM Leaderboard v2 `contents` table (pandas CSV export of open-llm-leaderboard/contents).
 * Per benchmark two columns: "X Raw" = lm-eval score, a fraction 0–1 (stored as metric "raw"),
 * and "X" = normalized score 0–100 above the random baseline (stored ÷100 as metric
 * "normalized", so every stored value is a fraction). "Average ⬆️" is the mean normalized score.
 * The model is `fullname` (org/model; the `Model` column is HTML markup). The unnamed first
 * column is the pandas index. "Submission Date" becomes asOf.
 */
const FORMAT = "open-llm-leaderboard-v2";
const SOURCE = "Open LLM Leaderboard";
const BENCHMARKS = ["IFEval", "BBH", "MATH Lvl 5", "GPQA", "MUSR", "MMLU-PRO"];
const AVERAGE = "Average ⬆️";

function detect(content: string): number {
  const h = csvHeaderCells(content);
  return h.includes("fullname") && h.includes("IFEval Raw") && h.includes("MMLU-PRO Raw") ? 0.95 : 0;
}

function parse(content: string) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  const col = columnIndex(header);
  const required = ["fullname", ...BENCHMARKS.flatMap((b) => [`${b} Raw`, b])];
  const missing = missingColumns(required, col);
  if (missing.length > 0) {
    return fileFailure(FORMAT, {
      line: 1,
      field: missing.join(", "),
      reason: `missing Open LLM Leaderboard v2 column(s); expected ${required.join(", ")}`,
    });
  }
  const issues = csvIssues(read.table);
  const f = new CsvFields(issues, header);
  const records: LeaderboardRecord[] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (!f.checkWidth(row)) continue;
    const model = f.required(row, col("fullname"));
    if (!model) continue;
    seen.set(model, (seen.get(model) ?? 0) + 1);
    const dateText = f.text(row, col("Submission Date"));
    const asOf = dateText ? toIso(dateText) : undefined;
    const push = (suite: string, metric: string, value: number | undefined) => {
      if (value === undefined) return;
      const record: LeaderboardRecord = {
        model,
        suite,
        metric,
        value,
        higherIsBetter: true,
        stage: "LEADERBOARD",
        source: SOURCE,
      };
      if (asOf) record.asOf = asOf;
      const ok = checkRecord(leaderboardRecordSchema, record, { line: row.line }, issues);
      if (ok) records.push(ok);
    };
    const percent = (name: string, required: boolean) =>
      checkFraction(f.num(row, col(name), { required }), { line: row.line, field: name }, issues, 100);
    for (const b of BENCHMARKS) {
      push(
        b,
        "raw",
        checkFraction(f.num(row, col(`${b} Raw`), { required: true }), { line: row.line, field: `${b} Raw` }, issues),
      );
      push(b, "normalized", percent(b, true));
    }
    push("Average", "normalized", percent(AVERAGE, false));
  }
  const repeated = [...seen.values()].filter((n) => n > 1).length;
  if (repeated > 0)
    issues.warn(`${repeated} models appear in several rows (evaluated at several precisions); each row is kept.`);
  issues.warn(
    "Normalized scores (0–100 in the file) are stored as fractions (÷100); raw scores are lm-eval fractions.",
  );
  return endParse(FORMAT, issues, records, { noRows: rows.length === 0 });
}

export const openLlmLeaderboardV2 = formatParser<LeaderboardRecord>(
  FORMAT,
  "Open LLM Leaderboard v2 contents CSV",
  detect,
  parse,
);
