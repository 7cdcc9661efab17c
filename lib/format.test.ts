import { describe, expect, it } from "vitest";
import {
  decimalsForSpread,
  formatInterval,
  formatMoney,
  formatMs,
  formatNumber,
  formatPercent,
  formatScore,
  formatThreshold,
  formatThresholdInterval,
  formatThroughput,
  formatTick,
  formatUtc,
  formatAsOf,
} from "./format";

describe("formatUtc", () => {
  const moment = new Date("2026-03-04T09:15:42.123Z");
  it("writes a moment in UTC at the precision asked, labelled unless the heading says UTC", () => {
    expect(formatUtc(moment)).toBe("2026-03-04 09:15 UTC");
    expect(formatUtc(moment, "second")).toBe("2026-03-04 09:15:42 UTC");
    expect(formatUtc(moment, "millisecond", false)).toBe("2026-03-04 09:15:42.123");
    expect(formatUtc(moment, "day", false)).toBe("2026-03-04");
  });
  it("accepts an ISO string (a value serialised for a client component)", () => {
    expect(formatUtc("2026-03-04T23:59:59.999Z", "minute")).toBe("2026-03-04 23:59 UTC");
  });
});

describe("one number format rule", () => {
  it("never rounds a non-zero figure to zero: it keeps the first significant digit", () => {
    expect(formatThroughput(0.03)).toBe("0.03 req/s");
    expect(formatThroughput(12.34)).toBe("12.3 req/s");
    expect(formatNumber(0.0004)).toBe("0.0004");
    expect(formatNumber(-0.03, 1)).toBe("-0.03");
    expect(formatNumber(0.8125)).toBe("0.813");
    expect(formatNumber(0)).toBe("0.000");
    expect(formatMoney(0.0004, "USD", 3)).toBe("0.0004 USD");
    expect(formatMs(0.4)).toBe("0.4 ms");
    expect(formatMs(412.6)).toBe("413 ms");
    expect(formatPercent(0.00001)).toBe("0.001%");
    expect(formatPercent(0.02)).toBe("2.0%");
    expect(formatInterval([0.0002, 0.031])).toBe("[0.0002, 0.031]");
  });

  it("prints a threshold the same everywhere: four significant digits, trailing zeros trimmed", () => {
    expect(formatThreshold(0.05903958599083124)).toBe("0.05904");
    expect(formatThreshold(0.417245)).toBe("0.4172");
    expect(formatThreshold(0.5)).toBe("0.5");
    expect(formatThreshold(0.505)).toBe("0.505");
    expect(formatThreshold(0)).toBe("0");
    expect(formatThreshold(12.34567)).toBe("12.35");
    expect(formatThreshold(0.0000123456)).toBe("0.00001235");
    expect(formatThreshold(null)).toBe("—");
    expect(formatThresholdInterval([0.40123, 0.5])).toBe("[0.4012, 0.5]");
  });

  it("shows a score with the digits its uncertainty supports", () => {
    expect(decimalsForSpread(0.862, 0.0028)).toBe(3);
    expect(decimalsForSpread(0.81, 0.012)).toBe(2);
    expect(decimalsForSpread(1287, 6)).toBe(0);
    expect(decimalsForSpread(1138, 13)).toBe(0);
    expect(decimalsForSpread(1250, null)).toBe(0);
    expect(decimalsForSpread(0.7, null)).toBe(3);
    expect(formatScore({ value: 1251.4, ciLow: 1240.2, ciHigh: 1262.9, stderr: null })).toEqual({
      value: "1251",
      uncertainty: "[1240, 1263]",
    });
    expect(formatScore({ value: 0.71234, ciLow: null, ciHigh: null, stderr: 0.0042 })).toEqual({
      value: "0.712",
      uncertainty: "± 0.004",
    });
    expect(formatScore({ value: 0.7, ciLow: null, ciHigh: null, stderr: null })).toEqual({
      value: "0.700",
      uncertainty: "—",
    });
  });

  it("writes chart ticks trimmed, with floating-point noise at zero as 0", () => {
    expect(formatTick(0.25, 2)).toBe("0.25");
    expect(formatTick(0.5, 2)).toBe("0.5");
    expect(formatTick(1e-17, 2)).toBe("0");
    expect(formatTick(150.4, 2)).toBe("150");
    expect(formatTick(12500, 2)).toBe("12,500");
  });
});

describe("formatAsOf", () => {
  it("states the source's month and its age before the decision, never the import date", () => {
    expect(formatAsOf("2024-07-19T00:00:00Z", "2026-12-03T10:00:00Z")).toBe(
      "as of 2024-07, 29 months before this decision",
    );
    expect(formatAsOf(new Date("2026-11-30T00:00:00Z"), "2026-12-03T00:00:00Z")).toBe(
      "as of 2026-11, 1 month before this decision",
    );
    expect(formatAsOf("2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z")).toBe(
      "as of 2026-12, the month of this decision",
    );
    expect(formatAsOf(null, "2026-12-03T00:00:00Z")).toBe("source date not stated");
  });
});
