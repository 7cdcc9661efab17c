import { describe, expect, test } from "vitest";
import { MAX_REPORTED_ERRORS } from "./issues";
import { detectLeaderboardFormat, parseLeaderboard } from "./index";
import { expectFail, expectOk } from "./fixtures.test-helpers";

const HEADER = "model,suite,metric,value,stderr,ci_low,ci_high,votes,source,retrieved_at";

describe("generic leaderboard CSV", () => {
  test("is recognised from its header", () => {
    expect(detectLeaderboardFormat(`${HEADER}\nm,s,acc,0.5,,,,,,\n`)?.format).toBe("generic-leaderboard-csv");
  });

  test("BOM, CRLF, quoted commas, quotes and newlines are data; lines are physical", () => {
    const csv = `\uFEFF${HEADER}\r\n"Llama 3, 70B",mmlu,acc,0.79,0.004,,,,"lm-eval ""0.4""",2024-05-01\r\n"multi\r\nline model",arena,elo,1200,,1190,1210,5000,,\r\n\r\nx,gsm8k,acc,45%,,,,,,\r\n`;
    const r = expectOk(parseLeaderboard(csv));
    expect(r.records[0]).toEqual({
      model: "Llama 3, 70B",
      suite: "mmlu",
      metric: "acc",
      value: 0.79,
      stderr: 0.004,
      higherIsBetter: true,
      stage: "LEADERBOARD",
      source: 'lm-eval "0.4"',
      asOf: "2024-05-01T00:00:00.000Z",
    });
    expect(r.records[1]).toMatchObject({
      model: "multi\r\nline model",
      value: 1200,
      ciLow: 1190,
      ciHigh: 1210,
      votes: 5000,
      stage: "PREFERENCE",
    });
    expect(r.records[2]?.value).toBe(0.45);
    // an error after the multi-line record is reported on its physical line (6)
    const bad = csv.replace("x,gsm8k,acc,45%", "x,gsm8k,acc,abc");
    expect(expectFail(parseLeaderboard(bad)).errors).toEqual([
      { line: 6, field: "value", value: "abc", reason: "not a number" },
    ]);
  });

  test("wrong headers name the missing columns", () => {
    const f = expectFail(parseLeaderboard("model,benchmark,score\nm,b,1\n", { format: "generic-leaderboard-csv" }));
    expect(f.errors[0]).toMatchObject({ line: 1, field: "suite, metric, value" });
    expect(f.errors[0]?.reason).toMatch(/missing required column/);
  });

  test("NaN, ±Infinity, overflow, empty and unknown direction are row errors", () => {
    const csv = [
      "model,suite,metric,value,higher_is_better",
      "a,s,acc,NaN,",
      "b,s,acc,-Infinity,",
      "c,s,acc,1e999,",
      "d,s,acc,,",
      "e,s,loss,0.3,maybe",
      "f,s,loss,0.3,",
    ].join("\n");
    const f = expectFail(parseLeaderboard(csv));
    expect(f.errorCount).toBe(5);
    expect(f.errors.map((e) => [e.line, e.field, e.reason])).toEqual([
      [2, "value", "not a finite number"],
      [3, "value", "not a finite number"],
      [4, "value", "not a finite number (overflow)"],
      [5, "value", "missing required number"],
      [6, "higher_is_better", "expected true or false"],
    ]);
    // the good row alone: loss defaults to lower-is-better
    expect(expectOk(parseLeaderboard(`model,suite,metric,value\nf,s,loss,0.3\n`)).records[0]?.higherIsBetter).toBe(
      false,
    );
  });

  test("rows with a stray comma or an inverted CI are rejected", () => {
    const f = expectFail(parseLeaderboard(`${HEADER}\nm,s,acc,0.5,,,,,,,extra\nm,s,acc,0.5,,0.6,0.4,,,\n`));
    expect(f.errors[0]).toMatchObject({
      line: 2,
      field: "(row)",
      reason: "expected 10 fields as in the header, found 11",
    });
    expect(f.errors[1]).toMatchObject({ line: 3, field: "ciLow", reason: "ciLow must not exceed ciHigh" });
  });

  test("keeps the first 100 errors and counts them all", () => {
    const rows = Array.from({ length: 250 }, (_, i) => `m${i},s,acc,bad`);
    const f = expectFail(parseLeaderboard(["model,suite,metric,value", ...rows].join("\n")));
    expect(f.errorCount).toBe(250);
    expect(f.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(f.errors[99]?.line).toBe(101);
  });

  test("empty file, header only, unterminated quote", () => {
    expect(expectFail(parseLeaderboard("")).errors[0]?.reason).toBe("empty file");
    expect(expectFail(parseLeaderboard("\uFEFF\r\n")).errors[0]?.reason).toBe("empty file");
    expect(expectFail(parseLeaderboard("model,suite,metric,value\r\n")).errors[0]?.reason).toBe(
      "no data rows after the header",
    );
    const f = expectFail(
      parseLeaderboard('model,suite,metric,value\n"m,s,acc,0.5\n', { format: "generic-leaderboard-csv" }),
    );
    expect(f.errors[0]?.reason).toMatch(/malformed CSV: Quote Not Closed/);
  });

  test("unknown files and unknown formats list what is supported", () => {
    const f = expectFail(parseLeaderboard("just some text\n"));
    expect(f.errors[0]?.reason).toMatch(/unrecognised leaderboard file; supported formats: .*chatbot-arena-csv/);
    expect(expectFail(parseLeaderboard("x", { format: "nope" })).errors[0]?.reason).toMatch(
      /unknown leaderboard format/,
    );
    expect(expectFail(parseLeaderboard("model,suite,metric,value\nm,s,a,\uFFFD\n")).errors[0]).toMatchObject({
      line: 2,
      reason: "not valid UTF-8 (replacement character found)",
    });
  });
});
