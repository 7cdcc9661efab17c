import { z } from "zod";
import type { ParseIssue } from "./formats/types";
import { pickColumn, show } from "./records";
import { decimalNumber } from "./formats/numbers";

/**
 * Pure row rules for the buyer's own evidence: which columns name the id, the gold label, the
 * score…, how a value is read, and the zod schema every row must pass. A row either becomes a
 * typed row or a list of issues (line, field, value, reason); the importers reject a file with
 * any issue.
 */

export const MAX_ID_LENGTH = 512;
export const MAX_TEXT_LENGTH = 100_000;
export const MAX_SLICE_LENGTH = 200;

export const datasetRowSchema = z.object({
  itemId: z.string().min(1, "is empty").max(MAX_ID_LENGTH),
  label: z.boolean(),
  text: z.string().max(MAX_TEXT_LENGTH).nullable(),
  slice: z.string().max(MAX_SLICE_LENGTH).nullable(),
});
export type DatasetRow = z.infer<typeof datasetRowSchema>;

const int32 = z
  .number()
  .int()
  .nonnegative()
  .max(2 ** 31 - 1);
export const predictionRowSchema = z
  .object({
    itemId: z.string().min(1, "is empty").max(MAX_ID_LENGTH),
    // zod 4 numbers are finite: NaN and ±Infinity (JSON's 1e999) fail here.
    score: z.number().nullable(),
    predicted: z.boolean().nullable(),
    parseFailure: z.boolean(),
    rawOutput: z.string().max(MAX_TEXT_LENGTH).nullable(),
    latencyMs: z.number().nonnegative().nullable(),
    inputTokens: int32.nullable(),
    outputTokens: int32.nullable(),
  })
  .refine((r) => r.score !== null || r.predicted !== null || r.parseFailure, {
    message: "the row has neither a score nor a predicted label",
    path: ["score"],
  });
export type PredictionRow = z.infer<typeof predictionRowSchema>;

/*
 * The schemas' rules written out, for the row path of files of millions: a row these accept is
 * one the schema accepts (buyer-rows.test.ts checks both on good and bad rows), and is kept as
 * is, without zod building an object per row. A row they refuse goes through the schema, which
 * words the issues, so refusals read exactly as before.
 */
const INT32_MAX = 2 ** 31 - 1;
const finiteOrNull = (v: number | null) => v === null || (typeof v === "number" && Number.isFinite(v));
const textOrNull = (v: string | null, max: number) => v === null || (typeof v === "string" && v.length <= max);
const countOrNull = (v: number | null) => v === null || (Number.isInteger(v) && v >= 0 && v <= INT32_MAX);

export function passesPredictionRow(r: PredictionRow): boolean {
  return (
    typeof r.itemId === "string" &&
    r.itemId.length >= 1 &&
    r.itemId.length <= MAX_ID_LENGTH &&
    finiteOrNull(r.score) &&
    (r.predicted === null || typeof r.predicted === "boolean") &&
    typeof r.parseFailure === "boolean" &&
    textOrNull(r.rawOutput, MAX_TEXT_LENGTH) &&
    finiteOrNull(r.latencyMs) &&
    (r.latencyMs === null || r.latencyMs >= 0) &&
    countOrNull(r.inputTokens) &&
    countOrNull(r.outputTokens) &&
    (r.score !== null || r.predicted !== null || r.parseFailure)
  );
}

export function passesDatasetRow(r: DatasetRow): boolean {
  return (
    typeof r.itemId === "string" &&
    r.itemId.length >= 1 &&
    r.itemId.length <= MAX_ID_LENGTH &&
    typeof r.label === "boolean" &&
    textOrNull(r.text, MAX_TEXT_LENGTH) &&
    textOrNull(r.slice, MAX_SLICE_LENGTH)
  );
}

/** Accepted column names (header, case-insensitive), first match wins. */
export const COLUMN_NAMES = {
  id: ["id", "item_id", "itemid", "item", "example_id", "doc_id", "uid"],
  label: ["label", "gold", "gold_label", "target", "y", "y_true"],
  text: ["text", "input", "prompt", "content"],
  slice: ["slice", "segment", "group"],
  score: ["score", "probability", "prob", "p", "y_score", "confidence"],
  predicted: ["predicted", "prediction", "pred", "predicted_label", "y_pred"],
  parseFailure: ["parse_failure", "parsefailure", "parse_error"],
  rawOutput: ["raw_output", "rawoutput", "raw", "output", "completion", "response"],
  latencyMs: ["latency_ms", "latencyms", "latency"],
  latencyS: ["latency_s", "latency_seconds"],
  inputTokens: ["input_tokens", "inputtokens", "prompt_tokens"],
  outputTokens: ["output_tokens", "outputtokens", "completion_tokens"],
} as const;

/** Class names: the decision's positive class is positive; others are negative only when listed. */
export interface LabelMapping {
  positiveClass: string;
  negativeLabels?: readonly string[];
}

const TRUE = { ok: true, value: true } as const;
const FALSE = { ok: true, value: false } as const;

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A number from a CSV string or a JSON value; empty/null is "absent" (null). */
export function readNumber(raw: unknown): Read<number | null> {
  if (raw === undefined || raw === null) return { ok: true, value: null };
  if (typeof raw === "number")
    return Number.isFinite(raw) ? { ok: true, value: raw } : { ok: false, reason: "not a finite number" };
  if (typeof raw !== "string") return { ok: false, reason: "not a number" };
  const v = numberText(raw);
  return typeof v === "number" || v === null ? { ok: true, value: v } : { ok: false, reason: v };
}

/** Decimal text → number (null when empty), or the reason it is not one: formats/numbers.ts's rule. */
function numberText(raw: string): number | null | string {
  const v = decimalNumber(raw);
  return v === "empty value" ? null : v;
}

/**
 * 0/1, true/false, or a class name through the mapping; empty/null is absent. Without a mapping
 * (`verdict metrics`, which knows no decision) only 0/1 and true/false are labels.
 */
export function readLabel(raw: unknown, mapping: LabelMapping | null): Read<boolean | null> {
  const notALabel = mapping ? "not 0/1, true/false or a mapped class name" : "not 0/1 or true/false";
  if (raw === undefined || raw === null) return { ok: true, value: null };
  if (typeof raw === "boolean") return { ok: true, value: raw };
  if (typeof raw === "number")
    return raw === 1 || raw === 0 ? { ok: true, value: raw === 1 } : { ok: false, reason: notALabel };
  if (typeof raw !== "string") return { ok: false, reason: notALabel };
  if (raw === "1") return TRUE;
  if (raw === "0") return FALSE;
  const t = raw.trim().toLowerCase();
  if (t === "") return { ok: true, value: null };
  if (t === "1" || t === "true" || t === "1.0") return { ok: true, value: true };
  if (t === "0" || t === "false" || t === "0.0") return { ok: true, value: false };
  if (!mapping) return { ok: false, reason: notALabel };
  if (t === mapping.positiveClass.trim().toLowerCase()) return { ok: true, value: true };
  if (mapping.negativeLabels?.some((n) => n.trim().toLowerCase() === t)) return { ok: true, value: false };
  const negatives = mapping.negativeLabels?.length
    ? `negative: ${mapping.negativeLabels.map((n) => `"${n}"`).join(", ")}`
    : "no negative class names given";
  return { ok: false, reason: `outside the label mapping (positive: "${mapping.positiveClass}"; ${negatives})` };
}

function readText(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === "string") return raw === "" ? null : raw;
  return typeof raw === "object" ? JSON.stringify(raw) : String(raw);
}

function readId(raw: unknown): Read<string> {
  if (typeof raw === "number" && Number.isFinite(raw)) return { ok: true, value: String(raw) };
  if (typeof raw !== "string")
    return { ok: false, reason: raw === undefined || raw === null ? "missing" : "not a string or number" };
  const t = raw.trim();
  return t === "" ? { ok: false, reason: "is empty" } : { ok: true, value: t };
}

function zodIssues(error: z.ZodError, line: number, row: Record<string, unknown>): ParseIssue[] {
  return error.issues.map((i) => {
    const field = String(i.path[0] ?? "(row)");
    return { line, field, value: show(row[field]), reason: i.message };
  });
}

export type RowResult<R> = { ok: true; row: R } | { ok: false; issues: ParseIssue[] };

export interface DatasetColumnOptions {
  idColumn?: string;
  labelColumn?: string;
  textColumn?: string;
  sliceColumn?: string;
}

export type ResolvedColumns<K extends string> = { [key in K]?: string };

/** Columns of a dataset file; a missing id or label column is a header error. */
export function resolveDatasetColumns(
  columns: readonly string[],
  options: DatasetColumnOptions,
  line = 1,
): { ok: true; cols: ResolvedColumns<"id" | "label" | "text" | "slice"> } | { ok: false; issues: ParseIssue[] } {
  const cols = {
    id: pickColumn(columns, COLUMN_NAMES.id, options.idColumn),
    label: pickColumn(columns, COLUMN_NAMES.label, options.labelColumn),
    text: pickColumn(columns, COLUMN_NAMES.text, options.textColumn),
    slice: pickColumn(columns, COLUMN_NAMES.slice, options.sliceColumn),
  };
  const issues: ParseIssue[] = [];
  if (!cols.id)
    issues.push({
      line,
      field: "(header)",
      value: show(columns.join(",")),
      reason: `no item id column (${options.idColumn ? `"${options.idColumn}"` : COLUMN_NAMES.id.join(", ")})`,
    });
  if (!cols.label)
    issues.push({
      line,
      field: "(header)",
      value: show(columns.join(",")),
      reason: `no gold label column (${options.labelColumn ? `"${options.labelColumn}"` : COLUMN_NAMES.label.join(", ")})`,
    });
  if (options.textColumn && !cols.text)
    issues.push({ line, field: "(header)", value: options.textColumn, reason: "text column not found" });
  if (options.sliceColumn && !cols.slice)
    issues.push({ line, field: "(header)", value: options.sliceColumn, reason: "slice column not found" });
  return issues.length ? { ok: false, issues } : { ok: true, cols };
}

export function readDatasetRow(
  values: Record<string, unknown>,
  cols: ResolvedColumns<"id" | "label" | "text" | "slice">,
  mapping: LabelMapping,
  line: number,
): RowResult<DatasetRow> {
  const issues: ParseIssue[] = [];
  const id = readId(values[cols.id!]);
  if (!id.ok) issues.push({ line, field: cols.id!, value: show(values[cols.id!]), reason: id.reason });
  const label = readLabel(values[cols.label!], mapping);
  if (!label.ok) issues.push({ line, field: cols.label!, value: show(values[cols.label!]), reason: label.reason });
  else if (label.value === null) issues.push({ line, field: cols.label!, value: "", reason: "missing gold label" });
  if (issues.length) return { ok: false, issues };
  const candidate = {
    itemId: (id as { value: string }).value,
    label: (label as { value: boolean }).value,
    text: cols.text ? readText(values[cols.text]) : null,
    slice: cols.slice ? readText(values[cols.slice]) : null,
  };
  if (passesDatasetRow(candidate)) return { ok: true, row: candidate };
  const parsed = datasetRowSchema.safeParse(candidate);
  return parsed.success
    ? { ok: true, row: parsed.data }
    : { ok: false, issues: zodIssues(parsed.error, line, candidate) };
}

export interface PredictionColumnOptions {
  idColumn?: string;
  scoreColumn?: string;
  predictedColumn?: string;
}

type PredictionKey =
  | "id"
  | "score"
  | "predicted"
  | "parseFailure"
  | "rawOutput"
  | "latencyMs"
  | "latencyS"
  | "inputTokens"
  | "outputTokens";

export function resolvePredictionColumns(
  columns: readonly string[],
  options: PredictionColumnOptions,
  line = 1,
): { ok: true; cols: ResolvedColumns<PredictionKey> } | { ok: false; issues: ParseIssue[] } {
  const cols: ResolvedColumns<PredictionKey> = {
    id: pickColumn(columns, COLUMN_NAMES.id, options.idColumn),
    score: pickColumn(columns, COLUMN_NAMES.score, options.scoreColumn),
    predicted: pickColumn(columns, COLUMN_NAMES.predicted, options.predictedColumn),
    parseFailure: pickColumn(columns, COLUMN_NAMES.parseFailure),
    rawOutput: pickColumn(columns, COLUMN_NAMES.rawOutput),
    latencyMs: pickColumn(columns, COLUMN_NAMES.latencyMs),
    latencyS: pickColumn(columns, COLUMN_NAMES.latencyS),
    inputTokens: pickColumn(columns, COLUMN_NAMES.inputTokens),
    outputTokens: pickColumn(columns, COLUMN_NAMES.outputTokens),
  };
  const issues: ParseIssue[] = [];
  const header = show(columns.join(","));
  if (!cols.id)
    issues.push({
      line,
      field: "(header)",
      value: header,
      reason: `no item id column (${options.idColumn ? `"${options.idColumn}"` : COLUMN_NAMES.id.join(", ")})`,
    });
  if (!cols.score && !cols.predicted)
    issues.push({
      line,
      field: "(header)",
      value: header,
      reason: `neither a score column (${COLUMN_NAMES.score.join(", ")}) nor a predicted label column (${COLUMN_NAMES.predicted.join(", ")})`,
    });
  return issues.length ? { ok: false, issues } : { ok: true, cols };
}

function readBool(raw: unknown): Read<boolean> {
  if (raw === undefined || raw === null || raw === "") return { ok: true, value: false };
  if (typeof raw === "boolean") return { ok: true, value: raw };
  const t = String(raw).trim().toLowerCase();
  if (["1", "true", "yes"].includes(t)) return { ok: true, value: true };
  if (["0", "false", "no", ""].includes(t)) return { ok: true, value: false };
  return { ok: false, reason: "not true/false" };
}

function issueAt(values: Record<string, unknown>, column: string, reason: string, line: number): ParseIssue {
  return { line, field: column, value: show(values[column]), reason };
}

export function readPredictionRow(
  values: Record<string, unknown>,
  cols: ResolvedColumns<PredictionKey>,
  mapping: LabelMapping,
  line: number,
): RowResult<PredictionRow> {
  let issues: ParseIssue[] | null = null;
  const idRaw = values[cols.id!];
  let itemId = "";
  if (typeof idRaw === "string" && idRaw !== "" && idRaw.charCodeAt(0) > 32 && idRaw.charCodeAt(idRaw.length - 1) > 32)
    itemId = idRaw;
  else {
    const id = readId(idRaw);
    if (id.ok) itemId = id.value;
    else (issues ??= []).push(issueAt(values, cols.id!, id.reason, line));
  }
  let score: number | null = null;
  if (cols.score) {
    const r = readNumber(values[cols.score]);
    if (r.ok) score = r.value;
    else (issues ??= []).push(issueAt(values, cols.score, r.reason, line));
  }
  let predicted: boolean | null = null;
  if (cols.predicted) {
    const r = readLabel(values[cols.predicted], mapping);
    if (r.ok) predicted = r.value;
    else (issues ??= []).push(issueAt(values, cols.predicted, r.reason, line));
  }
  let parseFailure = false;
  if (cols.parseFailure) {
    const r = readBool(values[cols.parseFailure]);
    if (r.ok) parseFailure = r.value;
    else (issues ??= []).push(issueAt(values, cols.parseFailure, r.reason, line));
  }
  let latencyMs: number | null = null;
  const latencyColumn = cols.latencyMs ?? cols.latencyS;
  if (latencyColumn) {
    const r = readNumber(values[latencyColumn]);
    if (!r.ok) (issues ??= []).push(issueAt(values, latencyColumn, r.reason, line));
    else latencyMs = r.value === null ? null : cols.latencyMs ? r.value : r.value * 1000;
  }
  let inputTokens: number | null = null;
  if (cols.inputTokens) {
    const r = readNumber(values[cols.inputTokens]);
    if (r.ok) inputTokens = r.value;
    else (issues ??= []).push(issueAt(values, cols.inputTokens, r.reason, line));
  }
  let outputTokens: number | null = null;
  if (cols.outputTokens) {
    const r = readNumber(values[cols.outputTokens]);
    if (r.ok) outputTokens = r.value;
    else (issues ??= []).push(issueAt(values, cols.outputTokens, r.reason, line));
  }
  if (issues) return { ok: false, issues };
  const candidate = {
    itemId,
    score,
    predicted,
    parseFailure,
    rawOutput: cols.rawOutput ? readText(values[cols.rawOutput]) : null,
    latencyMs,
    inputTokens,
    outputTokens,
  };
  if (passesPredictionRow(candidate)) return { ok: true, row: candidate };
  const parsed = predictionRowSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, row: parsed.data };
  const names: Record<string, string | undefined> = {
    itemId: cols.id,
    latencyMs: latencyColumn,
    score: cols.score ?? cols.predicted,
  };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? "(row)");
      const column = names[key] ?? (cols as Record<string, string | undefined>)[key] ?? key;
      return { line, field: column, value: show(values[column] ?? ""), reason: i.message };
    }),
  };
}
