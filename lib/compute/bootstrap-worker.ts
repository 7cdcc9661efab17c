/**
 * Worker thread body (lib/compute/bootstrap-pool.ts): for each task, computes bootstrap replicates
 * [from, to) of shared prepared rankings, posting its progress, then the replicates.
 */
import { parentPort } from "node:worker_threads";
import { bootstrapReplicates, type BootstrapOptions, type PreparedRanking } from "../metrics/bootstrap";

const EVERY = 20;

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
