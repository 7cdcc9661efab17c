import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  averagePrecision,
  bootstrapReplicates,
  fillUniformIndices,
  mcnemarAtThresholds,
  pairedDeltaApInterval,
  radixSortFloat64,
  confusionAt,
  costOptimalThreshold,
  downsampleIndices,
  expectedCostPer1k,
  exactMcNemar,
  precisionRecallCurve,
  precisionRecallCurveInPlace,
  prepareRanking,
  prevalenceWeights,
  rankCounts,
  replicateSeed,
  rocAuc,
  wilsonInterval,
  Xoshiro128,
} from "./index";

/** Items with scores drawn from a small grid (many ties) or freely (distinct doubles). */
const items = fc.array(
  fc.record({
    y: fc.constantFrom(0, 1),
    s: fc.oneof(
      fc.integer({ min: 0, max: 8 }).map((k) => k / 8),
      fc.double({ min: -5, max: 5, noNaN: true }),
    ),
  }),
  { minLength: 1, maxLength: 60 },
);
const withBothClasses = items.filter((xs) => xs.some((x) => x.y === 1) && xs.some((x) => x.y === 0));
const arrays = (xs: { y: number; s: number }[]) => ({
  labels: Uint8Array.from(xs, (x) => x.y),
  scores: Float64Array.from(xs, (x) => x.s),
});

/** Independent definitions, written from the formulas rather than from the engine's counts. */
function naiveAp(labels: Uint8Array, scores: Float64Array): number {
  const P = labels.reduce((a, y) => a + y, 0);
  const distinct = [...new Set(scores)].sort((a, b) => b - a);
  let ap = 0;
  let prevRecall = 0;
  for (const t of distinct) {
    let tp = 0;
    let k = 0;
    scores.forEach((s, i) => {
      if (s >= t) {
        k++;
        tp += labels[i]!;
      }
    });
    ap += (tp / P - prevRecall) * (tp / k);
    prevRecall = tp / P;
  }
  return ap;
}
function mannWhitney(labels: Uint8Array, scores: Float64Array): number {
  let wins = 0;
  let pairs = 0;
  labels.forEach((yi, i) =>
    labels.forEach((yj, j) => {
      if (yi === 1 && yj === 0) {
        pairs++;
        wins += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
      }
    }),
  );
  return wins / pairs;
}

describe("ranking metrics: properties", () => {
  it("AP lies in [0, 1] and equals Σ(Rₙ − Rₙ₋₁)Pₙ computed naively", () => {
    fc.assert(
      fc.property(
        items.filter((xs) => xs.some((x) => x.y === 1)),
        (xs) => {
          const { labels, scores } = arrays(xs);
          const ap = averagePrecision(rankCounts(labels, scores)).value!;
          expect(ap).toBeGreaterThanOrEqual(0);
          expect(ap).toBeLessThanOrEqual(1 + 1e-15);
          expect(Math.abs(ap - naiveAp(labels, scores))).toBeLessThan(1e-12);
        },
      ),
    );
  });

  it("ROC-AUC equals the Mann-Whitney statistic with ties counted one half", () => {
    fc.assert(
      fc.property(withBothClasses, (xs) => {
        const { labels, scores } = arrays(xs);
        expect(Math.abs(rocAuc(rankCounts(labels, scores)).value! - mannWhitney(labels, scores))).toBeLessThan(1e-12);
      }),
    );
  });

  it("is invariant to the order of items", () => {
    fc.assert(
      fc.property(withBothClasses, fc.integer(), (xs, seed) => {
        const rng = new Xoshiro128(seed);
        const shuffled = [...xs];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = rng.nextIndex(i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
        }
        const a = rankCounts(arrays(xs).labels, arrays(xs).scores);
        const b = rankCounts(arrays(shuffled).labels, arrays(shuffled).scores);
        expect(averagePrecision(b).value).toBe(averagePrecision(a).value);
        expect(rocAuc(b).value).toBe(rocAuc(a).value);
        expect(precisionRecallCurve(b).value).toEqual(precisionRecallCurve(a).value);
      }),
    );
  });

  it("re-weighting to π equal to the sample prevalence changes nothing", () => {
    fc.assert(
      fc.property(withBothClasses, (xs) => {
        const { labels, scores } = arrays(xs);
        const counts = rankCounts(labels, scores);
        const p = counts.positives / labels.length;
        const w = prevalenceWeights(counts.positives, counts.negatives, p).value!;
        expect(Math.abs(averagePrecision(counts, w).value! - averagePrecision(counts).value!)).toBeLessThan(1e-12);
      }),
    );
  });

  it("a perfect ranking gives AP = 1 and ROC-AUC = 1; a reversed one gives ROC-AUC = 0", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), (P, N) => {
        const labels = Uint8Array.from({ length: P + N }, (_, i) => (i < P ? 1 : 0));
        const scores = Float64Array.from({ length: P + N }, (_, i) => (i < P ? 2 + i : i / (P + N)));
        const counts = rankCounts(labels, scores);
        // Σ of P terms ΔR·1 may round to 1 ± 2⁻⁵², as it does in scikit-learn.
        expect(averagePrecision(counts).value).toBeCloseTo(1, 14);
        expect(rocAuc(counts).value).toBeCloseTo(1, 14);
        expect(
          rocAuc(
            rankCounts(
              labels,
              scores.map((s) => -s),
            ),
          ).value,
        ).toBe(0);
      }),
    );
  });

  it("the in-place PR curve equals the allocating one", () => {
    fc.assert(
      fc.property(items, (xs) => {
        const { labels, scores } = arrays(xs);
        const fresh = precisionRecallCurve(rankCounts(labels, scores)).value!;
        const inPlace = precisionRecallCurveInPlace(rankCounts(labels, scores)).value!;
        expect(Array.from(inPlace.precision)).toEqual(Array.from(fresh.precision));
        expect(inPlace.recall && Array.from(inPlace.recall)).toEqual(fresh.recall && Array.from(fresh.recall));
      }),
    );
  });

  it("the cost-optimal threshold is the brute-force minimum over observed scores", () => {
    fc.assert(
      fc.property(
        withBothClasses,
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        (xs, prevalence, cfn, cfp) => {
          const { labels, scores } = arrays(xs);
          const model = { prevalence, costFalseNegative: cfn, costFalsePositive: cfp };
          const P = labels.reduce((a, y) => a + y, 0);
          const N = labels.length - P;
          const costs = [...new Set(scores)].map((t) => {
            const c = confusionAt(labels, scores, t);
            return { t, cost: expectedCostPer1k(c.tp / P, c.fp / N, model) };
          });
          const min = Math.min(...costs.map((c) => c.cost));
          const best = costOptimalThreshold(rankCounts(labels, scores), model).value!;
          expect(best.expectedCostPer1k).toBe(min);
          expect(best.threshold === Math.max(...costs.filter((c) => c.cost === min).map((c) => c.t))).toBe(true); // -0 and 0 are one threshold
        },
      ),
    );
  });
});

describe("stratified bootstrap", () => {
  it("each replicate equals the metrics of the explicit resample, and keeps class counts", () => {
    fc.assert(
      fc.property(withBothClasses, fc.integer({ min: 0, max: 2 ** 31 }), (xs, seed) => {
        const { labels, scores } = arrays(xs);
        const [reps] = bootstrapReplicates([prepareRanking(labels, scores)], { replicates: 3, seed, prevalence: 0.1 });
        const pos = [...labels.keys()].filter((i) => labels[i] === 1);
        const neg = [...labels.keys()].filter((i) => labels[i] === 0);
        for (let b = 0; b < 3; b++) {
          // Replay replicate b's draws: P indices into the positives, then N into the negatives.
          const rng = new Xoshiro128(replicateSeed(seed, b));
          const dp = new Uint32Array(pos.length);
          const dn = new Uint32Array(neg.length);
          fillUniformIndices(rng, dp, pos.length);
          fillUniformIndices(rng, dn, neg.length);
          const drawn = [...Array.from(dp, (j) => pos[j]!), ...Array.from(dn, (j) => neg[j]!)];
          const counts = rankCounts(
            Uint8Array.from(drawn, (i) => labels[i]!),
            Float64Array.from(drawn, (i) => scores[i]!),
          );
          expect(counts.positives).toBe(pos.length);
          const w = prevalenceWeights(counts.positives, counts.negatives, 0.1).value!;
          expect(Math.abs(reps!.averagePrecision[b]! - averagePrecision(counts).value!)).toBeLessThan(1e-12);
          expect(Math.abs(reps!.averagePrecisionAtPrevalence[b]! - averagePrecision(counts, w).value!)).toBeLessThan(
            1e-12,
          );
          expect(Math.abs(reps!.rocAuc[b]! - rocAuc(counts).value!)).toBeLessThan(1e-12);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("is deterministic per seed and can be split into replicate ranges", () => {
    const labels = Uint8Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? 1 : 0));
    const scores = Float64Array.from({ length: 400 }, (_, i) => ((i * 7919) % 101) / 100 + (i % 7 === 0 ? 0.2 : 0));
    const r = [prepareRanking(labels, scores)];
    const whole = bootstrapReplicates(r, { replicates: 20, seed: 7 })[0]!;
    const again = bootstrapReplicates(r, { replicates: 20, seed: 7 })[0]!;
    const lo = bootstrapReplicates(r, { from: 0, to: 8, seed: 7 })[0]!;
    const hi = bootstrapReplicates(r, { from: 8, to: 20, seed: 7 })[0]!;
    expect(Array.from(again.averagePrecision)).toEqual(Array.from(whole.averagePrecision));
    expect([...lo.averagePrecision, ...hi.averagePrecision]).toEqual(Array.from(whole.averagePrecision));
    const other = bootstrapReplicates(r, { replicates: 20, seed: 8 })[0]!;
    expect(Array.from(other.averagePrecision)).not.toEqual(Array.from(whole.averagePrecision));
  });
});

describe("comparing two candidates on the same items", () => {
  const labels = Uint8Array.from({ length: 300 }, (_, i) => (i % 5 === 0 ? 1 : 0));
  const a = Float64Array.from(labels, (y, i) => ((i * 37) % 100) / 100 + 0.4 * y);
  const b = Float64Array.from(labels, (y, i) => ((i * 53) % 100) / 100 + 0.1 * y);
  it("ΔAP of a candidate with itself is exactly [0, 0]", () => {
    expect(pairedDeltaApInterval(labels, a, a, { replicates: 50, seed: 2 }).value).toEqual([0, 0]);
  });
  it("ΔAP replicates are the paired differences of each candidate's replicates", () => {
    const [ra, rb] = bootstrapReplicates([prepareRanking(labels, a), prepareRanking(labels, b)], {
      replicates: 200,
      seed: 2,
    });
    const deltas = Array.from(ra!.averagePrecision, (v, i) => v - rb!.averagePrecision[i]!).sort((x, y) => x - y);
    const [lo, hi] = pairedDeltaApInterval(labels, a, b, { replicates: 200, seed: 2 }).value!;
    // numpy percentile, linear: h = 199·0.025 = 4.975 → x₄ + 0.975(x₅ − x₄)
    expect(lo).toBeCloseTo(deltas[4]! + 0.975 * (deltas[5]! - deltas[4]!), 14);
    expect(hi).toBeCloseTo(deltas[194]! + 0.025 * (deltas[195]! - deltas[194]!), 14);
    expect(lo).toBeGreaterThan(0); // a separates the classes far better than b
  });
  it("McNemar counts the discordant errors at each candidate's own threshold", () => {
    const y = Uint8Array.from([1, 1, 1, 0, 0, 0]);
    const sa = Float64Array.from([0.9, 0.8, 0.2, 0.1, 0.1, 0.7]); // at 0.5: right, right, wrong, right, right, wrong
    const sb = Float64Array.from([0.4, 0.9, 0.9, 0.9, 0.1, 0.1]); // at 0.5: wrong, right, right, wrong, right, right
    const r = mcnemarAtThresholds(y, sa, 0.5, sb, 0.5);
    expect([r.onlyACorrect, r.onlyBCorrect]).toEqual([2, 2]);
    expect(r.pValue).toBe(1);
  });
});

describe("radix sort", () => {
  it("orders doubles exactly like a numeric sort, for any sign, magnitude and ties", () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -3, max: 3 }).map((k) => k / 2),
      fc.constantFrom(0, -0, 5e-324, -5e-324),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 0, maxLength: 2000, size: "max" }), (xs) => {
        const expected = Float64Array.from(xs).sort();
        const actual = radixSortFloat64(Float64Array.from(xs));
        expect(Array.from(actual, (v) => v + 0)).toEqual(Array.from(expected, (v) => v + 0)); // −0 ≡ 0
      }),
      { numRuns: 200 },
    );
    const rng = new Xoshiro128(5);
    const big = Float64Array.from({ length: 300_000 }, (_, i) =>
      i % 3 === 0 ? Math.round(rng.nextDouble() * 100) : (rng.nextDouble() - 0.5) * 10 ** (rng.nextIndex(40) - 20),
    );
    expect(Array.from(radixSortFloat64(big.slice()), (v) => v + 0)).toEqual(
      Array.from(big.slice().sort(), (v) => v + 0),
    );
  });
});

describe("uniform indices", () => {
  it("stay in [0, n) and hit every value about equally often", () => {
    const n = 7;
    const out = new Uint32Array(70_000);
    fillUniformIndices(new Xoshiro128(1), out, n);
    const counts = new Array<number>(n).fill(0);
    out.forEach((i) => counts[i]!++);
    // χ² with 6 degrees of freedom: P[χ² > 22.46] = 0.001
    const chi2 = counts.reduce((a, c) => a + (c - 10_000) ** 2 / 10_000, 0);
    expect(chi2).toBeLessThan(22.46);
  });
});

describe("downsampler", () => {
  const curve = fc.array(
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
    { minLength: 1, maxLength: 300 },
  );
  it("returns at most N ascending indices including both ends and the operating point", () => {
    fc.assert(
      fc.property(curve, fc.integer({ min: 3, max: 50 }), fc.nat(), (pts, max, k) => {
        const x = pts.map((p) => p[0]);
        const y = pts.map((p) => p[1]);
        const keep = k % pts.length;
        const idx = downsampleIndices(x, y, max, [keep]);
        expect(idx.length).toBeLessThanOrEqual(Math.max(max, Math.min(pts.length, 3)));
        expect(idx).toEqual([...idx].sort((a, b) => a - b));
        expect(new Set(idx).size).toBe(idx.length);
        for (const must of [0, pts.length - 1, keep]) expect(idx).toContain(must);
      }),
    );
  });
  it("keeps every corner of a staircase and drops collinear points when they fit", () => {
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i <= 1000; i++) {
      x.push(i);
      y.push(i < 500 ? 0 : 1); // two straight runs meeting at corners 499/500
    }
    expect(downsampleIndices(x, y, 10)).toEqual([0, 499, 500, 1000]);
  });
});

describe("intervals and tests", () => {
  it("Wilson intervals contain the estimate and stay in [0, 1]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, f) => {
        const k = Math.round(f * n);
        const [lo, hi] = wilsonInterval(k, n).value!;
        expect(lo).toBeGreaterThanOrEqual(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(lo).toBeLessThanOrEqual(k / n + 1e-12);
        expect(hi).toBeGreaterThanOrEqual(k / n - 1e-12);
      }),
    );
    expect(wilsonInterval(0, 0).value).toBeNull();
  });
  it("exact McNemar is symmetric and gives p = 1 without discordant pairs", () => {
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), (b, c) => {
        expect(exactMcNemar(b, c).pValue).toBe(exactMcNemar(c, b).pValue);
        expect(exactMcNemar(b, c).pValue).toBeLessThanOrEqual(1);
      }),
    );
    expect(exactMcNemar(0, 0).pValue).toBe(1);
    expect(exactMcNemar(0, 1).pValue).toBe(1); // 2·P[X ≤ 0] = 2·½, capped at 1
    expect(exactMcNemar(0, 10).pValue).toBeCloseTo(2 / 1024, 15);
  });
});
