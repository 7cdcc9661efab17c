import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import { InvalidUtf8Error, utf8Chunks } from "../lib/ingest/records.ts";

/** One problem in an input file, located by its 1-based line number. */
export interface RowError {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

export interface Items {
  readonly labels: Uint8Array;
  readonly scores: Float64Array;
  readonly errors: RowError[];
}

/** Decimal number syntax accepted for a score (no hex, no empty string, no "Infinity"). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A finite score, or an error message. Values like 1e999 overflow to ±Infinity and are rejected. */
export function parseScore(raw: unknown): number | string {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : `${raw} is not a finite number`;
  if (typeof raw !== "string") return raw === null || raw === undefined ? "is missing" : `${JSON.stringify(raw)} is not a number`;
  const text = raw.trim();
  if (text === "") return "is empty";
  if (!NUMBER.test(text)) return `${JSON.stringify(raw)} is not a number`;
  const value = Number(text);
  return Number.isFinite(value) ? value : `${JSON.stringify(raw)} is not a finite number`;
}

/** A gold label: 0/1 (also "0.0"/"1.0"), true/false; anything else is an error message. */
export function parseLabel(raw: unknown): 0 | 1 | string {
  if (raw === true || raw === 1) return 1;
  if (raw === false || raw === 0) return 0;
  if (typeof raw === "string") {
    const text = raw.trim().toLowerCase();
    if (text === "true") return 1;
    if (text === "false") return 0;
    if (NUMBER.test(text)) {
      const v = Number(text);
      if (v === 0 || v === 1) return v;
    }
    return text === "" ? "is empty" : `${JSON.stringify(raw)} is not 0/1 or true/false`;
  }
  return raw === null || raw === undefined ? "is missing" : `${JSON.stringify(raw)} is not 0/1 or true/false`;
}

/** Growable typed columns, so millions of rows never become millions of objects. */
class Columns {
  labels = new Uint8Array(1024);
  scores = new Float64Array(1024);
  n = 0;
  push(label: 0 | 1, score: number) {
    if (this.n === this.labels.length) {
      const labels = new Uint8Array(this.n * 2);
      labels.set(this.labels);
      this.labels = labels;
      const scores = new Float64Array(this.n * 2);
      scores.set(this.scores);
      this.scores = scores;
    }
    this.labels[this.n] = label;
    this.scores[this.n] = score;
    this.n++;
  }
}

function addRow(columns: Columns, errors: RowError[], line: number, label: unknown, score: unknown) {
  const y = parseLabel(label);
  const s = parseScore(score);
  if (typeof y === "string") errors.push({ line, field: "label", message: y });
  if (typeof s === "string") errors.push({ line, field: "score", message: s });
  if (typeof y !== "string" && typeof s !== "string") columns.push(y, s);
}

export type Format = "csv" | "jsonl";

/** Format from the extension (.csv; .jsonl/.ndjson/.json), else from the first byte ("{" ⇒ JSONL). */
export async function detectFormat(file: string): Promise<Format> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".csv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson") || lower.endsWith(".json")) return "jsonl";
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "").trimStart();
    return head.startsWith("{") ? "jsonl" : "csv";
  } finally {
    await handle.close();
  }
}


function fileError(error: unknown, fallbackLine: number): RowError {
  if (error instanceof InvalidUtf8Error) return { line: error.line, field: "file", message: "invalid UTF-8" };
  return { line: fallbackLine, field: "file", message: error instanceof Error ? error.message : String(error) };
}

/**
 * Read `label` and `score` columns (optional `id`) from CSV with csv-parse: BOM, CRLF and
 * quoted fields (with commas, quotes or newlines) are handled by the parser. Errors carry the
 * line on which the record starts.
 */
export async function readCsv(file: string): Promise<Items> {
  const columns = new Columns();
  const errors: RowError[] = [];
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true });
  const feed = (async () => {
    try {
      for await (const text of utf8Chunks(file)) if (!parser.write(text)) await new Promise((r) => parser.once("drain", r));
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  })();
  let header: string[] | null = null;
  let headerOk = false;
  let labelAt = -1;
  let scoreAt = -1;
  let prevEnd = 0;
  let prevEmpty = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number; empty_lines: number } }>) {
      const line = prevEnd + 1 + (info.empty_lines - prevEmpty);
      prevEnd = info.lines;
      prevEmpty = info.empty_lines;
      if (!header) {
        header = record.map((h) => h.trim().toLowerCase()); // "Label", " score " name the same columns
        labelAt = header.indexOf("label");
        scoreAt = header.indexOf("score");
        const missing = ["label", "score"].filter((c) => !header!.includes(c));
        if (missing.length) errors.push({ line, field: "header", message: `lacks column ${missing.join(" and ")}` });
        headerOk = missing.length === 0;
        continue;
      }
      if (!headerOk) continue; // read to the end, so the reader finishes cleanly
      if (record.length !== header.length) {
        errors.push({ line, field: "row", message: `has ${record.length} fields, header has ${header.length}` });
        continue;
      }
      addRow(columns, errors, line, record[labelAt], record[scoreAt]);
    }
  } catch (error) {
    errors.push(fileError(error, prevEnd + 1));
  }
  await feed;
  if (!header && errors.length === 0) errors.push({ line: 1, field: "header", message: "the file is empty" });
  return { labels: columns.labels.subarray(0, columns.n), scores: columns.scores.subarray(0, columns.n), errors };
}

/** Read JSON Lines: one object per line with `label` and `score` (optional `id`); blank lines skipped. */
export async function readJsonl(file: string): Promise<Items> {
  const columns = new Columns();
  const errors: RowError[] = [];
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
        errors.push({ line, field: "row", message: `invalid JSON (${(error as Error).message})` });
        continue;
      }
      if (typeof row !== "object" || row === null || Array.isArray(row)) {
        errors.push({ line, field: "row", message: "is not a JSON object" });
        continue;
      }
      const r = row as Record<string, unknown>;
      addRow(columns, errors, line, r.label, r.score);
    }
  } catch (error) {
    errors.push(fileError(error, line + 1));
  }
  return { labels: columns.labels.subarray(0, columns.n), scores: columns.scores.subarray(0, columns.n), errors };
}

export async function readItems(file: string, format?: Format): Promise<Items> {
  return (format ?? (await detectFormat(file))) === "csv" ? readCsv(file) : readJsonl(file);
}
