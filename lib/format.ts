/** Display formats. An undefined figure is "—", never 0 (SPEC §4). */
export const DASH = "—";

export function formatNumber(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : value.toFixed(digits);
}

export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const pct = value * 100;
  return `${pct.toFixed(pct !== 0 && Math.abs(pct) < 1 ? 2 : digits)}%`;
}

export function formatMoney(value: number | null | undefined, currency: string, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${value.toFixed(digits)} ${currency}`;
}

export function formatInterval(interval: readonly [number, number] | null | undefined, digits = 3): string {
  return interval ? `[${interval[0].toFixed(digits)}, ${interval[1].toFixed(digits)}]` : DASH;
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : `${Math.round(value)} ms`;
}

export type DatePrecision = "day" | "minute" | "second" | "millisecond";
const ISO_LENGTH: Record<DatePrecision, number> = { day: 10, minute: 16, second: 19, millisecond: 23 };

/**
 * A moment in UTC, written the same on the server and in the browser (no locale, no time zone):
 * "2026-03-04 09:15 UTC" to the minute, to the second where order matters (signatures,
 * transitions), to the millisecond in the audit trail, or the day alone. A table whose column
 * heading already says "(UTC)" passes `labelled = false`.
 */
export function formatUtc(date: Date | string, precision: DatePrecision = "minute", labelled = true): string {
  const text = new Date(date).toISOString().slice(0, ISO_LENGTH[precision]).replace("T", " ");
  return labelled ? `${text} UTC` : text;
}
