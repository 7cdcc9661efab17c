import "server-only";
import { can } from "@/lib/auth/permissions";
import type { RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";
import { buildPack } from "./build-pack";
import { assertSubmittable } from "./submission-check";
import { ensureCurrentRevision, label, latestRevision, lockDecision, transitionStatus } from "./revisions";

/**
 * Analyst: DRAFT or CHANGES_REQUESTED → IN_REVIEW, freezing a pack revision. An approved or
 * rejected decision whose evidence changed since its revision goes back to review the same way
 * (its signatures are then superseded); without a change it stays closed.
 */
export async function submitForReview(actor: Actor, decisionId: string, request: RequestInfo = {}) {
  if (!can(actor, "decision.submit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const { status, archivedAt } = await lockDecision(tx, decisionId);
    if (status === "IN_REVIEW") throw new AppError("CONFLICT", "The decision is already in review.");
    if (archivedAt) throw new AppError("CONFLICT", "The decision is archived: restore it before submitting.");
    await assertSubmittable(tx, decisionId);
    if (status === "APPROVED" || status === "REJECTED") {
      const latest = await latestRevision(tx, decisionId);
      const now = await buildPack(tx, decisionId);
      if (latest?.sha256 === now.sha256)
        throw new AppError("CONFLICT", `The decision is ${label(status)} and its evidence has not changed.`);
    }
    const { revision } = await ensureCurrentRevision(tx, actor, decisionId, request);
    await transitionStatus(tx, actor, decisionId, status, "IN_REVIEW", request, {
      revision: revision.number,
      sha256: revision.sha256,
    });
    return revision;
  });
}
