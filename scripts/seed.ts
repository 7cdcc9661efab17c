/** Seeds the demo decision into the configured database (demo mode only). Run with --conditions=react-server. */
import { database } from "../lib/server/db.ts";
import { applyMigrations } from "../lib/db/migrations.ts";
import { pgRunner } from "../lib/db/sql-runner.ts";
import { seedDemo } from "../lib/server/seed/demo-seed.ts";

async function main() {
  const db = await database();
  if (db.mode === "server") await applyMigrations(pgRunner(db.pool));
  const started = Date.now();
  const outcome = await seedDemo(db, (line) => console.log(line));
  console.log(outcome === "seeded" ? `Demo data seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.` : "Demo data already present.");
  await db.close();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
