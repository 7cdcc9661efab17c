import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, database } from "../db";
import { drainInlineJobs } from "../runs/queue";
import { exportDatasetVersion } from "./export";
import { verifyAuditChainWith } from "../audit/verify";
import { parquetWriteBuffer } from "hyparquet-writer";
import { importDataset, importPredictions, ImportRejected, type UploadFile } from ".";
import { makeActor, makeDecisionWithCandidate } from "@/test/factories";
import { bytes, counts } from "@/test/uploads";
import type { Actor } from "../actors";

process.env.VERDICT_JOBS = "inline";

const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/ingest");
const fixture = (name: string): UploadFile => ({ name, path: path.join(FIXTURES, name) });
async function rejected(promise: Promise<unknown>) {
  const error = await promise.then(
    () => expect.fail("expected the file to be rejected"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportRejected);
  return (error as ImportRejected).details as {
    errors: { line?: number; record?: string; field: string; value?: string; reason: string }[];
    errorCount: number;
  };
}

async function dataset(analyst: Actor, decisionId: string) {
  return importDataset(analyst, decisionId, fixture("dataset-bom-crlf.csv"), {
    datasetName: "holdout",
    negativeLabels: ["benign"],
  });
}

describe("dataset uploads", () => {
  it("reads BOM, CRLF, quoted commas/newlines and class names; keeps text as data; versions; is idempotent", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const first = await dataset(analyst, decisionId);
    expect(first).toMatchObject({ existing: false, format: "csv", itemCount: 4, positiveCount: 2, version: 1 });
    const prisma = await db();
    const items = await prisma.datasetItem.findMany({
      where: { datasetVersionId: first.datasetVersionId },
      orderBy: { itemId: "asc" },
    });
    expect(items.map((i) => [i.itemId, i.label, i.text, i.slice])).toEqual([
      ["a1", true, "Hello, world", "en"],
      ["a2", false, 'multi\nline "quoted"', "fr"],
      ["a3", true, "=CMD(1)", "en"],
      ["a4", false, "plain", null],
    ]);
    const imp = await prisma.import.findUniqueOrThrow({ where: { id: first.importId } });
    expect(imp.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(imp.importedById).toBe(analyst.id);
    expect(Buffer.from(imp.content!).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const before = await counts(decisionId);
    const again = await dataset(analyst, decisionId);
    expect(again).toMatchObject({ existing: true, importId: first.importId, datasetVersionId: first.datasetVersionId });
    expect(await counts(decisionId)).toEqual(before);
    const v2 = await importDataset(analyst, decisionId, fixture("dataset.jsonl"), { datasetName: "holdout" });
    expect(v2).toMatchObject({ existing: false, format: "jsonl", version: 2, itemCount: 4, positiveCount: 2 });
    const audit = await prisma.auditEvent.findMany({ where: { decisionId, action: "evidence.import" } });
    expect(audit).toHaveLength(2);
    // Written by raw SQL in the COPY's transaction, the events still verify in the hash chain.
    expect((await verifyAuditChainWith(prisma)).intact).toBe(true);
  });

  it.each([
    ["wrong headers", "identifier,gold_truth\nx,1\n", 1, "(header)"],
    ["label outside the mapping", "id,label\na,violating\nb,spam\nc,1\n", 3, "label"],
    ["empty file", "", 1, "(file)"],
    ["only a header", "id,label\n", 1, "(file)"],
    ["a row with too many fields", "id,label\na,1\nb,0,extra\n", 3, "(row)"],
    ["an unclosed quote", 'id,label\na,1\n"b,0\n', 3, "(file)"],
  ])("rejects %s and changes nothing", async (_what, content, line, field) => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const before = await counts(decisionId);
    const report = await rejected(importDataset(analyst, decisionId, bytes("d.csv", content), { datasetName: "d" }));
    expect(report.errors[0]).toMatchObject({ line, field });
    expect(report.errorCount).toBeGreaterThan(0);
    // Nothing written but the refusal, audited (evidence.import_failed).
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
  });

  it("lists every duplicate id with its line, and changes nothing", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const before = await counts(decisionId);
    const report = await rejected(
      importDataset(analyst, decisionId, bytes("d.csv", "id,label\na,1\nb,0\na,0\nc,1\nb,1\n"), { datasetName: "d" }),
    );
    expect(report.errorCount).toBe(2);
    expect(report.errors).toEqual([
      { line: 4, field: "id", value: "a", reason: "duplicate id (first seen on line 2)" },
      { line: 6, field: "id", value: "b", reason: "duplicate id (first seen on line 3)" },
    ]);
    // Nothing written but the refusal, audited (evidence.import_failed).
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
  });

  it("rejects truncated JSON and invalid UTF-8 with their lines", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const truncated = await rejected(
      importDataset(analyst, decisionId, bytes("d.jsonl", '{"id":"a","label":1}\n{"id":"b","lab'), {
        datasetName: "d",
      }),
    );
    expect(truncated.errors[0]).toMatchObject({ line: 2, field: "(row)" });
    const latin1 = await rejected(
      importDataset(
        analyst,
        decisionId,
        bytes(
          "d.csv",
          Buffer.concat([Buffer.from("id,label,text\na,1,ok\nb,0,caf"), Buffer.from([0xe9]), Buffer.from("\n")]),
        ),
        { datasetName: "d" },
      ),
    );
    expect(latin1.errors[0]).toMatchObject({ line: 3, field: "(file)", reason: "not valid UTF-8" });
    expect((await counts(decisionId)).items).toBe(0);
  });

  it("refuses files over the size and row limits with PAYLOAD_TOO_LARGE, and changes nothing", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const before = await counts(decisionId);
    await expect(
      importDataset(analyst, decisionId, bytes("d.csv", "id,label\na,1\nb,0\n"), {
        datasetName: "d",
        limits: { maxBytes: 10 },
      }),
    ).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
    await expect(
      importDataset(analyst, decisionId, bytes("d.csv", "id,label\na,1\nb,0\nc,1\n"), {
        datasetName: "d",
        limits: { maxRows: 2 },
      }),
    ).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    // Nothing written but the refusals, audited (evidence.import_failed).
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 2 });
  });

  it("keeps only the hash and size above the content limit", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const result = await importDataset(analyst, decisionId, fixture("dataset.jsonl"), {
      datasetName: "d",
      limits: { keepContentBytes: 10 },
    });
    const imp = await (await db()).import.findUniqueOrThrow({ where: { id: result.importId } });
    expect(imp.content).toBeNull();
    expect(Number(imp.sizeBytes)).toBe(result.sizeBytes);
  });

  it("exports a version as spreadsheet-safe CSV (=CMD(1) stays text)", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const { body } = await exportDatasetVersion(analyst, decisionId, ds.datasetVersionId);
    const text = await new Response(body).text();
    expect(text).toBe(
      `id,label,slice,text\r\na1,1,en,"Hello, world"\r\na2,0,fr,"multi\nline ""quoted"""\r\na3,1,en,'=CMD(1)\r\na4,0,,plain\r\n`,
    );
  });

  it("reads Parquet (several row groups, INT64 ids, nullable text), then predictions in JSON Lines", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const n = 2500;
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: "id", data: BigInt64Array.from({ length: n }, (_, i) => BigInt(i + 1)), type: "INT64" },
        {
          name: "Label",
          data: Array.from({ length: n }, (_, i) => (i % 5 === 0 ? "violating" : "benign")),
          type: "STRING",
        },
        { name: "text", data: Array.from({ length: n }, (_, i) => (i % 2 ? `=row ${i}` : null)), type: "STRING" },
      ],
      rowGroupSize: 1000,
    });
    const ds = await importDataset(analyst, decisionId, bytes("items.parquet", Buffer.from(buffer)), {
      datasetName: "pq",
      negativeLabels: ["benign"],
    });
    expect(ds).toMatchObject({ format: "parquet", itemCount: n, positiveCount: n / 5 });
    const prisma = await db();
    expect(
      await prisma.datasetItem.findUnique({
        where: { datasetVersionId_itemId: { datasetVersionId: ds.datasetVersionId, itemId: "2" } },
      }),
    ).toMatchObject({ label: false, text: "=row 1" });
    const bad = await rejected(
      importDataset(analyst, decisionId, bytes("bad.parquet", Buffer.from("PAR1 not really")), { datasetName: "pq" }),
    );
    expect(bad.errors[0]).toMatchObject({ field: "(file)" });
    const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ id: i + 1, score: (i % 10) / 10 })).join("\n");
    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      bytes("p.jsonl", lines),
      { compute: "none" },
    );
    expect(run).toMatchObject({ rowCount: n, missingCount: 0 });
  });

  it("needs evidence.import", async () => {
    const { decisionId } = await makeDecisionWithCandidate();
    const reviewer = await makeActor(["REVIEWER"]);
    await expect(
      importDataset(reviewer, decisionId, fixture("dataset.jsonl"), { datasetName: "d" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("prediction uploads", () => {
  it("joins to the dataset version, counts missing ids, computes the run in the background, is idempotent", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      fixture("predictions.csv"),
      { negativeLabels: ["benign"] },
    );
    expect(run).toMatchObject({ existing: false, rowCount: 3, itemCount: 4, missingCount: 1, status: "PENDING" });
    const prisma = await db();
    const preds = await prisma.prediction.findMany({ where: { evalRunId: run.runId }, orderBy: { itemId: "asc" } });
    expect(
      preds.map((p) => [p.itemId, p.score, p.predicted, p.latencyMs, p.inputTokens, p.outputTokens, p.rawOutput]),
    ).toEqual([
      ["a1", 0.91, true, 120.5, 40, 3, '{"label": "violating"}'],
      ["a2", 0.12, false, 98, 35, 3, "benign"],
      ["a3", 0.77, true, 101, 33, 2, null],
    ]);
    await drainInlineJobs();
    const stored = await prisma.evalRun.findUniqueOrThrow({ where: { id: run.runId } });
    expect(stored).toMatchObject({ status: "DONE", progress: 1, itemCount: 4, missingCount: 1, unknownCount: 0 });
    expect(stored.metrics).toBeTruthy();
    const before = await counts(decisionId);
    const again = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      fixture("predictions.csv"),
      { negativeLabels: ["benign"] },
    );
    expect(again).toMatchObject({ existing: true, runId: run.runId });
    expect(await counts(decisionId)).toEqual(before);
  });

  it.each([
    ["non-numeric score", "id,score\na1,high\n", "score", "not a number"],
    ["NaN score", "id,score\na1,NaN\n", "score", "not a finite number"],
    ["Infinity score", "id,score\na1,-Infinity\n", "score", "not a finite number"],
    ["overflowing score", "id,score\na1,1e999\n", "score", "not a finite number (overflow)"],
    [
      "neither score nor label",
      "id,score,predicted\na1,,\n",
      "score",
      "the row has neither a score nor a predicted label",
    ],
    [
      "predicted label outside the mapping",
      "id,predicted\na1,maybe\n",
      "predicted",
      'outside the label mapping (positive: "violating"; no negative class names given)',
    ],
    ["no score column", "id,latency_ms\na1,3\n", "(header)", undefined],
  ])("rejects %s and changes nothing", async (_what, content, field, reason) => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const before = await counts(decisionId);
    const report = await rejected(
      importPredictions(analyst, decisionId, candidateId, ds.datasetVersionId, bytes("p.csv", content)),
    );
    expect(report.errors[0]).toMatchObject({ field, ...(reason ? { reason } : {}) });
    // Nothing written but the refusal, audited (evidence.import_failed).
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
  });

  it("rejects 1e999 in JSON Lines (parsed as Infinity)", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const report = await rejected(
      importPredictions(
        analyst,
        decisionId,
        candidateId,
        ds.datasetVersionId,
        bytes("p.jsonl", '{"id":"a1","score":0.5}\n{"id":"a2","score":1e999}\n'),
      ),
    );
    expect(report.errors[0]).toMatchObject({ line: 2, field: "score" });
  });

  it("rejects unknown and duplicate ids, listing them, and changes nothing", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const before = await counts(decisionId);
    const unknown = await rejected(
      importPredictions(
        analyst,
        decisionId,
        candidateId,
        ds.datasetVersionId,
        bytes("p.csv", "id,score\na1,0.5\nzz,0.2\nyy,0.1\n"),
      ),
    );
    expect(unknown.errorCount).toBe(2);
    expect(unknown.errors.map((e) => e.value)).toEqual(["yy", "zz"]);
    const dup = await rejected(
      importPredictions(
        analyst,
        decisionId,
        candidateId,
        ds.datasetVersionId,
        bytes("p.csv", "id,score\na1,0.5\na2,0.2\na1,0.1\n"),
      ),
    );
    expect(dup.errors).toEqual([{ line: 4, field: "id", value: "a1", reason: "duplicate id (first seen on line 2)" }]);
    // Nothing written but the refusals, audited (evidence.import_failed).
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 2 });
  });

  it("reports the first 100 problems and counts them all", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    const rows = Array.from({ length: 250 }, (_, i) => `x${i},bad`).join("\n");
    const report = await rejected(
      importPredictions(analyst, decisionId, candidateId, ds.datasetVersionId, bytes("p.csv", `id,score\n${rows}\n`)),
    );
    expect(report.errorCount).toBe(250);
    expect(report.errors).toHaveLength(100);
    expect(report.errors[0]).toMatchObject({ line: 2, field: "score", value: "bad" });
  });

  it("refuses a candidate or dataset version of another decision", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const other = await makeDecisionWithCandidate();
    const ds = await dataset(analyst, decisionId);
    await expect(
      importPredictions(analyst, decisionId, other.candidateId, ds.datasetVersionId, fixture("predictions.csv")),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      importPredictions(analyst, other.decisionId, other.candidateId, ds.datasetVersionId, fixture("predictions.csv")),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(candidateId).toBeTruthy();
  });
});

// The database handle is shared with other test files; keep it open.
void database;
