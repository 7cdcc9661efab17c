import type { ByteSource } from "../../byte-source";
import { show } from "../issues";
import { isObject, type JsonObject } from "../json";
import type { ParseIssue } from "../types";
import { headText, readJsonLines } from "./source-json";
import type { ItemResultEvent, ItemResultParser, ToolItem, ToolRun } from "./types";

/**
 * OpenAI Evals (`oaieval`) record log, JSON Lines: a `spec` line first, then event lines
 * `{run_id, event_id, sample_id, type, data}` of interleaved samples, and a `final_report` line
 * whose place varies (second and without run_id in 2023 logs, last in current evals/record.py).
 * Read line by line: a sample's state (its prompt) is kept only until its `match` event arrives.
 * Gold = `match.data.expected`, predicted = `match.data.picked` (null: no option matched, a parse
 * failure); no score (a hard label); the tool records no version of itself.
 */

const ROWS_PER_BATCH = 1000;

function detect(head: Buffer): number {
  const text = headText(head);
  return /^\{\s*"spec"\s*:\s*\{/.test(text) && text.includes('"completion_fns"') ? 0.95 : 0;
}

function readRun(spec: JsonObject): ToolRun {
  const run: ToolRun = { tool: "openai-evals" };
  const fns = Array.isArray(spec.completion_fns) ? spec.completion_fns.filter((f) => typeof f === "string") : [];
  if (fns.length) run.model = fns.join(",");
  if (typeof spec.eval_name === "string") run.task = spec.eval_name;
  const runConfig = isObject(spec.run_config) ? spec.run_config : {};
  const evalSpec = isObject(runConfig.eval_spec) ? runConfig.eval_spec : {};
  const config: Record<string, string> = {};
  if (typeof evalSpec.cls === "string") config.cls = evalSpec.cls;
  if (isObject(evalSpec.args)) config.args = JSON.stringify(evalSpec.args);
  if (runConfig.seed !== undefined && runConfig.seed !== null) config.seed = String(runConfig.seed);
  if (Object.keys(config).length) run.generationConfig = config;
  return run;
}

/** A `sampling` prompt as text: a string as is, chat messages as their contents, one per line. */
function promptText(prompt: unknown): string | undefined {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt)) return undefined;
  return prompt.map((m) => (isObject(m) && typeof m.content === "string" ? m.content : JSON.stringify(m))).join("\n");
}

/** `expected` is the ideal answer: a string, or a list of them (one gold label is needed). */
function readExpected(expected: unknown, line: number, issues: ParseIssue[]): string | undefined {
  const list = Array.isArray(expected) ? expected : [expected];
  if (list.length === 1 && typeof list[0] === "string" && list[0].trim() !== "") return list[0].trim();
  const reason =
    list.length > 1
      ? `${list.length} expected answers; one gold label per item is needed`
      : "expected a non-empty string";
  issues.push({ line, field: "data.expected", value: show(expected), reason });
  return undefined;
}

function readMatch(
  event: JsonObject,
  sampleId: string,
  line: number,
  input: string | undefined,
  issues: ParseIssue[],
): ToolItem {
  const data = isObject(event.data) ? event.data : {};
  const item: ToolItem = { at: { line }, toolId: sampleId, idFields: { sample_id: sampleId } };
  // `<eval>.<split>.<row index>`: the index is the sample's position in the eval's samples file.
  const index = /\.(\d+)$/.exec(sampleId)?.[1];
  if (index !== undefined) item.idFields.index = index;
  const gold = readExpected(data.expected, line, issues);
  if (gold !== undefined) item.gold = gold;
  if (typeof data.picked === "string" && data.picked.trim() !== "") item.predicted = data.picked.trim();
  else if (data.picked !== null && data.picked !== undefined) {
    issues.push({ line, field: "data.picked", value: show(data.picked), reason: "expected a string or null" });
  }
  if (input !== undefined) item.input = input;
  return item;
}

/** What the reader knows between lines: only samples still waiting for their match event. */
type LogState = {
  runId?: string;
  finalReport: boolean;
  matches: number;
  pending: Map<string, { line: number; input?: string }>;
};

/** One event line; returns the item its match event completes, if any. */
function readEvent(value: JsonObject, line: number, state: LogState, issues: ParseIssue[]): ToolItem | undefined {
  if ("final_report" in value) {
    state.finalReport = true;
    return undefined;
  }
  if (state.runId !== undefined && value.run_id !== undefined && value.run_id !== state.runId) {
    issues.push({ line, field: "run_id", value: show(value.run_id), reason: `not the spec's run ${state.runId}` });
  }
  const sampleId = value.sample_id;
  if (typeof sampleId !== "string" || sampleId === "") {
    if (value.type !== undefined)
      issues.push({ line, field: "sample_id", value: show(sampleId), reason: "missing sample id" });
    return undefined;
  }
  const data = isObject(value.data) ? value.data : {};
  if (value.type === "sampling") {
    const pending = state.pending.get(sampleId);
    state.pending.set(sampleId, { line: pending?.line ?? line, input: pending?.input ?? promptText(data.prompt) });
    return undefined;
  }
  if (value.type !== "match") return undefined;
  const input = state.pending.get(sampleId)?.input;
  state.pending.delete(sampleId);
  state.matches += 1;
  return readMatch(value, sampleId, line, input, issues);
}

/** A finished log has its final report and a match for every sampled item. */
function endIssues(state: LogState): ParseIssue[] {
  const issues: ParseIssue[] = [];
  if (!state.finalReport)
    // No line to point at: the place it is missing from is the log's end, named so the report says where.
    issues.push({
      record: "end of log",
      field: "final_report",
      reason: "no final_report line: the run did not finish",
    });
  if (state.matches === 0) {
    issues.push({
      field: "type",
      reason: "no match events: not a match-style eval (nothing holds a predicted answer)",
    });
    return issues;
  }
  for (const [sampleId, pending] of state.pending) {
    issues.push({ line: pending.line, field: "sample_id", value: sampleId, reason: "sampled but never matched" });
  }
  return issues;
}

async function* read(source: ByteSource): AsyncGenerator<ItemResultEvent> {
  const state: LogState = { finalReport: false, matches: 0, pending: new Map() };
  let started = false;
  let batch: ToolItem[] = [];
  for await (const entry of readJsonLines(source)) {
    const issues: ParseIssue[] = [];
    if ("issue" in entry) issues.push(entry.issue);
    else if (!isObject(entry.value))
      issues.push({ line: entry.line, field: "(line)", reason: "expected a JSON object" });
    else if (!started) {
      if (!isObject(entry.value.spec)) {
        yield {
          kind: "issue",
          issue: { line: entry.line, field: "spec", reason: "the log does not start with its spec line" },
        };
        return;
      }
      const spec = entry.value.spec;
      state.runId = typeof spec.run_id === "string" ? spec.run_id : undefined;
      started = true;
      yield { kind: "run", run: readRun(spec) };
    } else {
      const item = readEvent(entry.value, entry.line, state, issues);
      if (item) batch.push(item);
    }
    for (const issue of issues) yield { kind: "issue", issue };
    if (batch.length >= ROWS_PER_BATCH) {
      yield { kind: "items", items: batch };
      batch = [];
    }
  }
  if (!started) {
    yield { kind: "issue", issue: { line: 1, field: "spec", reason: "empty log: no spec line" } };
    return;
  }
  if (batch.length) yield { kind: "items", items: batch };
  for (const issue of endIssues(state)) yield { kind: "issue", issue };
}

export const openaiEvalsLogParser: ItemResultParser = {
  id: "openai-evals-log",
  label: "OpenAI Evals record log (JSON Lines)",
  detect,
  read,
};
