import { describe, expect, it } from "vitest";
import { db } from "../db";
import { drainInlineJobs } from "../runs/queue";
import { computeEvalRun, handedRunCount, hasHandedInput } from "../runs/eval-runs";
import { importDataset, importPredictions, ImportRejected } from ".";
import { bytes, counts } from "@/test/uploads";
import { makeDecisionWithCandidate } from "@/test/factories";

process.env.VERDICT_JOBS = "inline";

/**
 * Issue 12 §2: the upload reads its run's joined items (as columns, in its own transaction) and
 * hands them to the run's job, which then reads nothing back. The figures must be those computed
 * from the stored rows, and a refused upload must leave neither rows nor a hand-over behind.
 */
describe("the upload hands its run's items to the metrics job", () => {
  // Ids and slices that COPY's text format escapes (tab, backslash, newline), a parse failure,
  // a prediction without a score, and an item without a prediction (missing).
  const datasetCsv = [
    "id,label,slice",
    'a1,violating,"north\\east"',
    '"a\t2",violating,"two\nlines"',
    "a3,violating,",
    '"a\\4",benign,south',
    "a5,violating,south",
    "a6,benign,",
    "a7,benign,north",
    "a8,violating,north",
  ].join("\n");
  const predictionsCsv = [
    "id,score,predicted,parse_failure",
    "a1,0.9,,",
    '"a\t2",0.3,,',
    "a3,0.1,,",
    '"a\\4",0.8,,',
    "a5,,violating,",
    "a6,0.45,,true",
    "a7,0.2,,",
  ].join("\n");

  it("stores the same metrics as a job that reads the stored rows", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await importDataset(analyst, decisionId, bytes("d.csv", datasetCsv), {
      datasetName: "escapes",
      negativeLabels: ["benign"],
    });
    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      bytes("p.csv", predictionsCsv),
      { negativeLabels: ["benign"] },
    );
    expect(run).toMatchObject({ rowCount: 7, itemCount: 8, missingCount: 1 });
    await drainInlineJobs();
    expect(hasHandedInput(run.runId)).toBe(false);
    const prisma = await db();
    const handed = await prisma.evalRun.findUniqueOrThrow({ where: { id: run.runId } });
    expect(handed).toMatchObject({
      status: "DONE",
      itemCount: 8,
      missingCount: 1,
      parseFailureCount: 2,
      unknownCount: 0,
    }); // a6 failed to parse; a5 has no score (a hard label among scores counts as an error)
    const imported = await prisma.import.findUniqueOrThrow({ where: { id: run.importId } });
    expect((imported.errors as { missingExamples: string[] }).missingExamples).toEqual(["a8"]);

    const items = async () =>
      (await prisma.runItem.findMany({ where: { evalRunId: run.runId }, orderBy: { itemId: "asc" } })).map((r) => [
        r.itemId,
        r.label,
        r.orderKey,
        r.slice,
      ]);
    const handedItems = await items();
    expect(handedItems).toHaveLength(8);

    // The same run computed again, as a job in another process would: from the stored rows.
    await prisma.runItem.deleteMany({ where: { evalRunId: run.runId } });
    await prisma.evalRun.update({ where: { id: run.runId }, data: { status: "PENDING", metrics: undefined } });
    expect(await computeEvalRun(await (await import("../db")).database(), run.runId)).toBe(true);
    const readBack = await prisma.evalRun.findUniqueOrThrow({ where: { id: run.runId } });
    expect(readBack.metrics).toEqual(handed.metrics);
    // The drill-down's items: written by PostgreSQL from the handed input, by the app from the rows.
    expect(await items()).toEqual(handedItems);
    expect((readBack.metrics as { slices: { slice: string }[] | null }).slices?.map((s) => s.slice).sort()).toEqual(
      ["(none)", "north", "north\\east", "south", "two\nlines"].sort(),
    );
  });

  it("a refused upload stores nothing and hands nothing over", async () => {
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await importDataset(analyst, decisionId, bytes("d.csv", datasetCsv), {
      datasetName: "escapes",
      negativeLabels: ["benign"],
    });
    const before = await counts(decisionId);
    const waiting = handedRunCount();
    const error = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      bytes("p.csv", `${predictionsCsv}\nnot-in-the-dataset,0.5,,`),
      { negativeLabels: ["benign"] },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).errorCount).toBe(1);
    await drainInlineJobs();
    expect(await counts(decisionId)).toEqual({ ...before, refused: before.refused + 1 });
    expect(handedRunCount()).toBe(waiting);
  });
});
