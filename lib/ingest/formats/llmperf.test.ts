import { describe, expect, test } from "vitest";
import { detectServingFormat, parseServing } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const SUMMARY = fixture("llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_summary.json");
const RESPONSES = fixture("llmperf", "meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json");

describe("LLMPerf summary JSON", () => {
  test("summary and individual responses are recognised", () => {
    expect(detectServingFormat(SUMMARY)?.format).toBe("llmperf");
    expect(detectServingFormat(RESPONSES)?.format).toBe("llmperf");
  });

  test("summary alone: seconds → ms, throughput per minute → per second, no TPOT (ITL includes the first token)", () => {
    const r = expectOk(parseServing(SUMMARY));
    expect(r.producerVersion).toBe("2023-08-31");
    const rec = r.records[0];
    expect(rec).toMatchObject({
      model: "meta-llama/Llama-2-7b-chat-hf",
      tool: "LLMPerf",
      toolVersion: "2023-08-31",
      concurrency: 24,
      completed: 96,
      failed: 0,
      meanInputTokens: 548.34375,
      meanOutputTokens: 150.03125,
      outputTokenThroughput: 692.6877855663103,
    });
    // results_num_completed_requests_per_min 277.0174022677183 / 60
    expect(rec?.requestThroughput).toBeCloseTo(277.0174022677183 / 60, 12);
    expect(rec?.durationS).toBeCloseTo(96 / (277.0174022677183 / 60), 9);
    // results_ttft_s_mean 0.7092350025244135 s → 709.235... ms; quantiles p50 0.767977716983296, p99 1.1044871825608424
    expect(rec?.ttftMs.mean).toBeCloseTo(709.2350025244135, 9);
    expect(rec?.ttftMs.p50).toBeCloseTo(767.977716983296, 9);
    expect(rec?.ttftMs.p90).toBeCloseTo(1099.1195880342275, 9);
    expect(rec?.ttftMs.p95).toBeCloseTo(1103.362982510589, 9);
    expect(rec?.ttftMs.p99).toBeCloseTo(1104.4871825608424, 9);
    expect(rec?.e2eMs.mean).toBeCloseTo(4651.129353536817, 9);
    expect(rec?.e2eMs.p99).toBeCloseTo(5084.0243804152125, 9);
    // results_inter_token_latency_s_mean 0.031 s is e2e/tokens: not stored as TPOT
    expect(rec?.tpotMs).toEqual({});
    expect(rec?.tpotSource).toMatch(/first token included/);
    expect(r.warnings.join(" ")).toMatch(/TPOT not imported/);
  });

  test("with the individual responses: TPOT = (e2e − ttft)/(out − 1) recomputed over the 96 requests", () => {
    const rec = expectOk(parseServing(SUMMARY, { individualResponses: RESPONSES })).records[0];
    // numpy over the 96 responses: ((end_to_end_latency_s − ttft_s)/(number_output_tokens − 1))·1000
    expect(rec?.tpotMs.mean).toBeCloseTo(26.487509095356454, 9);
    expect(rec?.tpotMs.p50).toBeCloseTo(26.360564416009826, 9);
    expect(rec?.tpotMs.p90).toBeCloseTo(28.05166299060922, 9);
    expect(rec?.tpotMs.p95).toBeCloseTo(30.330349922687788, 9);
    expect(rec?.tpotMs.p99).toBeCloseTo(31.659684305905195, 9);
    // recomputed TTFT reproduces the summary's pandas quantiles (same linear interpolation)
    expect(rec?.ttftMs.p90).toBeCloseTo(1099.1195880342275, 9);
    expect(rec?.e2eMs.p95).toBeCloseTo(4980.835010996088, 9);
    expect(rec?.tpotSource).toMatch(/recomputed per successful request/);
  });

  test("responses of another run are rejected, not silently mixed", () => {
    const other = JSON.stringify((JSON.parse(RESPONSES) as unknown[]).slice(0, 50));
    const f = expectFail(parseServing(SUMMARY, { individualResponses: other }));
    expect(f.errors[0]).toMatchObject({ record: "individualResponses", value: "50 successful responses" });
  });

  test("the individual responses alone cannot be imported", () => {
    expect(expectFail(parseServing(RESPONSES)).errors[0]?.reason).toMatch(/import the _summary.json/);
  });

  test("string numbers are read; non-numeric strings are errors", () => {
    const ok = SUMMARY.replace('"results_num_completed_requests": 96', '"results_num_completed_requests": "96"');
    expect(expectOk(parseServing(ok)).records[0]?.completed).toBe(96);
    const bad = SUMMARY.replace(
      '"results_ttft_s_quantiles_p95": 1.103362982510589',
      '"results_ttft_s_quantiles_p95": "fast"',
    );
    expect(expectFail(parseServing(bad)).errors).toEqual([
      { record: "", field: "results_ttft_s_quantiles_p95", value: "fast", reason: "not a number" },
    ]);
  });
});
