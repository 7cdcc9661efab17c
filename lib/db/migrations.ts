import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";

/**
 * Applies the committed Prisma migrations (prisma/migrations/<name>/migration.sql) in order and
 * records each in Prisma's standard `_prisma_migrations` table, so `prisma migrate status` on a
 * machine with the native engine sees the same history. Works on PostgreSQL and PGlite alike: it
 * only needs something that runs SQL. Each migration runs in its own transaction.
 */
export interface SqlRunner {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  transaction(fn: (tx: SqlRunner) => Promise<void>): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export function migrationsDir(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

export function readMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(/*turbopackIgnore: true*/ dir)) return [];
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, entry.name, "migration.sql")),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies every migration not yet finished; returns the names applied. */
export async function applyMigrations(db: SqlRunner, migrations = readMigrations()): Promise<string[]> {
  // One applier at a time per database: concurrent app starts must not apply a migration twice.
  await db.exec(MIGRATIONS_TABLE);
  const applied: string[] = [];
  for (const migration of migrations) {
    let ran = false;
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(7348001)");
      const done = await tx.query<{ checksum: string }>(
        `SELECT checksum FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        [migration.name],
      );
      if (done.length > 0) {
        if (done[0]?.checksum !== migration.checksum) {
          throw new Error(`Migration ${migration.name} was edited after it was applied (checksum differs).`);
        }
        return;
      }
      await tx.exec(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
        [crypto.randomUUID(), migration.checksum, migration.name],
      );
      ran = true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
