import "server-only";
import { addsFourEyesRole, needsConfirmation } from "@/lib/auth/enrolment";
import { can, type RoleName } from "@/lib/auth/permissions";
import type { CreateUserInput } from "@/lib/schemas/user";
import { db, type Tx } from "../db";
import { recordAudit, type AuditActor, type RequestInfo } from "../audit/write";
import { AppError, forbiddenError } from "../errors";
import { resemblingName } from "@/lib/identity/printed-name";
import { hashPassword } from "./passwords";
import { operatorConfirmedGrant, pendingGrant, type Grant } from "./enrolment";
import type { Actor } from "../actors";

// Never select passwordHash here: these objects reach pages.
const PUBLIC_USER = {
  id: true,
  email: true,
  name: true,
  roles: true,
  active: true,
  createdAt: true,
  signerGrantedById: true,
  signerConfirmedAt: true,
  signerConfirmedById: true,
} as const;

export async function listUsers(actor: Actor) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  const prisma = await db();
  return prisma.user.findMany({ select: PUBLIC_USER, orderBy: { email: "asc" } });
}

/** When an account created or granted now with these roles became an approver (separation.ts). */
export const approverSinceFor = (roles: readonly RoleName[], now = new Date()) =>
  roles.includes("APPROVER") ? now : null;

/**
 * Printed names are unique among active users as people read them (lib/identity/printed-name.ts:
 * NFKC, invisible characters, whitespace, TR39 confusables, case): two signatures reading the
 * same name must be one person. Pending invitations count, so two people cannot be invited under
 * one name. The comparison is made here, not by an index, so enrolments take one transaction
 * lock in turn: two look-alike names enrolled at once cannot both pass (the partial unique index
 * on the exact name stays as the last guard).
 */
export async function assertPrintedNameFree(
  tx: Tx,
  name: string,
  except: { userId?: string; invitationEmail?: string } = {},
) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('verdict.printed-names'))`;
  const users = await tx.user.findMany({
    where: { active: true, ...(except.userId ? { id: { not: except.userId } } : {}) },
    select: { name: true },
  });
  const invitations = await tx.invitation.findMany({
    where: {
      usedAt: null,
      expiresAt: { gt: new Date() },
      ...(except.invitationEmail ? { email: { not: except.invitationEmail } } : {}),
    },
    select: { name: true },
  });
  const user = resemblingName(name, users);
  const taken = user ?? resemblingName(name, invitations);
  if (taken) {
    const whose = user ? "an active user" : "a pending invitation";
    throw new AppError(
      "CONFLICT",
      `The printed name "${name}" reads like "${taken.name}", the printed name of ${whose}; signatures must tell people apart. Add a middle initial or a department.`,
      { fieldErrors: { name: [`Reads like "${taken.name}" (${whose}).`] } },
    );
  }
}

/** A unique violation the checks above could not see (two requests at once) still gets a message naming the field. */
export function uniqueUserViolation(error: unknown): never {
  const meta =
    (error as { code?: string; meta?: unknown }).code === "P2002"
      ? JSON.stringify((error as { meta?: unknown }).meta ?? "")
      : null;
  if (meta !== null) {
    const field = /email/i.test(meta) ? "email" : "name";
    throw new AppError(
      "CONFLICT",
      field === "email" ? "A user with this email already exists." : "Another active user has this printed name.",
      { fieldErrors: { [field]: ["Already taken."] } },
    );
  }
  throw error;
}

/**
 * Operator path (`verdict user create`), for the FIRST admin of a new installation only: no
 * signed-in actor exists yet, so the audit event names no actor. Once an active admin exists,
 * everyone else is enrolled by invitation (they choose their own password), so this refuses.
 */
export async function createUserAsOperator(input: CreateUserInput) {
  const prisma = await db();
  const passwordHash = await hashPassword(input.password);
  const actor: AuditActor = { id: null, roles: [] };
  return prisma
    .$transaction(async (tx) => {
      const admin = await tx.user.findFirst({
        where: { active: true, roles: { has: "ADMIN" } },
        select: { email: true },
      });
      if (admin)
        throw new AppError(
          "CONFLICT",
          `An active admin exists (${admin.email}): enrol users by invitation — the admin page, or \`npx verdict user invite --email … --name … --roles …\`.`,
        );
      // The operator makes and confirms the first admin: the root every later confirmation starts from.
      return insertUser(tx, input, passwordHash, actor, {}, { via: "operator" }, operatorConfirmedGrant());
    })
    .catch(uniqueUserViolation);
}

/**
 * Creates the user row and its user.create event inside `tx` (operator path and accepted
 * invitations; "self": the new user's own act of accepting their invitation).
 */
export async function insertUser(
  tx: Tx,
  input: Omit<CreateUserInput, "password">,
  passwordHash: string,
  actor: AuditActor | "self",
  request: RequestInfo,
  detail: Record<string, unknown> = {},
  grant: Grant = pendingGrant([], null),
) {
  const existing = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (existing)
    throw new AppError("CONFLICT", "A user with this email already exists.", {
      fieldErrors: { email: ["Already taken."] },
    });
  await assertPrintedNameFree(tx, input.name, { invitationEmail: input.email });
  const user = await tx.user.create({
    data: {
      email: input.email,
      name: input.name,
      roles: input.roles,
      passwordHash,
      approverSince: approverSinceFor(input.roles),
      signerGrantedById: grant.signerGrantedById,
      signerConfirmedAt: needsConfirmation(input.roles) ? grant.signerConfirmedAt : null,
      signerConfirmedById: grant.signerConfirmedById,
    },
    select: PUBLIC_USER,
  });
  await recordAudit(tx, {
    actor: actor === "self" ? { id: user.id, roles: user.roles as RoleName[] } : actor,
    action: "user.create",
    entityType: "User",
    entityId: user.id,
    after: { email: user.email, name: user.name, roles: user.roles, ...detail },
    request,
  });
  return user;
}

export async function updateUserRoles(actor: Actor, userId: string, roles: RoleName[], request: RequestInfo = {}) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  if (userId === actor.id && !roles.includes("ADMIN")) {
    throw new AppError("CONFLICT", "You cannot remove your own admin role; ask another admin.");
  }
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { roles: true, approverSince: true } });
    if (!before) throw new AppError("NOT_FOUND", "That user does not exist.");
    // Granting APPROVER starts the clock again: no signing of revisions frozen before the grant.
    const wasApprover = before.roles.includes("APPROVER");
    const approverSince = roles.includes("APPROVER") ? (wasApprover ? before.approverSince : new Date()) : null;
    // A new admin, approver or reviewer role awaits a second person's confirmation (four-eyes).
    const regrant = addsFourEyesRole(before.roles as RoleName[], roles);
    const user = await tx.user.update({
      where: { id: userId },
      data: { approverSince, ...(regrant ? pendingGrant(roles, actor.id) : { roles }) },
      select: PUBLIC_USER,
    });
    await recordAudit(tx, {
      actor,
      action: "user.update_roles",
      entityType: "User",
      entityId: userId,
      before: { roles: before.roles },
      after: {
        roles,
        approverSince: approverSince?.toISOString() ?? null,
        ...(regrant ? { awaitsConfirmation: true } : {}),
      },
      request,
    });
    return user;
  });
}

/** Who may (de)activate: an admin in the app, or the operator at the command line (no actor). */
export type AccountManager = Actor | { operator: true };

/**
 * Deactivation ends the account's access at once: every session (sessionsValidAfter) and API
 * token is revoked in the same transaction as the change and its audit event. Reactivation
 * restores sign-in only — old sessions and tokens stay void — and restarts the approver clock.
 */
export async function setUserActive(
  manager: AccountManager,
  userId: string,
  active: boolean,
  request: RequestInfo = {},
) {
  const actor: AuditActor = "operator" in manager ? { id: null, roles: [] } : manager;
  if (!("operator" in manager)) {
    if (!can(manager, "user.manage")) throw forbiddenError();
    if (userId === manager.id && !active)
      throw new AppError("CONFLICT", "You cannot deactivate your own account; ask another admin.");
  }
  const prisma = await db();
  return prisma
    .$transaction(async (tx) => {
      const [user] = await tx.$queryRaw<
        { id: string; active: boolean; name: string; roles: RoleName[] }[]
      >`SELECT id, active, name, roles::text[] AS roles FROM "User" WHERE id = ${userId} FOR UPDATE`;
      if (!user) throw new AppError("NOT_FOUND", "That user does not exist.");
      if (user.active === active)
        throw new AppError("CONFLICT", `That user is already ${active ? "active" : "inactive"}.`);
      const now = new Date();
      let tokensRevoked = 0;
      if (active) {
        await assertPrintedNameFree(tx, user.name, { userId });
        await tx.user.update({
          where: { id: userId },
          // Reactivation is a new grant: its signing roles await a second person's confirmation again.
          data: {
            active: true,
            approverSince: approverSinceFor(user.roles, now),
            ...pendingGrant(user.roles, actor.id),
          },
        });
      } else {
        await tx.user.update({
          where: { id: userId },
          data: { active: false, sessionsValidAfter: now, sessionKept: null },
        });
        tokensRevoked = (await tx.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } }))
          .count;
      }
      await recordAudit(tx, {
        actor,
        action: active ? "user.reactivate" : "user.deactivate",
        entityType: "User",
        entityId: userId,
        before: { active: user.active },
        after: {
          active,
          ...(active ? {} : { sessionsRevokedAt: now.toISOString(), tokensRevoked }),
          ...("operator" in manager ? { via: "operator" } : {}),
        },
        request,
      });
      return tx.user.findUniqueOrThrow({ where: { id: userId }, select: PUBLIC_USER });
    })
    .catch(uniqueUserViolation);
}

/** The id of the user with this email (operator commands name users by email). */
export async function userIdByEmail(email: string): Promise<string> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!user) throw new AppError("NOT_FOUND", `No user has the email ${email}.`);
  return user.id;
}
