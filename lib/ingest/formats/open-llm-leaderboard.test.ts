import { describe, expect, test } from "vitest";
import { detectLeaderboardFormat, parseLeaderboard } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const V2 = fixture("open-llm-leaderboard", "open_llm_leaderboard_v2_contents.FIRST1000ROWS.csv");
const V1 = fixture("open-llm-leaderboard", "v1_scrape_20231031.csv");

describe("Open LLM Leaderboard v2 contents CSV", () => {
  test("is recognised from its header", () => {
    expect(detectLeaderboardFormat(V2)?.format).toBe("open-llm-leaderboard-v2");
  });

  test("raw fractions and normalized percents (stored ÷100) per benchmark", () => {
    const r = expectOk(parseLeaderboard(V2));
    const yi = r.records.filter((x) => x.model === "01-ai/Yi-1.5-34B");
    // row 1: MMLU-PRO Raw 0.4665890957446808, MMLU-PRO 40.732121749408975, GPQA Raw 0.36577181208053694,
    // Average ⬆️ 25.62131796065766, Submission Date 2024-06-12
    expect(yi.find((x) => x.suite === "MMLU-PRO" && x.metric === "raw")).toEqual({
      model: "01-ai/Yi-1.5-34B",
      suite: "MMLU-PRO",
      metric: "raw",
      value: 0.4665890957446808,
      higherIsBetter: true,
      stage: "LEADERBOARD",
      source: "Open LLM Leaderboard",
      asOf: "2024-06-12T00:00:00.000Z",
    });
    expect(yi.find((x) => x.suite === "MMLU-PRO" && x.metric === "normalized")?.value).toBeCloseTo(
      0.40732121749408975,
      15,
    );
    expect(yi.find((x) => x.suite === "GPQA" && x.metric === "raw")?.value).toBe(0.36577181208053694);
    expect(yi.find((x) => x.suite === "Average")?.value).toBeCloseTo(0.2562131796065766, 15);
    expect(yi).toHaveLength(13);
    // 1000 rows × (6 benchmarks × 2 + average)
    expect(r.records).toHaveLength(13_000);
    expect(r.warnings.join(" ")).toMatch(/19 models appear in several rows/);
  });

  test("the HTML in the Model column and quoted commas in Type do not shift columns", () => {
    const r = expectOk(parseLeaderboard(V2));
    // first data row, model from `fullname`: IFEval Raw 0.3302792147058693
    expect(r.records[0]).toMatchObject({
      model: "0-hero/Matter-0.2-7B-DPO",
      suite: "IFEval",
      metric: "raw",
      value: 0.3302792147058693,
    });
  });

  test("a percent above 100 is an error on its line", () => {
    const lines = V2.split("\n");
    lines[2] = (lines[2] as string).replace(",40.732121749408975,", ",140.7,");
    const f = expectFail(parseLeaderboard(lines.join("\n")));
    expect(f.errors).toEqual([{ line: 3, field: "MMLU-PRO", value: "140.7", reason: "expected a score in 0–100" }]);
  });
});

describe("Open LLM Leaderboard v1 scrape CSV", () => {
  test("is recognised despite its BOM", () => {
    expect(V1.charCodeAt(0)).toBe(0xfeff);
    expect(detectLeaderboardFormat(V1)?.format).toBe("open-llm-leaderboard-v1");
  });

  test("percent scores stored as fractions", () => {
    const r = expectOk(parseLeaderboard(V1));
    // ValiantLabs/ShiningValiant,74.17,73.0,87.9,71.0,64.9,...
    const sv = r.records.filter((x) => x.model === "ValiantLabs/ShiningValiant");
    expect(sv.map((x) => [x.suite, x.value])).toEqual([
      ["Average", 0.7417],
      ["ARC (25-shot)", 0.73],
      ["HellaSwag (10-shot)", 0.879],
      ["MMLU (5-shot)", 0.71],
      ["TruthfulQA (0-shot)", 0.649],
    ]);
    expect(r.records).toHaveLength(109 * 5);
  });
});
