import pg from "pg";
import { openServer, type ServerDatabase } from "../lib/db/connect.ts";
import { ensureLoginRole, prepareServerDatabase } from "../lib/db/roles.ts";

/**
 * The role the app connects as in tests and e2e servers: it owns nothing (README "Database
 * roles"); `url` (user postgres) stays the owner that migrates, and tampers in tests.
 */
export const TEST_APP_ROLE = "verdict_app";
export function appRoleUrl(ownerUrl: string): string {
  const url = new URL(ownerUrl);
  url.username = TEST_APP_ROLE;
  url.password = "";
  return url.toString();
}

/**
 * Drops and recreates a test database, then applies the committed migrations as its owner and
 * grants the app role (TEST_APP_ROLE). Guarded: tests write and drop data, so only a database on
 * this machine whose name says "test" or "e2e" will do.
 */
export async function recreateDatabase(url: string, { migrate = true } = {}): Promise<void> {
  await onServer(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  const admin = new URL(url);
  admin.pathname = "/postgres";
  await ensureLoginRole(admin.toString(), TEST_APP_ROLE);
  if (!migrate) return;
  await prepareServerDatabase(url, TEST_APP_ROLE);
}

export async function dropDatabase(url: string): Promise<void> {
  await onServer(url, (client, name) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

async function onServer(url: string, fn: (client: pg.Client, name: string) => Promise<unknown>): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname))
    throw new Error(`Refusing to touch a database on ${target.hostname}: tests use a local server only.`);
  if (!/^[a-z0-9_]*(test|e2e)[a-z0-9_]*$/.test(name))
    throw new Error(`Refusing to recreate "${name}": a test database name must contain "test" or "e2e".`);
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

/** The owner's connection to this run's test database (TEST_DATABASE_URL), for tests that tamper as the owner would. */
export function openOwner(): ServerDatabase {
  return openServer(process.env.TEST_DATABASE_URL!);
}
