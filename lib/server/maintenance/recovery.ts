import "server-only";
import type { Database } from "@/lib/db/connect";
import { env } from "@/lib/env";
import { recordAudit } from "../audit/write";
import { forgetOldSignInFailures } from "../identity/sign-in";
import { removeOrphanedSpools } from "../imports/files";
import { forgetOldProgress } from "../imports/progress";
import {
  COMPUTE_RUN_QUEUE,
  enqueueComparisons,
  enqueueComputeRun,
  inProcessComparisons,
  inProcessRuns,
  queueEnabled,
  startBoss,
} from "../runs/queue";
import { lockSession, tryLockComparisons, tryLockRun, unlockComparisons, unlockRun } from "../runs/run-lock";
import { staleComparisonDecisions } from "../runs/comparison-state";
import { logLine } from "../runs/job-log";

/**
 * Crash recovery (issue "Trust", §8; issue 30): eval runs whose job is gone are re-queued (or
 * failed once they have been lost MAX_RECOVERIES times: a run whose computation kills its process
 * must not loop for ever), decisions whose paired comparisons are stale with no job computing them
 * get a comparisons job, spool files of uploads whose process died are removed, and expired
 * sign-in throttles and upload progress are forgotten.
 *
 * Lost jobs are looked for every TAKEOVER_INTERVAL_MS in every app process and worker, so a job
 * whose worker died is taken over by a live worker within seconds; the rest every SWEEP_INTERVAL_MS.
 * The lease is the job's session advisory lock (run-lock.ts), not pg-boss's expiry: pg-boss 10
 * has no heartbeat, and its expiry must cover the longest job (hours for a large decision), as
 * its maintainer advises (timgit/pg-boss#436) — as a liveness signal it would be hours late. A
 * lock lives exactly as long as the job's PostgreSQL session: a killed process's socket closes
 * and PostgreSQL frees its locks at once (a machine that vanishes without closing its sockets is
 * noticed after the server's TCP keepalive, tcp_keepalives_idle). A job never runs twice at once:
 * a second job for the same run or decision waits on the lock, then finds the work done.
 *
 * A run's job is gone when:
 * - RUNNING, on a PostgreSQL server: nobody holds its computation lock (run-lock.ts) — a
 *   computing job always does, and a killed process's lock goes with its connection;
 * - PENDING with the pg-boss queue: no job of the queue for it is waiting, nor active for less
 *   than TAKEOVER_GRACE_S (a live job takes its run's lock within milliseconds of starting, so an
 *   older active job whose run's lock is free died with its worker);
 * - PENDING with in-process jobs on a server (VERDICT_JOBS=inline): not queued in this process
 *   and queued more than PENDING_GRACE_MS ago (another process may hold it in its memory);
 * - either, in the embedded database (one process): not queued in this process.
 * A decision's comparisons job is gone by the same rules, with its comparisons lock, when they are
 * stale (comparison-state.ts) and none of its runs waits for a job (the last run's job pairs them).
 */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
export const TAKEOVER_INTERVAL_MS = 10_000;
export const TAKEOVER_GRACE_S = 20;
export const MAX_RECOVERIES = 3;
export const PENDING_GRACE_MS = 15 * 60_000;
/** Spool files of dead processes are removed once this old (lib/server/imports/files.ts). */
export const ORPHANED_SPOOL_AGE_MS = 10 * 60_000;
export interface RecoveryReport {
  requeued: number[];
  failed: number[];
}

/** `decisionId` limits the sweep to one decision's runs (tests sharing a database); `now` is the sweep's time. */
export async function recoverLostRuns(
  database: Database,
  { now = new Date(), decisionId }: { now?: Date; decisionId?: string } = {},
): Promise<RecoveryReport> {
  const prisma = database.prisma;
  const report: RecoveryReport = { requeued: [], failed: [] };
  const runs = await prisma.evalRun.findMany({
    where: { status: { in: ["PENDING", "RUNNING"] }, ...(decisionId ? { decisionId } : {}) },
    select: { id: true, status: true, queuedAt: true, createdAt: true, recoveries: true, decisionId: true },
    orderBy: { id: "asc" },
  });
  if (runs.length === 0) return report;
  const local = inProcessRuns();
  const session = database.mode === "server" ? await lockSession(database) : null;
  try {
    const waiting =
      database.mode === "server" && queueEnabled(database) ? (await queuedJobs(database)).runs : new Set<number>();
    for (const run of runs) {
      if (local.has(run.id)) continue;
      if (session && !(await tryLockRun(session, run.id))) continue; // a job is computing it
      try {
        if (run.status === "PENDING") {
          if (database.mode === "server" && queueEnabled(database) && waiting.has(run.id)) continue;
          if (
            database.mode === "server" &&
            !queueEnabled(database) &&
            now.getTime() - (run.queuedAt ?? run.createdAt).getTime() < PENDING_GRACE_MS
          )
            continue;
        }
        const outcome = await settleLostRun(database, run);
        if (outcome) {
          report[outcome].push(run.id);
          logLine("job.recovery", {
            job: "compute-run",
            decision: run.decisionId,
            run: run.id,
            was: run.status,
            outcome,
            recoveries: run.recoveries + 1,
          });
        }
      } finally {
        if (session) await unlockRun(session, run.id);
      }
    }
  } finally {
    await session?.end().catch(() => {});
  }
  // Queued after the locks are released: an in-process job would otherwise wait for them.
  for (const id of report.requeued) await enqueueComputeRun(database, id);
  return report;
}

/** Re-queues a lost run (PENDING, recoveries + 1) or, lost too often, fails it with the reason; audited. Conditional on the status it was seen in. */
async function settleLostRun(
  database: Database,
  run: { id: number; status: "PENDING" | "RUNNING" | "DONE" | "FAILED"; recoveries: number; decisionId: string },
): Promise<"requeued" | "failed" | null> {
  const giveUp = run.recoveries + 1 >= MAX_RECOVERIES;
  const reason =
    run.status === "RUNNING"
      ? "its job stopped while computing (the process was killed or crashed)"
      : "its job was lost before it started (the process holding it stopped)";
  const error = `Not computed: ${reason}, ${MAX_RECOVERIES} times; it is not retried again. Upload the predictions again to retry.`;
  return database.prisma.$transaction(async (tx) => {
    const { count } = await tx.evalRun.updateMany({
      where: { id: run.id, status: run.status },
      data: giveUp
        ? { status: "FAILED", error, recoveries: { increment: 1 } }
        : { status: "PENDING", progress: 0, recoveries: { increment: 1 } },
    });
    if (count !== 1) return null;
    await recordAudit(tx, {
      actor: { id: null, roles: [] },
      action: "eval_run.recovered",
      entityType: "EvalRun",
      entityId: String(run.id),
      decisionId: run.decisionId,
      before: { status: run.status },
      after: {
        status: giveUp ? "FAILED" : "PENDING",
        outcome: giveUp ? "failed" : "requeued",
        reason,
        recoveries: run.recoveries + 1,
      },
    });
    return giveUp ? "failed" : "requeued";
  });
}

/**
 * Runs and decisions with a job of the queue waiting, or active for less than TAKEOVER_GRACE_S
 * (pg-boss keeps its jobs in pgboss.job; an older active job whose lock is free is a dead one).
 */
async function queuedJobs(
  database: Database & { mode: "server" },
): Promise<{ runs: Set<number>; decisions: Set<string> }> {
  const none = { runs: new Set<number>(), decisions: new Set<string>() };
  const { rows: exists } = await database.pool.query<{ table: string | null }>(
    `SELECT to_regclass('pgboss.job')::text AS table`,
  );
  if (!exists[0]?.table) return none; // the queue never started: nothing is queued
  const { rows } = await database.pool.query<{ runId: number | null; decisionId: string | null }>(
    `SELECT DISTINCT (data->>'runId')::int AS "runId", data->>'decisionId' AS "decisionId" FROM pgboss.job
      WHERE name = $1 AND (state IN ('created', 'retry')
                           OR (state = 'active' AND started_on > now() - make_interval(secs => $2)))`,
    [COMPUTE_RUN_QUEUE, TAKEOVER_GRACE_S],
  );
  for (const r of rows) {
    if (r.runId !== null) none.runs.add(r.runId);
    if (r.decisionId !== null) none.decisions.add(r.decisionId);
  }
  return none;
}

/**
 * Queues a comparisons job for each decision whose pairs are stale and that nobody computes or
 * has queued. Returns the decisions queued.
 */
export async function recoverStaleComparisons(
  database: Database,
  { now = new Date(), decisionId }: { now?: Date; decisionId?: string } = {},
): Promise<string[]> {
  const stale = await staleComparisonDecisions(database, decisionId);
  if (stale.length === 0) return [];
  const local = inProcessComparisons();
  const session = database.mode === "server" ? await lockSession(database) : null;
  const queued: string[] = [];
  try {
    const waiting =
      database.mode === "server" && queueEnabled(database) ? (await queuedJobs(database)).decisions : new Set();
    for (const { decisionId: id, markedAt } of stale) {
      if (local.has(id) || waiting.has(id)) continue;
      if (
        database.mode === "server" &&
        !queueEnabled(database) &&
        now.getTime() - markedAt.getTime() < PENDING_GRACE_MS
      )
        continue; // another process's in-process runner may hold its job
      if (session && !(await tryLockComparisons(session, id))) continue; // a job is computing them
      try {
        logLine("job.recovery", { job: "compute-comparisons", decision: id, run: null, outcome: "requeued" });
        // Queued under the lock: another process's recovery then sees the job waiting.
        await enqueueComparisons(database, id);
      } finally {
        if (session) await unlockComparisons(session, id);
      }
      queued.push(id);
    }
  } finally {
    await session?.end().catch(() => {});
  }
  return queued;
}

/** Lost jobs only, every TAKEOVER_INTERVAL_MS: runs, then comparisons (a run re-queued pairs them itself). */
export async function takeOverLostJobs(database: Database): Promise<void> {
  await recoverLostRuns(database);
  await recoverStaleComparisons(database);
}

/** One sweep: lost runs, orphaned spool files, old throttles and progress. Each part's failure is logged, not thrown. */
export async function sweep(database: Database): Promise<void> {
  const parts: [string, () => Promise<unknown>][] = [
    ["eval runs and comparisons", () => takeOverLostJobs(database)],
    [
      "spool files",
      async () => {
        const removed = await removeOrphanedSpools(undefined, ORPHANED_SPOOL_AGE_MS);
        if (removed.length) console.log(`recovery: removed ${removed.length} orphaned upload spool folder(s)`);
      },
    ],
    ["sign-in throttles", () => forgetOldSignInFailures()],
    ["upload progress", () => forgetOldProgress()],
  ];
  for (const [what, part] of parts) {
    await part().catch((error: unknown) =>
      console.error(`recovery (${what}):`, error instanceof Error ? error.message : error),
    );
  }
}

/**
 * At a process's start (instrumentation.ts, scripts/worker.ts): work the queue at once (a
 * restarted server must not wait for a new upload to pick up the jobs queued before), then sweep
 * now and every SWEEP_INTERVAL_MS, and look for lost jobs every TAKEOVER_INTERVAL_MS. Once per
 * process. Its log line says how this process runs jobs.
 */
export async function startMaintenance(
  database: Database,
  { workQueue = env().VERDICT_WORKER !== "0" } = {},
): Promise<void> {
  const holder = globalThis as typeof globalThis & { __verdictMaintenance?: boolean };
  if (holder.__verdictMaintenance) return;
  holder.__verdictMaintenance = true;
  const queue = queueEnabled(database);
  if (queue && workQueue) await startBoss(database);
  logLine("process.start", {
    jobs: queue ? "pg-boss" : "in-process",
    worksQueue: !queue || workQueue,
    ...(queue && !workQueue ? { note: "VERDICT_WORKER=0: jobs are sent to the queue for `npm run worker`" } : {}),
    takeoverEveryMs: TAKEOVER_INTERVAL_MS,
    sweepEveryMs: SWEEP_INTERVAL_MS,
  });
  await sweep(database);
  setInterval(() => void sweep(database), SWEEP_INTERVAL_MS).unref();
  setInterval(
    () =>
      void takeOverLostJobs(database).catch((error: unknown) =>
        console.error("recovery (lost jobs):", error instanceof Error ? error.message : error),
      ),
    TAKEOVER_INTERVAL_MS,
  ).unref();
}
