/** Worker thread body: computes bootstrap replicates [from, to) of shared prepared rankings. */
import { parentPort, workerData } from "node:worker_threads";
import { bootstrapReplicates, type BootstrapOptions, type PreparedRanking } from "../metrics/bootstrap";

const { rankings, options } = workerData as { rankings: PreparedRanking[]; options: BootstrapOptions };
const replicates = bootstrapReplicates(rankings, options);
const buffers = replicates.flatMap((r) => [r.averagePrecision.buffer, r.averagePrecisionAtPrevalence.buffer, r.rocAuc.buffer, ...(r.threshold ? [r.threshold.buffer] : [])]) as ArrayBuffer[];
parentPort?.postMessage(replicates, buffers);
