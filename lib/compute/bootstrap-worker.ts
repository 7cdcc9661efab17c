/**
 * Worker thread body (lib/compute/bootstrap-pool.ts): for each task, computes bootstrap replicates
 * [from, to) of shared prepared rankings, posting its progress, then the replicates.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { bootstrapReplicates, type BootstrapOptions, type PreparedRanking } from "../metrics/bootstrap";

const EVERY = 20;

/**
 * The bootstrap is background work that takes every core it is given. On Linux a priority set
 * with pid 0 is this thread's own: at nice 10 it still gets an idle machine whole, but requests
 * of the same process (argon2 at sign-in and signing, pages) run first when both want the cores
 * (bench:signing: fifty signers while two million-item runs recompute). Best effort: a platform
 * that refuses leaves the thread as it was.
 */
export const BOOTSTRAP_NICE = 10;
try {
  setPriority(BOOTSTRAP_NICE);
} catch {
  /* unchanged priority */
}

parentPort?.on("message", ({ rankings, options }: { rankings: PreparedRanking[]; options: BootstrapOptions }) => {
  let done = 0;
  const replicates = bootstrapReplicates(rankings, {
    ...options,
    onReplicate: () => {
      if (++done % EVERY === 0) parentPort?.postMessage({ progress: EVERY });
    },
  });
  const buffers = replicates.flatMap((r) => [
    r.averagePrecision.buffer,
    r.averagePrecisionAtPrevalence.buffer,
    r.rocAuc.buffer,
    ...(r.threshold ? [r.threshold.buffer] : []),
  ]) as ArrayBuffer[];
  parentPort?.postMessage({ replicates }, buffers);
});
