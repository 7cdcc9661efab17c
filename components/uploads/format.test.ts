import { describe, expect, it } from "vitest";
import { storedRecords } from "./format";

describe("storedRecords", () => {
  it("says records are stored for the candidates only when they are", () => {
    expect(storedRecords({ stored: 2, models: { a: "c1", b: "c2" }, unshortlistedModels: [] })).toBe(
      "2 stored for the candidates",
    );
    expect(storedRecords({ stored: 45, models: {}, unshortlistedModels: ["x", "y", "z"] })).toBe(
      "45 stored to shortlist from (3 models, none a candidate yet)",
    );
    expect(storedRecords({ stored: 45, models: { a: "c1" }, unshortlistedModels: ["x", "y"] })).toBe(
      "45 stored: 1 model matched to candidates, 2 models kept to shortlist from (or to attach to a candidate on the edit page)",
    );
    expect(storedRecords({ stored: 0, models: {}, unshortlistedModels: [] })).toBe("none stored");
  });
});
