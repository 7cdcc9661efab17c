import { describe, expect, test } from "vitest";
import { detectLeaderboardFormat, parseLeaderboard } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const STATS = fixture("helm", "run/stats.json");
const GROUPS = fixture("helm", "summary/groups_safety_scenarios.json");
// The run directory the stats.json came from (helm/SOURCE.txt).
const RUN = "bbq:subject=all,method=multiple_choice_joint,model=openai_gpt-4o-2024-05-13";

describe("HELM run stats.json", () => {
  test("is recognised from its content", () => {
    expect(detectLeaderboardFormat(STATS)?.format).toBe("helm-run-stats");
  });

  test("reads unperturbed means with model and scenario from the run spec", () => {
    const r = expectOk(parseLeaderboard(STATS, { runSpec: RUN }));
    const find = (metric: string) => r.records.find((x) => x.metric === metric);
    // {"name": {"name": "bbq_accuracy", "split": "test"}, "count": 1, ..., "mean": 0.95}
    expect(find("bbq_accuracy")).toEqual({
      model: "openai/gpt-4o-2024-05-13",
      suite: "bbq:subject=all,method=multiple_choice_joint",
      metric: "bbq_accuracy",
      value: 0.95,
      higherIsBetter: true,
      stage: "LEADERBOARD",
      source: "HELM",
    });
    expect(find("exact_match")?.value).toBe(0.95);
    // seconds, lower is better
    expect(find("inference_runtime")).toMatchObject({ value: 0.39990686893463134, higherIsBetter: false });
    expect(find("bbq_metric_unambiguous_bias")).toMatchObject({ value: -0.3913043478260869, higherIsBetter: false });
    // counters, count-0 stats and perturbed copies are not scores
    expect(find("num_prompt_tokens")).toBeUndefined();
    expect(find("training_co2_cost")).toBeUndefined();
    expect(r.records.filter((x) => x.metric === "exact_match")).toHaveLength(1);
    expect(r.warnings.join(" ")).toMatch(/perturbed/);
  });

  test("run_spec.json text and an explicit model work too", () => {
    const spec = JSON.stringify({ name: RUN, adapter_spec: { model: "openai/gpt-4o-2024-05-13" } });
    expect(expectOk(parseLeaderboard(STATS, { runSpec: spec })).records[0]?.model).toBe("openai/gpt-4o-2024-05-13");
    expect(expectOk(parseLeaderboard(STATS, { runSpec: RUN, model: "gpt-4o" })).records[0]?.model).toBe("gpt-4o");
  });

  test("without a run spec the file cannot say which model it measured", () => {
    const f = expectFail(parseLeaderboard(STATS));
    expect(f.errors[0]).toMatchObject({ field: "runSpec" });
  });

  test("a non-finite mean is an error at its record", () => {
    const bad = STATS.replace('"mean": 0.95,', '"mean": -1e999,');
    const f = expectFail(parseLeaderboard(bad, { runSpec: RUN }));
    expect(f.errors[0]).toEqual({
      record: "[0]",
      field: "mean",
      value: "-Infinity",
      reason: "not a finite number (overflow)",
    });
  });
});

describe("HELM group table (groups/<group>.json)", () => {
  test("is recognised from its content", () => {
    expect(detectLeaderboardFormat(GROUPS)?.format).toBe("helm-group-table");
  });

  test("reads scored cells by run_group/metric, skips empty tables and win rates", () => {
    const r = expectOk(parseLeaderboard(GROUPS));
    // Accuracy table, row "GPT-4o (2024-05-13)": BBQ accuracy cell value 0.95 (same as the run's stats.json)
    expect(r.records.find((x) => x.model === "GPT-4o (2024-05-13)" && x.suite === "BBQ")).toEqual({
      model: "GPT-4o (2024-05-13)",
      suite: "BBQ",
      metric: "BBQ accuracy",
      value: 0.95,
      higherIsBetter: true,
      stage: "LEADERBOARD",
      source: "HELM",
    });
    // Row "Llama 3 Instruct (70B)": HarmBench 0.7125
    expect(r.records.find((x) => x.model === "Llama 3 Instruct (70B)" && x.suite === "HarmBench")?.value).toBe(0.7125);
    // 9 models × 5 safety columns with a direction; Efficiency/BBQ-metrics tables have no values
    expect(r.records).toHaveLength(45);
    expect(r.records.some((x) => x.metric === "Mean win rate")).toBe(false);
    expect(r.warnings.join(" ")).toMatch(/Mean win rate/);
    expect(new Set(r.records.map((x) => x.model)).size).toBe(9);
  });
});
