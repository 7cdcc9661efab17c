import { afterAll, describe, expect, it } from "vitest";
import { db, database } from "../db";
import { importDataset, importPredictions } from "../imports";
import { handedRunCount, hasHandedInput } from "./eval-runs";
import { COMPUTE_RUN_QUEUE, computesHere, stopJobs } from "./queue";
import { bytes } from "@/test/uploads";
import { makeDecisionWithCandidate } from "@/test/factories";

// A web server that does not work the queue (issue 30): jobs go to pg-boss, for a worker.
delete process.env.VERDICT_JOBS;
process.env.VERDICT_WORKER = "0";
afterAll(() => stopJobs());

describe("a VERDICT_WORKER=0 server", () => {
  it("queues an upload's job for a worker and keeps none of its items in memory", async () => {
    expect(computesHere(await database())).toBe(false);
    const { analyst, decisionId, candidateId } = await makeDecisionWithCandidate();
    const ds = await importDataset(
      analyst,
      decisionId,
      bytes("d.csv", ["id,label", "a1,violating", "a2,benign", "a3,violating"].join("\n")),
      { datasetName: "elsewhere", negativeLabels: ["benign"] },
    );
    const before = handedRunCount();
    const run = await importPredictions(
      analyst,
      decisionId,
      candidateId,
      ds.datasetVersionId,
      bytes("p.csv", ["id,score", "a1,0.9", "a2,0.2", "a3,0.4"].join("\n")),
      { negativeLabels: ["benign"] },
    );
    expect(hasHandedInput(run.runId)).toBe(false);
    expect(handedRunCount()).toBe(before);
    // Queued for a worker, not computed here.
    const prisma = await db();
    expect(await prisma.evalRun.findUniqueOrThrow({ where: { id: run.runId }, select: { status: true } })).toEqual({
      status: "PENDING",
    });
    const jobs = await prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${COMPUTE_RUN_QUEUE} AND (data->>'runId')::int = ${run.runId}`;
    expect(jobs[0]!.n).toBe(1);
  });
});
