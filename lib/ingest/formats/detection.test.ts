import { describe, expect, test } from "vitest";
import { detectLeaderboardFormat, detectServingFormat, parseLeaderboard, parseServing } from "./index";
import { expectFail, fixture } from "./fixtures.test-helpers";

// Every real sample, the format it must be detected as, and its kind.
const SAMPLES: [folder: string, file: string, format: string, kind: "leaderboard" | "serving"][] = [
  ["lm-eval-harness", "results_2026-07-08T18-15-33.115417.json", "lm-eval-harness", "leaderboard"],
  ["helm", "run/stats.json", "helm-run-stats", "leaderboard"],
  ["helm", "summary/groups_safety_scenarios.json", "helm-group-table", "leaderboard"],
  [
    "open-llm-leaderboard",
    "open_llm_leaderboard_v2_contents.FIRST1000ROWS.csv",
    "open-llm-leaderboard-v2",
    "leaderboard",
  ],
  ["open-llm-leaderboard", "v1_scrape_20231031.csv", "open-llm-leaderboard-v1", "leaderboard"],
  ["chatbot-arena", "leaderboard_table_20230619.csv", "chatbot-arena-csv", "leaderboard"],
  ["chatbot-arena", "leaderboard_table_20231206.csv", "chatbot-arena-csv", "leaderboard"],
  ["chatbot-arena", "leaderboard_table_20250511.csv", "chatbot-arena-csv", "leaderboard"],
  ["vllm-bench-serve", "bench_serve_all_requests_failed_v0.25.1.json", "vllm-bench-serve", "serving"],
  ["vllm-bench-serve", "sweep_run=0.json", "vllm-bench-serve", "serving"],
  ["vllm-bench-serve", "lambdalabs_Meta-Llama-3-8B-Instruct_tp1_len2000.EXCERPT.json", "vllm-bench-serve", "serving"],
  ["guidellm", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json", "guidellm", "serving"],
  ["guidellm", "benchmarks_stripped_v0.2-era.json", "guidellm", "serving"],
  ["llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_summary.json", "llmperf", "serving"],
  ["genai-perf", "profile_export_genai_perf.json", "genai-perf-json", "serving"],
  ["genai-perf", "profile_export_genai_perf.csv", "genai-perf-csv", "serving"],
];

describe("format detection from content", () => {
  test.each(SAMPLES)("%s/%s → %s", (folder, file, format, kind) => {
    const content = fixture(folder, file);
    const [own, other] =
      kind === "leaderboard"
        ? [detectLeaderboardFormat, detectServingFormat]
        : [detectServingFormat, detectLeaderboardFormat];
    expect(own(content)?.format).toBe(format);
    expect(other(content)).toBeUndefined();
  });
});

describe("bad files, for every JSON format", () => {
  const json = SAMPLES.filter(([, file]) => file.endsWith(".json"));

  test.each(json)("%s/%s truncated → located 'truncated JSON' error", (folder, file, format, kind) => {
    const content = fixture(folder, file);
    const cut = content.slice(0, Math.floor(content.length / 2));
    const f =
      kind === "leaderboard"
        ? expectFail(parseLeaderboard(cut, { format }))
        : expectFail(parseServing(cut, { format }));
    expect(f.errors[0]?.reason).toBe("truncated JSON (unexpected end of input)");
    expect(f.errors[0]?.line).toBeGreaterThanOrEqual(1);
  });

  test("empty and whitespace-only files", () => {
    for (const content of ["", "   \n", "\uFEFF"]) {
      expect(expectFail(parseServing(content)).errors[0]?.reason).toBe("empty file");
      expect(expectFail(parseLeaderboard(content)).errors[0]?.reason).toBe("empty file");
    }
  });
});
