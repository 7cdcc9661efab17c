import { IssueCollector, fileFailure, show } from "./issues";
import { JsonFields, isObject, parseJson, path, sniffArray, type JsonObject } from "./json";
import { defaultHigherIsBetter } from "./metric-direction";
import type { LeaderboardRecord, ParseOptions } from "./types";
import { leaderboardRecordSchema } from "./types";
import { checkRecord } from "./validate";
import { endParse, formatParser } from "./parser-end";
import { dateInFileName } from "./source-date";

/**
 * Stanford HELM `runs/<suite>/<run_spec_name>/stats.json`: a list of Stat
 * `{name: {name, split, sub_split?, perturbation?}, count, sum, ..., mean?}`. The file does not
 * name the model or the scenario: they come from the run spec (`options.runSpec`: the run
 * directory name such as "bbq:subject=all,method=multiple_choice_joint,model=openai_gpt-4o-2024-05-13",
 * or the text of run_spec.json). Imported: unperturbed stats with a mean (fractions for accuracy
 * metrics, seconds for inference_runtime); bookkeeping counters and robustness/fairness
 * perturbations are left out, with a warning.
 */
const FORMAT = "helm-run-stats";
const SOURCE = "HELM";
/** Counters and bookkeeping, not scores. */
const BOOKKEEPING = /^(num_|batch_size$|finish_reason_|training_|prompt_truncated$|max_prob$)/;

function detect(content: string): number {
  const first = sniffArray(content)?.[0];
  return isObject(first) &&
    isObject(first.name) &&
    typeof first.name.name === "string" &&
    "count" in first &&
    "sum" in first
    ? 0.9
    : 0;
}

type RunSpec = { suite: string; model?: string };

/** HELM writes "/" in model names as "_" inside run names (`model=openai_gpt-4o`): restore the first. */
function modelFromRunName(value: string): string {
  return value.includes("/") ? value : value.replace("_", "/");
}

/** Suite = run spec name without its model arguments, e.g. "bbq:subject=all,method=multiple_choice_joint". */
export function readRunSpecName(name: string): RunSpec {
  const colon = name.indexOf(":");
  const scenario = colon < 0 ? name : name.slice(0, colon);
  const args = colon < 0 ? [] : name.slice(colon + 1).split(",");
  let model: string | undefined;
  const kept: string[] = [];
  for (const arg of args) {
    const [k, v] = arg.split("=", 2);
    if (k === "model" && v) model = modelFromRunName(v);
    else if (k !== "model_deployment") kept.push(arg);
  }
  return { suite: kept.length ? `${scenario}:${kept.join(",")}` : scenario, model };
}

function readRunSpec(text: string | undefined): RunSpec | undefined {
  if (!text?.trim()) return undefined;
  if (!text.trim().startsWith("{")) return readRunSpecName(text.trim());
  const parsed = parseJson(text);
  if (!parsed.ok || !isObject(parsed.value)) return undefined;
  const spec: JsonObject = parsed.value;
  const adapter = isObject(spec.adapter_spec) ? spec.adapter_spec : {};
  const fromName = typeof spec.name === "string" ? readRunSpecName(spec.name) : undefined;
  const model = typeof adapter.model === "string" ? adapter.model : fromName?.model;
  return fromName ? { suite: fromName.suite, model } : undefined;
}

function parse(content: string, options: ParseOptions = {}) {
  const parsed = parseJson(content);
  if (!parsed.ok) return fileFailure(FORMAT, parsed.issue);
  if (!Array.isArray(parsed.value)) {
    return fileFailure(FORMAT, {
      record: "",
      field: "(file)",
      reason: "not a HELM stats.json: expected a list of stats",
    });
  }
  const spec = readRunSpec(options.runSpec);
  const model = options.model ?? spec?.model;
  if (!spec || !model) {
    return fileFailure(FORMAT, {
      field: "runSpec",
      value: show(options.runSpec),
      reason:
        "HELM stats.json names neither model nor scenario: give the run spec name (run directory) or run_spec.json",
    });
  }
  const issues = new IssueCollector();
  const fields = new JsonFields(issues);
  const records: LeaderboardRecord[] = [];
  // stats.json states no date: the run's date, when the file's name carries it.
  const asOf = dateInFileName(options.fileName);
  let perturbed = 0;
  parsed.value.forEach((stat: unknown, i) => {
    const where = path("", i);
    if (!isObject(stat) || !isObject(stat.name)) {
      issues.add({ record: where, field: "name", value: show(stat), reason: "expected a Stat with a name object" });
      return;
    }
    const name = fields.str(stat.name, "name", path(where, "name"), true);
    const split = fields.str(stat.name, "split", path(where, "name"));
    const subSplit = fields.str(stat.name, "sub_split", path(where, "name"));
    const count = fields.num(stat, "count", where, { required: true });
    if (!name || count === undefined || count === 0) return; // count 0 = never computed (no mean key)
    if (stat.name.perturbation !== undefined) {
      perturbed++;
      return;
    }
    if (BOOKKEEPING.test(name)) return;
    const mean = fields.num(stat, "mean", where, { required: true });
    if (mean === undefined) return;
    const qualifiers = [split && split !== "test" ? split : undefined, subSplit].filter(Boolean);
    const record: LeaderboardRecord = {
      model,
      suite: spec.suite,
      metric: qualifiers.length ? `${name} (${qualifiers.join(", ")})` : name,
      value: mean,
      higherIsBetter: defaultHigherIsBetter(name),
      stage: "LEADERBOARD",
      source: SOURCE,
    };
    if (asOf) record.asOf = asOf;
    const ok = checkRecord(leaderboardRecordSchema, record, { record: where }, issues);
    if (ok) records.push(ok);
  });
  if (perturbed > 0) issues.warn(`${perturbed} perturbed (robustness/fairness) statistics not imported.`);
  issues.warn(
    "HELM stats.json has no direction per metric: inferred from names (runtime, bias... lower is better); inference_runtime is in seconds.",
  );
  return endParse(FORMAT, issues, records, {
    nothing: { record: "", field: "(file)", reason: "no statistics with a mean" },
  });
}

export const helmRunStats = formatParser<LeaderboardRecord>(
  FORMAT,
  "HELM run stats.json (with its run spec)",
  detect,
  parse,
);
