import "server-only";
import type { TabularFormat } from "@/lib/ingest/records";
import { typedRows as ingestTypedRows, type RowRules, type RowStream, type Typed } from "@/lib/ingest/typed-rows";
import { fileSource } from "@/lib/files/file-source";
import { csvRow } from "@/lib/db/bulk-copy";
import type { RawTx } from "../raw-tx";
import { ChunkBuffer, Issues } from "./import-record";
import { tooLarge } from "./files";

/**
 * The streaming core shared by dataset and prediction uploads: records → typed rows (or issues)
 * → CSV chunks for COPY. After the first issue no more rows are sent (the file will be rejected)
 * but reading goes on to count every problem. Duplicate ids are caught by the table's primary
 * key during COPY; `duplicateReport` then finds every duplicate with its lines.
 */
export interface RowSpec<R> extends RowRules<R> {
  /** The CSV fields of one row, in the COPY column order. */
  toCsv(row: R): string;
  itemId(row: R): string;
  onRow?(row: R): void;
}

export interface StreamState extends RowStream {
  issues: Issues;
}

export type { Typed };

/** The COPY column order of each uploaded table: the parent key, then the fields of RowSpec.toCsv (and of the demo seed's rows). */
export const DATASET_ITEM_COLUMNS = ["datasetVersionId", "itemId", "label", "slice", "text"] as const;
/** A run's prediction fields; an upload COPYs them into the run's own table, whose default is the run (lib/server/runs/partitions.ts). */
export const PREDICTION_FIELDS = [
  "itemId",
  "score",
  "predicted",
  "parseFailure",
  "rawOutput",
  "latencyMs",
  "inputTokens",
  "outputTokens",
] as const;
export const PREDICTION_COLUMNS = ["evalRunId", ...PREDICTION_FIELDS] as const;

/** Typed rows with their lines, in batches (lib/ingest's walk); issues go to `state.issues`; more than `maxRows` rows is a 413. */
export function typedRows<R>(
  file: string,
  format: TabularFormat,
  spec: RowSpec<R>,
  state: StreamState,
  maxRows: number,
): AsyncGenerator<Typed<R>[]> {
  return ingestTypedRows(fileSource(file), format, spec, state, {
    rows: maxRows,
    error: () => tooLarge("its row count", maxRows, "rows"),
  });
}

/** CSV chunks of valid rows for COPY, prefixed by the parent key; stops sending after the first issue. */
export async function* copyChunks<R>(
  rows: AsyncIterable<Typed<R>[]>,
  spec: RowSpec<R>,
  state: StreamState,
  prefix: string,
): AsyncGenerator<string> {
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
export async function duplicateReport<R>(
  tx: RawTx,
  file: string,
  format: TabularFormat,
  spec: RowSpec<R>,
  maxRows: number,
): Promise<Issues> {
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
  for (const d of dups)
    issues.add({ line: d.line, field: "id", value: d.itemId, reason: `duplicate id (first seen on line ${d.first})` });
  issues.count += Math.max(0, reported - dups.length);
  return issues;
}
