import { describe, expect, test } from "vitest";
import { detectLeaderboardFormat, parseLeaderboard } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const JUNE_2023 = fixture("chatbot-arena", "leaderboard_table_20230619.csv");
const DEC_2023 = fixture("chatbot-arena", "leaderboard_table_20231206.csv");
const MAY_2025 = fixture("chatbot-arena", "leaderboard_table_20250511.csv");
const UI = fixture("synthetic", "arena_ui_leaderboard.csv");

describe("Chatbot Arena leaderboard CSVs", () => {
  test("all header layouts are recognised", () => {
    for (const file of [JUNE_2023, DEC_2023, MAY_2025, UI])
      expect(detectLeaderboardFormat(file)?.format).toBe("chatbot-arena-csv");
  });

  test("2023-06 layout: Elo, MT-bench score, win-rate percent, MMLU fraction", () => {
    const r = expectOk(parseLeaderboard(JUNE_2023));
    // GPT-4,69.38%,8.99,1227,0.864,...
    const gpt4 = r.records.filter((x) => x.model === "GPT-4");
    expect(gpt4).toEqual([
      {
        model: "GPT-4",
        suite: "Chatbot Arena",
        metric: "Elo rating",
        value: 1227,
        higherIsBetter: true,
        stage: "PREFERENCE",
        source: "Chatbot Arena",
      },
      {
        model: "GPT-4",
        suite: "MT-bench",
        metric: "score (0-10)",
        value: 8.99,
        higherIsBetter: true,
        stage: "LEADERBOARD",
        source: "Chatbot Arena",
      },
      {
        model: "GPT-4",
        suite: "MT-bench",
        metric: "win rate",
        value: 0.6938,
        higherIsBetter: true,
        stage: "LEADERBOARD",
        source: "Chatbot Arena",
      },
      {
        model: "GPT-4",
        suite: "MMLU",
        metric: "acc",
        value: 0.864,
        higherIsBetter: true,
        stage: "LEADERBOARD",
        source: "Chatbot Arena",
      },
    ]);
    // GPT-3.5-turbo,-,7.94,1130,0.700: "-" is missing, not zero
    expect(r.records.filter((x) => x.model === "GPT-3.5-turbo").map((x) => x.metric)).toEqual([
      "Elo rating",
      "score (0-10)",
      "acc",
    ]);
    expect(r.records).toHaveLength(111); // non-"-" cells of the 4 score columns, 30 rows
  });

  test("2023-12 layout: Elo without win rate", () => {
    const r = expectOk(parseLeaderboard(DEC_2023));
    // GPT-4-Turbo,9.32,1217,-,...
    expect(r.records.filter((x) => x.model === "GPT-4-Turbo").map((x) => [x.metric, x.value])).toEqual([
      ["Elo rating", 1217],
      ["score (0-10)", 9.32],
    ]);
    expect(r.records.find((x) => x.model === "Llama-2-70b-chat" && x.suite === "MMLU")?.value).toBe(0.63);
    expect(r.records).toHaveLength(150);
  });

  test("2024+ layout: keyed by `key`, no Elo in the file (said in a warning)", () => {
    const r = expectOk(parseLeaderboard(MAY_2025));
    // gpt-4-0314,GPT-4-0314,8.96,0.864,2021/9,...
    expect(r.records.filter((x) => x.model === "gpt-4-0314").map((x) => [x.suite, x.value])).toEqual([
      ["MT-bench", 8.96],
      ["MMLU", 0.864],
    ]);
    expect(r.records.some((x) => x.stage === "PREFERENCE")).toBe(false);
    expect(r.warnings.join(" ")).toMatch(/no Arena ratings/);
    expect(r.records).toHaveLength(170);
  });

  test("UI table: Arena Score with its asymmetric 95% CI and votes", () => {
    const r = expectOk(parseLeaderboard(UI));
    expect(r.records[0]).toEqual({
      model: "gemini-2.5-pro",
      suite: "Chatbot Arena",
      metric: "Elo rating",
      value: 1446,
      ciLow: 1440,
      ciHigh: 1451,
      votes: 12881,
      higherIsBetter: true,
      stage: "PREFERENCE",
      source: "Chatbot Arena",
    });
    expect(r.records[1]?.votes).toBe(9125);
    expect(r.records[2]?.model).toBe("Llama-3.1-405B-Instruct, bf16");
  });

  test("a header that is none of the layouts is rejected", () => {
    const f = expectFail(parseLeaderboard("Model,Score\nx,1\n", { format: "chatbot-arena-csv" }));
    expect(f.errors[0]).toMatchObject({ line: 1, field: "(header)" });
  });

  test("a non-numeric Elo is an error on its line", () => {
    const bad = DEC_2023.replace("GPT-4-Turbo,9.32,1217,", "GPT-4-Turbo,9.32,12x7,");
    const f = expectFail(parseLeaderboard(bad));
    expect(f.errors).toEqual([{ line: 16, field: "Arena Elo rating", value: "12x7", reason: "not a number" }]);
  });
});
