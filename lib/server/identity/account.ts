import "server-only";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError } from "../errors";
import { hashPassword, verifyPassword } from "./passwords";
import type { Actor } from "../actors";

/**
 * A user changes their own password (never an admin's act): the current password proves it is
 * them, and every other session of theirs ends at once — the one they changed it from
 * (`keepSession`, its JWT id) stays signed in. Their API tokens stay: they were made by them and
 * are revoked on the settings page.
 */
export async function changePassword(
  actor: Actor,
  input: { currentPassword: string; newPassword: string },
  keepSession: string | null,
  request: RequestInfo = {},
) {
  const prisma = await db();
  const stored = await prisma.user.findUnique({
    where: { id: actor.id },
    select: { passwordHash: true, active: true },
  });
  if (!(await verifyPassword(stored?.active ? stored.passwordHash : null, input.currentPassword))) {
    throw new AppError("VALIDATION", "The current password is not correct; nothing was changed.", {
      fieldErrors: { currentPassword: ["Not correct."] },
    });
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: actor.id, active: true },
      data: { passwordHash, sessionsValidAfter: now, sessionKept: keepSession },
    });
    if (count !== 1) throw new AppError("UNAUTHENTICATED", "Your account is no longer active.");
    await recordAudit(tx, {
      actor,
      action: "user.change_password",
      entityType: "User",
      entityId: actor.id,
      after: { otherSessionsRevokedAt: now.toISOString() },
      request,
    });
  });
}
