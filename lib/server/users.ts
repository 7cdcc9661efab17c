import "server-only";
import { can, type RoleName } from "@/lib/auth/permissions";
import type { CreateUserInput } from "@/lib/schemas/user";
import { db } from "./db";
import { recordAudit, type AuditActor, type RequestInfo } from "./audit";
import { AppError, forbiddenError } from "./errors";
import { hashPassword } from "./passwords";
import type { Actor } from "./session";

// Never select passwordHash here: these objects reach pages.
const PUBLIC_USER = { id: true, email: true, name: true, roles: true, active: true, createdAt: true } as const;

export async function listUsers(actor: Actor) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  const prisma = await db();
  return prisma.user.findMany({ select: PUBLIC_USER, orderBy: { email: "asc" } });
}

export async function createUser(actor: Actor, input: CreateUserInput, request: RequestInfo = {}) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  return insertUser(input, actor, request);
}

/**
 * Operator path (`verdict user create`, for the first admin of a new installation): no signed-in
 * actor exists yet, so the audit event names no actor. Whoever can run it can already reach the
 * database, so it grants nothing new.
 */
export function createUserAsOperator(input: CreateUserInput) {
  return insertUser(input, { id: null, roles: [] });
}

async function insertUser(input: CreateUserInput, actor: AuditActor, request: RequestInfo = {}) {
  const prisma = await db();
  const passwordHash = await hashPassword(input.password);
  return prisma.$transaction(async (tx) => {
    const existing = await tx.user.findUnique({ where: { email: input.email }, select: { id: true } });
    if (existing) throw new AppError("CONFLICT", "A user with this email already exists.");
    const user = await tx.user.create({ data: { email: input.email, name: input.name, roles: input.roles, passwordHash }, select: PUBLIC_USER });
    await recordAudit(tx, { actor, action: "user.create", entityType: "User", entityId: user.id, after: { email: user.email, name: user.name, roles: user.roles }, request });
    return user;
  });
}

export async function updateUserRoles(actor: Actor, userId: string, roles: RoleName[], request: RequestInfo = {}) {
  if (!can(actor, "user.manage")) throw forbiddenError();
  if (userId === actor.id && !roles.includes("ADMIN")) {
    throw new AppError("CONFLICT", "You cannot remove your own admin role; ask another admin.");
  }
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { roles: true } });
    if (!before) throw new AppError("NOT_FOUND", "That user does not exist.");
    const user = await tx.user.update({ where: { id: userId }, data: { roles }, select: PUBLIC_USER });
    await recordAudit(tx, { actor, action: "user.update_roles", entityType: "User", entityId: userId, before: { roles: before.roles }, after: { roles }, request });
    return user;
  });
}
