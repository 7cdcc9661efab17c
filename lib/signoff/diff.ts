/**
 * A structural diff of two JSON values (pack revisions), pure. Arrays whose items all carry an
 * `id` are matched by id, so a row inserted in the middle shows as one addition rather than a
 * change of every later row; other arrays are compared position by position.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface DiffEntry {
  path: string;
  kind: "added" | "removed" | "changed";
  before?: JsonValue;
  after?: JsonValue;
}

const isObject = (v: unknown): v is Record<string, JsonValue> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function idOf(v: JsonValue): string | null {
  if (!isObject(v)) return null;
  const id = v.id;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
}

function keyed(items: JsonValue[]): Map<string, JsonValue> | null {
  const map = new Map<string, JsonValue>();
  for (const item of items) {
    const id = idOf(item);
    if (id === null || map.has(id)) return null;
    map.set(id, item);
  }
  return map;
}

/** Every difference between `before` and `after`, in a stable order (paths like `a.b[id=x].c`). */
export function jsonDiff(before: JsonValue, after: JsonValue, path = "", out: DiffEntry[] = []): DiffEntry[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const a = keyed(before);
    const b = keyed(after);
    if (a && b) {
      for (const [id, value] of a) {
        const other = b.get(id);
        if (other === undefined) out.push({ path: `${path}[id=${id}]`, kind: "removed", before: value });
        else jsonDiff(value, other, `${path}[id=${id}]`, out);
      }
      for (const [id, value] of b) if (!a.has(id)) out.push({ path: `${path}[id=${id}]`, kind: "added", after: value });
      return out;
    }
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}[${i}]`;
      if (i >= after.length) out.push({ path: p, kind: "removed", before: before[i] as JsonValue });
      else if (i >= before.length) out.push({ path: p, kind: "added", after: after[i] as JsonValue });
      else jsonDiff(before[i] as JsonValue, after[i] as JsonValue, p, out);
    }
    return out;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const p = path ? `${path}.${key}` : key;
      if (!(key in after)) out.push({ path: p, kind: "removed", before: before[key] as JsonValue });
      else if (!(key in before)) out.push({ path: p, kind: "added", after: after[key] as JsonValue });
      else jsonDiff(before[key] as JsonValue, after[key] as JsonValue, p, out);
    }
    return out;
  }
  if (!sameScalar(before, after)) out.push({ path: path || "(root)", kind: "changed", before, after });
  return out;
}

function sameScalar(a: JsonValue, b: JsonValue): boolean {
  if (Array.isArray(a) || Array.isArray(b) || isObject(a) || isObject(b))
    return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}
