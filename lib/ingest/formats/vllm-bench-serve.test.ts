import { describe, expect, test } from "vitest";
import { detectServingFormat, parseServing } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const FAILED = fixture("vllm-bench-serve", "bench_serve_all_requests_failed_v0.25.1.json");
const SWEEP = fixture("vllm-bench-serve", "sweep_run=0.json");
const DETAILED = fixture("vllm-bench-serve", "lambdalabs_Meta-Llama-3-8B-Instruct_tp1_len2000.EXCERPT.json");

describe("vLLM bench serve JSON", () => {
  test("all samples are recognised from their content", () => {
    for (const f of [FAILED, SWEEP, DETAILED]) expect(detectServingFormat(f)?.format).toBe("vllm-bench-serve");
  });

  test("summary in ms: TTFT/TPOT/ITL/E2EL of a sweep run", () => {
    const r = expectOk(parseServing(SWEEP));
    expect(r.records).toHaveLength(1);
    const rec = r.records[0];
    expect(rec).toMatchObject({
      model: "facebook/opt-125m",
      tool: "vLLM bench serve",
      concurrency: 2, // max_concurrency
      completed: 8,
      failed: 0,
      durationS: 1.3653671270003542,
      meanInputTokens: 32, // 256 / 8
      meanOutputTokens: 16, // 128 / 8
      requestThroughput: 5.859229976904171,
      outputTokenThroughput: 93.74767963046673,
      totalTokenThroughput: 281.2430388914002,
    });
    expect(rec?.requestRate).toBeUndefined(); // "inf": all requests at once
    expect(rec?.goodput).toBeUndefined(); // null without --goodput
    expect(rec?.ttftMs).toEqual({ mean: 217.27289337468392, p50: 44.92285849846667, p99: 762.4942294094944 });
    expect(rec?.tpotMs).toEqual({ mean: 8.204553624697533, p50: 8.323490332986694, p99: 9.394318119331729 });
    expect(rec?.itlMs).toEqual({ mean: 8.204563008257537, p50: 7.372754000243731, p99: 22.26501848665066 });
    expect(rec?.e2eMs).toEqual({ mean: 340.3411977451469, p50: 166.47808399284258, p99: 876.8009717071254 });
    expect(rec?.tpotSource).toMatch(/first token excluded.*not recomputed|first token excluded.*summary/);
  });

  test("all requests failed: 0.0 placeholders are not imported as latencies", () => {
    const r = expectOk(parseServing(FAILED));
    const rec = r.records[0];
    expect(rec).toMatchObject({ model: "facebook/opt-125m", completed: 0, failed: 8, requestThroughput: 0 });
    expect(rec?.ttftMs).toEqual({});
    expect(rec?.tpotMs).toEqual({});
    expect(rec?.e2eMs).toEqual({});
    expect(rec?.meanOutputTokens).toBeUndefined();
    expect(r.warnings.join(" ")).toMatch(/all requests failed/);
  });

  test("2024 file with per-request arrays (s): TTFT recomputed, truncated ITLs kept from the summary", () => {
    const r = expectOk(parseServing(DETAILED));
    const rec = r.records[0];
    // np.array(ttfts)*1000 → mean 139.22520615160465 (= mean_ttft_ms), median 139.06319253146648,
    // np.percentile(.., 90) 140.1985578238964, 95 → 140.30569195747375, 99 → 140.39139926433563 (= p99_ttft_ms)
    expect(rec?.ttftMs.mean).toBeCloseTo(139.22520615160465, 9);
    expect(rec?.ttftMs.p50).toBeCloseTo(139.06319253146648, 9);
    expect(rec?.ttftMs.p90).toBeCloseTo(140.1985578238964, 9);
    expect(rec?.ttftMs.p95).toBeCloseTo(140.30569195747375, 9);
    expect(rec?.ttftMs.p99).toBeCloseTo(140.39139926433563, 9);
    // no `latencies` array → TPOT from the summary (vLLM TPOT = Verdict TPOT)
    expect(rec?.tpotMs).toEqual({ mean: 17.953939450032614, p50: 11.955695146418893, p99: 53.73797138780356 });
    // vLLM ITL (per chunk) is ≫ TPOT here: 114.5 ms vs 18 ms
    expect(rec?.itlMs?.mean).toBe(114.52366808798108);
    // old key names: *_latency_ms is E2E; failed = num_prompts − completed; total = input + output throughput
    expect(rec?.e2eMs).toEqual({ mean: 2407.0737529546022, p50: 1420.5735865980387, p99: 8329.030026607215 });
    expect(rec?.failed).toBe(0);
    expect(rec?.totalTokenThroughput).toBeCloseTo(159.80232932470813 + 227.03837146571024, 9);
    expect(rec?.meanInputTokens).toBeCloseTo(136.9, 12);
    expect(rec?.meanOutputTokens).toBeCloseTo(194.5, 12);
  });

  test("full per-request arrays: TPOT recomputed as (latency − ttft)/(out − 1)", () => {
    const ttfts = [0.1, 0.2, 0.3, 0.4];
    const latencies = [1.1, 2.2, 0.3, 4.4];
    const outputLens = [11, 21, 1, 0];
    const errors = ["", "", "", "boom"];
    // successful: requests 0..2; TPOT needs > 1 output token: (1.1−0.1)/10 = 0.1 s, (2.2−0.2)/20 = 0.1 s
    const doc = {
      model_id: "m",
      completed: 3,
      failed: 1,
      request_throughput: 1,
      duration: 3,
      mean_ttft_ms: 200,
      median_ttft_ms: 200,
      mean_tpot_ms: 100,
      mean_e2el_ms: 1200,
      ttfts,
      latencies,
      output_lens: outputLens,
      errors,
    };
    const rec = expectOk(parseServing(JSON.stringify(doc))).records[0];
    expect(rec?.tpotMs.mean).toBeCloseTo(100, 9);
    expect(rec?.tpotMs.p99).toBeCloseTo(100, 9);
    expect(rec?.ttftMs.p50).toBeCloseTo(200, 9);
    expect(rec?.e2eMs.mean).toBeCloseTo(1200, 9);
    expect(rec?.e2eMs.p90).toBeCloseTo(1100 + 0.8 * (2200 - 1100), 9); // numpy linear: h = 2·0.9 = 1.8
    expect(rec?.tpotSource).toMatch(/recomputed per request/);
  });

  test("--append-result files: one record per line; a truncated line is located", () => {
    const line = JSON.stringify(JSON.parse(SWEEP));
    const two = `${line}\n${line.replace('"max_concurrency":2', '"max_concurrency":4')}\n`;
    expect(expectOk(parseServing(two)).records.map((x) => x.concurrency)).toEqual([2, 4]);
    const f = expectFail(parseServing(`${line}\n${line.slice(0, 200)}\n`, { format: "vllm-bench-serve" }));
    expect(f.errors[0]).toMatchObject({ line: 2, reason: "truncated JSON (unexpected end of input)" });
  });

  test("missing required fields and non-finite numbers are errors", () => {
    const doc = JSON.parse(SWEEP) as Record<string, unknown>;
    delete doc.model_id;
    const text = JSON.stringify(doc).replace('"mean_ttft_ms":217.27289337468392', '"mean_ttft_ms":1e999');
    const f = expectFail(parseServing(text));
    expect(f.errors).toEqual([
      { record: "", field: "model_id", reason: "missing required field" },
      { record: "", field: "mean_ttft_ms", value: "Infinity", reason: "not a finite number (overflow)" },
    ]);
  });
});
