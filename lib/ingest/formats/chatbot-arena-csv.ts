import { columnIndex, csvIssues, readCsv } from "./csv";
import { csvHeaderCells } from "./csv-delimiter";
import { CsvFields } from "./csv-fields";
import { fileFailure, show } from "./issues";
import { readNumberText } from "./numbers";
import type { LeaderboardRecord, LeaderboardStage, ParseOptions } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkFraction, checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";
import { dateInFileName } from "./source-date";

/**
 * LMSYS Chatbot Arena leaderboard CSVs (FastChat `load_leaderboard_table_csv` rules: "-" = missing).
 * Header layouts:
 *   2023-06      Model,MT-bench (win rate %),MT-bench (score),Arena Elo rating,MMLU,License,Link
 *   2023-07..12  Model,MT-bench (score),Arena Elo rating,MMLU,License,Link
 *   2024-01 on   key,Model,MT-bench (score),MMLU,[Knowledge cutoff date,]License,Organization,Link
 *                (no Elo any more: it moved to elo_results_*.pkl; the model is `key`, which is unique)
 *   UI export    [Rank* (UB),]Model,Arena Score,95% CI,Votes,...  (CI "+x/-y" → ciLow/ciHigh)
 * Stored: Arena Elo/score → suite "Chatbot Arena", metric "Elo rating", stage PREFERENCE (Elo points);
 * MT-bench score (0–10 judge scale, kept as is); MT-bench win rate "69.38%" → 0.6938; MMLU is
 * already a fraction (0.864). The table's date is only in its published file name
 * (leaderboard_table_20240705.csv): it becomes every record's asOf.
 */
const FORMAT = "chatbot-arena-csv";
const SOURCE = "Chatbot Arena";

type Layout = "2023-06" | "2023-h2" | "2024" | "ui";

function layoutOf(header: string[]): Layout | undefined {
  const has = columnIndex(header);
  if (has("Arena Score") >= 0 && has("95% CI") >= 0) return "ui";
  if (has("key") >= 0 && has("Model") >= 0 && has("MT-bench (score)") >= 0 && has("MMLU") >= 0) return "2024";
  if (has("Arena Elo rating") >= 0 && has("MT-bench (win rate %)") >= 0) return "2023-06";
  if (has("Arena Elo rating") >= 0 && has("Model") >= 0) return "2023-h2";
  return undefined;
}

function detect(content: string): number {
  return layoutOf(csvHeaderCells(content)) ? 0.9 : 0;
}

/** "+5/-4" → [+5, 4]: the CI is asymmetric, written as distances above and below the score. */
function readCi(text: string): [number, number] | undefined {
  const m = /^\+?\s*(\d+(?:\.\d+)?)\s*\/\s*-\s*(\d+(?:\.\d+)?)$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function parse(content: string, options: ParseOptions = {}) {
  const read = readCsv(content);
  if (!read.ok) return fileFailure(FORMAT, read.issue);
  const { header, rows } = read.table;
  const layout = layoutOf(header);
  if (!layout) {
    return fileFailure(FORMAT, {
      line: 1,
      field: "(header)",
      value: show(header.join(",")),
      reason:
        "not a known Chatbot Arena header: expected Model + Arena Elo rating (2023), key,Model,MT-bench (score),MMLU (2024) or Model,Arena Score,95% CI,Votes",
    });
  }
  const col = columnIndex(header);
  const issues = csvIssues(read.table);
  const f = new CsvFields(issues, header);
  const records: LeaderboardRecord[] = [];
  const asOf = dateInFileName(options.fileName);
  const emit = (
    line: number,
    partial: Omit<LeaderboardRecord, "source" | "higherIsBetter" | "stage">,
    stage: LeaderboardStage,
  ) => {
    const record: LeaderboardRecord = { ...partial, higherIsBetter: true, stage, source: SOURCE };
    if (asOf) record.asOf = asOf;
    const ok = checkRecord(leaderboardRecordSchema, record, { line }, issues);
    if (ok) records.push(ok);
  };
  for (const row of rows) {
    if (!f.checkWidth(row)) continue;
    const model = f.required(row, col(layout === "2024" ? "key" : "Model"));
    if (!model) continue;
    const line = row.line;
    if (layout === "ui") {
      const score = f.num(row, col("Arena Score"), { required: true });
      const votes = f.num(row, col("Votes"), { thousands: true });
      const ciText = f.text(row, col("95% CI"));
      const ci = ciText === undefined ? undefined : readCi(ciText);
      if (ciText !== undefined && !ci) issues.add({ line, field: "95% CI", value: ciText, reason: 'expected "+x/-y"' });
      if (score === undefined) continue;
      const rec: Omit<LeaderboardRecord, "source" | "higherIsBetter" | "stage"> = {
        model,
        suite: SOURCE,
        metric: "Elo rating",
        value: score,
      };
      if (ci) {
        rec.ciHigh = score + ci[0];
        rec.ciLow = score - ci[1];
      }
      if (votes !== undefined) rec.votes = votes;
      emit(line, rec, "PREFERENCE");
      continue;
    }
    const elo = f.num(row, col("Arena Elo rating"));
    if (elo !== undefined) emit(line, { model, suite: SOURCE, metric: "Elo rating", value: elo }, "PREFERENCE");
    const mtScore = f.num(row, col("MT-bench (score)"));
    if (mtScore !== undefined)
      emit(line, { model, suite: "MT-bench", metric: "score (0-10)", value: mtScore }, "LEADERBOARD");
    // The column is a percent with or without its "%" sign ("69.38%").
    const winText = f.text(row, col("MT-bench (win rate %)"));
    const winRead = winText === undefined ? undefined : readNumberText(winText.replace(/%$/, ""));
    if (winRead && !winRead.ok)
      issues.add({ line, field: "MT-bench (win rate %)", value: winText, reason: winRead.reason });
    const winPct = winRead?.ok ? winRead.value : undefined;
    const winRate = checkFraction(winPct, { line, field: "MT-bench (win rate %)" }, issues, 100);
    if (winRate !== undefined)
      emit(line, { model, suite: "MT-bench", metric: "win rate", value: winRate }, "LEADERBOARD");
    const mmlu = checkFraction(f.num(row, col("MMLU")), { line, field: "MMLU" }, issues);
    if (mmlu !== undefined) emit(line, { model, suite: "MMLU", metric: "acc", value: mmlu }, "LEADERBOARD");
  }
  if (layout === "2024")
    issues.warn(
      "This layout (2024 on) has no Arena ratings: they are only in elo_results_*.pkl, which is not imported.",
    );
  return endParse(FORMAT, issues, records, { noRows: rows.length === 0 });
}

export const chatbotArenaCsv = formatParser<LeaderboardRecord>(FORMAT, "Chatbot Arena leaderboard CSV", detect, parse);
