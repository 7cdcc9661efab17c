import type { CsvRow } from "./csv";
import type { IssueCollector } from "./issues";
import { show } from "./issues";
import { readNumberText, type NumberTextOptions } from "./numbers";

/** Missing-value markers the tools write in CSV cells ("-" in Chatbot Arena, "N/A" in GenAI-Perf). */
const MISSING = new Set(["", "-", "n/a", "na", "none", "null"]);

export function isMissing(text: string | undefined): boolean {
  return text === undefined || MISSING.has(text.trim().toLowerCase());
}

/** Reads cells of one CSV row, reporting problems with the row's line and the column name. */
export class CsvFields {
  constructor(
    readonly issues: IssueCollector,
    readonly header: string[],
  ) {}

  text(row: CsvRow, index: number): string | undefined {
    if (index < 0) return undefined;
    const v = row.cells[index]?.trim();
    return isMissing(v) ? undefined : v;
  }

  required(row: CsvRow, index: number): string | undefined {
    const v = this.text(row, index);
    if (v === undefined)
      this.issues.add({
        line: row.line,
        field: this.name(index),
        value: show(row.cells[index]),
        reason: "missing required value",
      });
    return v;
  }

  num(row: CsvRow, index: number, options: NumberTextOptions & { required?: boolean } = {}): number | undefined {
    if (index < 0) return undefined;
    const raw = row.cells[index];
    if (isMissing(raw)) {
      if (options.required)
        this.issues.add({
          line: row.line,
          field: this.name(index),
          value: show(raw),
          reason: "missing required number",
        });
      return undefined;
    }
    const read = readNumberText(raw as string, options);
    if (read.ok) return read.value;
    this.issues.add({ line: row.line, field: this.name(index), value: show(raw), reason: read.reason });
    return undefined;
  }

  /** Rows must have as many fields as the header: a stray comma shifts every later column. */
  checkWidth(row: CsvRow): boolean {
    if (row.cells.length === this.header.length) return true;
    this.issues.add({
      line: row.line,
      field: "(row)",
      value: String(row.cells.length),
      reason: `expected ${this.header.length} fields as in the header, found ${row.cells.length}`,
    });
    return false;
  }

  name(index: number): string {
    return this.header[index] ?? `column ${index + 1}`;
  }
}

/** Error for a header that lacks required columns; names what was expected and what was found. */
export function missingColumns(required: string[], has: (name: string) => number): string[] {
  return required.filter((c) => has(c) < 0);
}
