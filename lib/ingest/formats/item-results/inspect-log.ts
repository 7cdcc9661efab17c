import type { ByteSource } from "../../byte-source";
import { isObject, parseJson, type JsonObject } from "../json";
import { streamJsonValues } from "./json-stream";
import type { ParseIssue } from "../types";
import { checkInspectHeader, inspectTarget, readInspectRun, readInspectSample, resolvedModel } from "./inspect-sample";
import type { ItemResultEvent, ItemResultParser, ToolItem } from "./types";
import { ZipFile, type ZipMember } from "./zip-members";

/**
 * Inspect AI logs (EVAL-FORMATS.md §2): a `.eval` ZIP (`header.json`, `samples/<id>_epoch_<n>.json`,
 * `summaries.json`, `reductions.json`, `_journal/…`) whose members are deflated (method 8, to
 * 0.3.205) or zstd-compressed (method 93, the default since 0.3.206), or a `.json` log (one object
 * with `samples: [...]`). The ZIP is read through its central directory by random access, one
 * member at a time (zip-members.ts): a log of 1 GB is never in memory whole.
 */

/** Samples per items event. */
const BATCH = 256;
const SAMPLE_ENTRY = /^samples\/.+_epoch_\d+\.json$/;
/** The summaries Inspect flushes to its journal as it runs: one small JSON array each, every sample's target in them. */
const JOURNAL_SUMMARIES = /^_journal\/summaries\/\d+\.json$/;

function detect(head: Buffer, fileName: string): number {
  const isEvalName = /\.eval$/i.test(fileName);
  if (head.length >= 30 && head.subarray(0, 4).toString("latin1") === "PK\u0003\u0004") {
    // The first member of an Inspect log is its journal's start (or its header).
    const firstName = head.subarray(30, 30 + head.readUInt16LE(26)).toString("utf8");
    const inspectMember = firstName.startsWith("_journal/") || firstName === "header.json";
    return inspectMember ? 0.95 : isEvalName ? 0.6 : 0;
  }
  const text = head.toString("utf8").trimStart();
  if (!text.startsWith("{")) return 0;
  const looksLikeLog = /"version"\s*:/.test(text) && /"eval"\s*:/.test(text) && /"status"\s*:/.test(text);
  return looksLikeLog && /"(inspect_ai|task_id|run_id)"\s*:/.test(text) ? 0.9 : 0;
}

async function* read(source: ByteSource): AsyncGenerator<ItemResultEvent> {
  const head = await source.head(4);
  if (head.toString("latin1") === "PK\u0003\u0004") yield* readEvalZip(source);
  else yield* readJsonLog(source);
}

type Member = { value: unknown } | { issue: ParseIssue };

async function readMember(zip: ZipFile, member: ZipMember): Promise<Member> {
  let text: string;
  try {
    text = (await zip.read(member)).toString("utf8");
  } catch (error) {
    const reason = `unreadable ZIP member: ${error instanceof Error ? error.message : String(error)}`;
    return { issue: { record: member.name, field: "(member)", reason } };
  }
  const parsed = parseJson(text);
  return parsed.ok ? { value: parsed.value } : { issue: { ...parsed.issue, record: member.name } };
}

async function* readEvalZip(source: ByteSource): AsyncGenerator<ItemResultEvent> {
  const zip = new ZipFile(await source.randomAccess());
  let members: ZipMember[];
  try {
    members = await zip.members();
  } catch (error) {
    const reason = `not a readable ZIP: ${error instanceof Error ? error.message : String(error)}`;
    yield { kind: "issue", issue: { field: "(file)", reason } };
    return;
  }
  const headerMember = members.find((m) => m.name === "header.json");
  if (!headerMember) {
    // Inspect writes header.json when the run ends: without it the log is one still being written.
    const reason = 'no header.json: the run did not finish (status "started"); a partial log is refused';
    yield { kind: "issue", issue: { record: "header.json", field: "status", reason } };
    return;
  }
  const member = await readMember(zip, headerMember);
  const refusal = "issue" in member ? member.issue : checkInspectHeader(member.value, "header.json");
  if (refusal || !("value" in member)) {
    if (refusal) yield { kind: "issue", issue: refusal };
    return;
  }
  const header = member.value as JsonObject;
  const samples = members.filter((m) => SAMPLE_ENTRY.test(m.name)).sort((a, b) => a.localOffset - b.localOffset);
  const missing = missingSamples(header, samples.length);
  if (missing) {
    yield { kind: "issue", issue: missing };
    return;
  }
  const first = samples[0] ? await readMember(zip, samples[0]) : undefined;
  const model = first && "value" in first ? resolvedModel(first.value) : undefined;
  yield { kind: "run", run: readInspectRun(header, model) };
  const summaries = members.filter((m) => JOURNAL_SUMMARIES.test(m.name));
  yield* readZipSamples(zip, samples, summaries);
}

/** Samples into items, in batches; the label set is loaded the first time a sample carries logprobs. */
class SampleItems {
  private labels: string[] | undefined;
  private items: ToolItem[] = [];

  constructor(private readonly loadLabels: () => Promise<string[]>) {}

  async *add(sample: unknown, record: string): AsyncGenerator<ItemResultEvent> {
    // The label set is needed only where a sample carries logprobs: one more pass, over targets.
    this.labels ??= hasTopLogprobs(sample) ? await this.loadLabels() : undefined;
    const read = readInspectSample(sample, record, this.labels ?? []);
    if ("issue" in read) yield { kind: "issue", issue: read.issue };
    else this.items.push(read.item);
    if (this.items.length >= BATCH) yield* this.flush();
  }

  *flush(): Generator<ItemResultEvent> {
    if (this.items.length) yield { kind: "items", items: this.items };
    this.items = [];
  }
}

async function* readZipSamples(
  zip: ZipFile,
  samples: ZipMember[],
  summaries: ZipMember[],
): AsyncGenerator<ItemResultEvent> {
  const items = new SampleItems(
    async () => (await summaryTargets(zip, summaries, samples.length)) ?? zipTargets(zip, samples),
  );
  for (const sample of samples) {
    const member = await readMember(zip, sample);
    if ("issue" in member) yield { kind: "issue", issue: member.issue };
    else yield* items.add(member.value, sample.name);
  }
  yield* items.flush();
}

/** A log whose header counts more samples than it holds was cut short: refused, never read in part. */
function missingSamples(header: JsonObject, held: number): ParseIssue | undefined {
  const total = isObject(header.results) ? header.results.total_samples : undefined;
  if (held === 0)
    return {
      record: "samples",
      field: "samples",
      reason: "the log holds no samples (written without --log-samples?)",
    };
  if (typeof total === "number" && held < total)
    return {
      record: "samples",
      field: "samples",
      value: String(held),
      reason: `the header counts ${total} samples, the log holds ${held}: a partially written log is refused`,
    };
  return undefined;
}

/**
 * The log's distinct gold labels from the journal's summaries — a few members instead of every
 * sample — when they summarise exactly the samples the log holds (else undefined: a log written
 * without them, or cut, is read sample by sample).
 */
async function summaryTargets(
  zip: ZipFile,
  summaries: ZipMember[],
  sampleCount: number,
): Promise<string[] | undefined> {
  if (summaries.length === 0) return undefined;
  const targets = new Set<string>();
  let count = 0;
  for (const summary of summaries) {
    const member = await readMember(zip, summary);
    if (!("value" in member) || !Array.isArray(member.value)) return undefined;
    for (const entry of member.value) {
      count++;
      const target = isObject(entry) ? inspectTarget(entry.target) : undefined;
      if (target) targets.add(target);
    }
  }
  return count === sampleCount ? [...targets].sort() : undefined;
}

/** The log's distinct gold labels (trimmed), the label tokens a logprob softmax spans: read from every sample. */
async function zipTargets(zip: ZipFile, samples: ZipMember[]): Promise<string[]> {
  const targets = new Set<string>();
  for (const sample of samples) {
    const member = await readMember(zip, sample);
    const target = "value" in member && isObject(member.value) ? inspectTarget(member.value.target) : undefined;
    if (target) targets.add(target);
  }
  return [...targets].sort();
}

function hasTopLogprobs(sample: unknown): boolean {
  if (!isObject(sample) || !isObject(sample.output) || !Array.isArray(sample.output.choices)) return false;
  const choice = sample.output.choices[0];
  return isObject(choice) && isObject(choice.logprobs) && Array.isArray(choice.logprobs.content);
}

const HEADER_KEYS = ["version", "status", "eval", "plan", "results"];

/**
 * A `.json` log, streamed: the header's keys come before `samples` (Inspect writes them in that
 * order), so the run is checked and yielded before the first sample, and one sample is in memory
 * at a time.
 */
async function* readJsonLog(source: ByteSource): AsyncGenerator<ItemResultEvent> {
  const header: JsonObject = {};
  const paths = [...HEADER_KEYS.map((k) => `$.${k}`), "$.samples.*"];
  const items = new SampleItems(() => jsonTargets(source));
  let count = 0;
  for await (const found of streamJsonValues(source, paths)) {
    if ("error" in found) {
      yield { kind: "issue", issue: { field: "(file)", reason: `not valid JSON: ${found.error}` } };
      return;
    }
    const [key, index] = found.at;
    if (key !== "samples") {
      header[key as string] = found.value;
      continue;
    }
    if (count++ === 0) {
      const refusal = checkInspectHeader(header, "(log)");
      if (refusal) {
        yield { kind: "issue", issue: refusal };
        return;
      }
      yield { kind: "run", run: readInspectRun(header, resolvedModel(found.value)) };
    }
    yield* items.add(found.value, `samples[${String(index)}]`);
  }
  yield* items.flush();
  const problem =
    count === 0 ? (checkInspectHeader(header, "(log)") ?? missingSamples(header, 0)) : missingSamples(header, count);
  if (problem) yield { kind: "issue", issue: problem };
}

/** The distinct gold labels of a `.json` log: a second pass that keeps only the targets. */
async function jsonTargets(source: ByteSource): Promise<string[]> {
  const targets = new Set<string>();
  for await (const found of streamJsonValues(source, ["$.samples.*.target"])) {
    const target = "value" in found ? inspectTarget(found.value) : undefined;
    if (target) targets.add(target);
  }
  return [...targets].sort();
}

export const inspectLog: ItemResultParser = {
  id: "inspect-log",
  label: "Inspect AI log (.eval or .json)",
  detect,
  read,
};
