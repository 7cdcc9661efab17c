import type { ParseIssue } from "./formats/types";
import { readCsvBatches, readJsonlBatches, readParquetBatches, type RecordEvent, type TabularFormat } from "./records";
import type { ByteSource } from "./byte-source";
import type { CsvDelimiter } from "./formats/csv-delimiter";

/**
 * The walk from record events to typed rows that every reader of the buyer's own evidence
 * shares — dataset and prediction uploads (lib/server/imports/tabular.ts) and `verdict metrics`
 * — so a file is judged by the same rules, with the same line numbers, wherever it is read:
 * the header (CSV) or the first record's keys (JSON Lines) resolve the columns and a bad header
 * ends the reading; row errors are counted and reading goes on; a file error ends it; an empty
 * file and a file without data rows are issues.
 */

export type ReadRow<R> = (
  values: Record<string, unknown>,
  line: number,
) => { ok: true; row: R } | { ok: false; issues: ParseIssue[] };

export interface RowRules<R> {
  /** Resolves columns from the header (CSV, Parquet) or the first record (JSON Lines); issues reject the file. */
  resolve(columns: string[], line: number): { ok: true; read: ReadRow<R> } | { ok: false; issues: ParseIssue[] };
}

export interface RowStream {
  issues: { add(...issues: ParseIssue[]): void; readonly failed: boolean };
  rows: number;
  /** Called after each batch of rows (progress for the browser). */
  onProgress?: (rows: number) => void;
  /** Set at a CSV file's header: the separator it was read with, for the upload's report. */
  delimiter?: CsvDelimiter;
}

export type Typed<R> = { row: R; line: number };

export function tabularBatches(source: ByteSource, format: TabularFormat): AsyncGenerator<RecordEvent[]> {
  return format === "csv"
    ? readCsvBatches(source)
    : format === "parquet"
      ? readParquetBatches(source)
      : readJsonlBatches(source);
}

/**
 * Typed rows with their lines, in batches; issues go to `state.issues`. With `limit`, a file of
 * more rows than `limit.rows` throws `limit.error()` as soon as the row after the limit is read.
 */
export async function* typedRows<R>(
  source: ByteSource,
  format: TabularFormat,
  rules: RowRules<R>,
  state: RowStream,
  limit?: { rows: number; error: () => Error },
): AsyncGenerator<Typed<R>[]> {
  let read: ReadRow<R> | null = null;
  let headerFailed = false;
  let sawHeader = false;
  let stop = false;
  const maxRows = limit?.rows ?? Infinity;
  for await (const events of tabularBatches(source, format)) {
    const out: Typed<R>[] = [];
    for (const ev of events) {
      if (ev.kind === "file-error") {
        state.issues.add(ev.issue);
        stop = true;
        break;
      }
      if (ev.kind === "row-error") {
        state.rows++;
        state.issues.add(ev.issue);
        continue;
      }
      if (ev.kind === "header") {
        sawHeader = true;
        state.delimiter = ev.delimiter;
        const resolved = rules.resolve(ev.columns, ev.line);
        if (resolved.ok) read = resolved.read;
        else {
          headerFailed = true;
          state.issues.add(...resolved.issues);
        }
        continue;
      }
      if (headerFailed) {
        stop = true; // a wrong header: the report names the header, not every row
        break;
      }
      if (!read) {
        sawHeader = true;
        const resolved = rules.resolve(Object.keys(ev.values), ev.line);
        if (!resolved.ok) {
          headerFailed = true;
          state.issues.add(...resolved.issues);
          stop = true;
          break;
        }
        read = resolved.read;
      }
      state.rows++;
      if (state.rows > maxRows) throw limit!.error();
      const result = read(ev.values, ev.line);
      if (!result.ok) state.issues.add(...result.issues);
      else out.push({ row: result.row, line: ev.line });
    }
    state.onProgress?.(state.rows);
    if (out.length) yield out;
    if (stop) break;
  }
  if (!state.issues.failed && (!sawHeader || state.rows === 0)) {
    state.issues.add({ line: 1, field: "(file)", reason: sawHeader ? "no data rows" : "empty file" });
  }
}
