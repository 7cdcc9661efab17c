import { describe, expect, it } from "vitest";
import { bootstrapReplicates, prepareRanking, Xoshiro128, type SelectionRule } from "./index";

/**
 * Pins replicates computed by the bootstrap before its hot loop was reorganised (issue 12 §2):
 * any change to the draws, the histograms or the summation order changes a bit somewhere here.
 * The digest is FNV-1a over the bytes of every replicate array, candidate by candidate.
 */
function digest(arrays: Float64Array[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

function input(n: number, seed: number) {
  const rng = new Xoshiro128(seed);
  const labels = Uint8Array.from({ length: n }, () => (rng.nextDouble() < 0.08 ? 1 : 0));
  const distinct = Float64Array.from(labels, (y) => rng.nextDouble() + 0.4 * y);
  const tied = Float64Array.from(labels, (y) => Math.round((rng.nextDouble() + 0.3 * y) * 25) / 25);
  return { labels, rankings: [prepareRanking(labels, distinct), prepareRanking(labels, tied)] };
}

const rules: SelectionRule[] = [
  {
    kind: "COST_OPTIMAL",
    prevalence: 0.03,
    costFalseNegative: 40,
    costFalsePositive: 1,
    recallFloor: 0.2,
    precisionFloor: 0.1,
  },
  {
    kind: "BEST_PRECISION_AT_RECALL_FLOOR",
    prevalence: 0.03,
    costFalseNegative: 40,
    costFalsePositive: 1,
    recallFloor: 0.6,
    precisionFloor: null,
  },
];

describe("bootstrap replicates (pinned)", () => {
  it("are bit for bit those of the original implementation", () => {
    const { rankings } = input(20_000, 99);
    const results = [
      bootstrapReplicates(rankings, { replicates: 40, seed: 12, prevalence: 0.03 }),
      ...rules.map((selection) => bootstrapReplicates(rankings, { from: 5, to: 30, seed: 7, selection })),
    ];
    const got = results.map((rs) =>
      digest(
        rs.flatMap((r) => [
          r.averagePrecision,
          r.averagePrecisionAtPrevalence,
          r.rocAuc,
          ...(r.threshold ? [r.threshold] : []),
        ]),
      ),
    );
    expect(got).toEqual(["9f8b8046", "cb8d0066", "23a71ffb"]);
    expect(results[0]![1]!.averagePrecision[3]).toBe(0.3821854506728365);
    expect(results[0]![0]!.rocAuc[17]).toBe(0.8211382024377484);
    expect(results[1]![1]!.threshold![4]).toBe(0.92);
  });
});
