import { parse } from "csv-parse/sync";
import type { ParseIssue } from "./types";
import { IssueCollector } from "./issues";
import { delimiterNote, detectCsvDelimiter, DELIMITER_SAMPLE_BYTES, type CsvDelimiter } from "./csv-delimiter";

export type CsvRow = {
  /** 1-based physical line where the record starts (header = 1). */ line: number;
  cells: string[];
};
export type CsvTable = {
  header: string[];
  headerLine: number;
  rows: CsvRow[];
  /** The separator the file was read with (csv-delimiter.ts). */
  delimiter: CsvDelimiter;
  /** "Read as semicolon-separated.", for the parser's warnings, when it is not the comma. */
  note: string | null;
};
export type CsvRead = { ok: true; table: CsvTable } | { ok: false; issue: ParseIssue };

type Parsed = { record: string[]; info: { bytes: number } };

/**
 * RFC 4180 CSV via csv-parse, its separator (comma, semicolon or tab) by the one rule of
 * csv-delimiter.ts: BOM, CRLF and quoted fields holding commas, quotes or newlines are
 * read as data. Rows may have a different field count (reported by the format, with its line).
 * csv-parse's own line counter drifts on CRLF inside quoted fields, so the start line of each
 * record is recomputed from its byte offset.
 */
export function readCsv(content: string): CsvRead {
  if (content.replace(/^\uFEFF/, "").trim() === "") {
    return { ok: false, issue: { line: 1, field: "(file)", reason: "empty file" } };
  }
  const sample = content.slice(0, DELIMITER_SAMPLE_BYTES);
  const delimiter = detectCsvDelimiter(sample, sample.length === content.length);
  let parsed: Parsed[];
  try {
    parsed = parse(content, {
      bom: true,
      delimiter,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as Parsed[];
  } catch (error) {
    const e = error as { message?: string; lines?: number };
    return {
      ok: false,
      issue: { line: e.lines, field: "(file)", reason: `malformed CSV: ${e.message ?? String(error)}` },
    };
  }
  const bytes = new TextEncoder().encode(content);
  const lineOf = lineCounter(bytes);
  const rows: CsvRow[] = [];
  let start = 0;
  for (const { record, info } of parsed) {
    // Skip the BOM and blank lines between the previous record's end and this one's first byte.
    let first = start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : start;
    while (first < bytes.length && (bytes[first] === 0x0a || bytes[first] === 0x0d)) first++;
    rows.push({ line: lineOf(first), cells: record });
    start = info.bytes;
  }
  const [head, ...data] = rows;
  if (!head) return { ok: false, issue: { line: 1, field: "(file)", reason: "empty file" } };
  const header = head.cells.map((h) => h.trim());
  return {
    ok: true,
    table: { header, headerLine: head.line, rows: data, delimiter, note: delimiterNote(delimiter) },
  };
}

/** Line number of a byte offset; offsets are asked in increasing order. */
function lineCounter(bytes: Uint8Array): (offset: number) => number {
  let pos = 0;
  let line = 1;
  return (offset) => {
    for (; pos < offset && pos < bytes.length; pos++) if (bytes[pos] === 0x0a) line++;
    return line;
  };
}

/** Case- and space-insensitive header lookup: index of each wanted column, -1 when absent. */
export function columnIndex(header: string[]): (name: string) => number {
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
  const map = new Map<string, number>();
  header.forEach((h, i) => {
    if (!map.has(norm(h))) map.set(norm(h), i);
  });
  return (name) => map.get(norm(name)) ?? -1;
}

/** A CSV format's collector, the separator noted first when it is not the comma (SPEC §6: the report says how the file was read). */
export function csvIssues(table: CsvTable): IssueCollector {
  const issues = new IssueCollector();
  if (table.note) issues.warn(table.note);
  return issues;
}
