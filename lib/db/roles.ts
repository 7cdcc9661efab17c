import pg from "pg";
import { env } from "../env.ts";
import { applyMigrations } from "./migrations.ts";
import { pgRunner } from "./sql-runner.ts";

/**
 * Two database roles on a PostgreSQL server (README "Database roles"):
 * - the owner (DATABASE_MIGRATION_URL) owns the tables and the triggers, applies migrations and
 *   installs the job queue's schema;
 * - the app (DATABASE_URL) owns nothing: it reads and writes rows with the privileges granted
 *   here, so it can neither TRUNCATE a protected table nor alter or disable a trigger (both need
 *   ownership). Only the owner's connection string ever reaches this file's functions.
 * The embedded database (PGlite, one process for one user) keeps a single role.
 */

/** The job queue's schema and its queues (lib/server/runs/queue.ts): created by the owner, used by the app. */
export const JOB_SCHEMA = "pgboss";
export const JOB_QUEUES = ["compute-eval-run", "harness-chunk"] as const;

/** Rows the app adds but never changes or removes (on top of the triggers that refuse it to anyone). */
export const APPEND_ONLY_TABLES = ["AuditEvent", "Signature", "PackRevision"] as const;

const ROLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The grants of the app role; run by the owner after every migration, so new tables are covered. */
export function appRoleGrants(role: string): string[] {
  if (!ROLE_NAME.test(role)) throw new Error(`"${role}" is not a role name Verdict grants to (letters, digits, _).`);
  const r = `"${role}"`;
  const appendOnly = APPEND_ONLY_TABLES.map((t) => `"${t}"`).join(", ");
  return [
    `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${r}`,
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
    // The tables the owner creates later: each eval run's partition of "Prediction" (created by
    // the owner's functions, lib/server/runs/partitions.ts).
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `REVOKE UPDATE, DELETE ON ${appendOnly} FROM ${r}`,
    // The one change a revision sees: marked superseded when a newer one is frozen (the trigger
    // allows nothing else either).
    `GRANT UPDATE ("supersededAt") ON "PackRevision" TO ${r}`,
    `REVOKE INSERT, UPDATE, DELETE ON "_prisma_migrations" FROM ${r}`,
    `GRANT USAGE ON SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${JOB_SCHEMA} TO ${r}`,
  ];
}

/**
 * pg-boss creates its schema, tables and one partition table per queue when it first starts;
 * the app role may not create tables, so the owner does it here (a started pg-boss at the same
 * version then only checks it, and creating an existing queue only inserts nothing).
 */
export async function installJobSchema(ownerUrl: string): Promise<void> {
  const PgBoss = (await import("pg-boss")).default as unknown as typeof import("pg-boss");
  const boss = new PgBoss({
    connectionString: ownerUrl,
    schema: JOB_SCHEMA,
    max: 1,
    supervise: false,
    schedule: false,
  });
  boss.on("error", () => {});
  await boss.start();
  try {
    for (const queue of JOB_QUEUES) await boss.createQueue(queue);
  } finally {
    await boss.stop({ graceful: false, wait: true, close: true });
  }
}

/** The user name of a connection string (the role it connects as). */
export const roleOf = (url: string) => decodeURIComponent(new URL(url).username || env().PGUSER || "");

/**
 * As the owner: migrations, the job queue's schema and — when the app connects as another role —
 * that role's grants. Returns the migrations applied.
 */
export async function prepareServerDatabase(ownerUrl: string, appRole: string | null): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  try {
    const runner = pgRunner(pool);
    const applied = await applyMigrations(runner);
    await installJobSchema(ownerUrl);
    if (appRole && appRole !== roleOf(ownerUrl)) {
      await runner.transaction(async (tx) => {
        for (const sql of appRoleGrants(appRole)) await tx.exec(sql);
      });
    }
    return applied;
  } finally {
    await pool.end();
  }
}

/** Creates a login role with no privileges of its own (tests and e2e servers; an operator uses psql). */
export async function ensureLoginRole(adminUrl: string, role: string): Promise<void> {
  if (!ROLE_NAME.test(role)) throw new Error(`"${role}" is not a valid role name.`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
    if (rows.length === 0) {
      // Parallel test runs may race to create it: "already exists" is success.
      await client
        .query(`CREATE ROLE "${role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`)
        .catch((error: { code?: string }) => {
          if (error.code !== "42710" && error.code !== "23505") throw error;
        });
    }
  } finally {
    await client.end();
  }
}
