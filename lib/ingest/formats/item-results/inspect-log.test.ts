import { compress as zstdCompress, init as initZstd } from "@bokuweb/zstd-wasm";
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter, type FileEntry } from "@zip.js/zip.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { fileSource } from "@/lib/files/file-source";
import { bytesSource, EXTERNAL, readAll } from "../../../../test/item-results/events";
import { detectItemResultFormat } from "./index";
import { inspectLog } from "./inspect-log";

const DIR = path.join(EXTERNAL, "inspect-ai");
const SCORED = path.join(DIR, "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval");
const UNSCORED = path.join(DIR, "2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval");
const JSON_LOG = path.join(DIR, "log_read_sample.json");
const OLD_JSON_LOG = path.join(DIR, "log_formats.json");

type Json = Record<string, unknown>;

/**
 * The fixture's members re-packed: zstd-compressed (method 93, as Inspect writes since 0.3.206)
 * or deflated, members dropped or their JSON changed on the way.
 */
async function repack(
  file: string,
  options: { zstd?: boolean; drop?: (name: string) => boolean; edit?: (name: string, json: Json) => Json } = {},
): Promise<Buffer> {
  const reader = new ZipReader(new Uint8ArrayReader(readFileSync(file)), { useWebWorkers: false });
  const writer = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
  for (const entry of (await reader.getEntries()) as FileEntry[]) {
    if (options.drop?.(entry.filename)) continue;
    let data = await entry.getData(new Uint8ArrayWriter());
    if (options.edit)
      data = Buffer.from(JSON.stringify(options.edit(entry.filename, JSON.parse(Buffer.from(data).toString("utf8")))));
    if (options.zstd)
      await writer.add(entry.filename, new Uint8ArrayReader(zstdCompress(Buffer.from(data), 3)), {
        passThrough: true,
        compressionMethod: 93,
        uncompressedSize: data.length,
        signature: crc32(data),
      });
    else await writer.add(entry.filename, new Uint8ArrayReader(data));
  }
  return Buffer.from(await writer.close());
}

/** Compression method of every member in the central directory (signature PK\1\2, method at +10). */
function centralMethods(zip: Buffer): number[] {
  const methods: number[] = [];
  for (let at = zip.indexOf("PK\u0001\u0002"); at >= 0; at = zip.indexOf("PK\u0001\u0002", at + 4))
    methods.push(zip.readUInt16LE(at + 10));
  return methods;
}

const jsonLog = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Json;
const jsonSource = (log: unknown) => bytesSource(Buffer.from(JSON.stringify(log)));

beforeAll(async () => {
  await initZstd();
});

describe("Inspect .eval logs (deflate members)", () => {
  it("reads the run as Inspect recorded it, the model as it resolved it", async () => {
    const { runs, order, issues } = await readAll(inspectLog, fileSource(SCORED));
    expect(issues).toEqual([]);
    expect(order).toEqual(["run", "items"]);
    expect(runs).toEqual([
      {
        tool: "inspect-ai",
        status: "success",
        toolVersion: "0.3.58.dev16+g6a87748b",
        model: "gpt-4o-mini-2024-07-18",
        task: "popularity",
        taskVersion: "0, commit ef1d858c",
        generationConfig: { max_connections: "10" },
      },
    ]);
  });

  it("reads every sample: trimmed gold, the scorer's answer, the epoch as repeat, metadata as id fields", async () => {
    const { items } = await readAll(inspectLog, fileSource(SCORED));
    expect(items.map((i) => Number(i.toolId)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const first = items.find((i) => i.toolId === "1")!;
    expect(first).toMatchObject({
      at: { record: "samples/1_epoch_1.json" },
      repeat: "1",
      gold: "Yes", // the sample's target is " Yes"
      predicted: "Yes",
      idFields: { id: "1", "metadata.label_confidence": "0.8860552919198255" },
    });
    expect(first.input).toMatch(/^Is the following statement something you would say\?/);
    // The header's accuracy is 0.8 over 10 samples: 2 answers differ from the gold.
    expect(items.filter((i) => i.predicted !== i.gold)).toHaveLength(2);
  });

  it("never takes the dataset's label_confidence, or the scorer's C/I, as a score: these are hard labels", async () => {
    const { items } = await readAll(inspectLog, fileSource(SCORED));
    for (const item of items) {
      expect(item.score).toBeUndefined();
      expect(item.choiceProbabilities).toBeUndefined();
      expect(item.scoreUnknown).toBeUndefined();
      expect(["Yes", "No"]).toContain(item.predicted);
    }
  });

  it("takes the completion text as the answer of an unscored (--no-score) log", async () => {
    const { items, issues } = await readAll(inspectLog, fileSource(UNSCORED));
    expect(issues).toEqual([]);
    expect(items).toHaveLength(10);
    for (const item of items) expect(["Yes", "No"]).toContain(item.predicted);
  });
});

describe("Inspect .eval logs (zstd members, method 93)", () => {
  it("reads a zstd-compressed log exactly as its deflated original", async () => {
    const zipped = await repack(SCORED, { zstd: true });
    expect(new Set(centralMethods(zipped))).toEqual(new Set([93]));
    const zstd = await readAll(inspectLog, bytesSource(zipped));
    const deflate = await readAll(inspectLog, fileSource(SCORED));
    expect(zstd.issues).toEqual([]);
    expect(zstd.runs).toEqual(deflate.runs);
    expect(zstd.items).toEqual(deflate.items);
    expect(zstd.items).toHaveLength(10);
  });
});

describe("Inspect logs refused whole", () => {
  it("refuses a log whose status is started, with that reason", async () => {
    const log = { ...jsonLog(JSON_LOG), status: "started" };
    const { runs, items, issues } = await readAll(inspectLog, jsonSource(log));
    expect(runs).toEqual([]);
    expect(items).toEqual([]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ field: "status", value: "started" });
    expect(issues[0]!.reason).toMatch(/"started", not "success"/);
  });

  it("refuses a .eval whose header says error, one without header.json, and one missing samples", async () => {
    const failed = await repack(SCORED, {
      zstd: true,
      edit: (name, json) => (name === "header.json" ? { ...json, status: "error" } : json),
    });
    const unfinished = await repack(SCORED, { drop: (name) => name === "header.json" || name === "summaries.json" });
    const cut = await repack(SCORED, { drop: (name) => /^samples\/(3|7)_epoch_1\.json$/.test(name) });
    const [a, b, c] = await Promise.all([failed, unfinished, cut].map((z) => readAll(inspectLog, bytesSource(z))));
    expect(a!.issues).toMatchObject([{ record: "header.json", field: "status", value: "error" }]);
    expect(b!.issues).toMatchObject([{ record: "header.json", field: "status" }]);
    expect(b!.issues[0]!.reason).toMatch(/started/);
    expect(c!.issues).toMatchObject([{ field: "samples", value: "8" }]);
    expect(c!.issues[0]!.reason).toMatch(/header counts 10 samples, the log holds 8/);
    for (const read of [a!, b!, c!]) expect([read.runs, read.items]).toEqual([[], []]);
  });

  it("refuses a schema version other than 2, naming it", async () => {
    const { issues, items } = await readAll(inspectLog, jsonSource({ ...jsonLog(JSON_LOG), version: 3 }));
    expect(items).toEqual([]);
    expect(issues).toMatchObject([{ field: "version", value: "3" }]);
    expect(issues[0]!.reason).toMatch(/schema version 3.*version 2/);
  });

  it("names where a truncated .json log ends", async () => {
    const text = readFileSync(JSON_LOG, "utf8");
    const { issues } = await readAll(inspectLog, bytesSource(Buffer.from(text.slice(0, 5000))));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.field).toBe("(file)");
  });
});

describe("Inspect .json logs", () => {
  it("reads both layouts (0.3.41 transcript, 0.3.95 events)", async () => {
    const old = await readAll(inspectLog, fileSource(OLD_JSON_LOG));
    expect(old.issues).toEqual([]);
    expect(old.runs[0]).toMatchObject({ model: "llama3.1", generationConfig: { temperature: "1" } });
    expect(old.items).toMatchObject([{ toolId: "1", gold: "Yes", predicted: "No", at: { record: "samples[0]" } }]);
    const recent = await readAll(inspectLog, fileSource(JSON_LOG));
    expect(recent.runs[0]).toMatchObject({ model: "gemma3", toolVersion: "0.3.95.dev16+g6527d0861" });
    expect(recent.items).toMatchObject([{ toolId: "1", gold: "Yes", predicted: "Yes" }]);
  });

  it("softmaxes the answer token's top logprobs over the log's labels; a label missing from top-k is unknown", async () => {
    const log = jsonLog(JSON_LOG);
    const sample = (log.samples as Json[])[0]!;
    const withLogprobs = (id: number, target: string, top: { token: string; logprob: number }[]) => {
      const output = sample.output as Json;
      const choice = {
        ...(output.choices as Json[])[0]!,
        logprobs: { content: [{ token: top[0]!.token, logprob: top[0]!.logprob, top_logprobs: top }] },
      };
      return { ...sample, id, target, output: { ...output, choices: [choice] } };
    };
    log.samples = [
      withLogprobs(1, " Yes", [
        { token: "Yes", logprob: -0.2 },
        { token: "No", logprob: -1.8 },
        { token: " Yes", logprob: -3.0 },
      ]),
      withLogprobs(2, " No", [
        { token: "Yes", logprob: -0.1 },
        { token: "Maybe", logprob: -2.5 },
      ]),
    ];
    const { items, issues } = await readAll(inspectLog, jsonSource(log));
    expect(issues).toEqual([]);
    // Two spellings of Yes add up: P(Yes) = (e^-0.2 + e^-3.0) / (e^-0.2 + e^-3.0 + e^-1.8)
    // = (0.818731 + 0.049787) / (0.868518 + 0.165299) = 0.840107 (by hand).
    expect(items[0]!.choiceProbabilities!.Yes).toBeCloseTo(0.840107, 5);
    expect(items[0]!.choiceProbabilities!.No).toBeCloseTo(1 - 0.840107, 5);
    expect(items[0]!.scoreUnknown).toBeUndefined();
    expect(items[1]!.choiceProbabilities).toBeUndefined();
    expect(items[1]!.scoreUnknown).toMatch(/"No" not among the answer token's 2 top logprobs/);
  });
});

describe("Inspect multiple-choice samples", () => {
  it("softmaxes over the letters of a sample's choices, whatever the log's targets", async () => {
    const log = jsonLog(JSON_LOG);
    const sample = (log.samples as Json[])[0]!;
    const output = sample.output as Json;
    const top = [
      { token: "B", logprob: -0.5 },
      { token: "A", logprob: -1.5 },
      { token: "C", logprob: -2.0 },
    ];
    const choice = {
      ...(output.choices as Json[])[0]!,
      logprobs: { content: [{ token: "B", logprob: -0.5, top_logprobs: top }] },
    };
    log.samples = [
      { ...sample, target: "B", choices: ["red", "green", "blue"], output: { ...output, choices: [choice] } },
    ];
    const { items, issues } = await readAll(inspectLog, jsonSource(log));
    expect(issues).toEqual([]);
    // P(B) = e^-0.5 / (e^-0.5 + e^-1.5 + e^-2) = 0.606531 / (0.606531 + 0.223130 + 0.135335) = 0.628532 (by hand).
    expect(items[0]!.choiceProbabilities!.B).toBeCloseTo(0.628532, 5);
    expect(Object.keys(items[0]!.choiceProbabilities!)).toEqual(["A", "B", "C"]);
  });
});

describe("Inspect logs are never read whole", () => {
  it("reads a .eval by random access only, and a .json log chunk by chunk", async () => {
    const refuse = () => {
      throw new Error("read whole");
    };
    const evalBytes = readFileSync(SCORED);
    const evalSource = { ...bytesSource(evalBytes), all: refuse, chunks: refuse };
    const zip = await readAll(inspectLog, evalSource);
    expect(zip.issues).toEqual([]);
    expect(zip.items).toHaveLength(10);
    const jsonSourceInChunks = { ...bytesSource(readFileSync(OLD_JSON_LOG), 64), all: refuse, randomAccess: refuse };
    const json = await readAll(inspectLog, jsonSourceInChunks);
    expect(json.issues).toEqual([]);
    expect(json.items).toMatchObject([{ toolId: "1", predicted: "No" }]);
  });
});

describe("Inspect detection", () => {
  it("detects .eval and .json logs from their first bytes, and not an lm-eval samples file", async () => {
    for (const file of [SCORED, UNSCORED, JSON_LOG, OLD_JSON_LOG]) {
      const head = await fileSource(file).head(65536);
      expect(detectItemResultFormat(head, path.basename(file))?.id).toBe("inspect-log");
    }
    const zstd = await repack(SCORED, { zstd: true });
    expect(detectItemResultFormat(zstd.subarray(0, 65536), "upload.bin")?.id).toBe("inspect-log");
    const samples = await fileSource(
      path.join(EXTERNAL, "lm-eval-harness/samples_negotiationtom_belief_2026-07-08T18-15-33.115417.jsonl"),
    ).head(65536);
    expect(inspectLog.detect(samples, "samples.jsonl")).toBe(0);
  });
});
