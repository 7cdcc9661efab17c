import { describe, expect, test } from "vitest";
import { detectLeaderboardFormat, parseLeaderboard } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const RESULTS = fixture("lm-eval-harness", "results_2026-07-08T18-15-33.115417.json");

describe("lm-evaluation-harness results JSON", () => {
  test("is recognised from its content", () => {
    expect(detectLeaderboardFormat(RESULTS)?.format).toBe("lm-eval-harness");
  });

  test("reads acc with its stderr, N/A stderr as absent, groups and version", () => {
    const r = expectOk(parseLeaderboard(RESULTS));
    expect(r.format).toBe("lm-eval-harness");
    expect(r.producerVersion).toBe("0.4.13.dev0");
    const find = (suite: string, metric: string) => r.records.find((x) => x.suite === suite && x.metric === metric);
    // results.negotiationtom_belief: "acc,none": 0.45, "acc_stderr,none": 0.11413288653790232
    expect(find("negotiationtom_belief", "acc")).toEqual({
      model: "Qwen/Qwen3-8B",
      suite: "negotiationtom_belief",
      metric: "acc",
      value: 0.45,
      stderr: 0.11413288653790232,
      higherIsBetter: true,
      stage: "LEADERBOARD",
      source: "lm-evaluation-harness",
      asOf: "2026-07-08T18:13:21.866Z", // "date": 1783534401.8669105 (epoch s)
    });
    // "micro_f1_stderr,none": "N/A" → no stderr, value kept
    const microF1 = find("negotiationtom_intention", "micro_f1");
    expect(microF1?.value).toBe(0.2857142857142857);
    expect(microF1?.stderr).toBeUndefined();
    expect(find("negotiationtom_intention", "exact_match")?.stderr).toBe(0.0917662935482247);
    // the group row aggregates its subtasks
    expect(find("negotiationtom", "acc")?.value).toBe(0.525);
    // 4 tasks: belief 1 + desire 1 + intention 3 + group 4 metrics
    expect(r.records).toHaveLength(9);
  });

  test("the per-sample JSONL logs are not a leaderboard file", () => {
    const samples = fixture("lm-eval-harness", "samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl");
    expect(detectLeaderboardFormat(samples)).toBeUndefined();
    const f = expectFail(parseLeaderboard(samples));
    expect(f.errors[0]?.reason).toMatch(/unrecognised leaderboard file; supported formats: lm-eval-harness/);
    expect(
      detectLeaderboardFormat(
        fixture("lm-eval-harness", "samples_negotiationtom_intention_2026-07-08T18-15-33.115417.jsonl"),
      ),
    ).toBeUndefined();
  });

  test("model_args as a string (older files) and a missing direction table", () => {
    const old = JSON.stringify({
      results: { gsm8k: { "exact_match,strict-match": 0.5, "exact_match_stderr,strict-match": 0.01 } },
      config: { model: "hf", model_args: "pretrained=meta-llama/Meta-Llama-3-8B,dtype=auto" },
      versions: { gsm8k: 3 },
    });
    const r = expectOk(parseLeaderboard(old));
    expect(r.records).toEqual([
      expect.objectContaining({
        model: "meta-llama/Meta-Llama-3-8B",
        suite: "gsm8k",
        metric: "exact_match,strict-match",
        value: 0.5,
        stderr: 0.01,
      }),
    ]);
    expect(r.warnings.join(" ")).toMatch(/higher_is_better/);
  });

  test("non-finite values and bad stderr are row-level errors with the record path", () => {
    const bad = RESULTS.replace('"acc,none": 0.45', '"acc,none": 1e999').replace(
      '"acc_stderr,none": 0.11239029738980327',
      '"acc_stderr,none": "abc"',
    );
    const f = expectFail(parseLeaderboard(bad));
    expect(f.errorCount).toBe(2);
    expect(f.errors).toContainEqual({
      record: "results.negotiationtom_belief",
      field: "acc,none",
      value: "Infinity",
      reason: "not a finite number (overflow)",
    });
    expect(f.errors).toContainEqual(
      expect.objectContaining({
        record: "results.negotiationtom_desire",
        field: "acc_stderr,none",
        value: "abc",
        reason: "not a number",
      }),
    );
  });

  test("truncated JSON is rejected with its line", () => {
    const truncated = RESULTS.slice(0, 500);
    const f = expectFail(parseLeaderboard(truncated, { format: "lm-eval-harness" }));
    expect(f.errors[0]).toMatchObject({ field: "(file)", reason: "truncated JSON (unexpected end of input)" });
    expect(f.errors[0]?.line).toBe(truncated.split("\n").length);
  });

  test("Python's NaN literal is named", () => {
    const f = expectFail(
      parseLeaderboard(RESULTS.replace('"acc,none": 0.45', '"acc,none": NaN'), { format: "lm-eval-harness" }),
    );
    expect(f.errors[0]?.reason).toMatch(/non-finite number NaN/);
    expect(f.errors[0]?.line).toBe(7);
  });
});
