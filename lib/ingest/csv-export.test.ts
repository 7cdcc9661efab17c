import { describe, expect, it } from "vitest";
import { exportRow, spreadsheetSafe } from "./csv-export";

describe("spreadsheet-safe CSV export", () => {
  it("neutralises leading = + - @ tab and CR; quotes commas, quotes and newlines", () => {
    expect(spreadsheetSafe("=CMD(1)")).toBe("'=CMD(1)");
    expect(spreadsheetSafe("+1")).toBe("'+1");
    expect(spreadsheetSafe("-2")).toBe("'-2");
    expect(spreadsheetSafe("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(spreadsheetSafe("\t=x")).toBe("'\t=x");
    expect(spreadsheetSafe("a=b")).toBe("a=b");
    expect(exportRow(['=HYPERLINK("x")', true, 0.5, null, "a,b\nc"])).toBe(`"'=HYPERLINK(""x"")",1,0.5,,"a,b\nc"\r\n`);
  });
});
