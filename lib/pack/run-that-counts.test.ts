import { describe, expect, it } from "vitest";
import { runsThatCount } from "./run-that-counts";

const run = (id: number, candidateId: string, datasetVersionId: number, status = "DONE") => ({
  id,
  candidateId,
  datasetVersionId,
  status,
});

describe("runsThatCount", () => {
  it("takes each candidate's newest finished run on the evaluation version", () => {
    const runs = [run(1, "a", 1), run(2, "a", 2), run(3, "a", 1, "PENDING"), run(4, "b", 2), run(5, "b", 1, "FAILED")];
    const counting = runsThatCount(runs, 1);
    expect(counting.get("a")?.id).toBe(1);
    expect(counting.has("b")).toBe(false);
  });

  it("without a chosen version, takes each candidate's newest finished run", () => {
    const counting = runsThatCount([run(2, "a", 2), run(7, "a", 1), run(9, "a", 3, "RUNNING")], null);
    expect(counting.get("a")?.id).toBe(7);
  });
});
