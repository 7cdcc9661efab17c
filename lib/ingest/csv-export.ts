/**
 * CSV for people who open it in a spreadsheet: text is data, never a formula. A cell that starts
 * with = + - @ (or a tab / carriage return, which some spreadsheets skip before them) gets a
 * leading apostrophe (OWASP "CSV injection"); then the usual RFC 4180 quoting.
 */
export function spreadsheetSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function exportField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "1" : "0";
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const exportRow = (values: ReadonlyArray<string | number | boolean | null | undefined>) =>
  values.map(exportField).join(",") + "\r\n";
