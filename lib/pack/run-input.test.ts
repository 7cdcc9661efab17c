import { describe, expect, it } from "vitest";
import { buildRunInput, type JoinedRow } from "./run-input";

const r = (label: boolean, score: number | null, extra: Partial<JoinedRow> = {}): JoinedRow => ({
  label,
  score,
  predicted: null,
  parseFailure: false,
  missing: false,
  slice: null,
  ...extra,
});

describe("buildRunInput", () => {
  it("scores parse failures and missing predictions as errors at every threshold", () => {
    const input = buildRunInput([
      r(true, 0.9),
      r(false, 0.2),
      r(true, null, { parseFailure: true }),
      r(false, null, { parseFailure: true }),
      r(true, null, { missing: true }),
    ]);
    // Probabilities: a failed positive scores 0, a failed negative 1 (confidently wrong).
    expect(Array.from(input.scores)).toEqual([0.9, 0.2, 0, 1, 0]);
    expect(input.parseFailures).toBe(2);
    expect(input.missing).toBe(1);
    expect(Array.from(input.valid)).toEqual([1, 1, 0, 0, 0]);
    // Whatever the threshold between the observed scores, each failure lands on the wrong side.
    for (const t of [0.2, 0.5, 0.9]) {
      expect(input.scores[2]! >= t).toBe(false);
      expect(input.scores[3]! >= t).toBe(true);
    }
  });

  it("places failures beyond the observed range when scores are not probabilities", () => {
    const input = buildRunInput([
      r(true, 2.5),
      r(false, -3),
      r(true, null, { parseFailure: true }),
      r(false, null, { parseFailure: true }),
    ]);
    expect(Array.from(input.scores)).toEqual([2.5, -3, -4, 3.5]);
  });

  it("uses hard labels as 0/1 scores when no score is given", () => {
    const input = buildRunInput([
      r(true, null, { predicted: true }),
      r(false, null, { predicted: false }),
      r(false, null, { predicted: true }),
    ]);
    expect(input.scoreKind).toBe("hard-labels");
    expect(Array.from(input.scores)).toEqual([1, 0, 1]);
  });
});
