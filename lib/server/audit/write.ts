import "server-only";
import { createHash } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";
import type { AuditAction } from "@/lib/audit-actions";
import type { RoleName } from "@/lib/auth/permissions";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AuditEventFields } from "@/lib/views/audit";
import type { Tx } from "../db";

export const GENESIS_HASH = "0".repeat(64);
// Serialises audit writers so the chain never forks: each event reads the previous hash under
// this transaction-scoped lock, released at commit.
export const AUDIT_CHAIN_LOCK = 7_348_002;

export interface AuditActor {
  id: string | null;
  roles: readonly RoleName[];
}

export interface RequestInfo {
  ip?: string | null;
  userAgent?: string | null;
  /** How the request was authenticated, where the rule depends on it (API tokens cannot sign). Not hashed. */
  via?: "session" | "token";
}

export interface AuditInput {
  actor: AuditActor;
  action: AuditAction;
  entityType: string;
  entityId: string;
  decisionId?: string | null;
  before?: unknown;
  after?: unknown;
  request?: RequestInfo;
}

/**
 * An edit as the audit trail records it: only the fields the edit changed, each before and after
 * (an unchanged field in the event would hide what the edit was).
 */
export function changedFields<T extends object>(fields: readonly (keyof T)[], before: T, after: T) {
  const changed = fields.filter((k) => before[k] !== after[k]);
  return {
    changed,
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after[k]])),
  };
}

/**
 * An audit event as every reader reads it: the fields its hash covers, its id and both hashes.
 * One list, so the audit page, the chain's verification and the auditor bundle read the same event.
 */
export const AUDIT_EVENT_SELECT = {
  id: true,
  actorId: true,
  actorRoles: true,
  action: true,
  entityType: true,
  entityId: true,
  decisionId: true,
  before: true,
  after: true,
  ip: true,
  userAgent: true,
  createdAt: true,
  prevHash: true,
  hash: true,
} as const satisfies Prisma.AuditEventSelect;

/** The fields an event's hash covers, in canonical JSON (the verify action recomputes the same). */
export function auditHashPayload(event: AuditEventFields): string {
  // Pick the fields one by one: a database row carries more (id, hashes) that must not be hashed.
  return canonicalJson({
    actorId: event.actorId,
    actorRoles: event.actorRoles,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId,
    decisionId: event.decisionId,
    before: event.before,
    after: event.after,
    ip: event.ip,
    userAgent: event.userAgent,
    createdAt: event.createdAt.toISOString(),
  });
}

/** hash = SHA-256(previous hash ‖ canonical JSON of the event). */
export function chainHash(prevHash: string, payload: string): string {
  return createHash("sha256").update(prevHash).update(payload).digest("hex");
}

/** The stored fields of an event and its link in the chain (shared by every audit writer). */
export function chainedAuditEvent(prevHash: string, input: AuditInput) {
  const event = {
    actorId: input.actor.id,
    actorRoles: [...input.actor.roles],
    action: input.action,
    entityType: input.entityType,
    entityId: input.entityId,
    decisionId: input.decisionId ?? null,
    // JSON round trip: what is stored (jsonb) is exactly what was hashed.
    before: input.before === undefined ? null : (JSON.parse(canonicalJson(input.before)) as unknown),
    after: input.after === undefined ? null : (JSON.parse(canonicalJson(input.after)) as unknown),
    ip: input.request?.ip ?? null,
    userAgent: input.request?.userAgent ?? null,
    createdAt: new Date(),
  };
  return { event, prevHash, hash: chainHash(prevHash, auditHashPayload(event)) };
}

/**
 * Appends an audit event inside the caller's transaction — the transaction is a required
 * argument so the event commits or rolls back with the change it records.
 */
export async function recordAudit(tx: Tx, input: AuditInput): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${AUDIT_CHAIN_LOCK})`;
  const last = await tx.auditEvent.findFirst({ orderBy: { id: "desc" }, select: { hash: true } });
  const { event, prevHash, hash } = chainedAuditEvent(last?.hash ?? GENESIS_HASH, input);
  await tx.auditEvent.create({
    data: {
      ...event,
      before: event.before ?? undefined,
      after: event.after ?? undefined,
      prevHash,
      hash,
    },
  });
}
