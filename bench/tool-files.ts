/**
 * Files as other eval tools write them, at any size, for bench/tool-import.ts: an
 * lm-evaluation-harness `samples_<task>_<date>.jsonl` of a two-choice task (each choice's
 * log-likelihood per item, as `--log_samples` writes it) and an Inspect `.eval` log (a ZIP of
 * `header.json` and one deflated `samples/<id>_epoch_1.json` member per sample, with the answer
 * token's top logprobs), and Verdict's own CSV of the same (id, score) pairs — the reference the
 * tool imports are measured against. Deterministic: the same size gives the same bytes.
 */
import { createWriteStream, existsSync, renameSync } from "node:fs";
import { once } from "node:events";
import { Writable } from "node:stream";
import { TextReader, ZipWriter } from "@zip.js/zip.js";

export const itemId = (i: number) => `item-${i.toString().padStart(9, "0")}`;

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of the generated task: its gold label (5 % positive) and the two choices' log-likelihoods. */
export interface GeneratedItem {
  id: string;
  positive: boolean;
  /** log P(" A" = "no") and log P(" B" = "yes"), as lm-eval and a top-logprobs list carry them. */
  logNo: number;
  logYes: number;
}

export function* generatedItems(n: number, seed = 7): Generator<GeneratedItem> {
  const random = rng(seed);
  for (let i = 0; i < n; i++) {
    const positive = random() < 0.05;
    const margin = (positive ? 1.2 : -1.2) + (random() - 0.5) * 5;
    const logYes = -Math.log1p(Math.exp(-margin));
    const logNo = -Math.log1p(Math.exp(margin));
    yield { id: itemId(i), positive, logNo, logYes };
  }
}

/** P(yes) by softmax over the two choices: the score the tool file implies. */
export const yesProbability = (item: GeneratedItem) => 1 / (1 + Math.exp(item.logNo - item.logYes));

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  if (existsSync(file)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  const stream = createWriteStream(tmp);
  let chunk = "";
  for (const line of lines) {
    chunk += line + "\n";
    if (chunk.length > 1 << 17) {
      if (!stream.write(chunk)) await once(stream, "drain");
      chunk = "";
    }
  }
  stream.end(chunk);
  await once(stream, "finish");
  renameSync(tmp, file);
}

/** The dataset: id, label, text. */
export function writeDataset(file: string, n: number): Promise<void> {
  return writeLines(
    file,
    (function* () {
      yield "id,label,text";
      for (const item of generatedItems(n)) yield `${item.id},${item.positive ? "yes" : "no"},sentence ${item.id}`;
    })(),
  );
}

/** Verdict's own predictions schema with the scores the tool files imply: the reference upload. */
export function writeVerdictCsv(file: string, n: number): Promise<void> {
  return writeLines(
    file,
    (function* () {
      yield "id,score";
      for (const item of generatedItems(n)) yield `${item.id},${yesProbability(item)}`;
    })(),
  );
}

const PROMPT = (id: string) =>
  `Given a sentence, predict if the sentence contains a bias or not.\\nSentence: sentence ${id}\\nA. no\\nB. yes\\nAnswer:`;

/** One `--log_samples` line of a two-choice task, shaped as lm-eval 0.4 writes it. */
function lmEvalLine(item: GeneratedItem, docId: number): string {
  const gold = item.positive ? 1 : 0;
  const prompt = PROMPT(item.id);
  const no = `${item.logNo}`;
  const yes = `${item.logYes}`;
  const noGreedy = item.logNo > item.logYes ? "True" : "False";
  const yesGreedy = item.logYes >= item.logNo ? "True" : "False";
  return (
    `{"doc_id": ${docId}, "doc": {"id": "${item.id}", "text": "sentence ${item.id}", "choices": ["no", "yes"], "label": ${gold}}, ` +
    `"target": ${gold}, "arguments": {"gen_args_0": {"arg_0": "${prompt}", "arg_1": " no"}, "gen_args_1": {"arg_0": "${prompt}", "arg_1": " yes"}}, ` +
    `"resps": [[["${no}", "${noGreedy}"]], [["${yes}", "${yesGreedy}"]]], "filtered_resps": [["${no}", "${noGreedy}"], ["${yes}", "${yesGreedy}"]], ` +
    `"filter": "none", "metrics": ["acc"], "doc_hash": "0", "prompt_hash": "0", "target_hash": "0", "acc": ${item.logYes >= item.logNo === item.positive ? 1 : 0}}`
  );
}

/** `samples_bias_<date>.jsonl` of n items. */
export function writeLmEvalSamples(file: string, n: number): Promise<void> {
  return writeLines(
    file,
    (function* () {
      let docId = 0;
      for (const item of generatedItems(n)) yield lmEvalLine(item, docId++);
    })(),
  );
}

/** One Inspect sample × epoch with the answer token's top logprobs (`logprobs: true, top_logprobs: 5`). */
function inspectSample(item: GeneratedItem): string {
  const answer = item.logYes >= item.logNo ? "Yes" : "No";
  const top = [
    { token: "Yes", logprob: item.logYes },
    { token: "No", logprob: item.logNo },
    { token: " Yes", logprob: item.logYes - 6 },
  ];
  return JSON.stringify({
    id: item.id,
    epoch: 1,
    input: `sentence ${item.id}`,
    target: item.positive ? "Yes" : "No",
    messages: [],
    output: {
      model: "gpt-4o-mini-2024-07-18",
      choices: [
        {
          message: { role: "assistant", content: answer, source: "generate" },
          stop_reason: "stop",
          logprobs: { content: [{ token: answer, logprob: Math.max(item.logYes, item.logNo), top_logprobs: top }] },
        },
      ],
      usage: { input_tokens: 63, output_tokens: 1, total_tokens: 64 },
    },
    scores: { match: { value: answer === (item.positive ? "Yes" : "No") ? "C" : "I", answer } },
    metadata: { item_id: item.id },
    store: {},
    events: [],
    model_usage: {},
    attachments: {},
  });
}

function inspectHeader(n: number): string {
  return JSON.stringify({
    version: 2,
    status: "success",
    eval: {
      run_id: "benchRun",
      created: "2026-12-01T10:00:00+00:00",
      task: "bias",
      task_id: "benchTask",
      task_version: 1,
      dataset: { name: "bias", samples: n },
      model: "openai/gpt-4o-mini",
      config: {},
      packages: { inspect_ai: "0.3.206" },
      scorers: [{ name: "match", options: {}, metrics: [] }],
    },
    plan: { name: "plan", steps: [], config: { logprobs: true, top_logprobs: 5 } },
    results: { total_samples: n, completed_samples: n, scores: [] },
    stats: { started_at: "2026-12-01T10:00:00+00:00", completed_at: "2026-12-01T11:00:00+00:00" },
  });
}

/** A sample's summary, as Inspect keeps it in the journal and in `summaries.json`. */
function inspectSummary(item: GeneratedItem): object {
  const answer = item.logYes >= item.logNo ? "Yes" : "No";
  const target = item.positive ? "Yes" : "No";
  return {
    id: item.id,
    epoch: 1,
    input: `sentence ${item.id}`,
    target,
    scores: { match: { value: answer === target ? "C" : "I", answer } },
  };
}

/** Samples per journal flush: Inspect's log buffer on a local file system. */
const LOG_BUFFER = 10;

/**
 * An Inspect `.eval` of n samples, members deflated (as Inspect wrote them to 0.3.205), written as
 * a stream: the journal's start, each sample with a summaries member per flush of the log buffer,
 * then `summaries.json` and `header.json` at the end.
 */
export async function writeInspectEval(file: string, n: number): Promise<void> {
  if (existsSync(file)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  const zip = new ZipWriter(Writable.toWeb(createWriteStream(tmp)), { useWebWorkers: false, level: 6 });
  await zip.add("_journal/start.json", new TextReader(inspectHeader(n)));
  let flushed: object[] = [];
  let flushes = 0;
  const all: object[] = [];
  for (const item of generatedItems(n)) {
    await zip.add(`samples/${item.id}_epoch_1.json`, new TextReader(inspectSample(item)));
    flushed.push(inspectSummary(item));
    if (flushed.length === LOG_BUFFER || all.length + flushed.length === n) {
      await zip.add(`_journal/summaries/${++flushes}.json`, new TextReader(JSON.stringify(flushed)));
      all.push(...flushed);
      flushed = [];
    }
  }
  await zip.add("summaries.json", new TextReader(JSON.stringify(all)));
  await zip.add("header.json", new TextReader(inspectHeader(n)));
  await zip.close();
  renameSync(tmp, file);
}
