import "server-only";
import { copyCsvPg, copyCsvPglite, copyOutPg, copyOutPglite } from "@/lib/db/bulk-copy";
import type { Database } from "@/lib/db/connect";
import { AUDIT_CHAIN_LOCK, chainedAuditEvent, GENESIS_HASH, type AuditInput } from "./audit/write";

/**
 * One raw SQL transaction on either driver that can stream a COPY: bulk evidence (dataset items,
 * predictions) lands with its Import row, its parent rows and its audit event, or nothing does —
 * also when the process is killed mid-COPY (the transaction never commits).
 */
export interface RawTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** COPY … FROM STDIN (CSV) from a stream of CSV chunks. */
  copy(table: string, columns: readonly string[], chunks: AsyncIterable<string>): Promise<void>;
  /** COPY (query) TO STDOUT in PostgreSQL's text format, as a stream of chunks (parameters inlined by the caller: integers only). */
  copyOut(query: string): AsyncIterable<Buffer>;
}

/** PGlite reads COPY input from a Blob: feed it in batches so memory stays bounded. */
const PGLITE_BATCH_CHARS = 32 << 20;

export async function withRawTx<T>(database: Database, fn: (tx: RawTx) => Promise<T>): Promise<T> {
  if (database.mode === "embedded") {
    return database.pglite.transaction(async (t) =>
      fn({
        query: async <R>(sql: string, params?: unknown[]) => (await t.query<R>(sql, params)).rows,
        copy: async (table, columns, chunks) => {
          let parts: string[] = [];
          let size = 0;
          for await (const chunk of chunks) {
            parts.push(chunk);
            size += chunk.length;
            if (size >= PGLITE_BATCH_CHARS) {
              await copyCsvPglite(t, table, columns, new Blob(parts));
              parts = [];
              size = 0;
            }
          }
          if (size > 0) await copyCsvPglite(t, table, columns, new Blob(parts));
        },
        copyOut: (query) => copyOutPglite(t, query),
      }),
    );
  }
  const client = await database.pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn({
      query: async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[],
      copy: (table, columns, chunks) => copyCsvPg(client, table, columns, chunks),
      copyOut: (query) => copyOutPg(client, query),
    });
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Appends an audit event inside a raw transaction (the Prisma path is recordAudit): same lock, same chain. */
export async function recordAuditRaw(tx: RawTx, input: AuditInput): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`);
  const [last] = await tx.query<{ hash: string }>(`SELECT "hash" FROM "AuditEvent" ORDER BY "id" DESC LIMIT 1`);
  const { event, prevHash, hash } = chainedAuditEvent(last?.hash ?? GENESIS_HASH, input);
  await tx.query(
    `INSERT INTO "AuditEvent" ("actorId","actorRoles","action","entityType","entityId","decisionId","before","after","ip","userAgent","createdAt","prevHash","hash")
     VALUES ($1, $2::"Role"[], $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, ($11::timestamptz AT TIME ZONE 'UTC'), $12, $13)`,
    [
      event.actorId,
      `{${event.actorRoles.join(",")}}`,
      event.action,
      event.entityType,
      event.entityId,
      event.decisionId,
      event.before === null ? null : JSON.stringify(event.before),
      event.after === null ? null : JSON.stringify(event.after),
      event.ip,
      event.userAgent,
      event.createdAt.toISOString(),
      prevHash,
      hash,
    ],
  );
}

/** Serialises concurrent imports of the same bytes (idempotency under races). */
export async function lockImportKey(tx: RawTx, key: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [key]);
}
