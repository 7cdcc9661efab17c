import "server-only";
import { can } from "@/lib/auth/permissions";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { auditHashPayload, chainHash, GENESIS_HASH } from "./audit";
import { db, type Tx } from "./db";
import { forbiddenError } from "./errors";
import type { Actor } from "./session";

export interface BrokenLink {
  id: string;
  reason: "prev-hash-mismatch" | "content-hash-mismatch";
  message: string;
  expected: string;
  found: string;
}

export interface ChainVerification {
  intact: boolean;
  checked: number;
  headHash: string;
  firstBroken: BrokenLink | null;
}

const BATCH = 2_000;

/**
 * Walks the whole chain in id order and recomputes every hash from the stored row: a row
 * edited behind the trigger's back no longer matches its hash, a deleted or inserted row breaks
 * the next event's link. Stops at the first broken link. Takes a client or a transaction.
 */
export async function verifyAuditChainWith(client: PrismaClient | Tx): Promise<ChainVerification> {
  let prev = GENESIS_HASH;
  let checked = 0;
  let cursor: bigint | null = null;
  for (;;) {
    const rows: Awaited<ReturnType<typeof page>> = await page(client, cursor);
    for (const row of rows) {
      const id = row.id.toString();
      if (row.prevHash !== prev) {
        return { intact: false, checked, headHash: prev, firstBroken: { id, reason: "prev-hash-mismatch", message: `Event ${id} does not link to the event before it (an event was removed, inserted or altered).`, expected: prev, found: row.prevHash } };
      }
      const recomputed = chainHash(row.prevHash, auditHashPayload(row));
      if (recomputed !== row.hash) {
        return { intact: false, checked, headHash: prev, firstBroken: { id, reason: "content-hash-mismatch", message: `Event ${id} was changed after it was written: its content no longer matches its hash.`, expected: row.hash, found: recomputed } };
      }
      prev = row.hash;
      checked++;
    }
    if (rows.length < BATCH) break;
    cursor = rows[rows.length - 1]!.id;
  }
  return { intact: true, checked, headHash: prev, firstBroken: null };
}

function page(client: PrismaClient | Tx, after: bigint | null) {
  return client.auditEvent.findMany({
    where: after === null ? {} : { id: { gt: after } },
    orderBy: { id: "asc" },
    take: BATCH,
    select: { id: true, actorId: true, actorRoles: true, action: true, entityType: true, entityId: true, decisionId: true, before: true, after: true, ip: true, userAgent: true, createdAt: true, prevHash: true, hash: true },
  });
}

/** The verify action of the audit page and `verdict audit verify`. */
export async function verifyAuditChain(actor: Actor): Promise<ChainVerification> {
  if (!can(actor, "audit.read")) throw forbiddenError();
  return verifyAuditChainWith(await db());
}
