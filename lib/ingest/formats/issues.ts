import type { ParseFailure, ParseIssue, ParseResult, ParseSuccess } from "./types";

/** The error report keeps the first 100 problems and counts the rest (SPEC §6). */
export const MAX_REPORTED_ERRORS = 100;

/** Collects row-level problems; a file with any problem is rejected whole by the caller. */
export class IssueCollector {
  readonly errors: ParseIssue[] = [];
  readonly warnings: string[] = [];
  count = 0;

  add(issue: ParseIssue): void {
    this.count += 1;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(issue);
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  get failed(): boolean {
    return this.count > 0;
  }

  /** Failure if anything was reported, else success with the records and warnings. */
  finish<R>(format: string, records: R[], producerVersion?: string): ParseResult<R> {
    if (this.failed) return failure(format, this.errors, this.count);
    const ok: ParseSuccess<R> = { ok: true, format, records, warnings: this.warnings };
    if (producerVersion !== undefined) ok.producerVersion = producerVersion;
    return ok;
  }
}

export function failure(format: string | undefined, errors: ParseIssue[], errorCount = errors.length): ParseFailure {
  const f: ParseFailure = { ok: false, errors: errors.slice(0, MAX_REPORTED_ERRORS), errorCount };
  if (format !== undefined) f.format = format;
  return f;
}

/** A failure with a single whole-file problem (empty file, wrong header, truncated JSON...). */
export function fileFailure(format: string | undefined, issue: ParseIssue): ParseFailure {
  return failure(format, [issue]);
}

/** Short display of an offending value for the error report. */
export function show(value: unknown): string {
  if (value === undefined) return "";
  const text =
    typeof value === "string"
      ? value
      : typeof value === "number"
        ? String(value)
        : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
