/**
 * The server the e2e specs run against: a freshly created database on the PostgreSQL server
 * (E2E_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/verdict_e2e), migrated and
 * seeded with the demo, and the production build (built first unless E2E_SKIP_BUILD=1).
 * It refuses any database host but this machine: the specs write data.
 */
import { appRoleUrl, recreateDatabase } from "../test/database.ts";
import { run, nextBin, demoAuthSecret, startNext } from "./lib.ts";
import { env as readEnv, inheritedEnv } from "../lib/env.ts";
import { rmSync } from "node:fs";
import { e2eMailDir, startSmtpSink } from "../test/smtp-sink.ts";

async function main() {
  const config = readEnv();
  const url = config.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e";
  const port = String(config.E2E_PORT ?? 3210);
  await recreateDatabase(url);
  // The app connects as a role that owns nothing; `url` (the owner) migrated and granted it.
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    DATABASE_URL: appRoleUrl(url),
    DATABASE_MIGRATION_URL: url,
    VERDICT_DEMO: "1",
    VERDICT_DEMO_SIM_PORT: String(config.VERDICT_DEMO_SIM_PORT ?? Number(port) + 19),
    AUTH_SECRET: config.AUTH_SECRET ?? demoAuthSecret(),
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
  };
  if (config.E2E_SKIP_BUILD !== "1") await run(process.execPath, [nextBin(), "build"], env);
  await run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], env);
  // Invitations go to a local SMTP sink whose mails the specs read (e2e/enrol.ts).
  rmSync(e2eMailDir(port), { recursive: true, force: true });
  const sink = await startSmtpSink(e2eMailDir(port));
  const appEnv: NodeJS.ProcessEnv = {
    ...env,
    VERDICT_SMTP_URL: sink.url,
    VERDICT_MAIL_FROM: "Verdict <verdict@e2e.test>",
    VERDICT_PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
  delete appEnv.DATABASE_MIGRATION_URL; // the owner's connection stays with the migration step
  startNext(port, appEnv, "127.0.0.1");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
