import { describe, expect, it } from "vitest";
import { bootstrapReplicates, prepareRanking, Xoshiro128 } from "../metrics/index";
import { bootstrapWorkerCount, warmBootstrapWorkers } from "./bootstrap-pool";
import { parallelBootstrapReplicates } from "./parallel-bootstrap";

describe("parallel bootstrap", () => {
  it("gives exactly the single-threaded replicates, paired across candidates", async () => {
    const rng = new Xoshiro128(11);
    const n = 5000;
    const labels = Uint8Array.from({ length: n }, () => (rng.nextDouble() < 0.1 ? 1 : 0));
    const a = Float64Array.from(labels, (y) => rng.nextDouble() + 0.3 * y);
    const b = Float64Array.from(labels, (y) => Math.round((rng.nextDouble() + 0.2 * y) * 20) / 20);
    const rankings = [prepareRanking(labels, a), prepareRanking(labels, b)];
    const options = { replicates: 101, seed: 3, prevalence: 0.02 };
    const fractions: number[] = [];
    const parallel = await parallelBootstrapReplicates(rankings, {
      ...options,
      threads: 2,
      onProgress: (f) => fractions.push(f),
    });
    // The workers report every 20 replicates: 40 of 101 done in each of the two halves.
    expect(fractions.length).toBe(4);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBeCloseTo(80 / 101);
    const single = bootstrapReplicates(rankings, options);
    expect(parallel.map((r) => Array.from(r.averagePrecision))).toEqual(
      single.map((r) => Array.from(r.averagePrecision)),
    );
    expect(parallel.map((r) => Array.from(r.averagePrecisionAtPrevalence))).toEqual(
      single.map((r) => Array.from(r.averagePrecisionAtPrevalence)),
    );
    expect(parallel.map((r) => Array.from(r.rocAuc))).toEqual(single.map((r) => Array.from(r.rocAuc)));
  });
});

describe("the bootstrap's workers", () => {
  it("are kept between runs: warmed ahead or started by a run, the same two serve run after run", async () => {
    const rng = new Xoshiro128(5);
    const labels = Uint8Array.from({ length: 2000 }, () => (rng.nextDouble() < 0.1 ? 1 : 0));
    const scores = Float64Array.from(labels, (y) => rng.nextDouble() + 0.4 * y);
    const rankings = [prepareRanking(labels, scores)];
    warmBootstrapWorkers(2);
    expect(bootstrapWorkerCount()).toBe(2);
    const single = bootstrapReplicates(rankings, { replicates: 60, seed: 9 });
    for (const seed of [9, 9, 9]) {
      const parallel = await parallelBootstrapReplicates(rankings, { replicates: 60, seed, threads: 2 });
      expect(Array.from(parallel[0]!.averagePrecision)).toEqual(Array.from(single[0]!.averagePrecision));
      expect(bootstrapWorkerCount()).toBe(2);
    }
  });
});

describe("summarizeRun", () => {
  it("stores the same RunMetrics as summarize(), with the bootstrap on worker threads", async () => {
    const { summarize } = await import("../metrics/index");
    const { summarizeRun } = await import("./summarize-run");
    const rng = new Xoshiro128(4);
    const labels = Uint8Array.from({ length: 3000 }, () => (rng.nextDouble() < 0.05 ? 1 : 0));
    const scores = Float64Array.from(labels, (y) => rng.nextDouble() * 0.8 + 0.2 * y);
    const options = { prevalence: 0.01, costFalseNegative: 20, costFalsePositive: 1, bootstrap: 60, seed: 5 };
    expect(await summarizeRun(labels, scores, { ...options, threads: 2 })).toEqual(summarize(labels, scores, options));
  });
});
