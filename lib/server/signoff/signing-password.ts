import "server-only";
import type { RoleName } from "@/lib/auth/permissions";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError } from "../errors";
import { verifyPassword } from "../identity/passwords";
import type { Actor } from "../actors";

// At most this many wrong signing passwords per user in the window; counted from the audit
// trail itself, so the limit holds across app servers and restarts.
export const MAX_FAILED_SIGNING_PASSWORDS = 5;
export const SIGNING_WINDOW_MS = 15 * 60 * 1000;
// Namespace of the per-user advisory lock (the second key is a hash of the user id).
const SIGNING_LOCK_NAMESPACE = 7_348_011;

/**
 * §11.200: the signer proves who they are at the moment of signing, with both components (the
 * login email and the password) checked against the signed-in user. Attempts of one user run one
 * at a time (advisory lock), so fifty simultaneous wrong guesses still count as fifty, and the
 * sixth within the window is refused without even checking the password.
 */
export async function verifySigningPassword(
  actor: Actor,
  email: string,
  password: string,
  request: RequestInfo,
): Promise<void> {
  const prisma = await db();
  const outcome = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SIGNING_LOCK_NAMESPACE}, hashtext(${actor.id}))`;
    const since = new Date(Date.now() - SIGNING_WINDOW_MS);
    const failures = await tx.auditEvent.count({
      where: { actorId: actor.id, action: "signature.failed_password", createdAt: { gt: since } },
    });
    const audit = {
      actor: { id: actor.id, roles: actor.roles as RoleName[] },
      entityType: "User",
      entityId: actor.id,
      request,
    };
    if (failures >= MAX_FAILED_SIGNING_PASSWORDS) {
      await recordAudit(tx, { ...audit, action: "signature.rate_limited", after: { failuresInWindow: failures } });
      return "limited" as const;
    }
    const user = await tx.user.findUnique({
      where: { id: actor.id },
      select: { passwordHash: true, active: true, email: true },
    });
    // Both components must be the signed-in user's own; argon2 runs either way (same work, same time).
    const passwordOk = await verifyPassword(user?.active ? user.passwordHash : null, password);
    const ok = passwordOk && user?.email === email.trim().toLowerCase();
    if (ok) return "ok" as const;
    await recordAudit(tx, { ...audit, action: "signature.failed_password", after: { failuresInWindow: failures + 1 } });
    return "wrong" as const;
  });
  if (outcome === "limited")
    throw new AppError("RATE_LIMITED", "Too many wrong passwords at signing. Try again in 15 minutes.");
  if (outcome === "wrong")
    throw new AppError("VALIDATION", "The email or password is not correct; the signature was not recorded.");
}
