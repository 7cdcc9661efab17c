import { describe, expect, it } from "vitest";
import { formatUtc } from "./format";

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
