import "server-only";
import { mayConfirm, needsConfirmation, OPERATOR_LABEL } from "@/lib/auth/enrolment";
import type { RoleName } from "@/lib/auth/permissions";
import { db, type Tx } from "../db";
import { recordAudit, type AuditActor, type RequestInfo } from "../audit/write";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";

/**
 * Four-eyes enrolment: the rule is lib/auth/enrolment.ts; this is its state on User
 * (signerGrantedById, signerConfirmedAt, signerConfirmedById) and the one use case that
 * confirms a grant.
 */

export interface Grant {
  signerGrantedById: string | null;
  signerConfirmedAt: Date | null;
  signerConfirmedById: string | null;
}

/** The columns a new grant sets: awaiting confirmation, granted by `grantedById` (null: the operator). */
export function pendingGrant(roles: readonly RoleName[], grantedById: string | null): Grant & { roles: RoleName[] } {
  return { signerGrantedById: grantedById, signerConfirmedAt: null, signerConfirmedById: null, roles: [...roles] };
}

/** The columns of a grant the operator both made and confirmed (`verdict user create`, the demo seed). */
export function operatorConfirmedGrant(now = new Date()): Grant {
  return { signerGrantedById: null, signerConfirmedAt: now, signerConfirmedById: null };
}

/** Who may confirm: an admin at the command line, or an active, confirmed admin or approver in the app. */
export type Confirmer = Actor | { operator: true };

const printed = async (tx: Tx, id: string | null) =>
  id === null
    ? OPERATOR_LABEL
    : ((await tx.user.findUnique({ where: { id }, select: { name: true } }))?.name ?? `user ${id}`);

/**
 * Confirms the account's grant: by a second person (not the account, not its granter) whose own
 * grant is confirmed, under the account's row lock, audited in the same transaction.
 */
export async function confirmSigner(confirmer: Confirmer, userId: string, request: RequestInfo = {}) {
  const operator = "operator" in confirmer;
  if (!operator && !mayConfirm(confirmer.roles))
    throw forbiddenError("Only an admin or an approver confirms another person's enrolment.");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<
      {
        id: string;
        name: string;
        active: boolean;
        roles: RoleName[];
        grantedBy: string | null;
        confirmedAt: Date | null;
      }[]
    >`SELECT id, name, active, roles::text[] AS roles, "signerGrantedById" AS "grantedBy", "signerConfirmedAt" AS "confirmedAt"
      FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (!user) throw new AppError("NOT_FOUND", "That user does not exist.");
    if (!user.active) throw new AppError("CONFLICT", `${user.name} is inactive; reactivate the account first.`);
    if (!needsConfirmation(user.roles))
      throw new AppError("CONFLICT", `${user.name} holds no role that needs confirmation (admin, approver, reviewer).`);
    if (user.confirmedAt) throw new AppError("CONFLICT", `${user.name}'s enrolment is already confirmed.`);
    if (!operator) await refuseConfirmer(tx, confirmer, user);
    const now = new Date();
    await tx.user.update({
      where: { id: userId },
      data: { signerConfirmedAt: now, signerConfirmedById: operator ? null : confirmer.id },
    });
    const actor: AuditActor = operator ? { id: null, roles: [] } : confirmer;
    const [grantedBy, confirmedBy] = [await printed(tx, user.grantedBy), operator ? OPERATOR_LABEL : confirmer.name];
    await recordAudit(tx, {
      actor,
      action: "user.confirm_signer",
      entityType: "User",
      entityId: userId,
      before: { signerConfirmedAt: null },
      after: {
        roles: user.roles,
        grantedById: user.grantedBy,
        grantedBy,
        confirmedById: operator ? null : confirmer.id,
        confirmedBy,
        confirmedAt: now.toISOString(),
        ...(operator ? { via: "operator" } : {}),
      },
      request,
    });
    return { id: userId, name: user.name, grantedBy, confirmedBy };
  });
}

/** The second person must be a second person, and vouched for themselves. */
async function refuseConfirmer(tx: Tx, confirmer: Actor, user: { id: string; name: string; grantedBy: string | null }) {
  if (confirmer.id === user.id) throw forbiddenError("Nobody confirms their own enrolment: ask a second person.");
  if (confirmer.id === user.grantedBy)
    throw forbiddenError(
      `You granted ${user.name}'s role, so you cannot also confirm it: a second person (another admin, or a confirmed approver) must.`,
    );
  const self = await tx.user.findUnique({ where: { id: confirmer.id }, select: { signerConfirmedAt: true } });
  if (!self?.signerConfirmedAt)
    throw forbiddenError(
      "Your own enrolment awaits confirmation by a second person: until it is confirmed you cannot confirm anyone.",
    );
}

/**
 * Why this account cannot sign yet (null: its grant is confirmed). signingRefusal
 * (signoff/separation.ts) asks before every signature, and the review page shows it.
 */
export async function awaitingConfirmation(tx: Tx, userId: string): Promise<string | null> {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { signerConfirmedAt: true, signerGrantedById: true },
  });
  if (!user || user.signerConfirmedAt) return null;
  const granter = await printed(tx, user.signerGrantedById);
  return (
    `Your role awaits confirmation by a second person (four-eyes enrolment): it was granted by ${granter}, ` +
    `and another admin or a confirmed approver must confirm it before you can sign. You can read and comment meanwhile.`
  );
}

/**
 * What a signature records of its signer's enrolment: the granter's and the confirmer's printed
 * names (one query: it runs inside the signing transaction, under the decision's lock).
 */
export async function enrolmentAtSigning(tx: Tx, userId: string) {
  const [row] = await tx.$queryRaw<
    { confirmedAt: Date | null; grantedBy: string | null; confirmedBy: string | null }[]
  >`
    SELECT u."signerConfirmedAt" AS "confirmedAt", g.name AS "grantedBy", c.name AS "confirmedBy"
      FROM "User" u
      LEFT JOIN "User" g ON g.id = u."signerGrantedById"
      LEFT JOIN "User" c ON c.id = u."signerConfirmedById"
     WHERE u.id = ${userId}`;
  if (!row?.confirmedAt) return { enrolledBy: null, confirmedBy: null };
  return { enrolledBy: row.grantedBy ?? OPERATOR_LABEL, confirmedBy: row.confirmedBy ?? OPERATOR_LABEL };
}
