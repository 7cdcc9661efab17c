import type { ByteSource } from "../../byte-source";
import { show } from "../issues";
import { isObject, type JsonObject } from "../json";
import type { ParseIssue } from "../types";
import { headText, readWholeJson } from "./source-json";
import type { ItemResultEvent, ItemResultParser, ToolItem, ToolRun } from "./types";

/**
 * promptfoo `results.json` (`promptfoo eval -o x.json`, `promptfoo export`): `{evalId, results:
 * {version, timestamp, prompts (v3) | table (v2), results[], stats}, config, metadata
 * {promptfooVersion}}`. One row per result = test × prompt × provider (× repeat); several providers
 * are interleaved, each row names its own (`provider.id`) and the mapping makes each a candidate.
 *
 * The file is one JSON object written whole by promptfoo, with the tool version in `metadata` at
 * its very end, and Verdict has no streaming JSON parser: it is read whole with `source.all()`
 * (the fixture is 21 KB; an export holds one result per test × prompt × provider).
 *
 * Gold is not known here: promptfoo keeps it in whatever var the user named (its f-score example:
 * `vars.sentiment`). Every scalar var is offered in `idFields` as `vars.<name>`, and the mapping
 * names the id var and the gold var from them. Predicted = `response.output` as text (an object
 * as its JSON). `score`, `success`, `gradingResult` and `namedScores` measure assertions, not the
 * model's belief: never a score. The only score is `response.logProbs` (see `logProbsScore`).
 */

const ROWS_PER_BATCH = 1000;

function detect(head: Buffer): number {
  const text = headText(head);
  if (!text.startsWith("{") || !/"results"\s*:\s*\{\s*"version"\s*:\s*[23]\b/.test(text)) return 0;
  return /"evalId"\s*:/.test(text) || /"promptIdx"\s*:|"testIdx"\s*:/.test(text) ? 0.9 : 0;
}

function readRun(file: JsonObject, results: JsonObject): ToolRun {
  const run: ToolRun = { tool: "promptfoo" };
  const metadata = isObject(file.metadata) ? file.metadata : {};
  if (typeof metadata.promptfooVersion === "string") run.toolVersion = metadata.promptfooVersion;
  const config = isObject(file.config) ? file.config : {};
  if (typeof config.description === "string" && config.description.trim()) run.task = config.description.trim();
  const generation: Record<string, string> = { resultsVersion: String(results.version) };
  if (typeof file.evalId === "string") generation.evalId = file.evalId;
  run.generationConfig = generation;
  return run;
}

const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** `testIdx` and the scalar vars and test metadata, by dotted path: where the buyer's id and the gold may be. */
function readIdFields(result: JsonObject, toolId: string): Record<string, string> {
  const fields: Record<string, string> = { testIdx: toolId };
  const vars = isObject(result.vars) ? result.vars : {};
  for (const [k, v] of Object.entries(vars)) if (scalar(v)) fields[`vars.${k}`] = String(v);
  const testCase = isObject(result.testCase) ? result.testCase : {};
  const metadata = isObject(testCase.metadata) ? testCase.metadata : {};
  for (const [k, v] of Object.entries(metadata)) if (scalar(v)) fields[`metadata.${k}`] = String(v);
  return fields;
}

/** The model's answer as text: a string trimmed, structured output as its JSON; none when absent or blank. */
function readOutput(response: JsonObject | undefined): string | undefined {
  const output = response?.output;
  if (output === undefined || output === null) return undefined;
  const text = typeof output === "string" ? output.trim() : JSON.stringify(output);
  return text === "" ? undefined : text;
}

/**
 * promptfoo's `logProbs` are the chosen tokens' logprobs (ProviderResponse.logProbs: number[]).
 * The score is exp of their mean — the geometric mean of the chosen tokens' probabilities — not of
 * the first token's: promptfoo outputs are often structured (the f-score example answers in JSON),
 * where the first token is syntax, not the answer. An approximation, labelled as such.
 */
export function logProbsScore(logProbs: unknown, record: string, issues: ParseIssue[]): ToolItem["score"] {
  if (!Array.isArray(logProbs) || logProbs.length === 0) return undefined;
  if (!logProbs.every((p) => typeof p === "number" && Number.isFinite(p) && p <= 0)) {
    issues.push({ record, field: "response.logProbs", value: show(logProbs), reason: "expected finite logprobs ≤ 0" });
    return undefined;
  }
  const mean = (logProbs as number[]).reduce((a, b) => a + b, 0) / logProbs.length;
  return { value: Math.exp(mean), basis: "chosen-token-probability" };
}

/**
 * v3 results carry `testIdx`; v2 results may not: then the test's position is the order in which
 * its vars first appear (promptfoo runs tests in order), numbered from 0.
 */
function testIndexer(): (result: JsonObject) => number | undefined {
  const seen = new Map<string, number>();
  return (result) => {
    if (typeof result.testIdx === "number")
      return Number.isInteger(result.testIdx) && result.testIdx >= 0 ? result.testIdx : undefined;
    if (result.testIdx !== undefined) return undefined;
    const key = JSON.stringify(result.vars ?? null);
    if (!seen.has(key)) seen.set(key, seen.size);
    return seen.get(key);
  };
}

function readProvider(result: JsonObject): string | undefined {
  const provider = result.provider;
  const id = isObject(provider) ? provider.id : provider;
  return typeof id === "string" && id.trim() !== "" ? id.trim() : undefined;
}

/** A repeat index where promptfoo records one (`repeatIndex`, on the result or in its metadata). */
function readRepeat(result: JsonObject): string | undefined {
  const metadata = isObject(result.metadata) ? result.metadata : {};
  const index = result.repeatIndex ?? metadata.repeatIndex;
  return typeof index === "number" && Number.isInteger(index) ? `repeat=${index}` : undefined;
}

function readRows(list: unknown[]): { items: ToolItem[]; issues: ParseIssue[] } {
  const items: ToolItem[] = [];
  const issues: ParseIssue[] = [];
  const testIndex = testIndexer();
  list.forEach((result, k) => {
    const record = `results.results[${k}]`;
    if (!isObject(result)) return issues.push({ record, field: "(result)", reason: "expected an object" });
    const index = testIndex(result);
    const model = readProvider(result);
    if (index === undefined)
      issues.push({ record, field: "testIdx", value: show(result.testIdx), reason: "expected a test index" });
    if (model === undefined)
      issues.push({ record, field: "provider.id", value: show(result.provider), reason: "missing provider" });
    if (index === undefined || model === undefined) return;
    const toolId = String(index);
    const item: ToolItem = { at: { record }, toolId, idFields: readIdFields(result, toolId), model };
    const repeat = readRepeat(result);
    if (repeat !== undefined) item.repeat = repeat;
    const response = isObject(result.response) ? result.response : undefined;
    const predicted = readOutput(response);
    if (predicted !== undefined) item.predicted = predicted;
    const score = logProbsScore(response?.logProbs, record, issues);
    if (score) item.score = score;
    const prompt = isObject(result.prompt) && typeof result.prompt.raw === "string" ? result.prompt.raw : undefined;
    if (prompt !== undefined) item.input = prompt;
    items.push(item);
  });
  return { items, issues };
}

/** A provider that returned logProbs for some results but not others: those results' scores are unknown. */
function markUnknownScores(items: ToolItem[]): void {
  const scored = new Set(items.filter((i) => i.score).map((i) => i.model));
  for (const item of items) {
    if (!item.score && scored.has(item.model)) item.scoreUnknown = "the provider returned no logProbs for this result";
  }
}

/** What makes the file promptfoo's results of a known version, or the issue that says why not. */
function checkShape(value: unknown): { file: JsonObject; results: JsonObject; list: unknown[] } | ParseIssue {
  const file = isObject(value) ? value : undefined;
  const results = file && isObject(file.results) ? file.results : undefined;
  if (!file || !results)
    return { record: "results", field: "(file)", reason: "not a promptfoo results file: no results object" };
  const version = results.version;
  if (version !== 2 && version !== 3) {
    return {
      record: "results",
      field: "version",
      value: show(version),
      reason: "unsupported results version (2 and 3 are read)",
    };
  }
  const layout = version === 3 ? "prompts" : "table";
  if (results[layout] === undefined) {
    return { record: "results", field: layout, reason: `a version ${version} file has results.${layout}` };
  }
  if (!Array.isArray(results.results))
    return { record: "results", field: "results", reason: "expected a list of results" };
  return { file, results, list: results.results };
}

async function* read(source: ByteSource): AsyncGenerator<ItemResultEvent> {
  const whole = await readWholeJson(source, "results.json");
  if (!whole.ok) return yield { kind: "issue", issue: whole.issue };
  const shape = checkShape(whole.value);
  if (!("list" in shape)) return yield { kind: "issue", issue: shape };
  yield { kind: "run", run: readRun(shape.file, shape.results) };
  const { items, issues } = readRows(shape.list);
  for (const issue of issues) yield { kind: "issue", issue };
  if (issues.length) return;
  markUnknownScores(items);
  for (let i = 0; i < items.length; i += ROWS_PER_BATCH)
    yield { kind: "items", items: items.slice(i, i + ROWS_PER_BATCH) };
}

export const promptfooResultsParser: ItemResultParser = {
  id: "promptfoo-results",
  label: "promptfoo results.json (v2, v3)",
  detect,
  read,
};
