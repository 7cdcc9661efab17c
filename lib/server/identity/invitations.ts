import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { can, type RoleName } from "@/lib/auth/permissions";
import type { InviteUserInput } from "@/lib/schemas/user";
import { db, type Tx } from "../db";
import { recordAudit, type AuditActor, type RequestInfo } from "../audit/write";
import { AppError, forbiddenError } from "../errors";
import { mailConfig, publicBaseUrl, sendMail, SMTP_HELP } from "./mail";
import { hashPassword } from "./passwords";
import { pendingGrant } from "./enrolment";
import { assertPrintedNameFree, insertUser, uniqueUserViolation } from "./users";
import type { Actor } from "../actors";

/**
 * Enrolment by invitation (21 CFR Part 11 §11.300): the person chooses their own password on a
 * one-time link, so no admin ever knows it. The token (`vdi_` + 32 random bytes) exists only in
 * the mail (or the operator's terminal); the database keeps its SHA-256. A link works once,
 * for INVITATION_TTL_MS; a newer invitation of the same email voids the older one.
 */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;
const TOKEN_PREFIX = "vdi_";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const invitationPath = (token: string) => `/invite?token=${encodeURIComponent(token)}`;

/** An admin invites: the link goes by mail only; without a mail server the invitation is refused. */
export async function inviteUser(actor: Actor, input: InviteUserInput, request: RequestInfo = {}) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  const config = mailConfig();
  if (!config) throw new AppError("UNAVAILABLE", SMTP_HELP);
  const prisma = await db();
  return prisma.$transaction(
    async (tx) => {
      const { invitation, token } = await createInvitation(tx, input, actor, request, "mail");
      // Sent before the commit: a mail the server refuses leaves no invitation behind.
      await sendMail(config, {
        to: input.email,
        subject: "Your Verdict account",
        text:
          `${input.name},\n\nYou are invited to Verdict as ${input.roles.map((r) => r.toLowerCase()).join(", ")}. ` +
          `Open this link to choose your password (it works once, until ${invitation.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC):\n\n` +
          `${config.publicUrl}${invitationPath(token)}\n\nIf you did not expect this, ignore this mail.\n`,
      });
      return invitation;
    },
    { timeout: 30_000 },
  );
}

/**
 * The operator's path (`verdict user invite`): the link is returned to be printed in the
 * server's terminal. Whoever runs it can already reach the database.
 */
export async function inviteUserAsOperator(input: InviteUserInput) {
  const prisma = await db();
  const { invitation, token } = await prisma.$transaction((tx) =>
    createInvitation(tx, input, { id: null, roles: [] }, {}, "operator"),
  );
  const base = publicBaseUrl();
  return { invitation, link: `${base ?? ""}${invitationPath(token)}`, hasBase: base !== null };
}

async function createInvitation(
  tx: Tx,
  input: InviteUserInput,
  actor: AuditActor,
  request: RequestInfo,
  via: "mail" | "operator",
) {
  const existing = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
  if (existing)
    throw new AppError("CONFLICT", "A user with this email already exists.", {
      fieldErrors: { email: ["Already a user."] },
    });
  await assertPrintedNameFree(tx, input.name, { invitationEmail: input.email });
  const now = new Date();
  const replaced = await tx.invitation.updateMany({
    where: { email: input.email, usedAt: null },
    data: { usedAt: now },
  });
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const invitation = await tx.invitation.create({
    data: {
      email: input.email,
      name: input.name,
      roles: input.roles,
      tokenHash: hashToken(token),
      invitedById: actor.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    },
    select: { id: true, email: true, name: true, roles: true, expiresAt: true },
  });
  await recordAudit(tx, {
    actor,
    action: "user.invite",
    entityType: "Invitation",
    entityId: invitation.id,
    after: {
      email: input.email,
      name: input.name,
      roles: input.roles,
      expiresAt: invitation.expiresAt.toISOString(),
      via,
      replaced: replaced.count,
    },
    request,
  });
  return { invitation, token };
}

function whyUnusable(row: { usedAt: Date | null; expiresAt: Date } | null): string | null {
  if (!row) return "This invitation link is not valid. Ask your administrator for a new invitation.";
  if (row.usedAt)
    return "This invitation link was already used or replaced by a newer one. Sign in, or ask your administrator for a new invitation.";
  if (row.expiresAt <= new Date())
    return "This invitation link has expired (links work for 72 hours). Ask your administrator for a new invitation.";
  return null;
}

/** What the /invite page shows before the person chooses a password. */
export async function invitationPreview(
  token: string,
): Promise<{ ok: true; email: string; name: string; roles: RoleName[] } | { ok: false; message: string }> {
  const prisma = await db();
  const row = await prisma.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { email: true, name: true, roles: true, usedAt: true, expiresAt: true },
  });
  const problem = whyUnusable(row);
  return problem || !row
    ? { ok: false, message: problem ?? "" }
    : { ok: true, email: row.email, name: row.name, roles: row.roles as RoleName[] };
}

/** Accepting: the account is created with the password the person chose; the link is spent in the same transaction. */
export async function acceptInvitation(token: string, password: string, request: RequestInfo = {}) {
  const passwordHash = await hashPassword(password);
  const prisma = await db();
  return prisma
    .$transaction(async (tx) => {
      const tokenHash = hashToken(token);
      const row = await tx.invitation.findUnique({
        where: { tokenHash },
        select: { id: true, email: true, name: true, roles: true, usedAt: true, expiresAt: true, invitedById: true },
      });
      const problem = whyUnusable(row);
      if (problem || !row) throw new AppError("CONFLICT", problem ?? "");
      // Single use even for two simultaneous requests: only one spends the link.
      const spent = await tx.invitation.updateMany({
        where: { id: row.id, usedAt: null },
        data: { usedAt: new Date() },
      });
      if (spent.count !== 1) throw new AppError("CONFLICT", whyUnusable({ ...row, usedAt: new Date() }) ?? "");
      const user = await insertUser(
        tx,
        { email: row.email, name: row.name, roles: row.roles as RoleName[] },
        passwordHash,
        "self",
        request,
        { via: "invitation", invitationId: row.id, invitedById: row.invitedById },
        // The inviter granted the roles; a second person confirms them (four-eyes enrolment).
        pendingGrant([], row.invitedById),
      );
      await tx.invitation.update({ where: { id: row.id }, data: { userId: user.id } });
      return user;
    })
    .catch(uniqueUserViolation);
}

/** Pending invitations, for the admin page (never the link: only its hash exists). */
export async function listPendingInvitations(actor: Actor) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  const prisma = await db();
  return prisma.invitation.findMany({
    where: { usedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, name: true, roles: true, createdAt: true, expiresAt: true },
  });
}
