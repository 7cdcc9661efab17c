/**
 * The stratified bootstrap split across worker threads. Replicate b always uses the stream
 * seeded by (seed, b), so the result is identical — bit for bit — to the single-threaded
 * `bootstrapReplicates` whatever the number of threads. The prepared rankings are copied once
 * into SharedArrayBuffers that every worker reads.
 */
import { availableParallelism } from "node:os";
import { runOnWorker, warmBootstrapWorkers } from "./bootstrap-pool";
import {
  bootstrapReplicates,
  DEFAULT_REPLICATES,
  type BootstrapOptions,
  type PreparedRanking,
  type Replicates,
} from "../metrics/bootstrap";

export interface ParallelOptions extends BootstrapOptions {
  /** Worker threads (default: available cores). 1 runs in this thread. */
  readonly threads?: number;
  /** The fraction of replicates done, as workers report it (not called when computing in this thread). */
  readonly onProgress?: (fraction: number) => void;
}

/** Below this many draws (B·n) a worker's start-up costs more than it saves. */
export const MIN_DRAWS_FOR_WORKERS = 50_000_000;

/**
 * Ahead of a run of `items` this process will compute (an upload that hands its items to the run's
 * job): starts the workers now, while the upload reads its file, if the run will use them.
 */
export function warmWorkersFor(items: number, replicates = DEFAULT_REPLICATES): void {
  if (items * replicates >= MIN_DRAWS_FOR_WORKERS) warmBootstrapWorkers();
}

export async function parallelBootstrapReplicates(
  rankings: readonly PreparedRanking[],
  options: ParallelOptions = {},
): Promise<Replicates[]> {
  const from = options.from ?? 0;
  const to = options.to ?? options.replicates ?? DEFAULT_REPLICATES;
  const items = (rankings[0]?.positiveGroup.length ?? 0) + (rankings[0]?.negativeSegment.length ?? 0);
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), to - from));
  if (threads === 1 || (options.threads === undefined && (to - from) * items < MIN_DRAWS_FOR_WORKERS)) {
    return bootstrapReplicates(rankings, { ...options, from, to });
  }
  const shared = rankings.map(share);
  const { onProgress, onReplicate: _, threads: __, ...workerOptions } = options;
  let done = 0;
  const progress = (replicates: number) => {
    done += replicates;
    onProgress?.(done / (to - from));
  };
  const bounds = Array.from({ length: threads + 1 }, (_, k) => from + Math.round(((to - from) * k) / threads));
  let parts: Replicates[][];
  try {
    parts = await Promise.all(
      bounds
        .slice(0, -1)
        .map((start, k) => runOnWorker(shared, { ...workerOptions, from: start, to: bounds[k + 1]! }, progress)),
    );
  } catch (error) {
    // A bundle that did not ship the worker's file (a framework's server build) still computes,
    // in this thread: replicate b is seeded by (seed, b), so the figures are the same.
    console.warn(
      `bootstrap workers unavailable, computing in this thread: ${error instanceof Error ? error.message : String(error)}`,
    );
    return bootstrapReplicates(rankings, { ...options, from, to });
  }
  return rankings.map((_, c) => ({
    averagePrecision: concat(parts.map((p) => p[c]!.averagePrecision)),
    averagePrecisionAtPrevalence: concat(parts.map((p) => p[c]!.averagePrecisionAtPrevalence)),
    rocAuc: concat(parts.map((p) => p[c]!.rocAuc)),
    ...(options.selection ? { threshold: concat(parts.map((p) => p[c]!.threshold!)) } : {}),
  }));
}

function share(r: PreparedRanking): PreparedRanking {
  const copy = (a: Uint32Array) => {
    const s = new Uint32Array(new SharedArrayBuffer(a.byteLength));
    s.set(a);
    return s;
  };
  return {
    groups: r.groups,
    positiveGroup: copy(r.positiveGroup),
    negativeSegment: copy(r.negativeSegment),
    groupScores: r.groupScores,
  };
}

function concat(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
