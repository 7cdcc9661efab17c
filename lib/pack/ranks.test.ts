import { describe, expect, it } from "vitest";
import { kendallTau, rankBy, rankReversals, tauTable } from "./ranks";

const ranking = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe("rankBy", () => {
  it("ranks higher-is-better and lower-is-better figures, ties sharing the best rank, missing figures unranked", () => {
    expect(
      rankBy(
        new Map([
          ["a", 0.9],
          ["b", 0.7],
          ["c", 0.9],
          ["d", null],
        ]),
        true,
      ),
    ).toEqual(ranking({ a: 1, b: 3, c: 1 }));
    expect(
      rankBy(
        new Map([
          ["a", 250],
          ["b", 75],
          ["c", 170],
        ]),
        false,
      ),
    ).toEqual(ranking({ a: 3, b: 1, c: 2 }));
  });
});

describe("kendallTau", () => {
  it("is 1 for the same order and −1 for the reverse", () => {
    expect(kendallTau(ranking({ a: 1, b: 2, c: 3 }), ranking({ a: 1, b: 2, c: 3 }))).toBe(1);
    expect(kendallTau(ranking({ a: 1, b: 2, c: 3 }), ranking({ a: 3, b: 2, c: 1 }))).toBe(-1);
  });

  it("counts concordant and discordant pairs by hand: 2 concordant, 4 discordant of 6 → −1/3", () => {
    expect(kendallTau(ranking({ a: 1, b: 2, c: 3, d: 4 }), ranking({ a: 3, b: 2, c: 4, d: 1 }))).toBeCloseTo(
      -1 / 3,
      12,
    );
  });

  it("uses τ-b for ties: (2 − 0)/√((3 − 1)(3 − 0))", () => {
    expect(kendallTau(ranking({ a: 1, b: 1, c: 3 }), ranking({ a: 1, b: 2, c: 3 }))).toBeCloseTo(2 / Math.sqrt(6), 12);
  });

  it("is undefined with fewer than two common candidates", () => {
    expect(kendallTau(ranking({ a: 1 }), ranking({ a: 1, b: 2 }))).toBeNull();
  });
});

describe("rankReversals", () => {
  const candidates = [
    { id: "a", name: "Atlas" },
    { id: "s", name: "Sentry" },
    { id: "o", name: "Orca" },
    { id: "l", name: "Lynx" },
  ];

  it("calls out the leaderboard leader that is not #1 on the task, and an order that disagrees overall, with its swapped pairs", () => {
    const out = rankReversals(
      candidates,
      [{ key: "mmlu", label: "MMLU", ranking: ranking({ a: 1, o: 2, s: 3 }) }],
      [{ key: "recall", label: "recall at 2% prevalence", ranking: ranking({ s: 1, o: 2, a: 3 }) }],
    );
    expect(out).toEqual([
      { kind: "leader", candidateId: "a", text: "Atlas: #1 on MMLU, but #3 on recall at 2% prevalence" },
      {
        kind: "order",
        candidateId: null,
        text: "MMLU disagrees with recall at 2% prevalence (τ = -1.00): it puts Atlas above Orca, Atlas above Sentry, Orca above Sentry, which recall at 2% prevalence reverses",
      },
    ]);
  });

  it("does not call a slip from #3 to #4 a reversal when the leader keeps first place and the orders agree", () => {
    const out = rankReversals(
      candidates,
      [{ key: "mmlu", label: "MMLU", ranking: ranking({ a: 1, o: 2, s: 3, l: 4 }) }],
      [{ key: "cost", label: "expected cost", ranking: ranking({ a: 1, o: 2, l: 3, s: 4 }) }],
    );
    expect(out).toEqual([]);
  });

  it("a leader tied for first is no single leader", () => {
    expect(
      rankReversals(
        candidates,
        [{ key: "m", label: "MMLU", ranking: ranking({ a: 1, o: 1, s: 3 }) }],
        [{ key: "c", label: "cost", ranking: ranking({ s: 1, a: 2, o: 3 }) }],
      ).filter((r) => r.kind === "leader"),
    ).toEqual([]);
  });
});

describe("rankReversals, several suites alike", () => {
  it("names suites that disagree the same way in one sentence", () => {
    const candidates = [
      { id: "a", name: "Atlas" },
      { id: "s", name: "Sentry" },
    ];
    const out = rankReversals(
      candidates,
      [
        { key: "m", label: "MMLU", ranking: ranking({ a: 1, s: 2 }) },
        { key: "h", label: "HELM Lite", ranking: ranking({ a: 1, s: 2 }) },
      ],
      [{ key: "c", label: "expected cost", ranking: ranking({ s: 1, a: 2 }) }],
    );
    expect(out.filter((r) => r.kind === "order").map((r) => r.text)).toEqual([
      "MMLU, HELM Lite disagree with expected cost (τ = -1.00): they put Atlas above Sentry, which expected cost reverses",
    ]);
    expect(out.filter((r) => r.kind === "leader").map((r) => r.text)).toEqual([
      "Atlas: #1 on MMLU and #1 on HELM Lite, but #2 on expected cost",
    ]);
  });
});

describe("tauTable", () => {
  it("counts, per shortlisting and verdict ranking, the pairs ordered alike and the pairs swapped, with τ", () => {
    const rows = tauTable([
      { label: "MMLU", role: "shortlisting", ranks: { a: 1, b: 2, c: 3, d: 4 } },
      { label: "expected cost", role: "verdict", ranks: { a: 3, b: 2, c: 4, d: 1 } },
      { label: "recall", role: "verdict", ranks: { a: 1, b: 2, c: 3, d: 4 } },
    ]);
    expect(rows).toEqual([
      { shortlisting: "MMLU", verdict: "expected cost", agree: 2, disagree: 4, tau: -2 / 6 },
      { shortlisting: "MMLU", verdict: "recall", agree: 6, disagree: 0, tau: 1 },
    ]);
  });
});
