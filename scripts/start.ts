/** `npm start`: production start. Requires AUTH_SECRET; applies migrations; no demo logins. */
import { migrateDatabase } from "../lib/db/connect.ts";
import { startNext } from "./lib.ts";

async function main() {
  if (!process.env.AUTH_SECRET) {
    console.error("Verdict refuses to start: AUTH_SECRET is not set. Set it to a long random value (openssl rand -base64 32). For the demo, run `npm run demo`.");
    process.exit(1);
  }
  await migrateDatabase();
  // The owner's connection string stays with the migration step: the app connects as DATABASE_URL only.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  delete env.DATABASE_MIGRATION_URL;
  startNext(process.env.PORT ?? "3000", env);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
