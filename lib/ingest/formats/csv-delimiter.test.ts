import { describe, expect, it } from "vitest";
import { csvHeaderCells, delimiterNote, detectCsvDelimiter } from "./csv-delimiter";
import { decimalNumber, readNumberText } from "./numbers";
import { parseLeaderboard, parseServing } from "./index";

describe("the CSV separator rule", () => {
  it.each([
    ["comma", "id,label,text\na,1,x\nb,0,y\n", ","],
    ["semicolon (Excel where the decimal mark is a comma)", "id;label;text;slice\na;1;hello;en\nb;0;hi;fr\n", ";"],
    ["tab", "id\tlabel\tscore\na\t1\t0.5\n", "\t"],
    ["a BOM and CRLF", "\uFEFFid;label\r\na;1\r\n", ";"],
    ["a header only", "model;suite;metric;value\n", ";"],
  ])("detects %s", (_what, text, delimiter) => {
    expect(detectCsvDelimiter(text)).toBe(delimiter);
  });

  it("respects quotes: separators and line breaks inside quoted fields split nothing", () => {
    // Semicolons inside the comma file's text, commas inside the semicolon file's text.
    expect(detectCsvDelimiter('id,label,text\na,1,"x; y; z"\nb,0,"p;\nq;r"\n')).toBe(",");
    expect(detectCsvDelimiter('id;label;text\na;1;"x, y, z"\nb;0;"1,2,3,4"\n')).toBe(";");
    // A quoted header cell holding the other separator counts as one cell.
    expect(detectCsvDelimiter('"a;b",c\n1,2\n')).toBe(",");
  });

  it("takes the separator the first rows agree with over one that splits the header more", () => {
    // Commas split the header into 3, but no row into 3; semicolons give 2 everywhere.
    expect(detectCsvDelimiter("id;note,with,commas\na;x\nb;y\n")).toBe(";");
  });

  it("falls back to the header's widest split when no separator fits every row (the reader reports the rows)", () => {
    expect(detectCsvDelimiter("id,label,score\na,1\nb,0,0.5,extra\n")).toBe(",");
  });

  it("reads a one-column file as comma-separated, and ignores a record cut short by the sample's end", () => {
    expect(detectCsvDelimiter("id\na\nb\n")).toBe(",");
    expect(detectCsvDelimiter("")).toBe(",");
    // Whole rows agree on ";"; the last, cut-off one would not, and is not counted.
    expect(detectCsvDelimiter("a;b\n1;2\n3", false)).toBe(";");
  });

  it("names the separator in the report only when it is not the comma", () => {
    expect(delimiterNote(";")).toBe("Read as semicolon-separated.");
    expect(delimiterNote("\t")).toBe("Read as tab-separated.");
    expect(delimiterNote(",")).toBeNull();
    expect(delimiterNote(undefined)).toBeNull();
  });

  it("gives the format detectors the header's cells under the same rule", () => {
    expect(csvHeaderCells('\uFEFF"model"; suite ;metric;value\nm;s;x;1\n')).toEqual([
      "model",
      "suite",
      "metric",
      "value",
    ]);
  });
});

describe("a decimal comma", () => {
  it("is refused by the one number rule, with the number as it must be written", () => {
    expect(decimalNumber("0,87")).toBe("decimal comma: write 0.87");
    expect(decimalNumber("-1.234,5")).toBe("decimal comma: write -1234.5");
    expect(decimalNumber("0.87")).toBe(0.87);
    expect(decimalNumber("abc")).toBe("not a number");
    // GenAI-Perf's thousands separators stay readable where the format allows them.
    expect(readNumberText("1,019.69", { thousands: true })).toEqual({ ok: true, value: 1019.69 });
  });
});

describe("public CSV formats", () => {
  it("read a semicolon leaderboard, saying so, and refuse its decimal commas", () => {
    const ok = parseLeaderboard("model;suite;metric;value\nm1;mmlu;acc;0.71\nm2;mmlu;acc;45%\n");
    expect(ok).toMatchObject({ ok: true, format: "generic-leaderboard-csv" });
    if (!ok.ok) return;
    expect(ok.records.map((r) => r.value)).toEqual([0.71, 0.45]);
    expect(ok.warnings).toContain("Read as semicolon-separated.");
    const bad = parseLeaderboard("model;suite;metric;value\nm1;mmlu;acc;0,71\n");
    expect(bad).toMatchObject({
      ok: false,
      errors: [{ line: 2, field: "value", value: "0,71", reason: "decimal comma: write 0.71" }],
    });
  });

  it("read a tab-separated generic serving CSV", () => {
    const result = parseServing("model\trequest_throughput\tttft_mean_ms\tttft_p99_ms\nm1\t2.5\t120\t300\n");
    expect(result).toMatchObject({ ok: true, format: "generic-serving-csv", warnings: ["Read as tab-separated."] });
    if (result.ok) expect(result.records[0]).toMatchObject({ model: "m1", requestThroughput: 2.5 });
  });

  it("read a comma file without a note", () => {
    const result = parseLeaderboard("model,suite,metric,value\nm1,mmlu,acc,0.71\n");
    expect(result).toMatchObject({ ok: true, warnings: [] });
  });
});
