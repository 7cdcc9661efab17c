import "server-only";
import { db } from "../db";
import { hashPassword } from "../identity/passwords";
import { completeShortlist, makeActor, makeDecision, unique } from "@/test/factories";
import type { RoleName } from "@/lib/auth/permissions";
import type { Actor } from "../actors";

export const PASSWORD = "correct horse battery staple";
let passwordHash: Promise<string> | undefined;

/** A user who can sign: a real argon2id hash of PASSWORD (hashed once per test file). */
export async function makeSigner(roles: RoleName[], name?: string): Promise<Actor> {
  const actor = await makeActor(roles, name);
  const prisma = await db();
  passwordHash ??= hashPassword(PASSWORD);
  await prisma.user.update({ where: { id: actor.id }, data: { passwordHash: await passwordHash } });
  return actor;
}

const metrics = (recall: number) => ({
  report: {
    n: 2000,
    positives: 60,
    atThreshold: { threshold: 0.5, recall, precision: 0.5 },
    reweighted: { precision: 0.4 },
  },
  recallInterval: [recall - 0.05, recall + 0.05],
});
const pct = (p95: number) => ({ p50: p95 / 2, p95 });

/**
 * A decision of its own with two candidates: Good passes every gate, Slow fails the p95 latency
 * SLO. The analyst imported the evidence. It is complete for submission: each candidate has a
 * cited leaderboard score, rationale and resemblance answers, and its runs are DONE on the
 * decision's evaluation dataset version.
 */
export async function makeSignoffDecision(analyst: Actor, quorum = 2) {
  const prisma = await db();
  const { id: decisionId } = await makeDecision(analyst, { quorum });
  const good = await prisma.candidate.create({
    data: { decisionId, name: unique("Good"), provider: "test", pricePerHour: 2 },
    select: { id: true },
  });
  const slow = await prisma.candidate.create({
    data: { decisionId, name: unique("Slow"), provider: "test", pricePerHour: 2 },
    select: { id: true },
  });
  const imp = await prisma.import.create({
    data: {
      decisionId,
      kind: "PREDICTIONS",
      format: "test",
      fileName: "evidence.csv",
      sha256: "a".repeat(64),
      sizeBytes: 10n,
      status: "SUCCEEDED",
      importedById: analyst.id,
    },
    select: { id: true },
  });
  const dataset = await prisma.dataset.create({ data: { decisionId, name: unique("set") }, select: { id: true } });
  const version = await prisma.datasetVersion.create({
    data: { datasetId: dataset.id, version: 1, itemCount: 2000, positiveCount: 60 },
    select: { id: true },
  });
  await prisma.decision.update({ where: { id: decisionId }, data: { evaluationDatasetVersionId: version.id } });
  for (const c of [good, slow]) {
    await prisma.evalRun.create({
      data: {
        decisionId,
        candidateId: c.id,
        datasetVersionId: version.id,
        status: "DONE",
        itemCount: 2000,
        metrics: metrics(0.9),
        importId: c === good ? imp.id : undefined,
      },
    });
    await prisma.servingBenchmark.create({
      data: {
        decisionId,
        candidateId: c.id,
        tool: "test",
        concurrency: 32,
        completed: 100,
        requestThroughput: 25,
        ttftMs: pct(200),
        tpotMs: pct(10),
        e2eMs: pct(c === good ? 600 : 1200),
      },
    });
  }
  await completeShortlist(decisionId);
  return { decisionId, goodId: good.id, slowId: slow.id };
}

/** A change of evidence, as a new import would make it (a suite no rationale cites). */
export async function addLeaderboardScore(decisionId: string, candidateId: string, importedById: string) {
  const prisma = await db();
  const { name: modelName } = await prisma.candidate.findUniqueOrThrow({
    where: { id: candidateId },
    select: { name: true },
  });
  const imp = await prisma.import.create({
    data: {
      decisionId,
      kind: "LEADERBOARD",
      format: "test",
      fileName: "board.csv",
      sha256: "b".repeat(64),
      sizeBytes: 5n,
      status: "SUCCEEDED",
      importedById,
    },
    select: { id: true },
  });
  await prisma.leaderboardScore.create({
    data: {
      decisionId,
      candidateId,
      modelName,
      stage: "LEADERBOARD",
      suite: "MMLU",
      metric: "acc",
      value: 0.7,
      source: "test",
      retrievedAt: new Date("2026-01-01T00:00:00Z"),
      importId: imp.id,
    },
  });
}
