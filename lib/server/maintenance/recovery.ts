import "server-only";
import type { Database } from "@/lib/db/connect";
import { env } from "@/lib/env";
import { recordAudit } from "../audit/write";
import { forgetOldSignInFailures } from "../identity/sign-in";
import { removeOrphanedSpools } from "../imports/files";
import { forgetOldProgress } from "../imports/progress";
import { COMPUTE_RUN_QUEUE, enqueueComputeRun, inProcessRuns, queueEnabled, startBoss } from "../runs/queue";
import { lockSession, tryLockRun, unlockRun } from "../runs/run-lock";

/**
 * Crash recovery (issue "Trust", §8), at start and every SWEEP_INTERVAL_MS in every app process
 * and worker: eval runs whose job is gone are re-queued (or failed once they have been lost
 * MAX_RECOVERIES times: a run whose computation kills its process must not loop for ever), spool
 * files of uploads whose process died are removed, and expired sign-in throttles and upload
 * progress are forgotten.
 *
 * A run's job is gone when:
 * - RUNNING, on a PostgreSQL server: nobody holds its computation lock (jobs/run-lock.ts) — a
 *   computing job always does, and a killed process's lock goes with its connection;
 * - PENDING with the pg-boss queue: no job of the queue for it is waiting or active;
 * - PENDING with in-process jobs on a server (VERDICT_JOBS=inline): not queued in this process
 *   and queued more than PENDING_GRACE_MS ago (another process may hold it in its memory);
 * - either, in the embedded database (one process): not queued in this process.
 */
export const SWEEP_INTERVAL_MS = 5 * 60_000;
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
      database.mode === "server" && queueEnabled(database) ? await queuedRunIds(database) : new Set<number>();
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
        if (outcome) report[outcome].push(run.id);
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

/** Runs with a job of the queue waiting, or active and not expired (pg-boss keeps its jobs in pgboss.job). */
async function queuedRunIds(database: Database & { mode: "server" }): Promise<Set<number>> {
  const { rows: exists } = await database.pool.query<{ table: string | null }>(
    `SELECT to_regclass('pgboss.job')::text AS table`,
  );
  if (!exists[0]?.table) return new Set(); // the queue never started: nothing is queued
  const { rows } = await database.pool.query<{ runId: number }>(
    `SELECT DISTINCT (data->>'runId')::int AS "runId" FROM pgboss.job
      WHERE name = $1 AND (state IN ('created', 'retry') OR (state = 'active' AND started_on + expire_in > now()))`,
    [COMPUTE_RUN_QUEUE],
  );
  return new Set(rows.map((r) => r.runId));
}

/** One sweep: lost runs, orphaned spool files, old throttles and progress. Each part's failure is logged, not thrown. */
export async function sweep(database: Database): Promise<void> {
  const parts: [string, () => Promise<unknown>][] = [
    [
      "eval runs",
      async () => {
        const { requeued, failed } = await recoverLostRuns(database);
        if (requeued.length || failed.length)
          console.log(`recovery: eval runs re-queued [${requeued.join(", ")}], failed [${failed.join(", ")}]`);
      },
    ],
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
 * now and every SWEEP_INTERVAL_MS. Once per process.
 */
export async function startMaintenance(
  database: Database,
  { workQueue = env().VERDICT_WORKER !== "0" } = {},
): Promise<void> {
  const holder = globalThis as typeof globalThis & { __verdictMaintenance?: boolean };
  if (holder.__verdictMaintenance) return;
  holder.__verdictMaintenance = true;
  if (queueEnabled(database) && workQueue) await startBoss(database);
  await sweep(database);
  setInterval(() => void sweep(database), SWEEP_INTERVAL_MS).unref();
}
