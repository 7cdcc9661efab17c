/** Seeds the demo decision into the configured database (demo mode only). Run with --conditions=react-server. */
import { database } from "../lib/server/db.ts";
import { migrateDatabase } from "../lib/db/connect.ts";
import { checkEnv } from "../lib/env.ts";
import { seedDemo } from "../lib/server/seed/demo-seed.ts";

async function main() {
  // As the owner (DATABASE_MIGRATION_URL) when the app's role is another; the embedded database migrates as it opens.
  if (checkEnv().DATABASE_URL) await migrateDatabase();
  const db = await database();
  const started = Date.now();
  const outcome = await seedDemo(db, (line) => console.log(line));
  console.log(
    outcome === "seeded"
      ? `Demo data seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`
      : "Demo data already present.",
  );
  await db.close();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
