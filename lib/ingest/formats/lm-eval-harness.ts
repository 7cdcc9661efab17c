import { IssueCollector, fileFailure, show } from "./issues";
import { JsonFields, isObject, parseJson, path, sniffObject, type JsonObject } from "./json";
import { defaultHigherIsBetter } from "./metric-direction";
import { readNumberValue } from "./numbers";
import type { LeaderboardRecord, ParseOptions } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";

/**
 * EleutherAI lm-evaluation-harness `results_<date>.json` (also the Open LLM Leaderboard v2
 * per-model results, which are this format). `results` maps every task and group to keys
 * "<metric>,<filter>" → value (a fraction 0–1 for accuracy-like metrics, stored as is) and
 * "<metric>_stderr,<filter>" → number or the string "N/A". Direction comes from
 * `higher_is_better[task][metric]` (absent in early-2024 files: then from the metric name).
 */
const FORMAT = "lm-eval-harness";
const SOURCE = "lm-evaluation-harness";

function detect(content: string): number {
  const doc = sniffObject(content);
  if (!doc || !isObject(doc.results)) return 0;
  const tasks = Object.values(doc.results).filter(isObject);
  const hasMetricKeys = tasks.some((t) => Object.keys(t).some((k) => k.includes(",")));
  if (!hasMetricKeys) return 0;
  return "lm_eval_version" in doc || "n-shot" in doc || "versions" in doc || "config" in doc ? 0.95 : 0.6;
}

/** `model_args` is a dict in new files and "pretrained=x,dtype=auto" in old ones. */
function modelName(doc: JsonObject): string | undefined {
  if (typeof doc.model_name === "string" && doc.model_name.trim()) return doc.model_name.trim();
  const config = isObject(doc.config) ? doc.config : {};
  const args = config.model_args;
  if (isObject(args)) {
    for (const key of ["pretrained", "model", "model_name", "path"]) {
      const v = args[key];
      if (typeof v === "string" && v.trim()) return v.trim();
    }
  }
  if (typeof args === "string") {
    const m = /(?:^|,)\s*(?:pretrained|model|path)=([^,]+)/.exec(args);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

function parse(content: string, options: ParseOptions = {}) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  const doc = parsed.value;
  if (!isObject(doc) || !isObject(doc.results)) {
    return fileFailure(FORMAT, {
      record: "",
      field: "results",
      reason: 'not an lm-evaluation-harness results file: no "results" object',
    });
  }
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const model = options.model ?? modelName(doc);
  if (!model)
    issues.add({
      record: "",
      field: "model_name",
      reason: "the file does not name the model (model_name or config.model_args.pretrained); pass it explicitly",
    });
  const date = fields.num(doc, "date", "");
  const asOf = date === undefined ? undefined : new Date(date * 1000).toISOString();
  const directions = isObject(doc.higher_is_better) ? doc.higher_is_better : undefined;
  if (!directions) issues.warn("No higher_is_better table (pre-2024 file): direction inferred from metric names.");

  const records: LeaderboardRecord[] = [];
  for (const [task, metrics] of Object.entries(doc.results)) {
    const where = path("results", task);
    if (!isObject(metrics)) {
      issues.add({ record: where, field: task, value: show(metrics), reason: "expected an object of metrics" });
      continue;
    }
    for (const [key, raw] of Object.entries(metrics)) {
      const comma = key.indexOf(",");
      if (comma < 0) continue; // alias, name, sample_len, sample_count
      const metric = key.slice(0, comma);
      const filter = key.slice(comma + 1);
      if (metric.endsWith("_stderr")) continue;
      const value = readNumberValue(raw, true);
      if (!value.ok) {
        issues.add({ record: where, field: key, value: show(raw), reason: value.reason });
        continue;
      }
      // "N/A" is how lm-eval writes "no standard error" (e.g. corpus-level F1).
      const stderrKey = `${metric}_stderr,${filter}`;
      const stderrRaw = metrics[stderrKey];
      let stderr: number | undefined;
      if (stderrRaw !== undefined && stderrRaw !== null && stderrRaw !== "N/A") {
        const s = readNumberValue(stderrRaw, true);
        if (s.ok) stderr = s.value;
        else issues.add({ record: where, field: stderrKey, value: show(stderrRaw), reason: s.reason });
      }
      const taskDirections = directions && isObject(directions[task]) ? directions[task] : undefined;
      const declared = taskDirections?.[metric];
      const record: LeaderboardRecord = {
        model: model ?? "?",
        suite: task,
        metric: filter === "none" ? metric : `${metric},${filter}`,
        value: value.value,
        higherIsBetter: typeof declared === "boolean" ? declared : defaultHigherIsBetter(metric),
        stage: "LEADERBOARD",
        source: SOURCE,
      };
      if (stderr !== undefined) record.stderr = stderr;
      if (asOf !== undefined) record.asOf = asOf;
      const ok = checkRecord(leaderboardRecordSchema, record, { record: path(where, key) }, issues);
      if (ok) records.push(ok);
    }
  }
  const version = typeof doc.lm_eval_version === "string" ? doc.lm_eval_version : undefined;
  return endParse(FORMAT, issues, records, {
    nothing: { record: "results", field: "results", reason: "no metrics found" },
    producerVersion: version,
  });
}

export const lmEvalHarness = formatParser<LeaderboardRecord>(
  FORMAT,
  "lm-evaluation-harness results JSON",
  detect,
  parse,
);
