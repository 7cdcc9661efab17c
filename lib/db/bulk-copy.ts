import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PoolClient } from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * Bulk loads with PostgreSQL's COPY (never Prisma createMany for large tables: it is two orders
 * of magnitude slower). Input is CSV text or a stream of CSV chunks; each column list names
 * the table's columns in the CSV's order. The caller owns the transaction.
 */
const COPY_BUFFER_BYTES = 8 << 20;

export async function copyCsvPg(
  client: PoolClient,
  table: string,
  columns: readonly string[],
  csv: string | AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
): Promise<void> {
  // A deep write buffer lets parsing and validation run ahead while PostgreSQL works through
  // the previous chunks (the two then overlap instead of taking turns).
  const stream = client.query(copyFrom(copyStatement(table, columns, "STDIN"), { highWaterMark: COPY_BUFFER_BYTES }));
  const source = typeof csv === "string" ? Readable.from([csv]) : Readable.from(csv);
  await pipeline(source, stream);
}

/** PGlite reads COPY input from a Blob mounted at /dev/blob. */
export async function copyCsvPglite(
  db: PGlite | Transaction,
  table: string,
  columns: readonly string[],
  csv: string | Blob,
): Promise<void> {
  const blob = typeof csv === "string" ? new Blob([csv]) : csv;
  await db.query(copyStatement(table, columns, "'/dev/blob'"), [], { blob });
}

/** COPY (query) TO STDOUT, text format, streamed (the server's rows never all in memory as objects). */
export async function* copyOutPg(client: PoolClient, query: string): AsyncGenerator<Buffer> {
  yield* client.query(copyTo(`COPY (${query}) TO STDOUT`)) as AsyncIterable<Buffer>;
}

/** PGlite writes COPY output to a Blob at /dev/blob. */
export async function* copyOutPglite(db: PGlite | Transaction, query: string): AsyncGenerator<Buffer> {
  const result = await db.query(`COPY (${query}) TO '/dev/blob'`);
  if (result.blob) yield Buffer.from(await result.blob.arrayBuffer());
}

function copyStatement(table: string, columns: readonly string[], source: string): string {
  const quoted = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(", ");
  return `COPY "${table.replace(/"/g, '""')}" (${quoted}) FROM ${source} WITH (FORMAT csv)`;
}

/** One CSV field: quoted when it holds a delimiter, quote, newline or leading/trailing space; null → empty (COPY's NULL in CSV). */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`csvField: non-finite number ${value}`);
    return String(value);
  }
  if (typeof value === "boolean") return value ? "t" : "f";
  // An empty string must be quoted, otherwise COPY reads it as NULL.
  return value === "" || /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvRow = (values: ReadonlyArray<string | number | boolean | null | undefined>) =>
  values.map(csvField).join(",") + "\n";
