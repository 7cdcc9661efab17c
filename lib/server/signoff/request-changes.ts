import "server-only";
import { can } from "@/lib/auth/permissions";
import type { RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";
import { lockDecision, transitionStatus, ensureCurrentRevision } from "./revisions";

/** Approver: IN_REVIEW → CHANGES_REQUESTED, with the reason (kept in the transition's audit event, shown in the review page's history). */
export async function requestChanges(actor: Actor, decisionId: string, reason: string, request: RequestInfo = {}) {
  if (!can(actor, "signature.approve")) throw forbiddenError();
  const why = reason.trim();
  if (why.length < 3) throw new AppError("VALIDATION", "Say which changes you request.");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const { status } = await lockDecision(tx, decisionId);
    if (status !== "IN_REVIEW")
      throw new AppError("CONFLICT", "Changes can only be requested while the decision is in review.");
    const { revision } = await ensureCurrentRevision(tx, actor, decisionId, request);
    await transitionStatus(tx, actor, decisionId, "IN_REVIEW", "CHANGES_REQUESTED", request, {
      reason: why,
      revision: revision.number,
    });
  });
}
