import "server-only";
import { can } from "@/lib/auth/permissions";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { lockDecisionRow } from "./lock";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";

export interface CommentInput {
  body: string;
  /** 1–5 for a stage of SPEC §3, null for the pack as a whole. */
  stage: number | null;
  parentId?: string | null;
}

/**
 * Reviewer or approver: a comment on the pack or one stage, or a reply in a thread. It is kept
 * with the revision current when it was written (the latest frozen one), so a later revision
 * shows which evidence it was about.
 */
export async function createComment(actor: Actor, decisionId: string, input: CommentInput, request: RequestInfo = {}) {
  if (!can(actor, "comment.create")) throw forbiddenError();
  const body = input.body.trim();
  if (!body) throw new AppError("VALIDATION", "Write a comment first.");
  if (body.length > 10_000) throw new AppError("VALIDATION", "A comment is at most 10,000 characters.");
  if (input.stage !== null && !(Number.isInteger(input.stage) && input.stage >= 1 && input.stage <= 5))
    throw new AppError("VALIDATION", "A stage is 1 to 5.");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // Under the decision's row lock, so the revision a comment is kept with is the one frozen
    // now, never one a concurrent submission or signature is about to supersede.
    await lockDecisionRow(tx, decisionId);
    let stage = input.stage;
    if (input.parentId) {
      const parent = await tx.comment.findFirst({ where: { id: input.parentId, decisionId }, select: { stage: true } });
      if (!parent) throw new AppError("VALIDATION", "The comment you reply to is not on this decision.");
      stage = parent.stage; // a reply stays in its thread's stage
    }
    const revision = await tx.packRevision.findFirst({
      where: { decisionId },
      orderBy: { number: "desc" },
      select: { id: true, number: true },
    });
    const comment = await tx.comment.create({
      data: {
        decisionId,
        packRevisionId: revision?.id ?? null,
        stage,
        parentId: input.parentId ?? null,
        authorId: actor.id,
        body,
      },
      select: { id: true, stage: true, parentId: true, packRevisionId: true, body: true, createdAt: true },
    });
    await recordAudit(tx, {
      actor,
      action: "comment.create",
      entityType: "Comment",
      entityId: comment.id,
      decisionId,
      after: { ...comment, revision: revision?.number ?? null },
      request,
    });
    return comment;
  });
}

export async function listComments(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  return readComments(prisma, decisionId);
}

/**
 * A decision's comment threads as the review page shows them, oldest first: who wrote each, on
 * which stage, in reply to which, against which pack revision. The caller has checked the reader.
 */
export function readComments(prisma: Awaited<ReturnType<typeof db>>, decisionId: string) {
  return prisma.comment.findMany({
    where: { decisionId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      stage: true,
      parentId: true,
      body: true,
      createdAt: true,
      author: { select: { name: true } },
      packRevision: { select: { number: true } },
    },
  });
}
