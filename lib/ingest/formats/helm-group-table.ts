import { IssueCollector, fileFailure, show } from "./issues";
import { isObject, parseJson, parseJsonMemo, path, type JsonObject } from "./json";
import { readNumberValue } from "./numbers";
import type { LeaderboardRecord, ParseOptions } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";
import { dateInFileName } from "./source-date";

/**
 * HELM leaderboard tables written by `helm-summarize`: `groups/<group>.json` (a list of Table) or
 * `groups/json/<group>_<table>.json` (one Table). Table = {title, header: [HeaderCell], rows: [[Cell]]}.
 * Columns are identified by `header[i].metadata.{run_group, metric}` (suite, metric), never by
 * label; direction from `lower_is_better`. The first cell of a row is the model's display name.
 * A cell without `value` means "no data" and is skipped. Left out, with a warning: "Mean win
 * rate" (relative to the other models in the table, not a property of one model) and columns
 * with no direction (the "General information" counts: # eval, # train, tokens...).
 * Values keep HELM's units: fractions for accuracy metrics, seconds for efficiency metrics.
 * The table states no date: the suite's date, when the file's name carries it, becomes asOf.
 */
const FORMAT = "helm-group-table";
const SOURCE = "HELM";

function isTable(value: unknown): value is JsonObject {
  return isObject(value) && Array.isArray(value.header) && Array.isArray(value.rows);
}

function detect(content: string): number {
  const head = content.trimStart().replace(/^\uFEFF/, "");
  if (!head.startsWith("[") && !head.startsWith("{")) return 0;
  const parsed = parseJsonMemo(content);
  if (!parsed.ok) return 0;
  const v = parsed.value;
  if (Array.isArray(v)) return v.length > 0 && v.every(isTable) ? 0.9 : 0;
  return isTable(v) && "title" in v ? 0.85 : 0;
}

function cellValue(cell: unknown): unknown {
  return isObject(cell) ? cell.value : undefined;
}

function parse(content: string, options: ParseOptions = {}) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  const tables = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  if (tables.length === 0 || !tables.every(isTable)) {
    return fileFailure(FORMAT, {
      record: "",
      field: "(file)",
      reason: "not a HELM group table: expected {title, header, rows} tables",
    });
  }
  const issues = new IssueCollector();
  const records: LeaderboardRecord[] = [];
  const asOf = dateInFileName(options.fileName);
  const seen = new Set<string>();
  const skippedColumns = new Set<string>();
  let emptyCells = 0;
  tables.forEach((table, t) => {
    const base = Array.isArray(parsed.value) ? path("", t) : "";
    const header = table.header as unknown[];
    (table.rows as unknown[]).forEach((row, r) => {
      const rowPath = path(path(base, "rows"), r);
      if (!Array.isArray(row)) {
        issues.add({ record: rowPath, field: "(row)", value: show(row), reason: "expected a list of cells" });
        return;
      }
      const model = cellValue(row[0]);
      if (typeof model !== "string" || model.trim() === "") {
        issues.add({
          record: path(rowPath, 0),
          field: "value",
          value: show(model),
          reason: "missing model name in the first cell",
        });
        return;
      }
      for (let c = 1; c < header.length; c++) {
        const h = header[c];
        const label = isObject(h) && typeof h.value === "string" ? h.value : `column ${c}`;
        const meta = isObject(h) && isObject(h.metadata) ? h.metadata : {};
        const { run_group: suite, metric } = meta;
        const lowerIsBetter = isObject(h) ? h.lower_is_better : undefined;
        if (typeof suite !== "string" || typeof metric !== "string" || typeof lowerIsBetter !== "boolean") {
          skippedColumns.add(label);
          continue;
        }
        const cell = row[c];
        const raw = cellValue(cell);
        if (raw === undefined || raw === null) {
          emptyCells++;
          continue;
        }
        const value = readNumberValue(raw);
        if (!value.ok) {
          issues.add({ record: path(rowPath, c), field: label, value: show(raw), reason: value.reason });
          continue;
        }
        const key = `${model}\u0000${suite}\u0000${metric}`;
        if (seen.has(key)) continue; // the same column repeated in another table of the group
        seen.add(key);
        const record: LeaderboardRecord = {
          model: model.trim(),
          suite,
          metric,
          value: value.value,
          higherIsBetter: !lowerIsBetter,
          stage: "LEADERBOARD",
          source: SOURCE,
        };
        if (asOf) record.asOf = asOf;
        const ok = checkRecord(leaderboardRecordSchema, record, { record: path(rowPath, c) }, issues);
        if (ok) records.push(ok);
      }
    });
  });
  if (skippedColumns.size > 0) {
    const names = [...skippedColumns];
    const more = names.length > 8 ? ` and ${names.length - 8} more` : "";
    issues.warn(
      `${names.length} columns without a metric direction not imported: ${names.slice(0, 8).join("; ")}${more}.`,
    );
  }
  if (emptyCells > 0) issues.warn(`${emptyCells} cells without a value (no data) skipped.`);
  return endParse(FORMAT, issues, records, {
    nothing: { record: "", field: "(file)", reason: "no scored cells in any table" },
  });
}

export const helmGroupTable = formatParser<LeaderboardRecord>(
  FORMAT,
  "HELM group leaderboard table (groups/*.json)",
  detect,
  parse,
);
