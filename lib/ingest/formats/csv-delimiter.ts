/**
 * Which character separates a CSV file's fields: comma, semicolon (what Excel writes where the
 * decimal mark is a comma) or tab. The one rule every CSV reader uses — the buyer's datasets and
 * predictions and `verdict metrics` (records.ts) and the public leaderboard and serving CSVs
 * (csv.ts) — so a file is read the same way wherever it is uploaded.
 *
 * The rule, on the file's first lines (the header and up to DATA_LINES records after it, blank
 * lines skipped, quoted fields respected: a separator or line break inside quotes splits nothing):
 * 1. among the candidates that split the header into two fields or more and give every sampled
 *    data record that same number of fields, the one giving the most fields;
 * 2. else the candidate that splits the header into the most fields (its rows of another width are
 *    then reported by the reader, each with its line);
 * 3. ties, and a one-column header, go to the comma, in the order comma, semicolon, tab.
 */

export const CSV_DELIMITERS = [",", ";", "\t"] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** Bytes of a file's start the rule looks at: the header and the first records of any real file. */
export const DELIMITER_SAMPLE_BYTES = 1 << 16;
/** Data records after the header that must agree with it. */
const DATA_LINES = 10;

const NAMES: Record<CsvDelimiter, string> = { ",": "comma", ";": "semicolon", "\t": "tab" };

/**
 * The separator of the CSV text whose start is `sample`. `complete` says the sample is the whole
 * file: otherwise its last record may be cut short and is not counted.
 */
export function detectCsvDelimiter(sample: string, complete = true): CsvDelimiter {
  const text = sample.replace(/^\uFEFF/, "");
  let best: { delimiter: CsvDelimiter; fields: number; agrees: boolean } | null = null;
  for (const delimiter of CSV_DELIMITERS) {
    const widths = recordWidths(text, delimiter, complete);
    const fields = widths[0] ?? 1;
    const agrees = fields > 1 && widths.every((w) => w === fields);
    const better = !best || (agrees && !best.agrees) || (agrees === best.agrees && fields > best.fields && fields > 1);
    if (better) best = { delimiter, fields, agrees };
  }
  return best?.delimiter ?? ",";
}

/**
 * The words an upload's report uses for a separator other than the comma ("Read as
 * semicolon-separated."); none for the comma, or for a file that is not CSV (no separator).
 */
export function delimiterNote(delimiter: CsvDelimiter | undefined): string | null {
  return delimiter === undefined || delimiter === "," ? null : `Read as ${NAMES[delimiter]}-separated.`;
}

/** The header's cells under the rule, quotes removed: what the format detectors look at. */
export function csvHeaderCells(content: string): string[] {
  const text = content.replace(/^\uFEFF/, "");
  const sample = text.slice(0, DELIMITER_SAMPLE_BYTES);
  const delimiter = detectCsvDelimiter(sample, sample.length === text.length);
  return splitRecords(sample, delimiter, 1, true)[0]?.map((c) => c.trim()) ?? [];
}

/** Fields per record: the header's, then up to DATA_LINES data records', blank lines skipped. */
function recordWidths(text: string, delimiter: CsvDelimiter, complete: boolean): number[] {
  return splitRecords(text, delimiter, DATA_LINES + 1, complete).map((r) => r.length);
}

/**
 * The first `max` non-blank records of `text` as cells, a quote opening a field only at its start
 * and "" standing for a quote inside one (RFC 4180, as csv-parse reads it). A record the text
 * ends inside (an open quote, or no line end when the text is not `complete`) is left out.
 */
function splitRecords(text: string, delimiter: CsvDelimiter, max: number, complete: boolean): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let fieldStart = true;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === "")) records.push(cells);
    cells = [];
    cell = "";
    fieldStart = true;
  };
  for (let i = 0; i < text.length && records.length < max; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c === delimiter) {
      cells.push(cell);
      cell = "";
      fieldStart = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRecord();
    } else {
      cell += c;
      fieldStart = false;
    }
  }
  if (complete && !quoted && records.length < max && (cells.length > 0 || cell !== "")) endRecord();
  return records;
}
