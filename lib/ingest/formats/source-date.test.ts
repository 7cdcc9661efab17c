import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { chatbotArenaCsv } from "./chatbot-arena-csv";
import { parseLeaderboard } from "./index";
import { dateInFileName } from "./source-date";

const ARENA = "test/fixtures/external/chatbot-arena/leaderboard_table_20231206.csv";

describe("the date a source states for its numbers (asOf)", () => {
  it("reads YYYYMMDD or YYYY-MM-DD from a file name, and nothing that is not a date", () => {
    expect(dateInFileName("leaderboard_table_20240705.csv")).toBe("2024-07-05T00:00:00.000Z");
    expect(dateInFileName("dir/helm_2024-07-19.json")).toBe("2024-07-19T00:00:00.000Z");
    expect(dateInFileName("table_20241399.csv")).toBeUndefined();
    expect(dateInFileName("groups_safety_scenarios.json")).toBeUndefined();
    expect(dateInFileName(undefined)).toBeUndefined();
  });

  it("gives every record of a real Arena file the date of its file name; none without a name", () => {
    const text = readFileSync(ARENA, "utf8");
    const named = chatbotArenaCsv.parse(text, { fileName: "leaderboard_table_20231206.csv" });
    expect(
      named.ok && named.records.length > 0 && named.records.every((r) => r.asOf === "2023-12-06T00:00:00.000Z"),
    ).toBe(true);
    const unnamed = chatbotArenaCsv.parse(text, {});
    expect(unnamed.ok && unnamed.records.every((r) => r.asOf === undefined)).toBe(true);
  });

  it("reads a generic CSV's as_of column as the source's date", () => {
    const csv = "model,suite,metric,value,as_of\nm1,MMLU,acc,0.7,2024-05-01\n";
    const result = parseLeaderboard(csv, { format: "generic-leaderboard-csv" });
    expect(result.ok && result.records[0]!.asOf).toBe("2024-05-01T00:00:00.000Z");
  });
});
