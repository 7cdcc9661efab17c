import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { database, db } from "../db";
import { computeComparisons } from "./comparisons";
import { comparisonsStale } from "./comparison-state";
import { computeRunAndComparisons } from "./compute-job";
import { drainInlineJobs } from "./queue";
import type { JobStep } from "./job-checkpoint";
import { PENDING_GRACE_MS, recoverLostRuns, recoverStaleComparisons } from "../maintenance/recovery";
import { comparisonsRecomputing } from "../pack/get-pack";
import { submissionProblems } from "../signoff/submission-check";
import { makeActor, makeDecision, unique } from "@/test/factories";
import type { Actor } from "../actors";

// Jobs queued by recovery run in this process, so the test can wait for them (drainInlineJobs).
process.env.VERDICT_JOBS = "inline";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const N = 1000;

/** Deterministic scores: three candidates of different quality, so every pair's figures depend on the costs. */
function scoresOf(candidate: number): { labels: boolean[]; scores: number[] } {
  let seed = 17 + candidate;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const labels = Array.from({ length: N }, (_, i) => i % 7 === 0);
  const scores = labels.map((positive) =>
    Math.min(1, Math.max(0, (positive ? 0.35 + 0.1 * candidate : 0.3) + (next() - 0.5) * 0.8)),
  );
  return { labels, scores };
}

async function decisionWithThreeRuns(analyst: Actor) {
  const { id: decisionId } = await makeDecision(analyst);
  const prisma = await db();
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("ds") }, select: { id: true } });
  const { labels } = scoresOf(0);
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: N, positiveCount: labels.filter(Boolean).length },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  await prisma.datasetItem.createMany({
    data: labels.map((label, i) => ({ datasetVersionId: version.id, itemId: `i${i}`, label })),
  });
  const runIds: number[] = [];
  for (const k of [0, 1, 2]) {
    const candidate = await prisma.candidate.create({
      data: { decisionId, name: unique(`M${k}`), provider: "p" },
      select: { id: true },
    });
    const run = await prisma.evalRun.create({
      data: { decisionId, candidateId: candidate.id, datasetVersionId: version.id },
      select: { id: true },
    });
    await prisma.prediction.createMany({
      data: scoresOf(k).scores.map((score, i) => ({ evalRunId: run.id, itemId: `i${i}`, score })),
    });
    runIds.push(run.id);
  }
  // As the upload's jobs do: each run's metrics, the last job pairs them.
  for (const id of runIds) await computeRunAndComparisons(await database(), id);
  return { decisionId, runIds };
}

const pairsOf = async (decisionId: string) =>
  (await db()).runComparison.findMany({
    where: { decisionId },
    orderBy: [{ runAId: "asc" }, { runBId: "asc" }],
    omit: { computedAt: true },
  });

/** The child changes costFp and computes, killed at `step`; returns once it is dead. */
async function killedAt(step: JobStep, nth: number, decisionId: string, analyst: Actor, costFp: number) {
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "test/fixtures/jobs/crash-at-step.ts",
      step,
      String(nth),
      decisionId,
      JSON.stringify(analyst),
      String(costFp),
    ],
    { cwd: ROOT, env: { ...process.env, VERDICT_JOBS: "inline" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += String(d)));
  child.stderr.on("data", (d) => (output += String(d)));
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  expect([code, signal], output).toEqual([null, "SIGKILL"]);
  expect(output).not.toContain("finished");
}

/** Recovery as the sweeps run it (later than any grace period), until nothing is left to recover. */
async function recover(decisionId: string) {
  const now = new Date(Date.now() + PENDING_GRACE_MS + 1000);
  for (let sweep = 0; sweep < 100; sweep++) {
    const { requeued, failed } = await recoverLostRuns(await database(), { decisionId, now });
    expect(failed).toEqual([]);
    const comparisons = await recoverStaleComparisons(await database(), { decisionId, now });
    await drainInlineJobs();
    const prisma = await db();
    const waiting = await prisma.evalRun.count({ where: { decisionId, status: { not: "DONE" } } });
    if (waiting === 0 && !(await comparisonsStale(prisma, decisionId))) return;
    // The killed session's locks may take a moment to be released.
    if (requeued.length === 0 && comparisons.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("recovery did not finish");
}

describe("a compute job killed at any step", () => {
  it("leaves the pairs stale (the pack says recomputing, submit waits) and recovery recomputes every pair from the current parameters", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const { decisionId, runIds } = await decisionWithThreeRuns(analyst);
    const prisma = await db();
    let previous = await pairsOf(decisionId);
    expect(previous).toHaveLength(3);
    expect(await comparisonsStale(prisma, decisionId)).toBe(false);

    const steps: [JobStep, number, string][] = [
      ["metrics-computed", 2, "before the second run's metrics are stored"],
      ["metrics-stored", 3, "between the last run's metrics and the comparisons"],
      ["comparison-pair", 1, "after the first of the three pairs"],
    ];
    for (const [index, [step, nth, where]] of steps.entries()) {
      const costFp = 2 + index;
      await killedAt(step, nth, decisionId, analyst, costFp);
      // Killed: the pairs are still those of the previous costFp, and marked stale.
      expect(await pairsOf(decisionId), where).toEqual(previous);
      expect(await comparisonsStale(prisma, decisionId), where).toBe(true);
      const runsLeft = await prisma.evalRun.count({ where: { decisionId, status: { not: "DONE" } } });
      expect(runsLeft > 0, where).toBe(step === "metrics-computed");
      expect(await comparisonsRecomputing(analyst, decisionId), where).toBe(true);
      const problems = await prisma.$transaction((tx) => submissionProblems(tx, decisionId));
      expect(problems.join(" "), where).toMatch(
        runsLeft > 0 ? /still being computed/ : /paired comparisons are being recomputed/,
      );

      await recover(decisionId);
      const runs = await prisma.evalRun.findMany({ where: { decisionId }, select: { status: true, metrics: true } });
      for (const run of runs) {
        expect(run.status, where).toBe("DONE");
        expect((run.metrics as { parameters: { costFalsePositive: number } }).parameters.costFalsePositive, where).toBe(
          costFp,
        );
      }
      const recovered = await pairsOf(decisionId);
      expect(recovered.map((p) => [p.runAId, p.runBId]).sort()).toEqual(
        [
          [runIds[2], runIds[1]],
          [runIds[2], runIds[0]],
          [runIds[1], runIds[0]],
        ].sort(),
      );
      // Every pair is what a computation from the current parameters gives, and differs from the previous costFp's.
      expect(await computeComparisons(await database(), decisionId)).toBe(3);
      expect(await pairsOf(decisionId), where).toEqual(recovered);
      expect(recovered.map((p) => p.deltaCostPer1k)).not.toEqual(previous.map((p) => p.deltaCostPer1k));
      expect(await comparisonsStale(prisma, decisionId)).toBe(false);
      expect(await comparisonsRecomputing(analyst, decisionId)).toBe(false);
      previous = recovered;
    }
  }, 240_000);
});
