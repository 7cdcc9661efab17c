import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import type { ByteSource } from "../../byte-source";
import { detectItemResultFormat } from "./index";
import { EXTERNAL, collect, externalSource, textSource } from "../../../../test/item-results/sources";
import { openaiEvalsLogParser } from "./openai-evals-log";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LOG = "openai-evals/230417220821DPM75QNS_auto_gpt_completion_fn_test-match.jsonl";
const TEXT = readFileSync(path.join(EXTERNAL, LOG), "utf8");
const LINES = TEXT.split("\n").filter((l) => l.trim() !== "");
const PARSED: Json[] = LINES.map((l) => JSON.parse(l));
const SPEC = PARSED[0]!.spec;
/** The fixture's match events, in file order, with their 1-based line. */
const MATCHES = PARSED.map((e, k) => ({ e, line: k + 1 })).filter(({ e }) => e.type === "match");

/** The same log as current evals/record.py writes it: final_report last, with the run id. */
function currentLayout(): string {
  const events = LINES.filter((l) => !l.includes('"final_report"'));
  const report = PARSED.find((e) => "final_report" in e)!;
  return [...events, JSON.stringify({ ...report, run_id: SPEC.run_id })].join("\n") + "\n";
}

const readLog = (source: ByteSource) => collect(openaiEvalsLogParser.read(source));

describe("OpenAI Evals record log", () => {
  test("is detected from its spec line", () => {
    expect(detectItemResultFormat(Buffer.from(TEXT), "x.jsonl")?.id).toBe("openai-evals-log");
    expect(detectItemResultFormat(Buffer.from(LINES.slice(2).join("\n")), "x.jsonl")).toBeUndefined();
  });

  test("one row per match event: expected is gold, picked the prediction (null = a parse failure), no score", async () => {
    const r = await readLog(externalSource(LOG));
    expect(r.issues).toEqual([]);
    expect(r.order[0]).toBe("run");
    expect(r.items).toHaveLength(MATCHES.length);
    for (const [k, item] of r.items.entries()) {
      const { e, line } = MATCHES[k]!;
      const sampling = PARSED.find((s) => s.type === "sampling" && s.sample_id === e.sample_id)!;
      expect(item).toEqual({
        at: { line },
        toolId: e.sample_id,
        idFields: { sample_id: e.sample_id, index: e.sample_id.split(".").at(-1) },
        gold: e.data.expected.trim(),
        ...(e.data.picked === null ? {} : { predicted: e.data.picked.trim() }),
        input: sampling.data.prompt,
      });
    }
    // 2 of the 3 samples picked nothing: no prediction, never a default answer
    expect(r.items.filter((i) => i.predicted === undefined)).toHaveLength(
      MATCHES.filter(({ e }) => e.data.picked === null).length,
    );
  });

  test("the run: tool, completion function as model, eval name as task; no tool version", async () => {
    const [run] = (await readLog(externalSource(LOG))).runs;
    expect(run).toMatchObject({ tool: "openai-evals", model: SPEC.completion_fns[0], task: SPEC.eval_name });
    expect(run?.toolVersion).toBeUndefined();
    expect(run?.generationConfig?.cls).toBe(SPEC.run_config.eval_spec.cls);
  });

  test("final_report last (current evals) reads the same rows, lines apart", async () => {
    const saved = await readLog(externalSource(LOG));
    const current = await readLog(textSource(currentLayout(), "current.jsonl"));
    expect(current.issues).toEqual([]);
    expect(current.items.map(({ at: _at, ...rest }) => rest)).toEqual(saved.items.map(({ at: _at, ...rest }) => rest));
    // the report line no longer sits before the events
    expect(current.items.map((i) => i.at.line)).toEqual(saved.items.map((i) => i.at.line! - 1));
  });

  test("events of one sample far apart still join its prompt to its match", async () => {
    // all sampling events first, all match events after, in reverse order
    const sampling = LINES.filter((l) => l.includes('"type": "sampling"'));
    const matches = LINES.filter((l) => l.includes('"type": "match"')).reverse();
    const text = [LINES[0], LINES[1], ...sampling, ...matches].join("\n");
    const r = await readLog(textSource(text, "apart.jsonl"));
    expect(r.issues).toEqual([]);
    for (const item of r.items) {
      const prompt = PARSED.find((e) => e.type === "sampling" && e.sample_id === item.toolId)!.data.prompt;
      expect(item.input).toBe(prompt);
    }
  });

  test("a log larger than one read chunk is read line by line, rows and prompts intact", async () => {
    // 3,000 samples made from the fixture's three, the events of each sample 50 samples apart
    const samples = Array.from({ length: 3000 }, (_, n) => n);
    const event = (n: number, type: string) => {
      const e = structuredClone(PARSED.find((x) => x.type === type && x.sample_id === `test-match.s1.${n % 3}`)!);
      e.sample_id = `test-match.s1.${n}`;
      if (type === "sampling") e.data.prompt = `${e.data.prompt} #${n}`;
      return JSON.stringify(e);
    };
    const body = samples.flatMap((n) => [event(n, "sampling"), ...(n >= 50 ? [event(n - 50, "match")] : [])]);
    const tail = samples.slice(-50).map((n) => event(n, "match"));
    const text = [LINES[0], ...body, ...tail, LINES[1]].join("\n");
    expect(text.length).toBeGreaterThan(4 * 65536);
    const r = await readLog(textSource(text, "large.jsonl"));
    expect(r.issues).toEqual([]);
    expect(r.items).toHaveLength(samples.length);
    expect(r.order.filter((k) => k === "items").length).toBeGreaterThan(1);
    const written = text.split("\n");
    for (const item of r.items) {
      const n = Number(item.toolId.split(".").at(-1));
      const original = PARSED.find((x) => x.type === "match" && x.sample_id === `test-match.s1.${n % 3}`)!;
      expect(item.gold).toBe(original.data.expected);
      expect(item.input).toMatch(new RegExp(` #${n}$`));
      expect(JSON.parse(written[item.at.line! - 1]!)).toMatchObject({ sample_id: item.toolId, type: "match" });
    }
  });

  test("a log without its final report did not finish: refused", async () => {
    const r = await readLog(textSource(LINES.filter((l) => !l.includes("final_report")).join("\n")));
    expect(r.issues).toEqual([expect.objectContaining({ field: "final_report" })]);
  });

  test("a sample sampled but never matched is reported at its sampling line", async () => {
    const lastMatch = LINES.findLastIndex((l) => l.includes('"type": "match"'));
    const r = await readLog(textSource(LINES.filter((_, k) => k !== lastMatch).join("\n")));
    const sampleId = PARSED[lastMatch]!.sample_id;
    const samplingLine = PARSED.findIndex((e) => e.type === "sampling" && e.sample_id === sampleId) + 1;
    expect(r.issues).toEqual([
      { line: samplingLine, field: "sample_id", value: sampleId, reason: "sampled but never matched" },
    ]);
  });

  test("a broken line and an event of another run are errors at their lines", async () => {
    const lines = [...LINES];
    lines[3] = lines[3]!.slice(0, 40);
    lines[4] = lines[4]!.replace(SPEC.run_id, "OTHER");
    const r = await readLog(textSource(lines.join("\n")));
    expect(r.issues.map((i) => [i.line, i.field])).toEqual([
      [4, "(file)"],
      [5, "run_id"],
      // the broken line was sample 2's match: its sampling event (line 3) is left unmatched
      [3, "sample_id"],
    ]);
  });

  test("a file that does not start with its spec is refused", async () => {
    const r = await readLog(textSource(LINES.slice(1).join("\n")));
    expect(r.runs).toEqual([]);
    expect(r.issues).toEqual([expect.objectContaining({ line: 1, field: "spec" })]);
  });
});
