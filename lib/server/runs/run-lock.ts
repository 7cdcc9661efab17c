import "server-only";
import pg from "pg";
import type { Database } from "@/lib/db/connect";

/** The advisory lock class of runs being computed: pg_advisory_lock(RUN_LOCK_CLASS, runId). */
export const RUN_LOCK_CLASS = 7_348_101;

/**
 * Runs `fn` while this process holds the run's computation lock (server databases): a session
 * advisory lock on a connection of its own, not from the pool (the work itself needs the pool, so
 * even a pool of one connection cannot deadlock). Waits while another job computes the same run.
 */
export async function withRunLock<T>(database: Database, runId: number, fn: () => Promise<T>): Promise<T> {
  if (database.mode !== "server") return fn();
  const client = new pg.Client(database.pool.options);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1, $2)", [RUN_LOCK_CLASS, runId]);
    return await fn();
  } finally {
    // Closing the session frees the lock.
    await client.end().catch(() => {});
  }
}

/**
 * A session of its own on which `tryLockRun` asks whether a job computes a run (recovery). A held
 * lock is released by `unlockRun`, or when the session ends.
 */
export async function lockSession(database: Database & { mode: "server" }): Promise<pg.Client> {
  const client = new pg.Client(database.pool.options);
  await client.connect();
  return client;
}

export async function tryLockRun(client: pg.Client, runId: number): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS locked", [
    RUN_LOCK_CLASS,
    runId,
  ]);
  return rows[0]?.locked === true;
}

export async function unlockRun(client: pg.Client, runId: number): Promise<void> {
  await client.query("SELECT pg_advisory_unlock($1, $2)", [RUN_LOCK_CLASS, runId]);
}

/** The advisory lock class of decisions whose paired comparisons are being computed (key: hashtext(decisionId)). */
export const COMPARISONS_LOCK_CLASS = 7_348_102;

/**
 * Runs `fn` while this process holds the decision's comparisons lock (server databases), on a
 * session of its own as `withRunLock` does: two jobs never compute a decision's pairs at once
 * (the second waits, then finds them current), and recovery tells a live comparisons job from a
 * lost one by trying the lock. A hash collision between two decisions only makes one wait.
 */
export async function withComparisonsLock<T>(database: Database, decisionId: string, fn: () => Promise<T>): Promise<T> {
  if (database.mode !== "server") return fn();
  const client = new pg.Client(database.pool.options);
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [COMPARISONS_LOCK_CLASS, decisionId]);
    return await fn();
  } finally {
    await client.end().catch(() => {});
  }
}

export async function tryLockComparisons(client: pg.Client, decisionId: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [
    COMPARISONS_LOCK_CLASS,
    decisionId,
  ]);
  return rows[0]?.locked === true;
}

export async function unlockComparisons(client: pg.Client, decisionId: string): Promise<void> {
  await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [COMPARISONS_LOCK_CLASS, decisionId]);
}
