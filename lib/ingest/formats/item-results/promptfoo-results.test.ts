import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { detectItemResultFormat } from "./index";
import { EXTERNAL, collect, externalSource, textSource } from "../../../../test/item-results/sources";
import { promptfooResultsParser } from "./promptfoo-results";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const EXPORT = "promptfoo/sample-export.json";
const TEXT = readFileSync(path.join(EXTERNAL, EXPORT), "utf8");
const FILE: Json = JSON.parse(TEXT);
const RESULTS: Json[] = FILE.results.results;

const readText = (text: string) => collect(promptfooResultsParser.read(textSource(text)));
const variant = (change: (file: Json) => void) => {
  const copy = structuredClone(FILE);
  change(copy);
  return JSON.stringify(copy, null, 2);
};

describe("promptfoo results.json", () => {
  test("is detected from its first bytes", () => {
    expect(detectItemResultFormat(Buffer.from(TEXT.slice(0, 400)), "results.json")?.id).toBe("promptfoo-results");
    const v4 = TEXT.replace('"version": 3', '"version": 4');
    expect(detectItemResultFormat(Buffer.from(v4.slice(0, 400)), "results.json")).toBeUndefined();
  });

  test("one row per result, each with its own provider: output as predicted, no gold, no score", async () => {
    const r = await collect(promptfooResultsParser.read(externalSource(EXPORT)));
    expect(r.issues).toEqual([]);
    expect(r.order[0]).toBe("run");
    expect(r.items).toHaveLength(RESULTS.length);
    for (const [k, item] of r.items.entries()) {
      const result = RESULTS[k]!;
      expect(item.toolId).toBe(String(result.testIdx));
      expect(item.model).toBe(result.provider.id);
      expect(item.predicted).toBe(result.response.output.trim());
      expect(item.input).toBe(result.prompt.raw);
      expect(item.idFields).toEqual({ testIdx: String(result.testIdx), "vars.riddle": result.vars.riddle });
      // the gold is a var the analyst names; assertion scores (success, score) are never the model's score
      expect(item.gold).toBeUndefined();
      expect(item.score).toBeUndefined();
      expect(item.scoreUnknown).toBeUndefined();
    }
    // two providers interleaved, each test once per provider
    const providers = new Set(RESULTS.map((x) => x.provider.id));
    expect(new Set(r.items.map((i) => i.model))).toEqual(providers);
    expect(providers.size).toBe(2);
  });

  test("the run: tool promptfoo with its version; no single model", async () => {
    const [run] = (await collect(promptfooResultsParser.read(externalSource(EXPORT)))).runs;
    expect(run?.tool).toBe("promptfoo");
    expect(run?.toolVersion).toBe(FILE.metadata.promptfooVersion);
    expect(run?.model).toBeUndefined();
    expect(run?.generationConfig).toEqual({ resultsVersion: "3", evalId: FILE.evalId });
  });

  test("a structured output is kept as its JSON text; a missing output is no prediction", async () => {
    const output = { sentiment: "positive", confidence: 8 };
    const r = await readText(
      variant((f) => {
        f.results.results[0].response.output = output;
        delete f.results.results[1].response;
      }),
    );
    expect(r.items[0]?.predicted).toBe(JSON.stringify(output));
    expect(r.items[1]?.predicted).toBeUndefined();
  });

  test("logProbs give exp(mean) as a chosen-token probability; that provider's rows without them are unknown", async () => {
    const logProbs = [-0.2, -0.01, -1.3];
    const r = await readText(variant((f) => (f.results.results[0].response.logProbs = logProbs)));
    const mean = logProbs.reduce((a, b) => a + b) / logProbs.length;
    expect(r.items[0]?.score).toEqual({ value: Math.exp(mean), basis: "chosen-token-probability" });
    const provider = RESULTS[0]!.provider.id;
    for (const item of r.items.slice(1)) {
      if (item.model === provider) expect(item.scoreUnknown).toMatch(/no logProbs/);
      else expect(item.scoreUnknown).toBeUndefined();
    }
    const bad = await readText(variant((f) => (f.results.results[2].response.logProbs = [-0.1, "x"])));
    expect(bad.items).toEqual([]);
    expect(bad.issues).toEqual([expect.objectContaining({ record: "results.results[2]", field: "response.logProbs" })]);
  });

  test("vars and test metadata are offered as id (and gold) fields; a repeat index is kept", async () => {
    const r = await readText(
      variant((f) => {
        const first = f.results.results[0];
        first.vars = { ...first.vars, id: "item-7", sentiment: "positive", nested: { no: 1 } };
        first.testCase.metadata = { source: "imdb" };
        first.repeatIndex = 2;
      }),
    );
    expect(r.items[0]?.idFields).toEqual({
      testIdx: String(RESULTS[0]!.testIdx),
      "vars.riddle": RESULTS[0]!.vars.riddle,
      "vars.id": "item-7",
      "vars.sentiment": "positive",
      "metadata.source": "imdb",
    });
    expect(r.items[0]?.repeat).toBe("repeat=2");
    expect(r.items[1]?.repeat).toBeUndefined();
  });

  test("v2 (table instead of prompts, no testIdx) numbers tests by the order their vars appear", async () => {
    const v2 = variant((f) => {
      f.results.version = 2;
      f.results.table = { head: { prompts: f.results.prompts, vars: ["riddle"] }, body: [] };
      delete f.results.prompts;
      for (const x of f.results.results) {
        delete x.testIdx;
        delete x.promptIdx;
      }
    });
    const r = await readText(v2);
    expect(r.issues).toEqual([]);
    const firstSeen = [...new Set(RESULTS.map((x) => JSON.stringify(x.vars)))];
    expect(r.items.map((i) => i.toolId)).toEqual(RESULTS.map((x) => String(firstSeen.indexOf(JSON.stringify(x.vars)))));
    expect(r.runs[0]?.generationConfig?.resultsVersion).toBe("2");
  });

  test("an unknown version, a v3 file without prompts, a result without provider are refused with their field", async () => {
    const v9 = await readText(variant((f) => (f.results.version = 9)));
    expect(v9.issues).toEqual([expect.objectContaining({ field: "version", value: "9" })]);
    const noPrompts = await readText(variant((f) => delete f.results.prompts));
    expect(noPrompts.issues).toEqual([expect.objectContaining({ field: "prompts" })]);
    const noProvider = await readText(variant((f) => delete f.results.results[3].provider));
    expect(noProvider.issues).toEqual([
      expect.objectContaining({ record: "results.results[3]", field: "provider.id" }),
    ]);
    expect(noProvider.items).toEqual([]);
  });
});
