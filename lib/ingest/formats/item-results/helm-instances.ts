import type { ByteSource } from "../../byte-source";
import { readRunSpecName } from "../helm-run-stats";
import { show } from "../issues";
import { isObject, type JsonObject } from "../json";
import type { ParseIssue } from "../types";
import { headText, readWholeJson } from "./source-json";
import type { ItemResultEvent, ItemResultParser, PartnerFile, ToolItem, ToolRun } from "./types";

/**
 * HELM (crfm-helm) per-instance results, from one run directory. HELM writes them as file pairs:
 * - `instances.json` (id, input, references with tags) + `display_predictions.json` (the model's
 *   text per instance × trial), optionally with `run_spec.json` for the model and settings;
 * - `scenario_state.json` (adapter spec + every request with its instance and completions),
 *   optionally with `per_instance_stats.json` (HELM's per-item metrics, merged as `metrics`).
 * The first file of a pair is the one detected; its partner comes in `read`'s `partners`.
 *
 * These files are JSON arrays or objects written whole by HELM's runner (indent 2), small in
 * practice (the fixtures: 49 KB instances, 135 KB for 30 of 100 display predictions, 287 KB
 * scenario state, 751 KB per-instance stats; XSTest's full scenario state is 2.8 MB): they are
 * read whole with `source.all()`, and the rows are known only once both files are read.
 *
 * Gold = the reference tagged "correct" (XSTest: the prompt's safety label "safe"/"unsafe", the
 * other references being its type and focus). Predicted = the model's text (MC joint: the letter
 * through `output_mapping`). Score = the first chosen token's probability, only where HELM stored a
 * real logprob. Per-item stats (`exact_match`, the judges' `xst_score`) are never a score.
 * Rows are the predictions: an instance with none (a cut display_predictions.json) yields no row,
 * and the mapping reports its id as missing against the dataset, as for any predictions upload.
 */

const ROWS_PER_BATCH = 1000;

const isArrayHead = (head: Buffer) => headText(head).startsWith("[");

function detectInstances(head: Buffer): number {
  const text = headText(head);
  return isArrayHead(head) && /^\[\s*\{\s*"input"\s*:/.test(text) && text.includes('"references"') ? 0.9 : 0;
}

function detectScenarioState(head: Buffer): number {
  const text = headText(head);
  return /^\{\s*"adapter_spec"\s*:/.test(text) && text.includes('"request_states"') ? 0.95 : 0;
}

function detectDisplayPredictions(head: Buffer): number {
  const text = headText(head);
  return isArrayHead(head) && text.includes('"instance_id"') && text.includes('"predicted_text"') ? 0.9 : 0;
}

function detectPerInstanceStats(head: Buffer): number {
  const text = headText(head);
  return isArrayHead(head) && text.includes('"instance_id"') && /"stats"\s*:\s*\[/.test(text) ? 0.9 : 0;
}

function detectRunSpec(head: Buffer): number {
  const text = headText(head);
  return text.startsWith("{") && /"scenario_spec"\s*:/.test(text) && /"adapter_spec"\s*:/.test(text) ? 0.9 : 0;
}

/** One instance × trial × perturbation before the file-wide rules (repeat labels, scores) apply. */
type HelmRow = {
  key: string;
  record: string;
  toolId: string;
  trial: number;
  perturbation?: JsonObject;
  gold?: string;
  predicted?: string;
  input?: string;
  /** The first chosen token's logprob as HELM stored it (0 may be a placeholder). */
  logprob?: number;
  metrics?: Record<string, number>;
};

type Collected<T> = { value: T; issues: ParseIssue[] };

/** `name(k=v,…)` with sorted keys: one text per perturbation, the same in every file of the run. */
function describePerturbation(perturbation: JsonObject | undefined): string {
  if (!perturbation) return "";
  const name = typeof perturbation.name === "string" ? perturbation.name : "perturbation";
  const args = Object.keys(perturbation)
    .filter((k) => k !== "name")
    .sort()
    .map((k) => `${k}=${typeof perturbation[k] === "string" ? perturbation[k] : JSON.stringify(perturbation[k])}`);
  return `${name}(${args.join(",")})`;
}

/** HELM's identity of a row: an instance id is shared by its perturbed copies and its trials. */
function rowKey(id: string, trial: number, perturbation: JsonObject | undefined): string {
  return JSON.stringify([id, trial, describePerturbation(perturbation)]);
}

function readTrial(entry: JsonObject, record: string, issues: ParseIssue[]): number {
  const raw = entry.train_trial_index ?? 0;
  if (typeof raw === "number" && Number.isInteger(raw) && raw >= 0) return raw;
  issues.push({ record, field: "train_trial_index", value: show(raw), reason: "expected a non-negative integer" });
  return 0;
}

function readId(entry: JsonObject, field: string, record: string, issues: ParseIssue[]): string | undefined {
  const raw = entry[field];
  if (typeof raw === "string" && raw.trim() !== "") return raw.trim();
  issues.push({ record, field, value: show(raw), reason: "missing instance id" });
  return undefined;
}

/**
 * Gold = the text of the one reference tagged "correct", trimmed. None tagged: no gold (an
 * open-ended scenario). Several: refused — a binary decision needs one gold label per item.
 */
export function readHelmGold(instance: JsonObject, record: string, issues: ParseIssue[]): string | undefined {
  const references = Array.isArray(instance.references) ? instance.references.filter(isObject) : [];
  const correct = references.filter((r) => Array.isArray(r.tags) && r.tags.includes("correct"));
  const texts = correct.map((r) =>
    isObject(r.output) && typeof r.output.text === "string" ? r.output.text.trim() : "",
  );
  if (texts.length > 1) {
    issues.push({
      record,
      field: "references",
      value: show(texts.join(" | ")),
      reason: `${texts.length} references are tagged "correct"; one gold label per item is needed`,
    });
    return undefined;
  }
  return texts[0] || undefined;
}

function inputText(instance: JsonObject): string | undefined {
  return isObject(instance.input) && typeof instance.input.text === "string" ? instance.input.text : undefined;
}

const nonEmpty = (text: unknown) => (typeof text === "string" && text.trim() !== "" ? text.trim() : undefined);

/**
 * The run from an adapter spec (and the run spec's name, which holds the scenario and its
 * arguments): model as HELM resolved it, every adapter setting as text. HELM writes no version.
 */
function readToolRun(adapter: JsonObject | undefined, runName: string | undefined): ToolRun {
  const run: ToolRun = { tool: "helm" };
  if (runName) run.task = readRunSpecName(runName).suite;
  if (!adapter) return run;
  if (typeof adapter.model === "string") run.model = adapter.model;
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries(adapter)) {
    if (value === undefined || value === null) continue;
    config[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  run.generationConfig = config;
  return run;
}

/** A per-item stat's value: its mean, else sum / count; a stat counted 0 times has none. */
function statValue(stat: JsonObject): number | undefined {
  if (typeof stat.mean === "number" && Number.isFinite(stat.mean)) return stat.mean;
  if (typeof stat.count === "number" && stat.count > 0 && typeof stat.sum === "number") return stat.sum / stat.count;
  return undefined;
}

/**
 * `per_instance_stats.json` lists each instance once per metric group (XSTest: once with the
 * judges' stats, once with the basic ones), so entries are merged by (instance_id,
 * train_trial_index, perturbation); the same stat twice with two values is an error.
 */
export function mergeInstanceStats(value: unknown, file: string): Collected<Map<string, Record<string, number>>> {
  const merged = new Map<string, Record<string, number>>();
  const issues: ParseIssue[] = [];
  if (!Array.isArray(value)) {
    issues.push({ record: file, field: "(file)", reason: "expected a list of per-instance stats" });
    return { value: merged, issues };
  }
  value.forEach((entry, index) => {
    const record = `${file}[${index}]`;
    if (!isObject(entry)) return issues.push({ record, field: "(entry)", reason: "expected an object" });
    const id = readId(entry, "instance_id", record, issues);
    if (id === undefined) return;
    const perturbation = isObject(entry.perturbation) ? entry.perturbation : undefined;
    const key = rowKey(id, readTrial(entry, record, issues), perturbation);
    const stats = merged.get(key) ?? {};
    for (const stat of Array.isArray(entry.stats) ? entry.stats.filter(isObject) : []) {
      const name = isObject(stat.name) && typeof stat.name.name === "string" ? stat.name.name : undefined;
      const v = statValue(stat);
      if (name === undefined || v === undefined) continue;
      if (name in stats && stats[name] !== v) {
        issues.push({
          record,
          field: `stats.${name}`,
          value: String(v),
          reason: `differs from ${stats[name]} listed earlier`,
        });
      }
      stats[name] = v;
    }
    merged.set(key, stats);
  });
  return { value: merged, issues };
}

/** The model's hard answer in a request state: MC joint maps the letter through `output_mapping`. */
function readPrediction(state: JsonObject): { predicted?: string; logprob?: number } {
  const result = isObject(state.result) ? state.result : undefined;
  const completion =
    Array.isArray(result?.completions) && isObject(result.completions[0]) ? result.completions[0] : undefined;
  if (!completion || result?.success === false) return {};
  const tokens = Array.isArray(completion.tokens) ? completion.tokens.filter(isObject) : [];
  const first = tokens[0]?.logprob;
  const logprob = typeof first === "number" && Number.isFinite(first) ? first : undefined;
  const text = nonEmpty(completion.text);
  if (!isObject(state.output_mapping)) return { predicted: text, logprob };
  const mapped = text === undefined ? undefined : state.output_mapping[text];
  return { predicted: nonEmpty(mapped), logprob };
}

function readScenarioRows(states: unknown[]): Collected<HelmRow[]> {
  const rows: HelmRow[] = [];
  const issues: ParseIssue[] = [];
  states.forEach((state, index) => {
    const record = `scenario_state.json request_states[${index}]`;
    const instance = isObject(state) && isObject(state.instance) ? state.instance : undefined;
    if (!isObject(state) || !instance) return issues.push({ record, field: "instance", reason: "missing instance" });
    const toolId = readId(instance, "id", `${record}.instance`, issues);
    if (toolId === undefined) return;
    const trial = readTrial(state, record, issues);
    const perturbation = isObject(instance.perturbation) ? instance.perturbation : undefined;
    const gold = readHelmGold(instance, `${record}.instance`, issues);
    const row: HelmRow = { key: rowKey(toolId, trial, perturbation), record, toolId, trial, perturbation, gold };
    rows.push({ ...row, input: inputText(instance), ...readPrediction(state) });
  });
  return { value: rows, issues };
}

function readDisplayRows(instancesValue: unknown, predictionsValue: unknown): Collected<HelmRow[]> {
  const rows: HelmRow[] = [];
  const issues: ParseIssue[] = [];
  if (!Array.isArray(instancesValue))
    issues.push({ record: "instances.json", field: "(file)", reason: "expected a list of instances" });
  if (!Array.isArray(predictionsValue)) {
    issues.push({ record: "display_predictions.json", field: "(file)", reason: "expected a list of predictions" });
  }
  if (issues.length) return { value: rows, issues };
  const instances = new Map<string, JsonObject>();
  (instancesValue as unknown[]).forEach((instance, index) => {
    const record = `instances.json[${index}]`;
    if (!isObject(instance)) return issues.push({ record, field: "(entry)", reason: "expected an object" });
    const id = readId(instance, "id", record, issues);
    const perturbation = isObject(instance.perturbation) ? instance.perturbation : undefined;
    if (id !== undefined) instances.set(JSON.stringify([id, describePerturbation(perturbation)]), instance);
  });
  (predictionsValue as unknown[]).forEach((prediction, index) => {
    const record = `display_predictions.json[${index}]`;
    if (!isObject(prediction)) return issues.push({ record, field: "(entry)", reason: "expected an object" });
    const toolId = readId(prediction, "instance_id", record, issues);
    if (toolId === undefined) return;
    const perturbation = isObject(prediction.perturbation) ? prediction.perturbation : undefined;
    const instance = instances.get(JSON.stringify([toolId, describePerturbation(perturbation)]));
    if (!instance) {
      return issues.push({
        record,
        field: "instance_id",
        value: toolId,
        reason: "not in instances.json (not the same run?)",
      });
    }
    const trial = readTrial(prediction, record, issues);
    const gold = readHelmGold(instance, record, issues);
    const predicted = nonEmpty(prediction.mapped_output) ?? nonEmpty(prediction.predicted_text);
    const metrics = isObject(prediction.stats) ? finiteNumbers(prediction.stats) : undefined;
    rows.push({
      key: rowKey(toolId, trial, perturbation),
      record,
      toolId,
      trial,
      perturbation,
      gold,
      predicted,
      input: inputText(instance),
      metrics,
    });
  });
  return { value: rows, issues };
}

function finiteNumbers(object: JsonObject): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(object)) if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return out;
}

/**
 * The one rule for HELM's chosen-token score. Since 2024 HELM stores only each chosen token's own
 * logprob, and chat APIs store a placeholder 0 there: 0 is missing, never P = 1. A run where no
 * token has a real logprob is a hard-label run (no score on any row); in a run that has them, a row
 * whose logprob is 0 or absent gets its score reported unknown, never imputed. The first token is
 * the one that carries a classification answer (MC joint: the letter; a refusal starts there too).
 */
export function chosenTokenScore(
  logprob: number | undefined,
  runHasLogprobs: boolean,
): Pick<ToolItem, "score" | "scoreUnknown"> {
  if (!runHasLogprobs) return {};
  if (logprob === undefined) return { scoreUnknown: "HELM stored no logprob for the chosen token" };
  if (logprob === 0) return { scoreUnknown: "HELM's logprob 0 is a placeholder (chat model), not P = 1" };
  return { score: { value: Math.exp(logprob), basis: "chosen-token-probability" } };
}

/** Rows → items: duplicate keys refused, repeats labelled when an id occurs more than once, stats merged. */
function toItems(rows: HelmRow[], stats: Map<string, Record<string, number>> | undefined): Collected<ToolItem[]> {
  const issues: ParseIssue[] = [];
  const seen = new Set<string>();
  const perId = new Map<string, number>();
  for (const row of rows) perId.set(row.toolId, (perId.get(row.toolId) ?? 0) + 1);
  const runHasLogprobs = rows.some((r) => r.logprob !== undefined && r.logprob !== 0);
  const items: ToolItem[] = [];
  for (const row of rows) {
    if (seen.has(row.key)) {
      issues.push({
        record: row.record,
        field: "instance_id",
        value: row.toolId,
        reason: "the same instance, trial and perturbation twice",
      });
      continue;
    }
    seen.add(row.key);
    const item: ToolItem = { at: { record: row.record }, toolId: row.toolId, idFields: { instance_id: row.toolId } };
    if ((perId.get(row.toolId) ?? 0) > 1) {
      item.repeat =
        `trial=${row.trial}` + (row.perturbation ? `;perturbation=${describePerturbation(row.perturbation)}` : "");
    }
    if (row.gold !== undefined) item.gold = row.gold;
    if (row.predicted !== undefined) item.predicted = row.predicted;
    Object.assign(item, chosenTokenScore(row.logprob, runHasLogprobs));
    if (row.input !== undefined) item.input = row.input;
    const metrics = { ...row.metrics, ...stats?.get(row.key) };
    if (Object.keys(metrics).length) item.metrics = metrics;
    items.push(item);
  }
  for (const key of stats?.keys() ?? []) {
    if (seen.has(key)) continue;
    const [id, trial, perturbation] = JSON.parse(key) as [string, number, string];
    // HELM adds "worst case over perturbations" stats with no request of their own.
    if (/computed_on=worst/.test(perturbation)) continue;
    issues.push({
      record: "per_instance_stats.json",
      field: "instance_id",
      value: id,
      reason: `stats for trial ${trial}${perturbation ? ` (${perturbation})` : ""} with no request in scenario_state.json (not the same run?)`,
    });
  }
  return { value: items, issues };
}

async function* emit(
  run: ToolRun,
  items: Collected<ToolItem[]>,
  earlier: ParseIssue[],
): AsyncGenerator<ItemResultEvent> {
  yield { kind: "run", run };
  for (const issue of [...earlier, ...items.issues]) yield { kind: "issue", issue };
  if (earlier.length || items.issues.length) return;
  for (let i = 0; i < items.value.length; i += ROWS_PER_BATCH) {
    yield { kind: "items", items: items.value.slice(i, i + ROWS_PER_BATCH) };
  }
}

function missingPartner(partner: PartnerFile): ParseIssue {
  return { record: partner.label, field: "(file)", reason: `${partner.label} from the same run directory is required` };
}

const PREDICTIONS: PartnerFile = {
  role: "predictions",
  label: "display_predictions.json",
  required: true,
  detect: detectDisplayPredictions,
};
const RUN_SPEC: PartnerFile = { role: "runSpec", label: "run_spec.json", required: false, detect: detectRunSpec };
const STATS: PartnerFile = {
  role: "stats",
  label: "per_instance_stats.json",
  required: false,
  detect: detectPerInstanceStats,
};

async function* readInstancesPair(
  source: ByteSource,
  partners: Readonly<Record<string, ByteSource>> = {},
): AsyncGenerator<ItemResultEvent> {
  const predictionsSource = partners[PREDICTIONS.role];
  const runSpecSource = partners[RUN_SPEC.role];
  const spec = runSpecSource ? await readWholeJson(runSpecSource, RUN_SPEC.label) : undefined;
  const specValue = spec?.ok && isObject(spec.value) ? spec.value : undefined;
  const adapter = isObject(specValue?.adapter_spec) ? specValue.adapter_spec : undefined;
  const run = readToolRun(adapter, typeof specValue?.name === "string" ? specValue.name : undefined);
  const earlier: ParseIssue[] = [];
  if (spec && !spec.ok) earlier.push(spec.issue);
  if (!predictionsSource) return yield* emit(run, { value: [], issues: [] }, [...earlier, missingPartner(PREDICTIONS)]);
  const [instances, predictions] = await Promise.all([
    readWholeJson(source, "instances.json"),
    readWholeJson(predictionsSource, PREDICTIONS.label),
  ]);
  if (!instances.ok) earlier.push(instances.issue);
  if (!predictions.ok) earlier.push(predictions.issue);
  if (!instances.ok || !predictions.ok) return yield* emit(run, { value: [], issues: [] }, earlier);
  const rows = readDisplayRows(instances.value, predictions.value);
  yield* emit(run, toItems(rows.value, undefined), [...earlier, ...rows.issues]);
}

async function* readScenarioPair(
  source: ByteSource,
  partners: Readonly<Record<string, ByteSource>> = {},
): AsyncGenerator<ItemResultEvent> {
  const state = await readWholeJson(source, "scenario_state.json");
  const value = state.ok && isObject(state.value) ? state.value : undefined;
  const run = readToolRun(isObject(value?.adapter_spec) ? value.adapter_spec : undefined, undefined);
  if (!state.ok) return yield* emit(run, { value: [], issues: [] }, [state.issue]);
  if (!value || !Array.isArray(value.request_states)) {
    const issue = {
      record: "scenario_state.json",
      field: "request_states",
      reason: "expected a list of request states",
    };
    return yield* emit(run, { value: [], issues: [] }, [issue]);
  }
  const earlier: ParseIssue[] = [];
  let stats: Map<string, Record<string, number>> | undefined;
  const statsSource = partners[STATS.role];
  if (statsSource) {
    const read = await readWholeJson(statsSource, STATS.label);
    if (!read.ok) earlier.push(read.issue);
    else {
      const merged = mergeInstanceStats(read.value, STATS.label);
      earlier.push(...merged.issues);
      stats = merged.value;
    }
  }
  const rows = readScenarioRows(value.request_states);
  yield* emit(run, toItems(rows.value, stats), [...earlier, ...rows.issues]);
}

export const helmInstancesParser: ItemResultParser = {
  id: "helm-instances",
  label: "HELM instances.json + display_predictions.json",
  detect: detectInstances,
  partners: [PREDICTIONS, RUN_SPEC],
  read: (source, options) => readInstancesPair(source, options?.partners),
};

export const helmScenarioStateParser: ItemResultParser = {
  id: "helm-scenario-state",
  label: "HELM scenario_state.json (+ per_instance_stats.json)",
  detect: detectScenarioState,
  partners: [STATS],
  read: (source, options) => readScenarioPair(source, options?.partners),
};
