import "server-only";
import { can } from "@/lib/auth/permissions";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/audit-actions";
import type { AuditPage } from "@/lib/views/audit";
import { AUDIT_EVENT_SELECT } from "./write";
import { db } from "../db";
import { forbiddenError } from "../errors";
import type { Actor } from "../actors";

export interface AuditFilter {
  decisionId?: string | null;
  action?: string | null;
  actorId?: string | null;
  /** Show events with an id below this (paging back in time). */
  before?: string | null;
  limit?: number;
}

/** The audit page: newest first, filtered by decision, action or actor; actor names looked up separately. */
export async function listAuditEvents(actor: Actor, filter: AuditFilter): Promise<AuditPage> {
  if (!can(actor, "audit.read")) throw forbiddenError();
  const prisma = await db();
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 500);
  const action =
    filter.action && (AUDIT_ACTIONS as readonly string[]).includes(filter.action)
      ? (filter.action as AuditAction)
      : undefined;
  const before = filter.before && /^\d+$/.test(filter.before) ? BigInt(filter.before) : undefined;
  const events = await prisma.auditEvent.findMany({
    where: {
      decisionId: filter.decisionId || undefined,
      action,
      actorId: filter.actorId || undefined,
      id: before ? { lt: before } : undefined,
    },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: AUDIT_EVENT_SELECT,
  });
  const shown = events.slice(0, limit);
  const ids = [...new Set(shown.map((e) => e.actorId).filter((id): id is string => !!id))];
  const users = await prisma.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, email: true },
  });
  const names = new Map(users.map((u) => [u.id, `${u.name} <${u.email}>`]));
  return {
    events: shown.map((e) => ({
      ...e,
      id: e.id.toString(),
      actorName: e.actorId ? (names.get(e.actorId) ?? e.actorId) : "system",
    })),
    nextBefore: events.length > limit ? shown[shown.length - 1]!.id.toString() : null,
  };
}
