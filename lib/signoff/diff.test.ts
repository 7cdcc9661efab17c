import { describe, expect, it } from "vitest";
import { jsonDiff } from "./diff";

describe("jsonDiff", () => {
  it("finds nothing between equal values", () => {
    expect(jsonDiff({ a: [1, { b: "x" }], c: null }, { c: null, a: [1, { b: "x" }] })).toEqual([]);
  });

  it("reports changed, added and removed object members with their paths", () => {
    const diff = jsonDiff(
      { task: { prevalence: 0.02, quorum: 2 }, gone: true },
      { task: { prevalence: 0.05, quorum: 2, extra: "y" } },
    );
    expect(diff).toEqual([
      { path: "gone", kind: "removed", before: true },
      { path: "task.extra", kind: "added", after: "y" },
      { path: "task.prevalence", kind: "changed", before: 0.02, after: 0.05 },
    ]);
  });

  it("matches rows by id, so an inserted row is one addition", () => {
    const before = {
      scores: [
        { id: "a", v: 1 },
        { id: "c", v: 3 },
      ],
    };
    const after = {
      scores: [
        { id: "a", v: 1 },
        { id: "b", v: 2 },
        { id: "c", v: 4 },
      ],
    };
    expect(jsonDiff(before, after)).toEqual([
      { path: "scores[id=c].v", kind: "changed", before: 3, after: 4 },
      { path: "scores[id=b]", kind: "added", after: { id: "b", v: 2 } },
    ]);
  });

  it("compares arrays without ids by position and a type change as a change", () => {
    expect(jsonDiff([1, 2, 3], [1, 5])).toEqual([
      { path: "[1]", kind: "changed", before: 2, after: 5 },
      { path: "[2]", kind: "removed", before: 3 },
    ]);
    expect(jsonDiff({ x: [1] }, { x: { 0: 1 } })).toEqual([
      { path: "x", kind: "changed", before: [1], after: { 0: 1 } },
    ]);
  });
});
