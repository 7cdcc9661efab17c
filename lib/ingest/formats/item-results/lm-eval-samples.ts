import type { ByteSource } from "../../byte-source";
import { InvalidUtf8Error, utf8Chunks } from "../../records";
import { show } from "../issues";
import { isObject, type JsonObject } from "../json";
import type { ParseIssue } from "../types";
import { flattenScalarFields } from "./id-fields";
import { softmaxLogs } from "./softmax";
import type { ItemResultEvent, ItemResultParser, ItemResultReadOptions, ToolItem } from "./types";

/**
 * lm-evaluation-harness `--log_samples` output: `samples_<task>_<date>.jsonl` (before PR #1930 the
 * same JSON Lines under a `.json` suffix), one line per document per filter
 * (EVAL-FORMATS.md §3). A multiple-choice line carries each choice's log-likelihood, the honest
 * score; a generate_until line carries text only. The per-sample metric keys (`acc`, `acc_norm`,
 * `f1`, `exact_match`) are correctness, never read as a score.
 */

const TOOL = "lm-evaluation-harness";
// A cut or renamed copy may put more before the suffix (`….FIRST150.jsonl`).
const FILE_NAME = /^samples_(.+?)_(\d{4}-\d{2}-\d{2}T[\d-]+(?:\.\d+)?)(?:\.[^/\\]*)?\.jsonl?$/;

function detect(head: Buffer, fileName: string): number {
  const text = head.toString("utf8").trimStart();
  if (!text.startsWith("{")) return 0;
  // The first line may be longer than the head: look for the keys every samples line starts with.
  const looksLikeSamples = /"doc_id"\s*:/.test(text) && /"doc"\s*:/.test(text);
  if (!looksLikeSamples) return 0;
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return FILE_NAME.test(base) || /"(filtered_resps|arguments)"\s*:/.test(text) ? 0.95 : 0.6;
}

/** The task from the file name `samples_<task>_<date>.jsonl`: the lines themselves do not name it. */
export function taskFromSamplesFileName(fileName: string | undefined): string | undefined {
  const base = fileName?.split(/[\\/]/).pop();
  return base ? FILE_NAME.exec(base)?.[1] : undefined;
}

async function* read(source: ByteSource, options?: ItemResultReadOptions): AsyncGenerator<ItemResultEvent> {
  const task = taskFromSamplesFileName(options?.fileName);
  yield { kind: "run", run: task === undefined ? { tool: TOOL } : { tool: TOOL, task } };
  let rest = "";
  let line = 0;
  let items: ToolItem[] = [];
  const issues: ParseIssue[] = [];
  // One line is one JSON document: split on newlines and JSON.parse each (the samples file can be
  // 1 GB; only a chunk and the line being read are held), its items yielded once per chunk.
  const take = (text: string) => {
    line++;
    const read = readLine(text, line);
    if (read === undefined) return;
    if ("issue" in read) issues.push(read.issue);
    else items.push(read.item);
  };
  try {
    for await (const chunk of utf8Chunks(source)) {
      const text = line === 0 && rest === "" && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : rest + chunk;
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        take(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
      if (items.length) yield { kind: "items", items };
      items = [];
      yield* issues.splice(0).map((issue): ItemResultEvent => ({ kind: "issue", issue }));
    }
    if (rest !== "") take(rest);
  } catch (error) {
    if (!(error instanceof InvalidUtf8Error)) throw error;
    issues.push({ line: error.line, field: "(file)", reason: "not valid UTF-8" });
  }
  if (items.length) yield { kind: "items", items };
  for (const issue of issues) yield { kind: "issue", issue };
}

/** One line of the file: blank (undefined), not a JSON object (an issue at its line), or a sample. */
function readLine(raw: string, at: number): LineRead | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = `not valid JSON (${error instanceof Error ? error.message : "parse error"}); truncated?`;
    return { issue: { line: at, field: "(row)", value: show(text), reason } };
  }
  if (!isObject(value)) return { issue: { line: at, field: "(row)", value: show(text), reason: "not a JSON object" } };
  return readSampleLine(value, at);
}

type LineRead = { item: ToolItem } | { issue: ParseIssue };

/** One samples line as the tool wrote it: ids, gold, the model's answer and, for multiple choice, the choices' probabilities. */
export function readSampleLine(line: JsonObject, at: number): LineRead {
  const fail = (field: string, value: unknown, reason: string): LineRead => ({
    issue: { line: at, field, value: show(value), reason },
  });
  const docId = line.doc_id;
  if (!(typeof docId === "number" && Number.isInteger(docId)) && !(typeof docId === "string" && docId.trim()))
    return fail("doc_id", docId, "missing or not an integer: every samples line names its document");
  const toolId = String(docId).trim();
  const idFields: Record<string, string> = { doc_id: toolId };
  flattenScalarFields("doc", line.doc, idFields);
  const item: ToolItem = { at: { line: at }, toolId, idFields };
  if (line.filter !== undefined && line.filter !== null) item.repeat = String(line.filter);
  const gold = readTarget(line.target);
  if ("reason" in gold) return fail("target", line.target, gold.reason);
  if (gold.value !== undefined) item.gold = gold.value;
  const args = readArguments(line.arguments);
  if (args.contexts[0] !== undefined) item.input = args.contexts[0];
  else if (isObject(line.doc)) item.input = docText(line.doc);
  const answer = readAnswer(line.filtered_resps, args.continuations, line.doc);
  if ("reason" in answer) return fail(answer.field, line.filtered_resps, answer.reason);
  Object.assign(item, answer.values);
  return { item };
}

/** The gold as the tool states it: a letter, an index or a text, trimmed (`" Yes"` is "Yes"). */
function readTarget(target: unknown): { value: string | undefined } | { reason: string } {
  if (target === undefined || target === null) return { value: undefined };
  if (typeof target === "string") return { value: target.trim() };
  if (typeof target === "number" || typeof target === "boolean") return { value: String(target) };
  if (Array.isArray(target) && target.length === 1 && !isObject(target[0]) && !Array.isArray(target[0]))
    return { value: String(target[0]).trim() };
  return { reason: "not one label: Verdict needs a single gold label per item" };
}

/**
 * The request arguments: `{gen_args_<k>: {arg_0: context, arg_1: continuation}}` since 2024, a
 * list of `[context, continuation]` before. For generate_until `arg_1` is the generation
 * settings, not a text: such continuations are left undefined.
 */
function readArguments(args: unknown): { contexts: (string | undefined)[]; continuations: (string | undefined)[] } {
  const pairs: unknown[][] = [];
  if (Array.isArray(args)) for (const pair of args) pairs.push(Array.isArray(pair) ? pair : []);
  else if (isObject(args)) {
    const keys = Object.keys(args)
      .filter((k) => /^gen_args_\d+$/.test(k))
      .sort((a, b) => Number(a.slice(9)) - Number(b.slice(9)));
    for (const key of keys) {
      const pair = args[key];
      pairs.push(isObject(pair) ? [pair.arg_0, pair.arg_1] : []);
    }
  }
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return { contexts: pairs.map((p) => text(p[0])), continuations: pairs.map((p) => text(p[1])?.trim()) };
}

/** A text field of the document, when the request arguments hold no context. */
function docText(doc: JsonObject): string | undefined {
  for (const key of ["text", "sentence", "question", "query", "input", "prompt"]) {
    const value = doc[key] ?? doc[key[0]!.toUpperCase() + key.slice(1)];
    if (typeof value === "string") return value;
  }
  return undefined;
}

type Answer = { values: Partial<ToolItem> } | { field: string; reason: string };

/**
 * Multiple choice (`filtered_resps` = one `[loglikelihood, is_greedy]` per choice, as strings):
 * softmax over the choices is the label-token probability, argmax the hard answer (numpy's
 * argmax: the first of equal maxima). generate_until (`filtered_resps` = texts): the first text
 * is the answer, a hard label.
 */
function readAnswer(resps: unknown, continuations: (string | undefined)[], doc: unknown): Answer {
  if (typeof resps === "string") return { values: { predicted: resps.trim() } };
  if (!Array.isArray(resps) || resps.length === 0)
    return { field: "filtered_resps", reason: "missing or empty: the line holds no model response" };
  if (!Array.isArray(resps[0])) {
    const first = resps[0];
    if (typeof first !== "string")
      return { field: "filtered_resps[0]", reason: "neither a text nor a [loglikelihood, is_greedy] pair" };
    return { values: { predicted: first.trim() } };
  }
  const logs: number[] = [];
  for (const [k, pair] of resps.entries()) {
    const ll = Array.isArray(pair) ? Number(pair[0]) : Number.NaN;
    if (!Number.isFinite(ll) || (Array.isArray(pair) && (pair[0] === "" || pair[0] === null)))
      return {
        field: `filtered_resps[${k}]`,
        reason: "not a [loglikelihood, is_greedy] pair with a finite log-likelihood",
      };
    logs.push(ll);
  }
  const choices = choiceTexts(continuations, doc, logs.length);
  if ("reason" in choices) return { field: "arguments", reason: choices.reason };
  const probabilities = softmaxLogs(logs);
  const choiceProbabilities: Record<string, number> = {};
  let best = 0;
  probabilities.forEach((p, k) => {
    choiceProbabilities[choices.texts[k]!] = p;
    if (logs[k]! > logs[best]!) best = k;
  });
  return { values: { choices: choices.texts, choiceProbabilities, predicted: choices.texts[best] } };
}

/** The choices' texts: each request's continuation (trimmed), else the document's `choices` list. */
function choiceTexts(
  continuations: (string | undefined)[],
  doc: unknown,
  count: number,
): { texts: string[] } | { reason: string } {
  let texts: string[] | undefined;
  if (continuations.length === count && continuations.every((c) => c !== undefined)) texts = continuations as string[];
  else if (isObject(doc) && Array.isArray(doc.choices) && doc.choices.length === count)
    texts = doc.choices.map((c) => String(c).trim());
  if (!texts)
    return {
      reason: `${count} log-likelihoods but no list of ${count} choice texts (arguments' arg_1 or doc.choices)`,
    };
  if (new Set(texts).size !== texts.length)
    return { reason: `two choices read the same once trimmed (${texts.map((t) => JSON.stringify(t)).join(", ")})` };
  return { texts };
}

export const lmEvalSamples: ItemResultParser = {
  id: "lm-eval-samples",
  label: "lm-evaluation-harness samples (JSON Lines)",
  detect,
  read,
};
