/**
 * `npm run demo`: build, seed the demo decision (idempotently) and start the app.
 * Embedded PostgreSQL (PGlite, in ./data) unless DATABASE_URL is set. Honours PORT (default 3000).
 * Demo mode publishes the demo logins; it is never how production runs (see `npm start`).
 */
import { existsSync } from "node:fs";
import { DEMO_USERS } from "../lib/demo/users.ts";
import { checkEnv, inheritedEnv } from "../lib/env.ts";
import { demoAuthSecret, run, startNext, waitForHttp, nextBin } from "./lib.ts";

async function main() {
  const config = checkEnv();
  const port = String(config.PORT ?? 3000);
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    VERDICT_DEMO: "1",
    AUTH_SECRET: config.AUTH_SECRET ?? demoAuthSecret(),
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    // The demo runs on the embedded database on purpose (a production server would refuse it unasked).
    ...(config.DATABASE_URL ? {} : { VERDICT_EMBEDDED_DATABASE: "1" }),
  };
  if (config.VERDICT_SKIP_BUILD !== "1" || !existsSync(".next/BUILD_ID")) {
    console.log("Building Verdict (next build)…");
    await run(process.execPath, [nextBin(), "build"], env);
  }
  console.log(
    config.DATABASE_URL
      ? "Using the PostgreSQL server at DATABASE_URL."
      : "Using the embedded PostgreSQL in ./data/pglite.",
  );
  await run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], env);
  startNext(port, env);
  const url = `http://localhost:${port}`;
  await waitForHttp(`${url}/sign-in`);
  console.log(`\nVerdict is running at ${url}\n\nDemo logins (demo mode only):`);
  for (const user of DEMO_USERS)
    console.log(`  ${user.roles.join(", ").padEnd(9)} ${user.email.padEnd(24)} ${user.password}`);
  console.log("\nPress Ctrl-C to stop.");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
