import "server-only";
import { readCsvBatches, readJsonlBatches, readParquetBatches, type RecordEvent, type TabularFormat } from "@/lib/ingest/records";
import type { ParseIssue } from "@/lib/ingest/formats/types";
import { csvRow } from "@/lib/db/bulk-copy";
import type { RawTx } from "../raw-tx";
import { ChunkBuffer, Issues } from "./common";
import { tooLarge } from "./files";

/**
 * The streaming core shared by dataset and prediction uploads: records → typed rows (or issues)
 * → CSV chunks for COPY. After the first issue no more rows are sent (the file will be rejected)
 * but reading goes on to count every problem. Duplicate ids are caught by the table's primary
 * key during COPY; `duplicateReport` then finds every duplicate with its lines.
 */
export interface RowSpec<R> {
  /** Resolves columns from the header (CSV) or the first record (JSON Lines); issues reject the file. */
  resolve(columns: string[], line: number): { ok: true; read: (values: Record<string, unknown>, line: number) => { ok: true; row: R } | { ok: false; issues: ParseIssue[] } } | { ok: false; issues: ParseIssue[] };
  /** The CSV fields of one row, in the COPY column order. */
  toCsv(row: R): string;
  itemId(row: R): string;
  onRow?(row: R): void;
}

export interface StreamState {
  issues: Issues;
  rows: number;
  /** Called after each batch of rows (progress for the browser). */
  onProgress?: (rows: number) => void;
}

function batches(file: string, format: TabularFormat): AsyncGenerator<RecordEvent[]> {
  return format === "csv" ? readCsvBatches(file) : format === "parquet" ? readParquetBatches(file) : readJsonlBatches(file);
}

export type Typed<R> = { row: R; line: number };

/** Typed rows with their lines, in batches; issues go to `state.issues`. */
export async function* typedRows<R>(file: string, format: TabularFormat, spec: RowSpec<R>, state: StreamState, maxRows: number): AsyncGenerator<Typed<R>[]> {
  let read: ((values: Record<string, unknown>, line: number) => { ok: true; row: R } | { ok: false; issues: ParseIssue[] }) | null = null;
  let headerFailed = false;
  let sawHeader = false;
  let stop = false;
  for await (const events of batches(file, format)) {
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
        const resolved = spec.resolve(ev.columns, ev.line);
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
        const resolved = spec.resolve(Object.keys(ev.values), ev.line);
        if (!resolved.ok) {
          headerFailed = true;
          state.issues.add(...resolved.issues);
          stop = true;
          break;
        }
        read = resolved.read;
      }
      state.rows++;
      if (state.rows > maxRows) throw tooLarge("its row count", maxRows, "rows");
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

/** CSV chunks of valid rows for COPY, prefixed by the parent key; stops sending after the first issue. */
export async function* copyChunks<R>(rows: AsyncIterable<Typed<R>[]>, spec: RowSpec<R>, state: StreamState, prefix: string): AsyncGenerator<string> {
  const buffer = new ChunkBuffer();
  for await (const batch of rows) {
    if (state.issues.failed) continue;
    for (const { row } of batch) {
      spec.onRow?.(row);
      const chunk = buffer.push(prefix + spec.toCsv(row));
      if (chunk) yield chunk;
    }
  }
  const rest = buffer.take();
  if (rest && !state.issues.failed) yield rest;
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

/**
 * Error path after a primary-key violation: reads the file again into a temporary table of
 * (id, line) and lists every repeated id with its line, plus the validation issues found on the
 * way. Runs in its own transaction that is rolled back.
 */
export async function duplicateReport<R>(tx: RawTx, file: string, format: TabularFormat, spec: RowSpec<R>, maxRows: number): Promise<Issues> {
  const state: StreamState = { issues: new Issues(), rows: 0 };
  await tx.query(`CREATE TEMP TABLE verdict_ids ("itemId" text, line int) ON COMMIT DROP`);
  async function* chunks() {
    const buffer = new ChunkBuffer();
    for await (const batch of typedRows(file, format, spec, state, maxRows)) {
      for (const { row, line } of batch) {
        const chunk = buffer.push(csvRow([spec.itemId(row), line]));
        if (chunk) yield chunk;
      }
    }
    const rest = buffer.take();
    if (rest) yield rest;
  }
  await tx.copy("verdict_ids", ["itemId", "line"], chunks());
  const [{ count }] = (await tx.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM (SELECT line, row_number() OVER (PARTITION BY "itemId" ORDER BY line) AS n FROM verdict_ids) d WHERE n > 1`,
  )) as [{ count: string | number }];
  const dups = await tx.query<{ itemId: string; line: number; first: number }>(
    `SELECT "itemId", line, first FROM (
       SELECT "itemId", line, row_number() OVER (PARTITION BY "itemId" ORDER BY line) AS n, min(line) OVER (PARTITION BY "itemId") AS first FROM verdict_ids
     ) d WHERE n > 1 ORDER BY line LIMIT 100`,
  );
  const issues = state.issues;
  const reported = Number(count);
  for (const d of dups) issues.add({ line: d.line, field: "id", value: d.itemId, reason: `duplicate id (first seen on line ${d.first})` });
  issues.count += Math.max(0, reported - dups.length);
  return issues;
}
