import { describe, expect, it } from "vitest";
import { makeDecisionWithCandidate } from "@/test/factories";
import { database, db } from "../db";
import { ItemWriter, type ItemResult } from "./item-writer";

/** A RUNNING run of `itemCount` items with nothing stored (the writer needs only the row). */
async function makeRun(itemCount: number) {
  const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate("W");
  const prisma = await db();
  const run = await prisma.harnessRun.create({
    data: {
      decisionId,
      candidateId,
      datasetVersionId: 0,
      concurrency: 4,
      protocol: {},
      protocolSha256: "0".repeat(64),
      endpoint: {},
      status: "RUNNING",
      itemCount,
      chunkSize: itemCount,
      createdById: analyst.id,
    },
    select: { id: true },
  });
  return run.id;
}

const result = (itemId: string, k: number): ItemResult => ({
  itemId,
  completed: k % 5 !== 4,
  // What a model may answer: delimiters, quotes, line ends, edge spaces, the empty string, COPY's markers.
  rawOutput: [`yes`, ` no, "maybe"\n`, "", "\\.", "a\r\nb", null][k % 6]!,
  predicted: k % 3 === 0 ? null : k % 3 === 1,
  score: k % 3 === 0 ? null : 1 / (k + 3),
  parseFailure: k % 3 === 0 ? `output "x,y" is not one of the labels yes, no` : null,
  httpStatus: k % 5 === 4 ? null : 200,
  error: k % 5 === 4 ? "stalled: no bytes for 60000 ms" : null,
  attempts: 1 + (k % 3),
  inputTokens: k % 5 === 4 ? null : 30 + k,
  outputTokens: k % 5 === 4 ? null : 1 + (k % 4),
  ttftMs: k % 5 === 4 ? null : 12.055597999999918 + k / 7,
  e2eMs: 40 + k / 3,
  itlMs: Array.from({ length: k % 4 }, (_, i) => (i + 1) / 3 + 1e-7),
  startedAt: 1796300182387.25 + k,
});

const stored = async (runId: number) => {
  const prisma = await db();
  const items = await prisma.harnessItem.findMany({ where: { harnessRunId: runId }, orderBy: { itemId: "asc" } });
  const run = await prisma.harnessRun.findUniqueOrThrow({ where: { id: runId }, select: { doneCount: true } });
  return { items: items.map(({ harnessRunId: _, ...rest }) => rest), doneCount: run.doneCount };
};

describe("ItemWriter", () => {
  it("stores every field as given, and counts each item once though a batch repeats stored ones", async () => {
    const runId = await makeRun(30);
    const results = Array.from({ length: 30 }, (_, k) => result(`w${String(k).padStart(2, "0")}`, k));
    const statuses: string[] = [];
    const writer = new ItemWriter(await database(), runId, (s) => statuses.push(s), 8, 10_000);
    for (const r of results.slice(0, 20)) writer.push(r);
    await writer.flush();
    // A worker presumed dead writes again items another one stored: those rows are skipped.
    for (const r of results.slice(16)) writer.push({ ...r, rawOutput: "written twice" });
    await writer.close();

    const { items, doneCount } = await stored(runId);
    expect(doneCount).toBe(30);
    expect(items).toEqual(results.map((r, k) => ({ ...r, rawOutput: k < 20 ? r.rawOutput : "written twice" })));
    expect(statuses.every((s) => s === "RUNNING")).toBe(true);
  });

  it("reports the run's status at each flush (a cancel reaches the worker)", async () => {
    const runId = await makeRun(4);
    const statuses: string[] = [];
    const writer = new ItemWriter(await database(), runId, (s) => statuses.push(s), 2, 10_000);
    writer.push(result("c0", 0));
    writer.push(result("c1", 1));
    await writer.flush();
    await (await db()).harnessRun.update({ where: { id: runId }, data: { status: "CANCELLED" } });
    writer.push(result("c2", 2));
    await writer.close();
    expect(statuses).toEqual(["RUNNING", "CANCELLED"]);
    expect((await stored(runId)).doneCount).toBe(3);
  });
});
