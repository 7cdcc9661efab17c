/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, numbers in JavaScript's
 * shortest round-trip form (so equal doubles always print alike), non-finite numbers refused,
 * `undefined` members dropped, dates as ISO-8601 UTC, bigints as decimal strings. Two values
 * that are equal as data produce the same bytes, which is what a content hash needs.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) throw new Error(`canonicalJson: non-finite number ${value}`);
      return Object.is(value, -0) ? "0" : JSON.stringify(value);
    case "bigint":
      return JSON.stringify(value.toString());
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
      if (ArrayBuffer.isView(value)) return canonicalJson(Array.from(value as unknown as ArrayLike<number>));
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
    }
    default:
      throw new Error(`canonicalJson: cannot encode ${typeof value}`);
  }
}
