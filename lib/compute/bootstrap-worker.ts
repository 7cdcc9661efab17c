/** Worker thread body: computes bootstrap replicates [from, to) of shared prepared rankings, posting its progress. */
import { parentPort, workerData } from "node:worker_threads";
import { bootstrapReplicates, type BootstrapOptions, type PreparedRanking } from "../metrics/bootstrap";

const { rankings, options } = workerData as { rankings: PreparedRanking[]; options: BootstrapOptions };
const EVERY = 20;
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
parentPort?.postMessage(replicates, buffers);
