import "server-only";
import { can } from "@/lib/auth/permissions";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { AUDIT_EVENT_SELECT, auditHashPayload, chainHash, GENESIS_HASH } from "./write";
import { type BrokenLink, checkRecords, readRecords, type RecordEvents } from "./records";
import { db, type Tx } from "../db";
import { AppError, forbiddenError } from "../errors";
import type { Actor } from "../actors";

/** The newest event of the chain: printed in every export and by `verdict audit head`, to verify against later. */
export interface ChainHead {
  seq: string;
  hash: string;
}

export interface ChainVerification {
  intact: boolean;
  checked: number;
  head: ChainHead | null;
  headHash: string;
  /** The first problem: a broken link, the anchored head not found, or a record its event does not vouch for. */
  firstBroken: BrokenLink | null;
  /** Signatures and pack revisions checked against the audit event that recorded each. */
  records: { signatures: number; revisions: number };
  /** Every problem with a signature or revision (the chain's own stop at its first broken link). */
  recordProblems: BrokenLink[];
  /** The head verified against, when one was given. */
  anchor: ChainHead | null;
}

const BATCH = 2_000;

export const formatHead = (head: ChainHead) => `${head.seq}:${head.hash}`;

/** `<seq>:<hash>` as printed by an export or `verdict audit head`. */
export function parseHead(text: string): ChainHead {
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text.trim());
  if (!match)
    throw new AppError(
      "VALIDATION",
      `"${text}" is not a chain head: expected <sequence number>:<64 hex digits>, as \`verdict audit head\` prints it.`,
    );
  return { seq: match[1]!, hash: match[2]! };
}

/** The chain head now (the newest event's id and hash); null for an empty trail. */
export async function auditHeadWith(client: PrismaClient | Tx): Promise<ChainHead | null> {
  const last = await client.auditEvent.findFirst({ orderBy: { id: "desc" }, select: { id: true, hash: true } });
  return last ? { seq: last.id.toString(), hash: last.hash } : null;
}

/**
 * Walks the whole chain in id order and recomputes every hash from the stored row: a row
 * edited behind the trigger's back no longer matches its hash, a deleted or inserted row breaks
 * the next event's link. Stops at the first broken link. Deleted events at the tail break no
 * link: given an earlier head (`anchor`), the chain must still hold that event with that hash.
 * Then every signature and pack revision is checked against the event that recorded it
 * (audit-records.ts). Takes a client or a transaction.
 */
export async function verifyAuditChainWith(
  client: PrismaClient | Tx,
  anchor: ChainHead | null = null,
): Promise<ChainVerification> {
  let prev = GENESIS_HASH;
  let checked = 0;
  let cursor: bigint | null = null;
  let head: ChainHead | null = null;
  let anchorSeen = false;
  const events: RecordEvents = { signatures: new Map(), revisions: new Map(), confirmations: new Map() };
  // In this order (see checkRecords): the horizon, the records, then the chain.
  const horizon = BigInt((await auditHeadWith(client))?.seq ?? 0);
  const records = await readRecords(client);
  const result = (
    firstBroken: BrokenLink | null,
    records = { signatures: 0, revisions: 0 },
    recordProblems: BrokenLink[] = [],
  ): ChainVerification => ({
    intact: firstBroken === null,
    checked,
    head,
    headHash: prev,
    firstBroken,
    records,
    recordProblems,
    anchor,
  });
  for (;;) {
    const rows: Awaited<ReturnType<typeof page>> = await page(client, cursor);
    for (const row of rows) {
      const id = row.id.toString();
      if (row.prevHash !== prev) {
        return result({
          id,
          reason: "prev-hash-mismatch",
          message: `Event ${id} does not link to the event before it (an event was removed, inserted or altered).`,
          expected: prev,
          found: row.prevHash,
        });
      }
      const recomputed = chainHash(row.prevHash, auditHashPayload(row));
      if (recomputed !== row.hash) {
        return result({
          id,
          reason: "content-hash-mismatch",
          message: `Event ${id} was changed after it was written: its content no longer matches its hash.`,
          expected: row.hash,
          found: recomputed,
        });
      }
      if (anchor && id === anchor.seq) {
        anchorSeen = true;
        if (row.hash !== anchor.hash)
          return result({
            id,
            reason: "head-mismatch",
            message: `Event ${id} does not have the hash of the head you verify against: the chain from there on was rewritten.`,
            expected: anchor.hash,
            found: row.hash,
          });
      }
      if (row.action === "signature.create")
        events.signatures.set(row.entityId, { eventId: id, decisionId: row.decisionId, after: row.after });
      if (row.action === "user.confirm_signer")
        events.confirmations.set(row.entityId, [
          ...(events.confirmations.get(row.entityId) ?? []),
          { eventId: id, decisionId: null, after: row.after },
        ]);
      if (row.action === "pack_revision.create")
        events.revisions.set(row.entityId, { eventId: id, decisionId: row.decisionId, after: row.after });
      prev = row.hash;
      head = { seq: id, hash: row.hash };
      checked++;
    }
    if (rows.length < BATCH) break;
    cursor = rows[rows.length - 1]!.id;
  }
  if (anchor && !anchorSeen) {
    const last = head?.seq ?? "none";
    return result({
      id: anchor.seq,
      reason: "head-missing",
      message: `The chain ends at event ${last}, but the head you verify against is event ${anchor.seq}: events after ${last} were deleted.`,
      expected: formatHead(anchor),
      found: head ? formatHead(head) : "an empty chain",
    });
  }
  const problems = checkRecords(records, events, horizon);
  return result(
    problems[0] ?? null,
    { signatures: records.signatures.length, revisions: records.revisions.length },
    problems,
  );
}

function page(client: PrismaClient | Tx, after: bigint | null) {
  return client.auditEvent.findMany({
    where: after === null ? {} : { id: { gt: after } },
    orderBy: { id: "asc" },
    take: BATCH,
    select: AUDIT_EVENT_SELECT,
  });
}

/** The verify action of the audit page and `verdict audit verify`. */
export async function verifyAuditChain(actor: Actor, anchor: ChainHead | null = null): Promise<ChainVerification> {
  if (!can(actor, "audit.read")) throw forbiddenError();
  return verifyAuditChainWith(await db(), anchor);
}
