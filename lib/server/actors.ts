import "server-only";
import type { RoleName } from "@/lib/auth/permissions";
import { db } from "./db";

/**
 * Who acts, as the domain layer sees them, looked up without Next or React: the session
 * (`session.ts`), API tokens (`api-tokens.ts`) and the command line all resolve users here, and
 * the command line runs outside a Next request, where `next/navigation` and React's `cache`
 * cannot load.
 */

/** The signed-in user as the domain layer sees them: roles read fresh from the database. */
export interface Actor {
  id: string;
  email: string;
  name: string;
  roles: RoleName[];
}

const actorSelect = {
  id: true,
  email: true,
  name: true,
  roles: true,
  active: true,
  sessionsValidAfter: true,
  sessionKept: true,
} as const;

/**
 * The active user with this id; with `signedInAt`, only if the user's sessions were not all
 * voided since — but for `sid`, the session a password change kept (account.ts).
 */
export async function actorById(id: string, signedInAt?: number, sid?: string): Promise<Actor | null> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id }, select: actorSelect });
  if (!user?.active) return null;
  const voided = signedInAt !== undefined && user.sessionsValidAfter && signedInAt <= user.sessionsValidAfter.getTime();
  if (voided && !(sid !== undefined && sid === user.sessionKept)) return null;
  return { id: user.id, email: user.email, name: user.name, roles: user.roles as RoleName[] };
}

/** The active user with this email (emails are stored lower-case), or null. */
export async function actorByEmail(email: string): Promise<Actor | null> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: actorSelect });
  if (!user?.active) return null;
  return { id: user.id, email: user.email, name: user.name, roles: user.roles as RoleName[] };
}
