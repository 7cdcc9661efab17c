import { IssueCollector, show } from "./issues";
import { readNumberValue } from "./numbers";
import type { ParseIssue } from "./types";

export type JsonObject = Record<string, unknown>;
export type JsonParse = { ok: true; value: unknown } | { ok: false; issue: ParseIssue };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Index of the first bare NaN/Infinity outside strings (Python's json writes them), or -1. */
function bareLiteral(text: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if ((c === "N" || c === "I" || c === "-") && /^-?(NaN|Infinity)/.test(text.slice(i, i + 9))) return i;
  }
  return -1;
}

/** JSON.parse with a located, readable error (truncated files, Python's NaN/Infinity literals). */
export function parseJson(content: string): JsonParse {
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  if (text.trim() === "") return { ok: false, issue: { line: 1, field: "(file)", reason: "empty file" } };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const literal = bareLiteral(text);
    if (literal >= 0) {
      const token = /^-?(NaN|Infinity)/.exec(text.slice(literal))?.[0] ?? "NaN";
      return {
        ok: false,
        issue: {
          line: lineAt(text, literal),
          field: "(file)",
          value: token,
          reason: `non-finite number ${token} (not valid JSON)`,
        },
      };
    }
    const at = /position (\d+)/.exec(message);
    const position = at ? Number(at[1]) : text.length;
    const truncated = /end of (JSON )?input|Unterminated/i.test(message) || position >= text.trimEnd().length;
    const reason = truncated ? "truncated JSON (unexpected end of input)" : `invalid JSON: ${message}`;
    const issue: ParseIssue = { line: lineAt(text, position), field: "(file)", reason };
    if (!truncated) issue.value = show(text.slice(position, position + 20).trim());
    return { ok: false, issue };
  }
}

let memoText: string | undefined;
let memoResult: JsonParse | undefined;

/** Detection asks every JSON format about the same text; parse it once. */
export function parseJsonMemo(content: string): JsonParse {
  if (memoText !== content || memoResult === undefined) {
    memoText = content;
    memoResult = parseJson(content);
  }
  return memoResult;
}

/** Drops the cached parse so a large document is not kept alive between imports. */
export function clearJsonMemo(): void {
  memoText = undefined;
  memoResult = undefined;
}

/** The parsed top-level array, or undefined when the text is not a non-empty JSON array (for detectors). */
export function sniffArray(content: string): unknown[] | undefined {
  if (
    !content
      .trimStart()
      .replace(/^\uFEFF/, "")
      .startsWith("[")
  )
    return undefined;
  const parsed = parseJsonMemo(content);
  return parsed.ok && Array.isArray(parsed.value) && parsed.value.length > 0 ? parsed.value : undefined;
}

/** The parsed top-level object, or undefined when the text is not a JSON object (for detectors). */
export function sniffObject(content: string): JsonObject | undefined {
  const head = content.trimStart().replace(/^\uFEFF/, "");
  if (!head.startsWith("{")) return undefined;
  const parsed = parseJsonMemo(content);
  return parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
}

type NumOptions = { required?: boolean; allowString?: boolean };

/** Reads typed fields from JSON objects, reporting each problem with its record path. */
export class JsonFields {
  constructor(readonly issues: IssueCollector) {}

  num(obj: JsonObject, key: string, record: string, options: NumOptions = {}): number | undefined {
    const raw = obj[key];
    if (raw === undefined || raw === null) {
      if (options.required) this.issues.add({ record, field: key, reason: "missing required field" });
      return undefined;
    }
    const read = readNumberValue(raw, options.allowString);
    if (read.ok) return read.value;
    this.issues.add({ record, field: key, value: show(raw), reason: read.reason });
    return undefined;
  }

  str(obj: JsonObject, key: string, record: string, required = false): string | undefined {
    const raw = obj[key];
    if (typeof raw === "string" && raw.trim() !== "") return raw.trim();
    if (raw === undefined || raw === null || raw === "") {
      if (required) this.issues.add({ record, field: key, reason: "missing required field" });
      return undefined;
    }
    this.issues.add({ record, field: key, value: show(raw), reason: `expected a string, got ${typeof raw}` });
    return undefined;
  }

  obj(parent: JsonObject, key: string, record: string, required = false): JsonObject | undefined {
    const raw = parent[key];
    if (isObject(raw)) return raw;
    if (raw === undefined || raw === null) {
      if (required) this.issues.add({ record, field: key, reason: "missing required object" });
      return undefined;
    }
    this.issues.add({ record, field: key, value: show(raw), reason: "expected an object" });
    return undefined;
  }
}

/** `a.b` for identifier-like keys, `a["x,y"]` otherwise, so paths stay unambiguous. */
export function path(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return /^[A-Za-z_][\w-]*$/.test(key) ? (base ? `${base}.${key}` : key) : `${base}[${JSON.stringify(key)}]`;
}
