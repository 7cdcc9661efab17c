import { createReadStream } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import type { ParseIssue } from "./formats/types";

/**
 * Streaming record readers for the buyer's own evidence (datasets, predictions): one record at a
 * time from a file on disk, never the whole file in memory. CSV goes through csv-parse (BOM, CRLF,
 * quoted fields with commas, quotes and newlines); JSON Lines through readline. Invalid UTF-8 is
 * an error naming its line. Each record carries the 1-based line on which it starts.
 */

export type TabularFormat = "csv" | "jsonl";

export type RecordEvent =
  | { kind: "header"; line: number; columns: string[] }
  | { kind: "record"; line: number; values: Record<string, unknown> }
  /** A problem that belongs to one row (wrong field count, bad JSON): the reader goes on. */
  | { kind: "row-error"; issue: ParseIssue }
  /** A problem that ends the reading (invalid UTF-8, unclosed quote). */
  | { kind: "file-error"; issue: ParseIssue };

/** Format from the explicit choice, else the extension, else the first byte ("{" ⇒ JSON Lines). */
export async function detectTabularFormat(file: string, fileName: string, explicit?: string): Promise<TabularFormat | "parquet"> {
  if (explicit) {
    const f = explicit.toLowerCase();
    if (f === "csv" || f === "jsonl" || f === "parquet") return f;
    if (f === "ndjson" || f === "json") return "jsonl";
    throw new Error(`unknown format "${explicit}"; supported: csv, jsonl, parquet`);
  }
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".csv") || lower.endsWith(".tsv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return "jsonl";
  if (lower.endsWith(".parquet")) return "parquet";
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, 4).toString("latin1") === "PAR1") return "parquet";
    return head.toString("utf8").replace(/^\uFEFF/, "").trimStart().startsWith("{") ? "jsonl" : "csv";
  } finally {
    await handle.close();
  }
}

class InvalidUtf8Error extends Error {
  constructor(readonly line: number) {
    super("not valid UTF-8");
  }
}

async function* utf8Chunks(file: string): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) yield decoder.decode(chunk as Buffer, { stream: true });
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidUtf8Error(await firstInvalidUtf8Line(file));
    throw error;
  }
}

/** Error path only: the line holding the first byte sequence that is not UTF-8. */
async function firstInvalidUtf8Line(file: string): Promise<number> {
  const bytes = await readFile(file);
  const strict = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  for (let line = 1; start <= bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    try {
      strict.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    start = stop + 1;
  }
  return 1;
}

/** Header names are matched case-insensitively, trimmed. */
export const normaliseHeader = (h: string) => h.replace(/^\uFEFF/, "").trim().toLowerCase();

/** CSV records as objects keyed by the normalised header; the header event comes first. */
export async function* readCsvRecords(file: string): AsyncGenerator<RecordEvent> {
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 8 << 20 });
  const feed = (async () => {
    try {
      for await (const text of utf8Chunks(file)) if (!parser.write(text)) await new Promise((r) => parser.once("drain", r));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let header: string[] | null = null;
  let prevEnd = 0;
  let prevEmpty = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      const line = prevEnd + 1 + (info.empty_lines - prevEmpty);
      prevEnd = info.lines;
      prevEmpty = info.empty_lines;
      if (!header) {
        header = record.map(normaliseHeader);
        yield { kind: "header", line, columns: header };
        continue;
      }
      if (record.length !== header.length) {
        yield { kind: "row-error", issue: { line, field: "(row)", value: `${record.length} fields`, reason: `has ${record.length} fields, the header has ${header.length}` } };
        continue;
      }
      const values: Record<string, unknown> = {};
      for (let i = 0; i < header.length; i++) values[header[i]!] = record[i];
      yield { kind: "record", line, values };
    }
  } catch (error) {
    yield { kind: "file-error", issue: fileIssue(error, prevEnd + 1) };
  }
  await feed;
}

/** JSON Lines: one object per line; blank lines skipped; a line that is not a JSON object is a row error. */
export async function* readJsonlRecords(file: string): AsyncGenerator<RecordEvent> {
  const lines = createInterface({ input: Readable.from(utf8Chunks(file)), crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const raw of lines) {
      line++;
      const text = (line === 1 ? raw.replace(/^\uFEFF/, "") : raw).trim();
      if (text === "") continue;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (error) {
        yield { kind: "row-error", issue: { line, field: "(row)", value: show(text), reason: `not valid JSON (${error instanceof Error ? error.message : "parse error"}); truncated?` } };
        continue;
      }
      if (!row || typeof row !== "object" || Array.isArray(row)) {
        yield { kind: "row-error", issue: { line, field: "(row)", value: show(text), reason: "not a JSON object" } };
        continue;
      }
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) values[normaliseHeader(k)] = v;
      yield { kind: "record", line, values };
    }
  } catch (error) {
    yield { kind: "file-error", issue: fileIssue(error, line + 1) };
  }
}

function fileIssue(error: unknown, fallbackLine: number): ParseIssue {
  if (error instanceof InvalidUtf8Error) return { line: error.line, field: "(file)", reason: "not valid UTF-8" };
  const e = error as { message?: string; lines?: number; code?: string };
  const line = typeof e.lines === "number" ? e.lines : fallbackLine;
  return { line, field: "(file)", reason: `not valid CSV: ${e.message ?? String(error)}` };
}

export function show(value: unknown): string {
  if (value === undefined || value === null) return "";
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The first of `names` present in the header (normalised), or undefined. */
export function pickColumn(columns: readonly string[], names: readonly string[], explicit?: string): string | undefined {
  if (explicit) {
    const n = normaliseHeader(explicit);
    return columns.includes(n) ? n : undefined;
  }
  return names.find((n) => columns.includes(n));
}
