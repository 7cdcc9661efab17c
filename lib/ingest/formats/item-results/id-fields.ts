import { isObject } from "../json";

/**
 * Adds every scalar inside `value` (strings, finite numbers, booleans) to `into` under its dotted
 * path (`doc.id`, `metadata.source.row`): the fields the analyst may name as the buyer's item id.
 * Arrays are skipped: a list (choices, dialogue turns) is never an item's id, and indexing into
 * it would flood the mapping's choice of fields.
 */
export function flattenScalarFields(prefix: string, value: unknown, into: Record<string, string>): void {
  if (typeof value === "string") into[prefix] = value;
  else if (typeof value === "number" && Number.isFinite(value)) into[prefix] = String(value);
  else if (typeof value === "boolean") into[prefix] = String(value);
  else if (isObject(value))
    for (const [key, inner] of Object.entries(value)) flattenScalarFields(`${prefix}.${key}`, inner, into);
}
