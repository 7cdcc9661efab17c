import { describe, expect, it } from "vitest";
import { scoreTables } from "./score-tables";

const row = (
  candidateId: string,
  suite: string,
  metric: string,
  value: number,
  stage: "LEADERBOARD" | "PREFERENCE" = "LEADERBOARD",
) => ({ candidateId, stage, suite, metric, value, higherIsBetter: true });

describe("scoreTables", () => {
  it("one table per suite and metric, ranked among the candidates that have the score, the widest first", () => {
    const tables = scoreTables(
      [
        row("a", "Arena", "Elo", 1287, "PREFERENCE"),
        row("a", "MMLU", "acc", 0.86),
        row("b", "MMLU", "acc", 0.8),
        row("c", "MMLU", "acc", 0.7),
        row("a", "MT-bench", "score", 9.1),
        row("b", "MT-bench", "score", 8.2),
        row("a", "MT-bench", "turn 1", 9.3),
      ],
      "LEADERBOARD",
    );
    expect(tables.map((t) => t.label)).toEqual(["MMLU", "MT-bench · score", "MT-bench · turn 1"]);
    expect(Object.fromEntries(tables[0]!.ranking)).toEqual({ a: 1, b: 2, c: 3 });
    expect(tables[0]!.scores.size).toBe(3);
  });

  it("a candidate's newest score counts, and is the one ranked (a re-import replaces, never duplicates)", () => {
    const [table] = scoreTables(
      [
        row("orca", "Arena", "Elo", 1241, "PREFERENCE"),
        row("atlas", "Arena", "Elo", 1200, "PREFERENCE"),
        row("atlas", "Arena", "Elo", 1287, "PREFERENCE"),
      ],
      "PREFERENCE",
    );
    expect(table!.scores.get("atlas")!.value).toBe(1287);
    expect(Object.fromEntries(table!.ranking)).toEqual({ atlas: 1, orca: 2 });
  });
});
