import type { IssueCollector } from "./issues";
import type { Confidence, FormatParser, ParseIssue, ParseOptions, ParseResult } from "./types";

/**
 * How every public-format parser ends. A file that yields nothing is refused, not imported as
 * empty: a CSV without data rows at line 2 (its first data line, `noRows`), a JSON file whose
 * `nothing` says where the data should have been — only when no other problem explains it. Then
 * the collector decides: a failure if any problem was reported, else the records and warnings.
 */
export function endParse<R>(
  format: string,
  issues: IssueCollector,
  records: R[],
  end: { noRows?: boolean; nothing?: ParseIssue; producerVersion?: string } = {},
): ParseResult<R> {
  if (end.noRows) issues.add({ line: 2, field: "(file)", reason: "no data rows after the header" });
  else if (end.nothing && records.length === 0 && !issues.failed) issues.add(end.nothing);
  return issues.finish(format, records, end.producerVersion);
}

/** A format's entry in the registry (index.ts): its id, the label users see, and its two functions. */
export function formatParser<R>(
  id: string,
  label: string,
  detect: (content: string) => Confidence,
  parse: (content: string, options?: ParseOptions) => ParseResult<R>,
): FormatParser<R> {
  return { id, label, detect, parse };
}
