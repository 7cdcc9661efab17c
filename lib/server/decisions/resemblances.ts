import "server-only";
import { can } from "@/lib/auth/permissions";
import { citedSuites } from "@/lib/pack/rationale";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { RelevanceNoteInput, ResemblanceInput } from "@/lib/schemas/candidate";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db, type Tx } from "../db";
import { lockEditableDecision } from "./lock";
import { PACK_RESEMBLANCE, RESEMBLANCE_ANSWERS } from "./fields";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";

/** Each candidate's shortlist rationale with the suites it has scores for: what the rationale may cite. */
export async function rationalesOf(
  tx: Tx | PrismaClient,
  decisionId: string,
): Promise<{ name: string; rationale: string; scoredSuites: string[] }[]> {
  const candidates = await tx.candidate.findMany({
    where: { decisionId },
    orderBy: { createdAt: "asc" },
    select: { name: true, shortlistRationale: true, scores: { distinct: ["suite"], select: { suite: true } } },
  });
  return candidates.map((c) => ({
    name: c.name,
    rationale: c.shortlistRationale,
    scoredSuites: c.scores.map((s) => s.suite),
  }));
}

/**
 * The suites the decision's shortlist rationales cite (SPEC §3, stage 1–2): each must have the
 * three questions of resemblance answered before the decision can be submitted.
 */
export async function citedSuitesOf(
  tx: Tx | PrismaClient,
  decisionId: string,
): Promise<{ suite: string; candidates: string[] }[]> {
  const bySuite = new Map<string, string[]>();
  for (const c of await rationalesOf(tx, decisionId)) {
    for (const suite of citedSuites(c.rationale, c.scoredSuites))
      bySuite.set(suite, [...(bySuite.get(suite) ?? []), c.name]);
  }
  return [...bySuite]
    .map(([suite, names]) => ({ suite, candidates: names }))
    .sort((a, b) => a.suite.localeCompare(b.suite));
}

/** For the page: every cited suite with its answers so far (null when unanswered). */
export async function getResemblances(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const [cited, answers] = await Promise.all([
    citedSuitesOf(prisma, decisionId),
    prisma.suiteResemblance.findMany({
      where: { decisionId },
      select: { ...PACK_RESEMBLANCE, relevanceNote: true },
    }),
  ]);
  return cited.map((c) => ({ ...c, answer: answers.find((a) => a.suite === c.suite) ?? null }));
}

async function requireScoredSuite(tx: Tx, decisionId: string, suite: string) {
  const scored = await tx.leaderboardScore.findFirst({
    where: { decisionId, suite, candidateId: { not: null } },
    select: { id: true },
  });
  if (!scored)
    throw new AppError("VALIDATION", `suite: no candidate of this decision has scores on "${suite}".`, {
      issues: [{ field: "suite", reason: "No candidate has scores on this suite." }],
      total: 1,
    });
}

/** Analyst: answer (or change) the three questions of resemblance for a suite a rationale cites. */
export async function answerResemblance(actor: Actor, input: ResemblanceInput, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, input.decisionId);
    await requireScoredSuite(tx, input.decisionId, input.suite);
    const { decisionId, suite, ...answers } = input;
    const before = await tx.suiteResemblance.findUnique({
      where: { decisionId_suite: { decisionId, suite } },
      select: { ...RESEMBLANCE_ANSWERS, relevanceNote: true },
    });
    const row = await tx.suiteResemblance.upsert({
      where: { decisionId_suite: { decisionId, suite } },
      create: { decisionId, suite, ...answers },
      update: answers,
      select: { id: true },
    });
    await recordAudit(tx, {
      actor,
      action: "resemblance.answer",
      entityType: "SuiteResemblance",
      entityId: row.id,
      decisionId,
      before: before ?? null,
      after: { suite, ...answers },
      request,
    });
    return { suite, ...answers };
  });
}

/**
 * Analyst: set (or clear, with "") a suite's relevance note — why its numbers matter, or not, for
 * this decision — printed beside the suite in stages 1–2 of the page, the PDF and the JSON export.
 * The note belongs to the suite's resemblance answers, so those come first.
 */
export async function setRelevanceNote(actor: Actor, input: RelevanceNoteInput, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockEditableDecision(tx, input.decisionId);
    await requireScoredSuite(tx, input.decisionId, input.suite);
    const { decisionId, suite, relevanceNote } = input;
    const before = await tx.suiteResemblance.findUnique({
      where: { decisionId_suite: { decisionId, suite } },
      select: { id: true, relevanceNote: true },
    });
    if (!before)
      throw new AppError(
        "VALIDATION",
        `suite: answer the three questions of resemblance for "${suite}" before its relevance note.`,
        { issues: [{ field: "suite", reason: "The suite's resemblance is not answered yet." }], total: 1 },
      );
    await tx.suiteResemblance.update({ where: { id: before.id }, data: { relevanceNote } });
    await recordAudit(tx, {
      actor,
      action: "resemblance.relevance_note",
      entityType: "SuiteResemblance",
      entityId: before.id,
      decisionId,
      before: { suite, relevanceNote: before.relevanceNote },
      after: { suite, relevanceNote },
      request,
    });
    return { suite, relevanceNote };
  });
}
