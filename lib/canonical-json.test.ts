import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("prints equal doubles alike and distinct doubles apart", () => {
    expect(canonicalJson(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(canonicalJson(0.3)).toBe("0.3");
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson(1e21)).toBe("1e+21");
  });

  it("refuses non-finite numbers instead of writing null", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson(Infinity)).toThrow(/non-finite/);
  });

  it("encodes dates as UTC ISO strings and bigints as strings", () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2026, 11, 2, 9, 0, 0)), n: 12n })).toBe(
      '{"at":"2026-12-02T09:00:00.000Z","n":"12"}',
    );
  });
});
