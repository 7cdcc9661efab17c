/**
 * The bootstrap's worker threads, kept between runs. Starting one costs a few hundred
 * milliseconds (its modules loaded; under tsx also the loader), so they start once — or ahead of
 * a run, when an upload knows its metrics will be computed in this process (warmBootstrapWorkers)
 * — and take one range of replicates at a time. An idle worker does not keep the process alive
 * and stops after a minute without work.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { BootstrapOptions, PreparedRanking, Replicates } from "../metrics/bootstrap";

type Task = {
  resolve: (replicates: Replicates[]) => void;
  reject: (error: unknown) => void;
  progress: (replicates: number) => void;
};
type Pooled = { worker: Worker; task: Task | null; idle: ReturnType<typeof setTimeout> | null };

const IDLE_MS = 60_000;
// One pool per process, also across a dev server's module reloads.
const holder = globalThis as typeof globalThis & { __verdictBootstrapPool?: Pooled[] };
const pool = (holder.__verdictBootstrapPool ??= []);

/**
 * When this module runs as TypeScript (tsx, vitest), a worker starts from ts-worker.mjs, which
 * registers tsx's loader in the worker thread before importing the .ts body.
 */
function spawn(): Pooled {
  const isTypeScript = import.meta.url.endsWith(".ts");
  const body = new URL(isTypeScript ? "./bootstrap-worker.ts" : "./bootstrap-worker.js", import.meta.url);
  const entry = isTypeScript ? new URL("./ts-worker.mjs", import.meta.url) : body;
  const pooled: Pooled = { worker: new Worker(entry, { workerData: { module: body.href } }), task: null, idle: null };
  const gone = (error: unknown) => {
    leave(pooled);
    if (pooled.idle) clearTimeout(pooled.idle);
    pooled.task?.reject(error);
    pooled.task = null;
  };
  pooled.worker.on("message", (message: { progress: number } | { replicates: Replicates[] }) => {
    const task = pooled.task;
    if (!task) return;
    if ("progress" in message) return task.progress(message.progress);
    pooled.task = null;
    rest(pooled);
    task.resolve(message.replicates);
  });
  pooled.worker.once("error", gone);
  pooled.worker.once("exit", (code) => gone(new Error(`bootstrap worker exited with code ${code}`)));
  pool.push(pooled);
  rest(pooled);
  return pooled;
}

function leave(pooled: Pooled) {
  const at = pool.indexOf(pooled);
  if (at >= 0) pool.splice(at, 1);
}

/** Idle: the process may exit without it, and it stops after IDLE_MS (out of the pool first, so no run is handed to a worker on its way out). */
function rest(pooled: Pooled) {
  pooled.worker.unref();
  pooled.idle = setTimeout(() => {
    leave(pooled);
    void pooled.worker.terminate();
  }, IDLE_MS);
  pooled.idle.unref();
}

/** Starts workers until `threads` are up (or starting), so a run about to come finds them loaded. */
export function warmBootstrapWorkers(threads = availableParallelism()): void {
  while (pool.length < threads) spawn();
}

/** Replicates [options.from, options.to) of shared rankings on an idle worker (started if none is). */
export function runOnWorker(
  rankings: PreparedRanking[],
  options: BootstrapOptions,
  progress: (replicates: number) => void,
): Promise<Replicates[]> {
  const pooled = pool.find((p) => p.task === null) ?? spawn();
  if (pooled.idle) clearTimeout(pooled.idle);
  pooled.idle = null;
  pooled.worker.ref();
  return new Promise((resolve, reject) => {
    pooled.task = { resolve, reject, progress };
    pooled.worker.postMessage({ rankings, options });
  });
}

/** Workers up or starting (tests). */
export const bootstrapWorkerCount = () => pool.length;
