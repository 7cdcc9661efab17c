import { describe, expect, test } from "vitest";
import { detectServingFormat, parseServing } from "./index";
import { expectFail, expectOk } from "./fixtures.test-helpers";

const HEADER =
  "model,tool,concurrency,completed,failed,request_throughput,ttft_mean_ms,ttft_p99_ms,tpot_mean_ms,tpot_p99_ms,e2e_p50_ms";

describe("generic serving CSV", () => {
  test("is recognised from its header", () => {
    expect(detectServingFormat(`${HEADER}\n`)?.format).toBe("generic-serving-csv");
  });

  test("reads ms columns as given, with BOM, CRLF and quoted fields", () => {
    const csv = `\uFEFF${HEADER}\r\n"org/model, v2",my-bench,8,100,2,3.5,120.5,300,12.25,20,900\r\n`;
    const rec = expectOk(parseServing(csv)).records[0];
    expect(rec).toEqual({
      model: "org/model, v2",
      tool: "my-bench",
      concurrency: 8,
      completed: 100,
      failed: 2,
      requestThroughput: 3.5,
      ttftMs: { mean: 120.5, p99: 300 },
      tpotMs: { mean: 12.25, p99: 20 },
      e2eMs: { p50: 900 },
      tpotSource: expect.stringMatching(/first token excluded/),
    });
  });

  test("wrong header, non-finite and negative latencies are errors with lines", () => {
    expect(
      expectFail(parseServing("model,ttft_mean_ms\nm,1\n", { format: "generic-serving-csv" })).errors[0],
    ).toMatchObject({ line: 1, field: "request_throughput" });
    const csv = [HEADER, "a,t,1,1,0,1,Infinity,1,1,1,1", "b,t,1,1,0,1,-5,1,1,1,1", "c,t,1,1,0,,1,1,1,1,1"].join("\n");
    const f = expectFail(parseServing(csv));
    expect(f.errors.map((e) => [e.line, e.field, e.reason])).toEqual([
      [2, "ttft_mean_ms", "not a finite number"],
      [3, "ttftMs.mean", "must not be negative"],
      [4, "request_throughput", "missing required number"],
    ]);
  });

  test("an unrecognised serving file lists the supported formats", () => {
    expect(expectFail(parseServing('{"hello": 1}')).errors[0]?.reason).toMatch(
      /unrecognised serving benchmark file; supported formats: vllm-bench-serve .*guidellm.*llmperf.*genai-perf-json.*genai-perf-csv.*generic-serving-csv/,
    );
  });
});
