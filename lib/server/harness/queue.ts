import "server-only";
import { env } from "@/lib/env";
import { rawQuery, type Database } from "@/lib/db/connect";
import { enqueueComputeRun, queueEnabled, startBoss } from "../runs/queue";
import { executeChunk } from "./execute-chunk";
import { finishRunIfComplete } from "./finish-run";
import { loggedJob } from "../runs/job-log";

/**
 * A harness run's chunks as jobs: on the pg-boss queue "harness-chunk" beside the metrics jobs,
 * so every `npm run worker` (and web process, unless VERDICT_WORKER=0) shares them; in-process on
 * the embedded database (or VERDICT_JOBS=inline), one chunk at a time.
 *
 * A process works up to CHUNKS_AT_ONCE chunks at once, but one chunk per run (and the run's next
 * one waiting for its tail, `runTurn`): so the runs on an endpoint are all worked while any
 * process has room, and a run's chunks spread over the live workers instead of queueing in one.
 * Each chunk then holds its fair share of the endpoint's slots (slots.ts).
 *
 * Liveness needs no heartbeat: a chunk runs under its advisory lock on a session of its own
 * (slots.ts), and `resumeHarnessRuns` — at start and every RESUME_INTERVAL_MS — queues again every
 * chunk of an active run that has items without a stored result. A duplicate job finds the chunk
 * locked ("taken") or with nothing left, and does nothing.
 */
export const HARNESS_QUEUE = "harness-chunk";
export const RESUME_INTERVAL_MS = 60_000;
const NO_SLOT_RETRY_S = 2;
/** A chunk of a run this process already works (and whose next chunk already waits here): back to the queue for another process. */
const BUSY_RETRY_S = 1;
export const CHUNKS_AT_ONCE = 8;

type Boss = import("pg-boss");
const holder = globalThis as typeof globalThis & {
  __verdictHarnessWorker?: Promise<void>;
  __verdictHarnessInline?: Promise<void>;
  __verdictHarnessTimer?: NodeJS.Timeout;
  __verdictHarnessTurns?: Map<number, Turn>;
};

/** A run's chunk in this process: `passed` when it has sent its last item (or ended); `next`: a chunk waits for it. */
interface Turn {
  passed: Promise<void>;
  next: boolean;
}
const turns = (holder.__verdictHarnessTurns ??= new Map<number, Turn>());

/**
 * This process's turn at a run: at once if it works no chunk of the run; after the current chunk's
 * last item is sent if no other chunk waits for it; null otherwise. Returns `pass`, to call when
 * this chunk has sent its last item or ends (idempotent).
 */
async function runTurn(runId: number): Promise<(() => void) | null> {
  const current = turns.get(runId);
  if (current?.next) return null;
  if (current) {
    current.next = true;
    await current.passed;
  }
  let resolve!: () => void;
  const mine: Turn = { passed: new Promise<void>((r) => (resolve = r)), next: false };
  turns.set(runId, mine);
  return () => {
    resolve();
    // A waiting chunk takes the entry over as it resumes; until then it stands for this run here.
    if (turns.get(runId) === mine && !mine.next) turns.delete(runId);
  };
}

export async function enqueueChunks(database: Database, runId: number, chunks: readonly number[]): Promise<void> {
  if (!queueEnabled(database)) {
    const previous = holder.__verdictHarnessInline ?? Promise.resolve();
    holder.__verdictHarnessInline = previous.then(async () => {
      for (const chunk of chunks) {
        // Logged (job.failure); the next chunk runs regardless.
        await runLoggedChunk(database, runId, chunk, null, null).catch(() => {});
      }
    });
    return;
  }
  const work = env().VERDICT_WORKER !== "0";
  const boss = await startBoss(work ? database : null);
  if (work) await workHarnessQueue(boss, database);
  // A chunk may run for hours against a slow endpoint: pg-boss must not give it away meanwhile.
  for (const chunk of chunks)
    await boss.send(HARNESS_QUEUE, { runId, chunk }, { retryLimit: 0, expireInSeconds: 23 * 3600 });
}

/** Resolves when every in-process chunk queued so far has run (tests, the CLI). */
export async function drainInlineChunks(): Promise<void> {
  let seen: Promise<void> | undefined;
  while (holder.__verdictHarnessInline && holder.__verdictHarnessInline !== seen) {
    seen = holder.__verdictHarnessInline;
    await seen;
  }
}

/** A chunk this process executes under its turn at the run; "busy" when the run has a chunk here and another waiting. */
async function executeInTurn(database: Database, runId: number, chunk: number) {
  const pass = await runTurn(runId);
  if (!pass) return "busy" as const;
  try {
    return await executeChunk(database, runId, chunk, pass);
  } finally {
    pass();
  }
}

/** One chunk, then what follows it: the run's end (eval run, serving row, metrics job) or the sweep's next level. */
export async function runChunkJob(database: Database, runId: number, chunk: number, boss: Boss | null): Promise<void> {
  for (;;) {
    const outcome = await executeInTurn(database, runId, chunk);
    if (outcome === "no-slots" || outcome === "busy") {
      if (boss) {
        const startAfter = outcome === "busy" ? BUSY_RETRY_S : NO_SLOT_RETRY_S;
        await boss.send(HARNESS_QUEUE, { runId, chunk }, { retryLimit: 0, startAfter, expireInSeconds: 23 * 3600 });
        return;
      }
      await new Promise((r) => setTimeout(r, NO_SLOT_RETRY_S * 1000));
      continue;
    }
    if (outcome !== "done") return;
    break;
  }
  const finished = await finishRunIfComplete(database, runId);
  if (finished?.evalRunId) await enqueueComputeRun(database, finished.evalRunId);
  if (finished?.nextSweepLevel) await enqueueRun(database, finished.nextSweepLevel);
}

/** A chunk job between its log lines (lib/server/runs/job-log.ts): the harness run, its decision, the chunk. */
async function runLoggedChunk(
  database: Database,
  runId: number,
  chunk: number,
  boss: Boss | null,
  jobId: string | null,
): Promise<void> {
  const [row] = await rawQuery<{ decisionId: string }>(
    database,
    `SELECT "decisionId" FROM "HarnessRun" WHERE id = $1`,
    [runId],
  );
  await loggedJob(
    { job: "harness-chunk", jobId, decision: row?.decisionId ?? null, run: null, harnessRun: runId, chunk },
    () => runChunkJob(database, runId, chunk, boss),
  );
}

/** Queues every chunk of a run. */
export async function enqueueRun(database: Database, runId: number): Promise<void> {
  const [run] = await rawQuery<{ itemCount: number; chunkSize: number }>(
    database,
    `SELECT "itemCount", "chunkSize" FROM "HarnessRun" WHERE id = $1`,
    [runId],
  );
  if (!run) return;
  const chunks = Array.from({ length: Math.ceil(run.itemCount / run.chunkSize) }, (_, i) => i);
  await enqueueChunks(database, runId, chunks);
}

async function workHarnessQueue(boss: Boss, database: Database): Promise<void> {
  holder.__verdictHarnessWorker ??= (async () => {
    await boss.createQueue(HARNESS_QUEUE);
    // pg-boss 10 works one batch at a time per work(): CHUNKS_AT_ONCE of them, one chunk each.
    for (let i = 0; i < CHUNKS_AT_ONCE; i++)
      await boss.work<{ runId: number; chunk: number }>(
        HARNESS_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: 1 },
        async (jobs) => {
          for (const job of jobs) await runLoggedChunk(database, job.data.runId, job.data.chunk, boss, job.id);
        },
      );
  })();
  return holder.__verdictHarnessWorker;
}

/**
 * Crash recovery: every chunk of a RUNNING run with items left, and of a QUEUED run that is not
 * waiting its turn in a sweep, is queued again; a run with every item stored but not finished is
 * finished. Returns the runs resumed.
 */
export async function resumeHarnessRuns(
  database: Database,
  { decisionId }: { decisionId?: string } = {},
): Promise<number[]> {
  const runs = await rawQuery<{
    id: number;
    status: string;
    sweepId: string | null;
    itemCount: number;
    doneCount: number;
    chunkSize: number;
  }>(
    database,
    `SELECT r.id, r.status::text AS status, r."sweepId", r."itemCount", r."doneCount", r."chunkSize" FROM "HarnessRun" r
      WHERE r.status IN ('QUEUED', 'RUNNING') AND ($1::text IS NULL OR r."decisionId" = $1)
        AND (r."sweepId" IS NULL OR NOT EXISTS (
          SELECT 1 FROM "HarnessRun" o WHERE o."sweepId" = r."sweepId" AND o.id < r.id AND o.status IN ('QUEUED', 'RUNNING')))
      ORDER BY r.id`,
    [decisionId ?? null],
  );
  for (const run of runs) {
    if (run.doneCount >= run.itemCount) {
      const finished = await finishRunIfComplete(database, run.id);
      if (finished?.evalRunId) await enqueueComputeRun(database, finished.evalRunId);
      if (finished?.nextSweepLevel) await enqueueRun(database, finished.nextSweepLevel);
    } else {
      await enqueueRun(database, run.id);
    }
  }
  return runs.map((r) => r.id);
}

/** At start (web process, worker): resume, work the queue, and resume again periodically. */
export async function startHarnessJobs(
  database: Database,
  { workQueue = env().VERDICT_WORKER !== "0" } = {},
): Promise<void> {
  if (workQueue && queueEnabled(database)) await workHarnessQueue(await startBoss(database), database);
  await resumeHarnessRuns(database);
  holder.__verdictHarnessTimer ??= setInterval(() => {
    resumeHarnessRuns(database).catch((error: unknown) =>
      console.error("harness resume:", error instanceof Error ? error.message : error),
    );
  }, RESUME_INTERVAL_MS).unref();
}
