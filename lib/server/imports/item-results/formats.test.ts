import { compress as zstdCompress, init as initZstd } from "@bokuweb/zstd-wasm";
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter, type FileEntry } from "@zip.js/zip.js";
import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { drainInlineJobs } from "../../runs/queue";
import { storedRunMetrics } from "@/lib/pack/run-input";
import { HARD_LABELS_METRIC_REASON } from "@/lib/metrics/hard-labels";
import { importItemResults } from ".";
import type { UploadFile } from "../files";
import { bytes, counts } from "@/test/uploads";
import { decisionWithDataset, fixturePath, parsedItems } from "@/test/item-results/datasets";

/**
 * Each tool's fixture end to end through importItemResults: Inspect (.eval deflate and zstd,
 * .json), promptfoo (one candidate per provider), OpenAI Evals; hard labels giving one operating
 * point and AP / ROC-AUC undefined with the reason.
 */
process.env.VERDICT_JOBS = "inline";

const SCORED = "inspect-ai/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval";
const JSON_LOG = "inspect-ai/log_read_sample.json";
const PROMPTFOO = "promptfoo/sample-export.json";
const OPENAI = "openai-evals/230417220821DPM75QNS_auto_gpt_completion_fn_test-match.jsonl";
const file = (relative: string): UploadFile => ({ name: relative.split("/").pop()!, path: fixturePath(relative) });

beforeAll(async () => {
  await initZstd();
});

/** The .eval's members re-packed zstd-compressed (method 93), as current Inspect writes them. */
async function zstdEval(relative: string): Promise<Buffer> {
  const reader = new ZipReader(new Uint8ArrayReader(readFileSync(fixturePath(relative))), { useWebWorkers: false });
  const writer = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
  for (const entry of (await reader.getEntries()) as FileEntry[]) {
    const data = await entry.getData(new Uint8ArrayWriter());
    await writer.add(entry.filename, new Uint8ArrayReader(zstdCompress(Buffer.from(data), 3)), {
      passThrough: true,
      compressionMethod: 93,
      uncompressedSize: data.length,
      signature: crc32(data),
    });
  }
  return Buffer.from(await writer.close());
}

async function inspectDecision() {
  const items = await parsedItems(SCORED);
  return decisionWithDataset(items.map((i) => ({ itemId: i.toolId, label: i.gold === "Yes" })));
}

async function computedRun(runId: number) {
  await drainInlineJobs();
  const run = await (await db()).evalRun.findUniqueOrThrow({ where: { id: runId } });
  expect(run.status).toBe("DONE");
  return { run, metrics: storedRunMetrics(run.metrics)! };
}

describe("Inspect logs through the importer", () => {
  it("imports a deflated .eval's hard labels: one operating point, AP and ROC-AUC undefined with the reason", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await inspectDecision();
    const mapping = { idField: "id", positiveLabels: ["Yes"] };
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [file(SCORED)],
      mapping,
    );
    expect(result).toMatchObject({ format: "inspect-log", rowCount: 10, scoreBasis: "hard-label", missingCount: 0 });
    const { run, metrics } = await computedRun(result.runId);
    expect(run.toolRun).toMatchObject({ tool: "inspect-ai", model: "gpt-4o-mini-2024-07-18", task: "popularity" });
    // Gold Yes: 9, 5, 7, 3, 1; the model said Yes to 9, 5, 1 and to no No item.
    expect(metrics.report.atThreshold).toMatchObject({ tp: 3, fp: 0, fn: 2, tn: 5, recall: 0.6, precision: 1 });
    expect(metrics.report.averagePrecision).toBeNull();
    expect(metrics.report.rocAuc).toBeNull();
    expect(metrics.report.undefinedReasons.averagePrecision).toBe(HARD_LABELS_METRIC_REASON);
    expect(metrics.report.undefinedReasons.rocAuc).toBe(HARD_LABELS_METRIC_REASON);
    expect(metrics.curves.pr).toEqual({ x: [0.6], y: [1], thresholds: [0.5], fullLength: 1, operatingIndex: 0 });
    expect(metrics.input.scoreKind).toBe("hard-labels");
  });

  it("reads a zstd .eval as its deflated original", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await inspectDecision();
    const zipped = await zstdEval(SCORED);
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [bytes("run.eval", zipped)],
      { idField: "toolId", positiveLabels: ["Yes"] },
    );
    expect(result).toMatchObject({ format: "inspect-log", rowCount: 10, scoreBasis: "hard-label" });
    const { metrics } = await computedRun(result.runId);
    expect(metrics.report.atThreshold).toMatchObject({ tp: 3, fp: 0 });
  });

  it("imports a .json log, counting the dataset's items it has no sample for", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset([
      { itemId: "1", label: true },
      { itemId: "2", label: false },
    ]);
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [file(JSON_LOG)],
      { idField: "id", positiveLabels: ["Yes"] },
      { compute: "none" },
    );
    expect(result).toMatchObject({ rowCount: 1, missingCount: 1, itemCount: 2 });
    expect(result.warnings[0]).toMatch(/^1 dataset item\(s\) have no prediction/);
  });

  it("refuses a .eval missing samples (a partially written log), writing nothing", async () => {
    const { analyst, decisionId, candidateId, datasetVersionId } = await inspectDecision();
    const reader = new ZipReader(new Uint8ArrayReader(readFileSync(fixturePath(SCORED))), { useWebWorkers: false });
    const writer = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
    for (const entry of (await reader.getEntries()) as FileEntry[])
      if (entry.filename !== "samples/3_epoch_1.json")
        await writer.add(entry.filename, new Uint8ArrayReader(await entry.getData(new Uint8ArrayWriter())));
    const cut = Buffer.from(await writer.close());
    const before = await counts(decisionId);
    const error = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [bytes("cut.eval", cut)],
      { idField: "id", positiveLabels: ["Yes"] },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", details: { errors: [{ field: "samples" }] } });
    expect({ ...(await counts(decisionId)), refused: 0 }).toEqual({ ...before, refused: 0 });
  });
});

describe("promptfoo and OpenAI Evals through the importer", () => {
  it("imports each promptfoo provider as its own candidate's run, and asks which when none is chosen", async () => {
    const { analyst, decisionId, candidates, datasetVersionId } = await decisionWithDataset(
      [
        { itemId: "0", label: true },
        { itemId: "1", label: false },
      ],
      ["gpt-5", "gpt-5-mini"],
    );
    const positiveLabels = ["An echo."];
    const unchosen = await importItemResults(
      analyst,
      decisionId,
      { candidateId: candidates[0]!.id, datasetVersionId },
      [file(PROMPTFOO)],
      { idField: "testIdx", positiveLabels },
    ).catch((e: unknown) => e);
    expect(unchosen).toMatchObject({ details: { errorCount: 1, errors: [{ field: "model", value: "openai:gpt-5" }] } });
    const runs = [];
    for (const [k, model] of ["openai:gpt-5", "openai:gpt-5-mini"].entries())
      runs.push(
        await importItemResults(
          analyst,
          decisionId,
          { candidateId: candidates[k]!.id, datasetVersionId },
          [file(PROMPTFOO)],
          { idField: "testIdx", positiveLabels, model },
          { compute: "none" },
        ),
      );
    expect(runs.map((r) => [r.rowCount, r.existing, r.scoreBasis])).toEqual([
      [2, false, "hard-label"],
      [2, false, "hard-label"],
    ]);
    const prisma = await db();
    const predicted = async (runId: number) =>
      (await prisma.prediction.findMany({ where: { evalRunId: runId }, orderBy: { itemId: "asc" } })).map(
        (p) => p.predicted,
      );
    // gpt-5 answered exactly "An echo."; gpt-5-mini wrote more around it.
    expect(await predicted(runs[0]!.runId)).toEqual([true, false]);
    expect(await predicted(runs[1]!.runId)).toEqual([false, false]);
  });

  it("imports an OpenAI Evals record log: a sample without a completion is a parse failure", async () => {
    const items = await parsedItems(OPENAI);
    const { analyst, decisionId, candidateId, datasetVersionId } = await decisionWithDataset(
      items.map((i) => ({ itemId: i.toolId, label: i.gold === "George Washington" })),
    );
    const result = await importItemResults(
      analyst,
      decisionId,
      { candidateId, datasetVersionId },
      [file(OPENAI)],
      { idField: "sample_id", positiveLabels: ["George Washington"] },
      { compute: "none" },
    );
    expect(result).toMatchObject({ format: "openai-evals-log", rowCount: 3, scoreBasis: "hard-label" });
    const rows = await (
      await db()
    ).prediction.findMany({
      where: { evalRunId: result.runId },
      orderBy: { itemId: "asc" },
    });
    expect(rows.map((r) => [r.itemId, r.predicted, r.parseFailure])).toEqual([
      ["test-match.s1.0", null, true],
      ["test-match.s1.1", true, false],
      ["test-match.s1.2", null, true],
    ]);
  });
});
