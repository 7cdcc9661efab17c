import "server-only";
import { can } from "@/lib/auth/permissions";
import type { RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";
import { lockDecision, transitionStatus } from "./revisions";

/** Analyst: CHANGES_REQUESTED → DRAFT (SPEC §7), to rework the evidence before submitting again. */
export async function reopenDraft(actor: Actor, decisionId: string, request: RequestInfo = {}) {
  if (!can(actor, "decision.submit")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const { status } = await lockDecision(tx, decisionId);
    if (status !== "CHANGES_REQUESTED")
      throw new AppError("CONFLICT", "Only a decision with changes requested goes back to draft.");
    await transitionStatus(tx, actor, decisionId, "CHANGES_REQUESTED", "DRAFT", request);
  });
}
