import { describe, expect, test } from "vitest";
import { detectServingFormat, parseServing } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const V05 = fixture("guidellm", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json");
const V02 = fixture("guidellm", "benchmarks_stripped_v0.2-era.json");

describe("GuideLLM report JSON", () => {
  test("both eras are recognised from their content", () => {
    expect(detectServingFormat(V05)?.format).toBe("guidellm");
    expect(detectServingFormat(V02)?.format).toBe("guidellm");
  });

  test("v0.5: the 25 measured requests (of 30 listed) are recomputed; ITL is TPOT, request_latency s → ms", () => {
    const r = expectOk(parseServing(V05));
    expect(r.producerVersion).toBe("0.5.0.dev0");
    expect(r.records).toHaveLength(1);
    const rec = r.records[0];
    expect(rec).toMatchObject({
      model: "openai/gpt-oss-20b",
      tool: "GuideLLM",
      toolVersion: "0.5.0.dev0",
      concurrency: 1, // synchronous
      completed: 25, // metrics.request_totals.successful (30 listed incl. warm-up/cool-down)
      failed: 0,
      durationS: 720,
      meanInputTokens: 92.72,
      meanOutputTokens: 1024,
      requestThroughput: 0.03333333333333333,
      outputTokenThroughput: 33.417378943280085,
      totalTokenThroughput: 36.44321817728489,
    });
    // numpy over the 25 requests overlapping [start_time, end_time]:
    // time_to_first_token_ms mean 48.843650817871094 (= the report's mean), p50 47.66058921813965,
    // p90 51.976728439331055, p95 56.71181678771971, p99 60.06464004516601
    expect(rec?.ttftMs.mean).toBeCloseTo(48.843650817871094, 9);
    expect(rec?.ttftMs.p50).toBeCloseTo(47.66058921813965, 9);
    expect(rec?.ttftMs.p90).toBeCloseTo(51.976728439331055, 9);
    expect(rec?.ttftMs.p95).toBeCloseTo(56.71181678771971, 9);
    expect(rec?.ttftMs.p99).toBeCloseTo(60.06464004516601, 9);
    // inter_token_latency_ms per request (not time_per_output_token_ms, mean 29.92, which includes the first token)
    expect(rec?.tpotMs.mean).toBeCloseTo(29.90631087667665, 9);
    expect(rec?.tpotMs.p95).toBeCloseTo(30.103709247920985, 9);
    expect(rec?.tpotMs.p99).toBeCloseTo(30.12548524962842, 9);
    // request_latency in seconds → ms: mean 30.64414818763733 s
    expect(rec?.e2eMs.mean).toBeCloseTo(30644.14818763733, 6);
    expect(rec?.e2eMs.p99).toBeCloseTo(30875.727891921997, 6);
    expect(rec?.tpotSource).toMatch(/inter_token_latency_ms.*recomputed over the 25 measured requests/);
  });

  test("v0.2 era: stripped request list → the report's summaries (median as p50, seconds → ms)", () => {
    const r = expectOk(parseServing(V02));
    expect(r.producerVersion).toBeUndefined();
    const rec = r.records[0];
    expect(rec).toMatchObject({
      model: "example_model", // worker.backend_model
      concurrency: 1,
      completed: 46,
      failed: 0,
      durationS: 29.997201442718506,
      requestThroughput: 1.5481806532737452,
      meanInputTokens: 257.1086956521739,
    });
    expect(rec?.ttftMs).toEqual({
      mean: 16.792535781860348,
      p50: 16.38054847717285,
      p90: 18.505334854125977,
      p95: 19.00935173034668,
      p99: 21.281957626342773,
    });
    // ITL = (latency − TTFT)/(out − 1) = 4.94 ms; GuideLLM's TPOT 4.90 (÷ all tokens) is not used
    expect(rec?.tpotMs).toEqual({
      mean: 4.941609043733832,
      p50: 4.9241227427805505,
      p90: 4.973544849185493,
      p95: 5.032650129062923,
      p99: 5.258346167136365,
    });
    expect(rec?.e2eMs.mean).toBeCloseTo(644.4743664368339, 9);
    expect(rec?.e2eMs.p99).toBeCloseTo(689.1846656799316, 9);
    expect(rec?.tpotSource).toMatch(/not recomputed/);
    expect(r.warnings.join(" ")).toMatch(/1 requests were cut off/);
  });

  test("a sweep gives one record per benchmark", () => {
    const doc = JSON.parse(V02) as { benchmarks: Record<string, unknown>[] };
    const second = JSON.parse(JSON.stringify(doc.benchmarks[0])) as { args: { strategy: unknown } };
    second.args.strategy = { type_: "constant", rate: 1.5 };
    doc.benchmarks.push(second);
    const r = expectOk(parseServing(JSON.stringify(doc)));
    expect(r.records.map((x) => [x.concurrency, x.requestRate])).toEqual([
      [1, undefined],
      [undefined, 1.5],
    ]);
  });

  test("missing totals and a non-finite percentile are errors at their path", () => {
    const doc = JSON.parse(V02) as { benchmarks: Record<string, unknown>[] };
    delete doc.benchmarks[0]?.request_totals;
    const text = JSON.stringify(doc)
      .replace('"p90": 18.505334854125977', '"p90": 1e999')
      .replace('"p90":18.505334854125977', '"p90":1e999');
    const f = expectFail(parseServing(text));
    expect(f.errors).toEqual([
      { record: "benchmarks[0]", field: "request_totals", reason: "missing required object" },
      {
        record: "benchmarks[0].metrics.time_to_first_token_ms.successful.percentiles",
        field: "p90",
        value: "Infinity",
        reason: "not a finite number (overflow)",
      },
    ]);
  });
});
