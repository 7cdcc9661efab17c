import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { can } from "@/lib/auth/permissions";
import { db, type Tx } from "../db";
import { recordAudit, type AuditActor, type RequestInfo } from "../audit/write";
import { AppError, forbiddenError } from "../errors";
import { actorById, type Actor } from "../actors";

const TOKEN_PREFIX = "vdt_";

/** Only the SHA-256 of a token is stored; the token itself is shown once, at creation. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates a token for `owner` inside `tx`, audited as `actor`'s act; the token is returned once. */
export async function issueApiToken(
  tx: Tx,
  owner: { id: string },
  name: string,
  actor: AuditActor,
  request: RequestInfo = {},
  via?: string,
) {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const row = await tx.apiToken.create({
    data: { userId: owner.id, name, prefix: token.slice(0, 12), tokenHash: hashToken(token) },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  await recordAudit(tx, {
    actor,
    action: "token.create",
    entityType: "ApiToken",
    entityId: row.id,
    after: { name, prefix: row.prefix, owner: owner.id, via },
    request,
  });
  return { ...row, token };
}

export async function createApiToken(actor: Actor, name: string, request: RequestInfo = {}) {
  if (!can(actor, "token.manage")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction((tx) => issueApiToken(tx, actor, name, actor, request));
}

export async function revokeApiToken(actor: Actor, tokenId: string, request: RequestInfo = {}) {
  if (!can(actor, "token.manage")) throw forbiddenError();
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({
      where: { id: tokenId, userId: actor.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count !== 1) throw new AppError("NOT_FOUND", "That token does not exist or is already revoked.");
    await recordAudit(tx, { actor, action: "token.revoke", entityType: "ApiToken", entityId: tokenId, request });
  });
}

export async function listApiTokens(actor: Actor) {
  const prisma = await db();
  return prisma.apiToken.findMany({
    where: { userId: actor.id },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** The actor behind a bearer token, or null when it is unknown, revoked, or its user is inactive. */
export async function actorForToken(token: string): Promise<Actor | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const prisma = await db();
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, userId: true, revokedAt: true },
  });
  if (!row || row.revokedAt) return null;
  await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return actorById(row.userId);
}
