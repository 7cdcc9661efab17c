import type { ByteSource } from "../../byte-source";
import { InvalidUtf8Error, utf8Chunks } from "../../records";
import { parseJson } from "../json";
import type { ParseIssue } from "../types";

/** A detector's view of the first bytes: lenient UTF-8, without a byte-order mark or leading blanks. */
export function headText(head: Buffer): string {
  return head
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
}

export type WholeJson = { ok: true; value: unknown } | { ok: false; issue: ParseIssue };

/**
 * A JSON document read whole. Only for formats whose files are one JSON value that is small in
 * practice (HELM run files, promptfoo exports): the value must be complete before any row is known.
 * `file` names the file in the issue, for the formats that read several.
 */
export async function readWholeJson(source: ByteSource, file: string): Promise<WholeJson> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await source.all());
  } catch {
    return { ok: false, issue: { record: file, field: "(file)", reason: "not valid UTF-8" } };
  }
  const parsed = parseJson(text);
  if (parsed.ok) return parsed;
  return { ok: false, issue: { ...parsed.issue, record: file } };
}

export type JsonLine = { line: number; value: unknown } | { line: number; issue: ParseIssue };

/**
 * JSON Lines one line at a time from the source's chunks, never the whole file: blank lines are
 * skipped, a line that is not JSON is an issue at its line (the reader goes on).
 */
export async function* readJsonLines(source: ByteSource): AsyncGenerator<JsonLine> {
  let rest = "";
  let line = 0;
  const take = (text: string): JsonLine | undefined => {
    line += 1;
    if (text.trim() === "") return undefined;
    const parsed = parseJson(text);
    return parsed.ok ? { line, value: parsed.value } : { line, issue: { ...parsed.issue, line } };
  };
  try {
    for await (const chunk of utf8Chunks(source)) {
      rest += chunk;
      let end = rest.indexOf("\n");
      let start = 0;
      while (end >= 0) {
        const read = take(rest.slice(start, end));
        if (read) yield read;
        start = end + 1;
        end = rest.indexOf("\n", start);
      }
      rest = rest.slice(start);
    }
  } catch (error) {
    if (!(error instanceof InvalidUtf8Error)) throw error;
    yield { line: error.line, issue: { line: error.line, field: "(file)", reason: "not valid UTF-8" } };
    return;
  }
  const last = take(rest);
  if (last) yield last;
}
