import { describe, expect, test } from "vitest";
import { detectServingFormat, parseServing } from "./index";
import { expectFail, expectOk, fixture } from "./fixtures.test-helpers";

const JSON_EXPORT = fixture("genai-perf", "profile_export_genai_perf.json");
const CSV_EXPORT = fixture("genai-perf", "profile_export_genai_perf.csv");

describe("GenAI-Perf export JSON", () => {
  test("is recognised from its content", () => {
    expect(detectServingFormat(JSON_EXPORT)?.format).toBe("genai-perf-json");
  });

  test("ms statistics; inter_token_latency is Verdict's TPOT; no request count in 2024 builds", () => {
    const r = expectOk(parseServing(JSON_EXPORT));
    expect(r.records).toEqual([
      {
        model: "meta/llama3-8b-instruct", // input_config.model[0]
        tool: "GenAI-Perf",
        concurrency: 100,
        meanInputTokens: 200.03,
        meanOutputTokens: 58.38181818181818,
        requestThroughput: 30.935429942267838,
        outputTokenThroughput: 1806.0666462658548,
        ttftMs: {
          mean: 1019.6901196972727,
          p50: 1222.6414144999999,
          p90: 1419.9281885999999,
          p95: 1424.54508275,
          p99: 1564.26834917,
        },
        tpotMs: {
          mean: 38.61366689454545,
          p50: 36.992419,
          p90: 47.213865799999994,
          p95: 48.817544299999994,
          p99: 50.89024096999999,
        },
        e2eMs: {
          mean: 3228.72631934,
          p50: 3280.8441209999996,
          p90: 3296.4963820999997,
          p95: 3297.1413713499996,
          p99: 3304.80054971,
        },
        tpotSource: expect.stringMatching(/inter_token_latency = decode time per output token, first token excluded/),
      },
    ]);
    expect(r.records[0]?.completed).toBeUndefined();
    expect(r.warnings.join(" ")).toMatch(/no request count/);
  });

  test("latencies in another unit are converted; unknown units are errors", () => {
    const doc = JSON.parse(JSON_EXPORT) as Record<string, { unit?: string; avg?: number }>;
    doc.time_to_first_token = { unit: "ns", avg: 2_000_000 };
    expect(expectOk(parseServing(JSON.stringify(doc))).records[0]?.ttftMs).toEqual({ mean: 2 });
    doc.time_to_first_token = { unit: "furlongs", avg: 2 };
    expect(expectFail(parseServing(JSON.stringify(doc))).errors[0]).toMatchObject({
      record: "time_to_first_token",
      field: "unit",
      value: "furlongs",
    });
  });
});

describe("GenAI-Perf export CSV", () => {
  test("is recognised from its content", () => {
    expect(detectServingFormat(CSV_EXPORT)?.format).toBe("genai-perf-csv");
  });

  test("quoted thousands separators, CRLF and the second table are read", () => {
    const r = expectOk(parseServing(CSV_EXPORT, { model: "meta/llama3-8b-instruct" }));
    const rec = r.records[0];
    // Time To First Token (ms),"1,019.69",118.95,"1,564.96","1,564.27","1,424.55","1,419.93","1,303.30","1,222.64",647.85
    expect(rec?.ttftMs).toEqual({ mean: 1019.69, p50: 1222.64, p90: 1419.93, p95: 1424.55, p99: 1564.27 });
    expect(rec?.tpotMs).toEqual({ mean: 38.61, p50: 36.99, p90: 47.21, p95: 48.82, p99: 50.89 });
    expect(rec?.e2eMs).toEqual({ mean: 3228.73, p50: 3280.84, p90: 3296.5, p95: 3297.14, p99: 3304.8 });
    expect(rec).toMatchObject({
      requestThroughput: 30.94,
      outputTokenThroughput: 1806.07,
      meanInputTokens: 200.03,
      meanOutputTokens: 58.38,
    });
  });

  test("the model must be given; a non-numeric cell is an error on its line", () => {
    expect(expectFail(parseServing(CSV_EXPORT)).errors[0]).toMatchObject({ field: "model" });
    const bad = CSV_EXPORT.replace("38.61,26.09", "38.x1,26.09");
    expect(expectFail(parseServing(bad, { model: "m" })).errors).toEqual([
      { line: 3, field: "avg", value: "38.x1", reason: "not a number" },
    ]);
  });
});
