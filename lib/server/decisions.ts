import "server-only";
import { can } from "@/lib/auth/permissions";
import type { DecisionParametersPatch } from "@/lib/schemas/decision";
import { db } from "./db";
import { recordAudit, type RequestInfo } from "./audit";
import { AppError, forbiddenError, notFoundError } from "./errors";
import type { Actor } from "./session";

/** The task parameters of a decision (SPEC §2), as a Prisma select. */
export const TASK_PARAMETERS = {
  id: true,
  title: true,
  description: true,
  positiveClass: true,
  prevalence: true,
  costFn: true,
  costFp: true,
  currency: true,
  recallFloor: true,
  precisionFloor: true,
  operatingThreshold: true,
  sloP95E2eMs: true,
  sloP95TtftMs: true,
  sloMinThroughputRps: true,
  sloThroughputConcurrency: true,
  sloMaxCostPer1kRequests: true,
  quorum: true,
} as const;

const DECISION_PARAMETERS = { ...TASK_PARAMETERS, status: true, updatedAt: true } as const;

export async function listDecisions(actor: Actor) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  return prisma.decision.findMany({
    orderBy: { updatedAt: "desc" },
    select: { id: true, title: true, status: true, positiveClass: true, prevalence: true, updatedAt: true, _count: { select: { candidates: true } } },
  });
}

/** Everything the decision page's stage table needs, read once (stored metrics, never recomputed here). */
export async function getDecisionPack(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const decision = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: {
      ...DECISION_PARAMETERS,
      candidates: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          name: true,
          provider: true,
          version: true,
          shortlistRationale: true,
          operatingThreshold: true,
          priceInputPerMTok: true,
          priceOutputPerMTok: true,
          pricePerHour: true,
        },
      },
      scores: {
        select: { candidateId: true, stage: true, suite: true, metric: true, value: true, stderr: true, ciLow: true, ciHigh: true, votes: true, higherIsBetter: true, source: true, retrievedAt: true, relevanceNote: true },
      },
      evalRuns: {
        where: { status: "DONE" },
        orderBy: { id: "desc" },
        select: {
          id: true,
          candidateId: true,
          itemCount: true,
          missingCount: true,
          unknownCount: true,
          duplicateCount: true,
          parseFailureCount: true,
          metrics: true,
          computedAt: true,
          datasetVersion: { select: { id: true, version: true, itemCount: true, positiveCount: true, dataset: { select: { name: true } } } },
        },
      },
      servingBenchmarks: {
        orderBy: [{ concurrency: "asc" }],
        select: {
          candidateId: true,
          tool: true,
          toolVersion: true,
          concurrency: true,
          requestRate: true,
          completed: true,
          failed: true,
          requestThroughput: true,
          outputTokenThroughput: true,
          meanInputTokens: true,
          meanOutputTokens: true,
          ttftMs: true,
          tpotMs: true,
          e2eMs: true,
          tpotSource: true,
        },
      },
    },
  });
  if (!decision) throw notFoundError("The decision");
  return decision;
}

export type DecisionPack = Awaited<ReturnType<typeof getDecisionPack>>;

/** Analyst action: change task parameters (validated by the shared schema before it gets here). */
export async function updateDecisionParameters(actor: Actor, decisionId: string, patch: DecisionParametersPatch, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await tx.decision.findUnique({ where: { id: decisionId }, select: DECISION_PARAMETERS });
    if (!before) throw notFoundError("The decision");
    if (before.status === "IN_REVIEW" || before.status === "APPROVED" || before.status === "REJECTED") {
      throw new AppError("CONFLICT", `The decision is ${before.status.toLowerCase().replace("_", " ")}; its parameters are frozen.`);
    }
    const after = await tx.decision.update({ where: { id: decisionId }, data: patch, select: DECISION_PARAMETERS });
    const changed = Object.keys(patch) as (keyof typeof patch)[];
    await recordAudit(tx, {
      actor,
      action: "decision.update_parameters",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      before: Object.fromEntries(changed.map((k) => [k, before[k]])),
      after: Object.fromEntries(changed.map((k) => [k, after[k]])),
      request,
    });
    return after;
  });
}
