import type { ParseIssue } from "./formats/types";
import { COLUMN_NAMES, readLabel, readNumber } from "./buyer-rows";
import { pickColumn, show, type TabularFormat } from "./records";
import { typedRows, type RowRules, type RowStream } from "./typed-rows";
import type { ByteSource } from "./byte-source";
import { delimiterNote } from "./formats/csv-delimiter";

/**
 * Labelled scores for `verdict metrics`: a gold label and a score per row, read by the upload's
 * own readers and rules — the same CSV/JSON Lines/Parquet readers and row walk
 * (`typed-rows.ts`), the same column names (`COLUMN_NAMES`), the same label and number rules
 * (`readLabel` without a class-name mapping, `readNumber`) — so a file the app would reject is
 * rejected here too, naming the same line, field and reason.
 */

export interface LabelledScores {
  labels: Uint8Array;
  scores: Float64Array;
  /** The first `maxIssues` problems, in reading order. */
  issues: ParseIssue[];
  /** Every problem, also those not listed. */
  issueCount: number;
  /** How the file was read, when worth saying (a CSV separator other than the comma), as an upload reports it. */
  notes: string[];
}

type ScoredRow = { label: 0 | 1; score: number };

export const labelledScoreRules: RowRules<ScoredRow> = {
  resolve(columns, line) {
    const label = pickColumn(columns, COLUMN_NAMES.label);
    const score = pickColumn(columns, COLUMN_NAMES.score);
    const header = show(columns.join(","));
    const issues: ParseIssue[] = [];
    if (!label)
      issues.push({
        line,
        field: "(header)",
        value: header,
        reason: `no gold label column (${COLUMN_NAMES.label.join(", ")})`,
      });
    if (!score)
      issues.push({
        line,
        field: "(header)",
        value: header,
        reason: `no score column (${COLUMN_NAMES.score.join(", ")})`,
      });
    if (!label || !score) return { ok: false, issues };
    return {
      ok: true,
      read(values, at) {
        const issues: ParseIssue[] = [];
        const y = readLabel(values[label], null);
        if (!y.ok) issues.push({ line: at, field: label, value: show(values[label]), reason: y.reason });
        else if (y.value === null) issues.push({ line: at, field: label, value: "", reason: "missing gold label" });
        const s = readNumber(values[score]);
        if (!s.ok) issues.push({ line: at, field: score, value: show(values[score]), reason: s.reason });
        else if (s.value === null) issues.push({ line: at, field: score, value: "", reason: "missing score" });
        if (issues.length) return { ok: false, issues };
        return { ok: true, row: { label: y.ok && y.value ? 1 : 0, score: (s as { value: number }).value } };
      },
    };
  },
};

/** Growable typed columns, so millions of rows never become millions of kept objects. */
class Columns {
  labels = new Uint8Array(1024);
  scores = new Float64Array(1024);
  n = 0;
  push(label: 0 | 1, score: number) {
    if (this.n === this.labels.length) {
      const labels = new Uint8Array(this.n * 2);
      labels.set(this.labels);
      this.labels = labels;
      const scores = new Float64Array(this.n * 2);
      scores.set(this.scores);
      this.scores = scores;
    }
    this.labels[this.n] = label;
    this.scores[this.n] = score;
    this.n++;
  }
}

/** Reads every row of `source`; rows are kept only while no problem has been found. */
export async function readLabelledScores(
  source: ByteSource,
  format: TabularFormat,
  maxIssues = 100,
): Promise<LabelledScores> {
  const issues: ParseIssue[] = [];
  let issueCount = 0;
  const state: RowStream = {
    rows: 0,
    issues: {
      add(...found: ParseIssue[]) {
        for (const issue of found) if (issueCount++ < maxIssues) issues.push(issue);
      },
      get failed() {
        return issueCount > 0;
      },
    },
  };
  const columns = new Columns();
  for await (const batch of typedRows(source, format, labelledScoreRules, state)) {
    if (issueCount > 0) continue; // the file is rejected; go on reading only to report every problem
    for (const { row } of batch) columns.push(row.label, row.score);
  }
  return {
    labels: columns.labels.subarray(0, columns.n),
    scores: columns.scores.subarray(0, columns.n),
    issues,
    issueCount,
    notes: [delimiterNote(state.delimiter)].filter((n) => n !== null),
  };
}
