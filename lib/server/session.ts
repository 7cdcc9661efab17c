import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { can, type Permission } from "@/lib/auth/permissions";
import { auth } from "./identity/auth";
import { db } from "./db";
import { actorById, type Actor } from "./actors";

export { actorById, type Actor };

/**
 * The current actor, once per request. Roles come from the database, not the session token, so
 * a role removed by an admin takes effect at the next request; a deactivated user is signed out.
 */
export const currentSession = cache(async (): Promise<{ actor: Actor; sid: string } | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const { signedInAt, sid } = session as { signedInAt?: unknown; sid?: unknown };
  if (typeof sid !== "string" || typeof signedInAt !== "number") return null; // a token from before sessions had ids
  const prisma = await db();
  if (await prisma.revokedSession.findUnique({ where: { sid }, select: { sid: true } })) return null;
  const actor = await actorById(id, signedInAt, sid);
  return actor ? { actor, sid } : null;
});

export const currentActor = async (): Promise<Actor | null> => (await currentSession())?.actor ?? null;

/** For pages: a signed-out visitor goes to sign-in; a signed-in user without the permission gets the 403 page. */
export async function requirePagePermission(permission: Permission, returnTo = "/"): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (!can(actor, permission)) forbidden();
  return actor;
}
