/**
 * `npm run worker`: works the PostgreSQL-backed job queue (pg-boss, schema "pgboss") on this or
 * any other machine that reaches DATABASE_URL — today the metrics of uploaded eval runs.
 * Stop with Ctrl-C / SIGTERM (waits for the job in hand). Run with --conditions=react-server.
 */
import { checkEnv } from "../lib/env.ts";
import { database } from "../lib/server/db.ts";
import { runWorker } from "../lib/server/runs/queue.ts";
import { startMaintenance } from "../lib/server/maintenance/recovery.ts";
import { startHarnessJobs } from "../lib/server/harness/queue.ts";

async function main() {
  if (!checkEnv().DATABASE_URL)
    throw new Error(
      "Set DATABASE_URL: the job queue lives in PostgreSQL (the embedded database runs jobs in the web process).",
    );
  const db = await database();
  const stop = await runWorker(db);
  // Lost runs, orphaned spool files: at start and periodically, like the web servers.
  await startMaintenance(db, { workQueue: true });
  // Harness runs' chunks: worked here too, and runs left by a killed process resumed.
  await startHarnessJobs(db, { workQueue: true });
  console.log(`Worker started (pid ${process.pid}); waiting for jobs.`);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log("Stopping after the job in hand…");
      void stop()
        .then(() => db.close())
        .then(() => process.exit(0));
    });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
