import "server-only";
import { can } from "@/lib/auth/permissions";
import { rationaleProblem } from "@/lib/evidence/rationale";
import type { CandidateInput } from "@/lib/schemas/candidate";
import { recordAudit, type RequestInfo } from "../audit";
import { db } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../session";

const CANDIDATE = { id: true, decisionId: true, name: true, provider: true, version: true, shortlistRationale: true, operatingThreshold: true, priceInputPerMTok: true, priceOutputPerMTok: true, pricePerHour: true } as const;

/** The suites a candidate has imported scores for: what its rationale may cite. */
export async function scoredSuites(actor: Actor, decisionId: string): Promise<Record<string, string[]>> {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const rows = await prisma.leaderboardScore.findMany({ where: { decisionId }, distinct: ["candidateId", "suite"], select: { candidateId: true, suite: true } });
  const out: Record<string, string[]> = {};
  for (const r of rows) (out[r.candidateId] ??= []).push(r.suite);
  return out;
}

/** Analyst action: edit a candidate and its shortlist rationale (which must cite a scored suite and say why). */
export async function updateCandidate(actor: Actor, input: CandidateInput, request: RequestInfo = {}) {
  if (!can(actor, "decision.edit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await tx.candidate.findUnique({ where: { id: input.candidateId }, select: { ...CANDIDATE, decision: { select: { status: true } } } });
    if (!before) throw notFoundError("The candidate");
    if (before.decision.status !== "DRAFT" && before.decision.status !== "CHANGES_REQUESTED") throw new AppError("CONFLICT", "The decision is not a draft; its candidates are frozen.");
    const suites = (await tx.leaderboardScore.findMany({ where: { candidateId: input.candidateId }, distinct: ["suite"], select: { suite: true } })).map((s) => s.suite);
    const problem = rationaleProblem(input.shortlistRationale, suites);
    if (problem) throw new AppError("VALIDATION", problem, { fieldErrors: { shortlistRationale: [problem] } });
    const { candidateId, ...data } = input;
    const after = await tx.candidate.update({
      where: { id: candidateId },
      data: { ...data, operatingThreshold: data.operatingThreshold ?? null, priceInputPerMTok: data.priceInputPerMTok ?? null, priceOutputPerMTok: data.priceOutputPerMTok ?? null, pricePerHour: data.pricePerHour ?? null },
      select: CANDIDATE,
    });
    const { decision: _d, ...beforeRow } = before;
    const changed = (Object.keys(data) as (keyof typeof data)[]).filter((k) => beforeRow[k] !== after[k]);
    await recordAudit(tx, {
      actor,
      action: "candidate.update",
      entityType: "Candidate",
      entityId: candidateId,
      decisionId: before.decisionId,
      before: Object.fromEntries(changed.map((k) => [k, beforeRow[k]])),
      after: Object.fromEntries(changed.map((k) => [k, after[k]])),
      request,
    });
    return after;
  });
}
