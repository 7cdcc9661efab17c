import { mkdirSync, openSync, closeSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.ts";
import { env } from "../env.ts";
import { applyMigrations } from "./migrations.ts";
import { prepareServerDatabase, roleOf } from "./roles.ts";
import { pgliteRunner } from "./sql-runner.ts";

/**
 * The two ways Verdict reaches PostgreSQL:
 * - `DATABASE_URL` set: that server, through a pg Pool and Prisma's pg driver adapter;
 * - unset: an embedded PGlite persisted in a data folder, migrations applied when it opens.
 * Both expose a Prisma client plus the raw handle that bulk loads (COPY) need.
 */
export type ServerDatabase = { mode: "server"; prisma: PrismaClient; pool: pg.Pool; close(): Promise<void> };
export type EmbeddedDatabase = {
  mode: "embedded";
  prisma: PrismaClient;
  pglite: PGlite;
  /** The migrations this opening applied (the embedded database migrates as it opens). */
  migrationsApplied: string[];
  close(): Promise<void>;
};
export type Database = ServerDatabase | EmbeddedDatabase;

/**
 * Every interactive transaction's bounds, for both drivers (ARCHITECTURE.md, "Transactions under
 * load"). maxWait: how long `$transaction` waits to start (a pooled connection and its BEGIN);
 * timeout: how long it may then run. Prisma's defaults (2 s, 5 s) turned a busy server into 500s
 * (P2028) for requests that had only queued: fifty signers wait one after another on their
 * decision's row lock while jobs recomputing million-item runs take the cores. A minute covers
 * the queue bench:signing measures (its slowest signer ≈ 25–45 s on a busy 2-core machine); a wait
 * beyond it is answered 503 with Retry-After (lib/server/errors.ts), never 500. A few calls pass
 * their own (the demo seed, a harness run's finish).
 */
export const TRANSACTION_OPTIONS = { maxWait: 60_000, timeout: 60_000 } as const;

export function embeddedDataDir(): string {
  return env().VERDICT_DATA_DIR ?? path.join(process.cwd(), "data", "pglite");
}

/**
 * PGlite takes no lock of its own and two processes on one folder corrupt it silently, so the
 * opener holds `<dir>.lock` (its pid); a lock whose process is gone is stale and taken over.
 */
function takeLock(dataDir: string): () => void {
  const lockPath = `${dataDir}.lock`;
  mkdirSync(path.dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, "utf8") === String(process.pid)) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(lockPath, "utf8"));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database at ${dataDir} is open in another process (pid ${holder}). ` +
            "Stop it first, or set DATABASE_URL to use a PostgreSQL server.",
        );
      }
      unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function openEmbedded(dataDir = embeddedDataDir()): Promise<EmbeddedDatabase> {
  const inMemory = dataDir.startsWith("memory://");
  const release = inMemory ? () => {} : takeLock(dataDir);
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir);
  let migrationsApplied: string[];
  try {
    migrationsApplied = await applyMigrations(pgliteRunner(pglite));
  } catch (error) {
    await pglite.close();
    release();
    throw error;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTION_OPTIONS });
  const onExit = () => release();
  process.once("exit", onExit);
  return {
    mode: "embedded",
    prisma,
    pglite,
    migrationsApplied,
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
      process.off("exit", onExit);
      release();
    },
  };
}

export function openServer(url: string): ServerDatabase {
  const pool = new pg.Pool({ connectionString: url, max: env().DATABASE_POOL_SIZE });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
  return {
    mode: "server",
    prisma,
    pool,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** Opens the configured database; the embedded one is migrated on open. */
export async function openDatabase(): Promise<Database> {
  const url = env().DATABASE_URL;
  return url ? openServer(url) : openEmbedded();
}

/**
 * Applies committed migrations to the configured database. On a server they run as the owner,
 * DATABASE_MIGRATION_URL when set (else DATABASE_URL: one role for both), which then grants the
 * role of DATABASE_URL what the app needs and nothing more (lib/db/roles.ts).
 */
export async function migrateDatabase(): Promise<string[]> {
  const { DATABASE_URL: url, DATABASE_MIGRATION_URL } = env();
  if (!url) {
    if (DATABASE_MIGRATION_URL)
      throw new Error(
        "DATABASE_MIGRATION_URL is set without DATABASE_URL: set DATABASE_URL to the app's role on the same database.",
      );
    // openEmbedded migrates as it opens.
    const db = await openEmbedded();
    await db.close();
    return db.migrationsApplied;
  }
  return prepareServerDatabase(DATABASE_MIGRATION_URL || url, roleOf(url));
}

/**
 * The configured database in words, for the start log: the server's host, port, database and
 * role (never a password), or the embedded database's folder.
 */
export function describeDatabase(): string {
  const { DATABASE_URL: url, DATABASE_MIGRATION_URL: ownerUrl } = env();
  if (!url) return `embedded PGlite in ${embeddedDataDir()}`;
  const parsed = new URL(url);
  // A Unix socket is named by the `host` parameter, the URL's host then being empty.
  const host = parsed.searchParams.get("host") || `${parsed.hostname}:${parsed.port || 5432}`;
  const where = `PostgreSQL ${host}/${decodeURIComponent(parsed.pathname.slice(1))} as ${roleOf(url) || "(default role)"}`;
  return ownerUrl ? `${where} (migrations as ${roleOf(ownerUrl) || "(default role)"})` : where;
}

/** Raw SQL on either driver, bypassing Prisma's row objects (for large reads). */
export async function rawQuery<T>(database: Database, sql: string, params: unknown[] = []): Promise<T[]> {
  if (database.mode === "embedded") return (await database.pglite.query<T>(sql, params)).rows;
  return (await database.pool.query(sql, params)).rows as T[];
}
