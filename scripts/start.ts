/** `npm start`: production start. Requires AUTH_SECRET; applies migrations; no demo logins. */
import { migrateDatabase } from "../lib/db/connect.ts";
import { checkEnv, inheritedEnv } from "../lib/env.ts";
import { startNext } from "./lib.ts";

async function main() {
  // Before the database: a malformed variable or a missing AUTH_SECRET stops here, named.
  const config = checkEnv({ production: true });
  await migrateDatabase();
  // The owner's connection string stays with the migration step: the app connects as DATABASE_URL only.
  const env: NodeJS.ProcessEnv = { ...inheritedEnv(), NODE_ENV: "production" };
  delete env.DATABASE_MIGRATION_URL;
  startNext(String(config.PORT ?? 3000), env);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
