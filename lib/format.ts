/**
 * Display formats: the one rule for how a number is shown, on the page, in the PDF and in the
 * exports' text. An undefined figure is "—", never 0 (SPEC §4). A non-zero figure never reads as
 * zero: where its fixed decimals would round it away it keeps its first significant digit
 * (0.03 req/s at one decimal is "0.03 req/s", not "0.0 req/s" — a failed gate that reads as zero).
 */
export const DASH = "—";

const isShown = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

/** `digits` decimals, or as many more as reach the value's first significant digit. */
function decimalsFor(value: number, digits: number): number {
  if (value === 0 || Math.abs(value) >= 10 ** -digits) return digits;
  return Math.min(20, Math.max(digits, -Math.floor(Math.log10(Math.abs(value)))));
}

/** Fixed notation without an exponent, trailing zeros (and a bare point) trimmed. */
function trimmed(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

export function formatNumber(value: number | null | undefined, digits = 3): string {
  return isShown(value) ? value.toFixed(decimalsFor(value, digits)) : DASH;
}

export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (!isShown(value)) return DASH;
  const pct = value * 100;
  return `${formatNumber(pct, pct !== 0 && Math.abs(pct) < 1 ? 2 : digits)}%`;
}

export function formatMoney(value: number | null | undefined, currency: string, digits = 2): string {
  return isShown(value) ? `${formatNumber(value, digits)} ${currency}` : DASH;
}

export function formatInterval(interval: readonly [number, number] | null | undefined, digits = 3): string {
  return interval ? `[${formatNumber(interval[0], digits)}, ${formatNumber(interval[1], digits)}]` : DASH;
}

export function formatMs(value: number | null | undefined): string {
  return isShown(value) ? `${formatNumber(value, 0)} ms` : DASH;
}

/** Request throughput: one decimal, never rounded to zero. */
export function formatThroughput(value: number | null | undefined): string {
  return isShown(value) ? `${formatNumber(value, 1)} req/s` : DASH;
}

const THRESHOLD_SIGNIFICANT = 4;

/**
 * A decision threshold, the same wherever it is printed (stage tables, chart labels, what-if,
 * signatures, drill-down): four significant digits, trailing zeros trimmed, so a harness run's
 * 0.05903958599083124 and an engine's 0.417245 print alike ("0.05904", "0.4172") and a typed
 * 0.5 stays "0.5".
 */
export function formatThreshold(value: number | null | undefined): string {
  if (!isShown(value)) return DASH;
  if (value === 0) return "0";
  const decimals = THRESHOLD_SIGNIFICANT - 1 - Math.floor(Math.log10(Math.abs(value)));
  return trimmed(value.toFixed(Math.min(20, Math.max(0, decimals))));
}

export function formatThresholdInterval(interval: readonly [number, number] | null | undefined): string {
  return interval ? `[${formatThreshold(interval[0])}, ${formatThreshold(interval[1])}]` : DASH;
}

/**
 * Decimals a figure's uncertainty supports: the decimal place of its spread's first significant
 * digit (an interval's half-width or a standard error), so a score ± 0.0028 shows three decimals
 * and an Elo ± 6 or ± 13 none — the rows of one suite's table alike. Without a spread, three
 * decimals below 100 and none above (a rating, a count).
 */
export function decimalsForSpread(value: number, spread: number | null | undefined): number {
  if (isShown(spread) && spread > 0) return Math.min(6, Math.max(0, -Math.floor(Math.log10(spread))));
  return Math.abs(value) >= 100 ? 0 : 3;
}

/** A leaderboard or preference score, with the digits its interval or standard error supports. */
export function formatScore(score: {
  value: number;
  ciLow: number | null;
  ciHigh: number | null;
  stderr: number | null;
}) {
  const spread = score.ciLow !== null && score.ciHigh !== null ? (score.ciHigh - score.ciLow) / 2 : score.stderr;
  const digits = decimalsForSpread(score.value, spread);
  return {
    value: formatNumber(score.value, digits),
    uncertainty:
      score.ciLow !== null && score.ciHigh !== null
        ? formatInterval([score.ciLow, score.ciHigh], digits)
        : score.stderr !== null
          ? `± ${formatNumber(score.stderr, digits)}`
          : DASH,
  };
}

/**
 * A chart's tick or tooltip value: `digits` decimals with trailing zeros trimmed, thousands
 * grouped. A tick is a position on an axis, not a figure: one that is zero up to floating-point
 * noise (1e-17) is "0".
 */
export function formatTick(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return DASH;
  if (Math.abs(value) >= 1000) return value.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return String(Number(value.toFixed(Math.abs(value) >= 100 ? 0 : digits)));
}

/** How the pack's derived text (gate details, funnel reasons, ranking labels) writes its numbers. */
export interface FigureText {
  number: (value: number | null | undefined, digits?: number) => string;
  money: (value: number | null | undefined, currency: string, digits?: number) => string;
  percent: (value: number | null | undefined, digits?: number) => string;
  ms: (value: number | null | undefined) => string;
}

/** The rule above: what the page, the PDF, the API and the exports state. */
export const SHOWN_TEXT: FigureText = {
  number: formatNumber,
  money: formatMoney,
  percent: formatPercent,
  ms: formatMs,
};

const fixed = (value: number | null | undefined, digits = 3) => (isShown(value) ? value.toFixed(digits) : DASH);

/**
 * The plain fixed decimals pack revisions were frozen with (verdict.pack/1–2), for the text a
 * revision freezes and nothing else: a revision rebuilt from unchanged evidence must keep its
 * bytes and hash (review compares it with the live rebuild), so its gate details keep writing
 * 0.03 req/s as "0.0 req/s" while every page and export shows "0.03 req/s".
 */
export const FROZEN_TEXT: FigureText = {
  number: fixed,
  money: (value, currency, digits = 2) => (isShown(value) ? `${value.toFixed(digits)} ${currency}` : DASH),
  percent: (value, digits = 1) => {
    if (!isShown(value)) return DASH;
    const pct = value * 100;
    return `${pct.toFixed(pct !== 0 && Math.abs(pct) < 1 ? 2 : digits)}%`;
  },
  ms: (value) => (isShown(value) ? `${Math.round(value)} ms` : DASH),
};

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

/**
 * A leaderboard row's age: the date its source states ("as of"), to the month, and how many whole
 * months it is before the decision (`reference`: when the decision was opened) — "as of 2024-07,
 * 29 months before this decision" — or "source date not stated" when the source gives none (the
 * import date is never shown in its place). Page, PDF and JSON export all write it here.
 */
export function formatAsOf(
  asOf: Date | string | null | undefined,
  reference: Date | string | null | undefined,
): string {
  if (asOf === null || asOf === undefined) return "source date not stated";
  const a = new Date(asOf);
  // A pack read before decisions carried their opening date: the source's month alone.
  if (reference === null || reference === undefined) return `as of ${a.toISOString().slice(0, 7)}`;
  const r = new Date(reference);
  const months = (r.getUTCFullYear() - a.getUTCFullYear()) * 12 + (r.getUTCMonth() - a.getUTCMonth());
  const month = a.toISOString().slice(0, 7);
  if (months === 0) return `as of ${month}, the month of this decision`;
  const n = Math.abs(months);
  return `as of ${month}, ${n} month${n === 1 ? "" : "s"} ${months > 0 ? "before" : "after"} this decision`;
}
