/**
 * `npm run worker`: works the PostgreSQL-backed job queues (pg-boss, schema "pgboss") on this or
 * any other machine that reaches DATABASE_URL:
 * - "compute-eval-run": an eval run's metrics (an upload's, a harness run's, or a recomputation
 *   after a parameter change) and then its decision's paired comparisons, or the comparisons alone
 *   (queued by recovery or after the evaluation dataset version changed);
 * - "harness-chunk": a harness run's chunks of items sent to a model endpoint, up to 8 at once and
 *   one per run, each holding its fair share of the endpoint's slots across every worker
 *   (lib/server/harness/slots.ts; VERDICT_HARNESS_WORKER_SLOTS caps this process's requests).
 * Like every app process it also recovers: lost jobs taken over every 10 s, the full sweep every
 * 5 minutes (lib/server/maintenance/recovery.ts), harness runs resumed every minute. Each job logs
 * a JSON line at start, finish and failure with role "worker", host and pid (lib/server/runs/job-log.ts).
 * Stop with Ctrl-C / SIGTERM (waits for the job in hand). Run with --conditions=react-server.
 */
import { checkEnv } from "../lib/env.ts";
import { database } from "../lib/server/db.ts";
import { runWorker } from "../lib/server/runs/queue.ts";
import { startMaintenance } from "../lib/server/maintenance/recovery.ts";
import { startHarnessJobs } from "../lib/server/harness/queue.ts";
import { setProcessRole } from "../lib/server/runs/job-log.ts";

async function main() {
  if (!checkEnv().DATABASE_URL)
    throw new Error(
      "Set DATABASE_URL: the job queue lives in PostgreSQL (the embedded database runs jobs in the web process).",
    );
  setProcessRole("worker");
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
