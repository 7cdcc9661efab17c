import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { importDataset, importPredictions, ImportRejected, type UploadFile } from ".";
import { makeDecisionWithCandidate } from "@/test/factories";
import { bytes, counts } from "@/test/uploads";

process.env.VERDICT_JOBS = "inline";

const FIXTURES = path.resolve(import.meta.dirname, "../../../test/fixtures/ingest");
const fixture = (name: string): UploadFile => ({ name, path: path.join(FIXTURES, name) });

/** Issue 26: a semicolon file (what Excel writes in much of Europe) is read, and the report says so. */
describe("semicolon-separated uploads", () => {
  it("reads a semicolon dataset and predictions through the importers, saying how they were read", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await importDataset(analyst, decisionId, fixture("dataset-semicolon.csv"), {
      datasetName: "holdout",
      negativeLabels: ["benign"],
    });
    expect(ds).toMatchObject({ existing: false, format: "csv", itemCount: 3, positiveCount: 2 });
    expect(ds.warnings).toEqual(["Read as semicolon-separated."]);
    const prisma = await db();
    const items = await prisma.datasetItem.findMany({
      where: { datasetVersionId: ds.datasetVersionId },
      orderBy: { itemId: "asc" },
    });
    expect(items.map((i) => [i.itemId, i.label, i.text, i.slice])).toEqual([
      ["s1", true, "Hello; world", "en"],
      ["s2", false, "plain, with commas", "fr"],
      ["s3", true, "two\r\nlines", "en"],
    ]);

    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      fixture("predictions-semicolon.csv"),
      { negativeLabels: ["benign"], compute: "none" },
    );
    expect(run).toMatchObject({ existing: false, rowCount: 3, missingCount: 0 });
    expect(run.warnings).toEqual(["Read as semicolon-separated."]);
    const preds = await prisma.prediction.findMany({ where: { evalRunId: run.runId }, orderBy: { itemId: "asc" } });
    expect(preds.map((p) => [p.itemId, p.score, p.predicted, p.latencyMs])).toEqual([
      ["s1", 0.91, true, 120.5],
      ["s2", 0.12, false, 98],
      ["s3", 0.77, true, 101],
    ]);
  });

  it("says nothing of the separator for a comma file", async () => {
    const { analyst, decisionId } = await makeDecisionWithCandidate();
    const ds = await importDataset(analyst, decisionId, bytes("d.csv", "id,label\na,1\nb,0\n"), { datasetName: "d" });
    expect(ds.warnings).toEqual([]);
  });

  it("refuses a decimal comma in a score, saying so, and changes nothing", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await importDataset(analyst, decisionId, fixture("dataset-semicolon.csv"), {
      datasetName: "holdout",
      negativeLabels: ["benign"],
    });
    const before = await counts(decisionId);
    const error = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      bytes("p.csv", "id;score\r\ns1;0.5\r\ns2;0,87\r\n"),
      { compute: "none" },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).details).toMatchObject({
      errorCount: 1,
      errors: [{ line: 3, field: "score", value: "0,87", reason: "decimal comma: write 0.87" }],
    });
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
  });
});
