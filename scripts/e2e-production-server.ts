/**
 * The server of the "production journey" spec: `npm start` exactly as an operator runs it — no
 * demo mode, no seed, no demo logins — on an EMPTY database on this machine's PostgreSQL
 * (E2E_PRODUCTION_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/verdict_e2e_production),
 * which `npm start` migrates itself. It reuses the production build the demo e2e server made
 * (Playwright starts that server first).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { appRoleUrl, recreateDatabase } from "../test/database.ts";
import { demoAuthSecret } from "./lib.ts";
import { env as readEnv, inheritedEnv } from "../lib/env.ts";
import { rmSync } from "node:fs";
import { e2eMailDir, startSmtpSink } from "../test/smtp-sink.ts";

async function main() {
  const config = readEnv();
  const url = config.E2E_PRODUCTION_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e_production";
  await recreateDatabase(url, { migrate: false });
  // Two roles, as README "Database roles" sets them up: `npm start` migrates as the owner and
  // grants the app's role, which is all the app itself connects as.
  // Invitations go by mail to a local SMTP sink, which writes each one where the specs read it (e2e/enrol.ts).
  const port = String(config.E2E_PRODUCTION_PORT ?? 3211);
  rmSync(e2eMailDir(port), { recursive: true, force: true });
  const sink = await startSmtpSink(e2eMailDir(port));
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    DATABASE_URL: appRoleUrl(url),
    DATABASE_MIGRATION_URL: url,
    AUTH_SECRET: demoAuthSecret(),
    PORT: port,
    NEXT_TELEMETRY_DISABLED: "1",
    VERDICT_SMTP_URL: sink.url,
    VERDICT_MAIL_FROM: "Verdict <verdict@e2e.test>",
    VERDICT_PUBLIC_URL: `http://127.0.0.1:${port}`,
    // Endpoint API keys are stored encrypted (lib/server/harness/secrets.ts): a test key unless one is given.
    VERDICT_SECRETS_KEY: process.env.VERDICT_SECRETS_KEY ?? "5e".repeat(32),
  };
  delete env.VERDICT_DEMO;
  const child = spawn(
    process.execPath,
    [path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs"), "scripts/start.ts"],
    { stdio: "inherit", env },
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
