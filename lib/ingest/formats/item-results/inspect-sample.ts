import { show } from "../issues";
import { isObject, type JsonObject } from "../json";
import type { ParseIssue } from "../types";
import { flattenScalarFields } from "./id-fields";
import { softmaxLogs } from "./softmax";
import type { ToolItem, ToolRun } from "./types";

/**
 * What Inspect AI's log holds, read the same way from a `.eval` ZIP and a `.json` log
 * (EVAL-FORMATS.md §2): the run from the header, one `EvalSample` per sample × epoch.
 */

export const INSPECT_SCHEMA_VERSION = 2;

/** Refuses a header whose schema is not version 2, or whose run did not finish ("started", "error", "cancelled"). */
export function checkInspectHeader(header: unknown, record: string): ParseIssue | undefined {
  if (!isObject(header)) return { record, field: "(file)", reason: "not a JSON object: not an Inspect log header" };
  if (header.version !== INSPECT_SCHEMA_VERSION)
    return {
      record,
      field: "version",
      value: show(header.version),
      reason: `log schema version ${show(header.version) || "(none)"}; this importer reads Inspect's schema version ${INSPECT_SCHEMA_VERSION}`,
    };
  if (header.status !== "success")
    return {
      record,
      field: "status",
      value: show(header.status),
      reason: `the run's status is "${show(header.status)}", not "success": a partial or failed log is refused`,
    };
  return undefined;
}

/** The run as Inspect recorded it; the model as it resolved it (a sample's `output.model`) when known. */
export function readInspectRun(header: JsonObject, resolvedModel: string | undefined): ToolRun {
  const spec = isObject(header.eval) ? header.eval : {};
  const run: ToolRun = { tool: "inspect-ai", status: String(header.status) };
  const packages = isObject(spec.packages) ? spec.packages : {};
  if (typeof packages.inspect_ai === "string") run.toolVersion = packages.inspect_ai;
  const model = resolvedModel ?? (typeof spec.model === "string" ? spec.model : undefined);
  if (model) run.model = model;
  if (typeof spec.task === "string") run.task = spec.task;
  const commit = isObject(spec.revision) && typeof spec.revision.commit === "string" ? spec.revision.commit : undefined;
  const version = spec.task_version === undefined || spec.task_version === null ? undefined : show(spec.task_version);
  if (version !== undefined || commit !== undefined)
    run.taskVersion = [version, commit && `commit ${commit}`].filter(Boolean).join(", ");
  // The plan's config is what older logs kept; the eval's model_generate_config wins where both say.
  const plan = isObject(header.plan) && isObject(header.plan.config) ? header.plan.config : {};
  const generate = isObject(spec.model_generate_config) ? spec.model_generate_config : {};
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...plan, ...generate }))
    if (value !== null && value !== undefined) config[key] = typeof value === "string" ? value : JSON.stringify(value);
  if (Object.keys(config).length) run.generationConfig = config;
  return run;
}

/** `output.model` of a sample: the model name as the provider resolved it (`gpt-4o-mini-2024-07-18`). */
export function resolvedModel(sample: unknown): string | undefined {
  if (!isObject(sample) || !isObject(sample.output)) return undefined;
  return typeof sample.output.model === "string" && sample.output.model ? sample.output.model : undefined;
}

/** The gold as the sample states it, trimmed; of a list (any of which the scorer accepts) the first. */
export function inspectTarget(target: unknown): string | undefined {
  const first = Array.isArray(target) ? target[0] : target;
  return typeof first === "string" ? first.trim() : undefined;
}

type SampleRead = { item: ToolItem } | { issue: ParseIssue };

/**
 * One sample × epoch. The hard answer is the first scorer's `answer`, else the completion text
 * (an unscored log). The scorer's value (C/I) is correctness, never a score; `metadata` is the
 * dataset's (its `label_confidence` is the label's confidence, not the model's): both stay out of
 * the score, which comes only from the answer token's top logprobs over `labels`.
 */
export function readInspectSample(sample: unknown, record: string, labels: readonly string[]): SampleRead {
  const fail = (field: string, value: unknown, reason: string): SampleRead => ({
    issue: { record, field, value: show(value), reason },
  });
  if (!isObject(sample)) return fail("(sample)", sample, "not a JSON object");
  if (!(typeof sample.id === "number" || (typeof sample.id === "string" && sample.id.trim())))
    return fail("id", sample.id, "missing: every sample has an id");
  const toolId = String(sample.id).trim();
  const idFields: Record<string, string> = { id: toolId };
  flattenScalarFields("metadata", sample.metadata, idFields);
  const item: ToolItem = { at: { record }, toolId, idFields };
  if (sample.epoch !== undefined && sample.epoch !== null) item.repeat = show(sample.epoch);
  const gold = inspectTarget(sample.target);
  if (gold !== undefined) item.gold = gold;
  if (typeof sample.input === "string") item.input = sample.input;
  const predicted = scorerAnswer(sample.scores) ?? completionText(sample.output);
  if (predicted !== undefined && predicted !== "") item.predicted = predicted;
  Object.assign(item, labelProbabilities(sample.output, sampleLabels(sample, labels)));
  return { item };
}

function scorerAnswer(scores: unknown): string | undefined {
  if (!isObject(scores)) return undefined;
  const first = Object.values(scores)[0];
  return isObject(first) && typeof first.answer === "string" ? first.answer.trim() : undefined;
}

function completionText(output: unknown): string | undefined {
  if (!isObject(output)) return undefined;
  if (typeof output.completion === "string") return output.completion.trim();
  const choice = Array.isArray(output.choices) ? output.choices[0] : undefined;
  const content = isObject(choice) && isObject(choice.message) ? choice.message.content : undefined;
  if (typeof content === "string") return content.trim();
  if (Array.isArray(content))
    return content
      .filter((part) => isObject(part) && part.type === "text" && typeof part.text === "string")
      .map((part) => (part as JsonObject).text as string)
      .join("")
      .trim();
  return undefined;
}

/** A multiple-choice sample answers with letters (A, B, …), one per choice; any other with the log's gold labels. */
function sampleLabels(sample: JsonObject, labels: readonly string[]): readonly string[] {
  if (Array.isArray(sample.choices) && sample.choices.length > 0)
    return sample.choices.map((_, k) => String.fromCharCode(65 + k));
  return labels;
}

/**
 * Softmax over the label tokens among the first answer token's `top_logprobs` (tokens compared
 * trimmed and case-insensitively; several spellings of one label, " Yes" and "Yes", add up).
 * A label absent from the top-k leaves the score unknown: reported, never imputed.
 */
function labelProbabilities(output: unknown, labels: readonly string[]): Partial<ToolItem> {
  const top = firstTopLogprobs(output);
  if (!top || labels.length < 2) return {};
  const mass = new Map<string, number[]>();
  for (const entry of top) {
    if (!isObject(entry) || typeof entry.token !== "string" || typeof entry.logprob !== "number") continue;
    const token = entry.token.trim().toLowerCase();
    const label = labels.find((l) => l.toLowerCase() === token);
    if (label !== undefined && Number.isFinite(entry.logprob))
      mass.set(label, [...(mass.get(label) ?? []), entry.logprob]);
  }
  const missing = labels.filter((l) => !mass.has(l));
  if (missing.length)
    return {
      scoreUnknown: `label token${missing.length > 1 ? "s" : ""} ${missing.map((l) => JSON.stringify(l)).join(", ")} not among the answer token's ${top.length} top logprobs`,
    };
  // log of the summed probability of a label's spellings, so one softmax spans the labels.
  const logs = labels.map((l) => {
    const lps = mass.get(l)!;
    const m = Math.max(...lps);
    return m + Math.log(lps.reduce((a, lp) => a + Math.exp(lp - m), 0));
  });
  const probabilities = softmaxLogs(logs);
  return { choiceProbabilities: Object.fromEntries(labels.map((l, k) => [l, probabilities[k]!])) };
}

function firstTopLogprobs(output: unknown): unknown[] | undefined {
  if (!isObject(output) || !Array.isArray(output.choices)) return undefined;
  const choice = output.choices[0];
  if (!isObject(choice) || !isObject(choice.logprobs) || !Array.isArray(choice.logprobs.content)) return undefined;
  const first = choice.logprobs.content[0];
  return isObject(first) && Array.isArray(first.top_logprobs) ? first.top_logprobs : undefined;
}
