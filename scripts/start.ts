/**
 * `npm start`: production start. Requires AUTH_SECRET and a database chosen on purpose
 * (DATABASE_URL, or VERDICT_EMBEDDED_DATABASE=1 for the embedded one); applies migrations; no demo
 * logins. The log says which database, which migrations it applied and the public URL.
 */
import { describeDatabase, migrateDatabase } from "../lib/db/connect.ts";
import { readMigrations } from "../lib/db/migrations.ts";
import { checkEnv, inheritedEnv, publicUrlOf } from "../lib/env.ts";
import { startNext, waitForHttp } from "./lib.ts";

function describeMigrations(applied: string[]): string {
  if (applied.length === 0) return `none pending (${readMigrations().length} applied earlier)`;
  return `applied ${applied.length}: ${applied.join(", ")}`;
}

async function main() {
  // Before the database: a malformed variable, a missing AUTH_SECRET or an unchosen embedded database stops here, named.
  const config = checkEnv({ production: true, serving: true });
  const port = String(config.PORT ?? 3000);
  console.log(`Verdict: database ${describeDatabase()}`);
  const applied = await migrateDatabase();
  console.log(`Verdict: migrations ${describeMigrations(applied)}`);
  const publicUrl = publicUrlOf(config);
  console.log(
    publicUrl
      ? `Verdict: public URL ${publicUrl} (listening on port ${port})`
      : `Verdict: public URL http://localhost:${port} — set VERDICT_PUBLIC_URL to the address users reach (invitation links need it)`,
  );
  // The owner's connection string stays with the migration step: the app connects as DATABASE_URL only.
  const env: NodeJS.ProcessEnv = { ...inheritedEnv(), NODE_ENV: "production" };
  delete env.DATABASE_MIGRATION_URL;
  startNext(port, env);
  await waitForHttp(`http://127.0.0.1:${port}/sign-in`, 120_000).then(
    () => console.log(`Verdict is ready: ${publicUrl ?? `http://localhost:${port}`}/sign-in`),
    (error: unknown) => console.error(`Verdict: ${error instanceof Error ? error.message : error}`),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
