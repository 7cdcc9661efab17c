import { randomUUID } from "node:crypto";
import type { RoleName } from "../lib/auth/permissions.ts";
import type { Actor } from "../lib/server/session.ts";
import { db } from "../lib/server/db.ts";
import { demoDecision } from "../lib/demo/moderation.ts";

/** Per-test factories: unique names, so test files can run in parallel on one database. */
export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function makeActor(roles: RoleName[], name = "Test User"): Promise<Actor> {
  const prisma = await db();
  const email = `${unique("user")}@verdict.test`;
  const user = await prisma.user.create({ data: { email, name, roles, passwordHash: "not-a-real-hash" }, select: { id: true, email: true, name: true } });
  return { ...user, roles };
}

export async function makeDecision(createdBy: Actor, overrides: Partial<{ title: string; status: "DRAFT" | "IN_REVIEW" }> = {}) {
  const prisma = await db();
  const { id: _id, ...params } = demoDecision;
  return prisma.decision.create({ data: { ...params, title: overrides.title ?? unique("Decision"), status: overrides.status, createdById: createdBy.id }, select: { id: true } });
}
