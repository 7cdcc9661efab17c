/**
 * Strict number reading. Tools write numbers as JSON numbers, as strings ("165.48", "N/A"),
 * with thousands separators ("1,019.69" in GenAI-Perf CSV) or with a percent sign ("69.38%").
 * Anything that is not a finite number is an error, never a silent zero: JSON.parse turns
 * 1e999 into Infinity, so finiteness is checked after parsing too.
 */

export type NumberResult = { ok: true; value: number } | { ok: false; reason: string };

/** Plain decimal or scientific notation, no hex, no empty string, no "Infinity"/"NaN". */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/**
 * A decimal comma, as spreadsheets write numbers where it is the decimal mark ("0,87", "1.234,5"):
 * refused, never guessed, with the number written as it must be.
 */
const DECIMAL_COMMA = /^[+-]?(\d{1,3}(\.\d{3})+|\d*),\d+$/;
/** Grouped thousands as Python's f"{v:,.2f}" writes them. */
const GROUPED = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?([eE][+-]?\d+)?$/;

export type NumberTextOptions = { thousands?: boolean; percent?: boolean };

/**
 * The one rule for a number written as text, shared by the public formats (below) and the
 * buyer's evidence rows (lib/ingest/buyer-rows.ts readNumber): trimmed, plain decimal or
 * scientific notation, finite; a decimal comma is refused with the number as it must be written.
 * Returns the number or the reason it is not one.
 */
export function decimalNumber(text: string): number | string {
  const t = text.trim();
  if (!DECIMAL.test(t)) {
    if (/^[+-]?(inf(inity)?|nan)$/i.test(t)) return "not a finite number";
    if (DECIMAL_COMMA.test(t)) return `decimal comma: write ${t.replaceAll(".", "").replace(",", ".")}`;
    return t === "" ? "empty value" : "not a number";
  }
  const value = Number(t);
  return Number.isFinite(value) ? value : "not a finite number (overflow)";
}

export function readNumberText(text: string, options: NumberTextOptions = {}): NumberResult {
  let t = text.trim();
  let scale = 1;
  if (options.percent && t.endsWith("%")) {
    t = t.slice(0, -1).trim();
    scale = 0.01;
  }
  if (options.thousands && GROUPED.test(t)) t = t.replaceAll(",", "");
  const read = decimalNumber(t);
  if (typeof read === "string") return { ok: false, reason: read };
  const value = read * scale;
  if (!Number.isFinite(value)) return { ok: false, reason: "not a finite number (overflow)" };
  return { ok: true, value };
}

/** A JSON value that must be a number; numeric strings are accepted only when `allowString`. */
export function readNumberValue(value: unknown, allowString = false): NumberResult {
  if (typeof value === "number") {
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: "not a finite number (overflow)" };
  }
  if (typeof value === "string" && allowString) return readNumberText(value);
  if (value === null || value === undefined) return { ok: false, reason: "missing" };
  return { ok: false, reason: `expected a number, got ${typeof value}` };
}
