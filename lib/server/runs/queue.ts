import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { env } from "@/lib/env";
import { JOB_SCHEMA, type JOB_QUEUES } from "@/lib/db/roles";
import { computeComparisonsIfDue, computeRunAndComparisons } from "./compute-job";
import { loggedJob } from "./job-log";

/**
 * Background jobs, one small interface: `enqueueComputeRun(database, runId)` (a run's metrics,
 * then its decision's paired comparisons) and `enqueueComparisons(database, decisionId)` (the
 * comparisons alone: recovery, a change that re-queues no run). Both kinds share one queue.
 * - DATABASE_URL set: a PostgreSQL-backed queue (pg-boss, schema "pgboss"), so workers can run on
 *   other machines (`npm run worker`). The web process works the queue too unless
 *   VERDICT_WORKER=0.
 * - Embedded PGlite (pg-boss cannot connect to an in-process database), or VERDICT_JOBS=inline:
 *   an in-process runner, one job at a time, in the same process.
 * A run shows its state in EvalRun.status / progress either way.
 *
 * Telling a lost job from a live one (lib/server/maintenance/recovery.ts): on a PostgreSQL server a job
 * computes its run holding a session advisory lock on the run (withRunLock), on a connection of
 * its own, so the lock goes with the process — a killed worker's connection closes and frees it at
 * once. In the embedded database, one process, the in-process runner knows its runs (inProcessRuns).
 */
// The owner creates the schema and the queue at migration (lib/db/roles.ts): the app's role may not create tables.
export const COMPUTE_RUN_QUEUE: (typeof JOB_QUEUES)[number] = "compute-eval-run";

type Boss = import("pg-boss");
const holder = globalThis as typeof globalThis & {
  __verdictBoss?: Promise<Boss>;
  __verdictInline?: Promise<void>;
  __verdictInlineRuns?: Set<number>;
  __verdictInlineDecisions?: Set<string>;
};
const inlineRuns = (holder.__verdictInlineRuns ??= new Set<number>());
const inlineDecisions = (holder.__verdictInlineDecisions ??= new Set<string>());

/** A job's data on the queue: a run to compute, or a decision whose comparisons to compute. */
export type ComputeJob = { runId: number } | { decisionId: string };

export function queueEnabled(database: Database): boolean {
  return database.mode === "server" && env().VERDICT_JOBS !== "inline" && Boolean(env().DATABASE_URL);
}

/** Whether this process computes runs: its in-process runner, or the queue it works (unless VERDICT_WORKER=0). */
export function computesHere(database: Database): boolean {
  return !queueEnabled(database) || env().VERDICT_WORKER !== "0";
}

/** Runs queued or computing in this process's in-process runner. */
export function inProcessRuns(): ReadonlySet<number> {
  return inlineRuns;
}

/** Decisions whose comparisons job is queued or computing in this process's in-process runner. */
export function inProcessComparisons(): ReadonlySet<string> {
  return inlineDecisions;
}

export async function enqueueComputeRun(database: Database, runId: number): Promise<void> {
  await rawQuery(database, `UPDATE "EvalRun" SET "queuedAt" = now() WHERE id = $1`, [runId]);
  await enqueue(database, { runId }, () => expirySeconds(database, runId));
}

export async function enqueueComparisons(database: Database, decisionId: string): Promise<void> {
  await enqueue(database, { decisionId }, () => comparisonsExpirySeconds(database, decisionId));
}

async function enqueue(database: Database, job: ComputeJob, expiry: () => Promise<number>): Promise<void> {
  if (!queueEnabled(database)) {
    runInline(database, job);
    return;
  }
  const boss = await startBoss(env().VERDICT_WORKER !== "0" ? database : null);
  // No pg-boss retries: a job's failure is stored on its run (FAILED with the message), and a job
  // lost with its process is found and re-queued by recovery within seconds (recovery.ts).
  await boss.send(COMPUTE_RUN_QUEUE, job, { retryLimit: 0, expireInSeconds: await expiry() });
}

/**
 * pg-boss gives a job up (and its worker takes the next) after expireInSeconds, so it must cover
 * the work: the run's metrics with a 1,000-replicate bootstrap (≈ 30 µs an item on a busy core),
 * then the decision's paired comparisons on that dataset version (one bootstrap per pair of
 * runs). 15 minutes plus 100 µs per item and per computation, at most 23 hours (pg-boss's cap is 24).
 */
export async function expirySeconds(database: Database, runId: number): Promise<number> {
  const [row] = await rawQuery<{ items: number; runs: number }>(
    database,
    `SELECT v."itemCount" AS items,
            (SELECT count(*)::int FROM "EvalRun" o WHERE o."decisionId" = r."decisionId" AND o."datasetVersionId" = r."datasetVersionId") AS runs
       FROM "EvalRun" r JOIN "DatasetVersion" v ON v.id = r."datasetVersionId" WHERE r.id = $1`,
    [runId],
  );
  const items = Number(row?.items ?? 0);
  const runs = Math.max(1, Number(row?.runs ?? 1));
  const computations = 1 + (runs * (runs - 1)) / 2;
  return Math.min(23 * 3600, Math.ceil(15 * 60 + items * computations * 100e-6));
}

/** As expirySeconds, for the comparisons alone: every pair of the decision's runs on its largest version. */
async function comparisonsExpirySeconds(database: Database, decisionId: string): Promise<number> {
  const [row] = await rawQuery<{ items: number; runs: number }>(
    database,
    `SELECT coalesce(max(v."itemCount"), 0) AS items, count(r.id)::int AS runs
       FROM "EvalRun" r JOIN "DatasetVersion" v ON v.id = r."datasetVersionId" WHERE r."decisionId" = $1`,
    [decisionId],
  );
  const runs = Math.max(1, Number(row?.runs ?? 1));
  return Math.min(23 * 3600, Math.ceil(15 * 60 + Number(row?.items ?? 0) * ((runs * (runs - 1)) / 2) * 100e-6));
}

/** One job, logged (job-log.ts): a run's metrics then its decision's comparisons, or the comparisons alone. */
export async function runComputeJob(database: Database, job: ComputeJob, jobId: string | null = null): Promise<void> {
  if ("runId" in job) {
    const run = await database.prisma.evalRun.findUnique({ where: { id: job.runId }, select: { decisionId: true } });
    await loggedJob({ job: "compute-run", jobId, decision: run?.decisionId ?? null, run: job.runId }, () =>
      computeRunAndComparisons(database, job.runId),
    );
  } else {
    await loggedJob({ job: "compute-comparisons", jobId, decision: job.decisionId, run: null }, async () => ({
      comparisons: await computeComparisonsIfDue(database, job.decisionId),
    }));
  }
}

function runInline(database: Database, job: ComputeJob) {
  const forget = "runId" in job ? track(inlineRuns, job.runId) : track(inlineDecisions, job.decisionId);
  const previous = holder.__verdictInline ?? Promise.resolve();
  holder.__verdictInline = previous.then(() =>
    runComputeJob(database, job)
      // Logged (job.failure); computeEvalRun has marked the run FAILED with the message.
      .catch(() => {})
      .finally(forget),
  );
}

function track<T>(set: Set<T>, key: T): () => void {
  set.add(key);
  return () => set.delete(key);
}

/** Resolves when every in-process job queued so far has finished (tests, CLI before exit). */
export async function drainInlineJobs(): Promise<void> {
  let seen: Promise<void> | undefined;
  while (holder.__verdictInline && holder.__verdictInline !== seen) {
    seen = holder.__verdictInline;
    await seen;
  }
}

/** Starts (once) the pg-boss client; with a database, this process also works the queue. */
export function startBoss(workFor: Database | null): Promise<Boss> {
  holder.__verdictBoss ??= (async () => {
    const PgBoss = (await import("pg-boss")).default as unknown as typeof import("pg-boss");
    const boss = new PgBoss({ connectionString: env().DATABASE_URL!, schema: JOB_SCHEMA, max: 3 });
    boss.on("error", (error: unknown) => console.error("job queue:", error instanceof Error ? error.message : error));
    await boss.start();
    await boss.createQueue(COMPUTE_RUN_QUEUE);
    if (workFor) await workQueue(boss, workFor);
    return boss;
  })();
  return holder.__verdictBoss;
}

async function workQueue(boss: Boss, database: Database) {
  await boss.work<ComputeJob>(
    COMPUTE_RUN_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1 },
    async (jobs: { id: string; data: ComputeJob }[]) => {
      for (const job of jobs) await runComputeJob(database, job.data, job.id);
    },
  );
}

/** For scripts/worker.ts: work the queue until stopped. */
export async function runWorker(database: Database): Promise<() => Promise<void>> {
  if (database.mode !== "server")
    throw new Error(
      "The job worker needs DATABASE_URL (a PostgreSQL server); the embedded database runs jobs in the web process.",
    );
  const boss = await startBoss(database);
  return async () => {
    await boss.stop({ graceful: true, wait: true });
  };
}

/** Stops this process's queue client, if one was started (CLI, tests). */
export async function stopJobs(): Promise<void> {
  const boss = holder.__verdictBoss;
  holder.__verdictBoss = undefined;
  if (boss) await (await boss).stop({ graceful: true, wait: true });
}
