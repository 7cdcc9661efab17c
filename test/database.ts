import pg from "pg";
import { applyMigrations } from "../lib/db/migrations.ts";
import { pgRunner } from "../lib/db/sql-runner.ts";

/**
 * Drops and recreates a test database, then applies the committed migrations. Guarded: tests
 * write and drop data, so only a database on this machine whose name says "test" or "e2e" will do.
 */
export async function recreateDatabase(url: string, { migrate = true } = {}): Promise<void> {
  await onServer(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  if (!migrate) return;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await applyMigrations(pgRunner(pool));
  } finally {
    await pool.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, (client, name) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

async function onServer(url: string, fn: (client: pg.Client, name: string) => Promise<unknown>): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) throw new Error(`Refusing to touch a database on ${target.hostname}: tests use a local server only.`);
  if (!/^[a-z0-9_]*(test|e2e)[a-z0-9_]*$/.test(name)) throw new Error(`Refusing to recreate "${name}": a test database name must contain "test" or "e2e".`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await fn(client, name);
  } finally {
    await client.end();
  }
}
