import "server-only";
import type { DecisionStatus } from "@/lib/generated/prisma/enums";
import { recordAudit, type RequestInfo } from "../audit/write";
import { AppError } from "../errors";
import type { Tx } from "../db";
import type { Actor } from "../actors";
import { buildPack } from "./build-pack";

/**
 * Every sign-off write on one decision (transitions, signatures, new revisions) runs under the
 * decision's row lock, one after the other, so quorum counts and revision numbers are never
 * decided on a stale read.
 */
export { lockDecisionRow as lockDecision } from "../decisions/lock";

/**
 * A frozen revision as its readers show it (the review page, the auditor bundle): its number, its
 * canonical JSON and that JSON's hash, when it was frozen and when a newer one superseded it.
 * Each reader adds who froze it and why, in its own order (the bundle's bytes keep theirs).
 */
export const FROZEN_REVISION = {
  id: true,
  number: true,
  sha256: true,
  canonicalJson: true,
  createdAt: true,
  supersededAt: true,
} as const;

export const latestRevision = (tx: Tx, decisionId: string) =>
  tx.packRevision.findFirst({
    where: { decisionId },
    orderBy: { number: "desc" },
    select: { id: true, number: true, sha256: true, supersededAt: true },
  });

// Audited acts on a decision that never change its evidence: all others may.
const NOT_EVIDENCE = new Set([
  "comment.create",
  "decision.transition",
  "pack_revision.create",
  "signature.create",
  "export.pdf",
  "export.json",
  "export.audit_bundle",
  "decision.archive",
  "decision.unarchive",
]);
export const CHANGED_OUTSIDE = "changed outside the app";

/**
 * Why the evidence differs from the latest revision: the app's own audited changes since that
 * revision was frozen, or — when there are none — a change made outside the app (rows edited in
 * the database). The latter is not the act of whoever happens to sign or submit next: the new
 * revision then names no creator and its audit event no actor.
 */
async function causeOfChange(tx: Tx, decisionId: string, latest: { id: string; number: number }) {
  const frozen = await tx.auditEvent.findFirst({
    where: { action: "pack_revision.create", entityId: latest.id },
    select: { id: true },
  });
  const events = await tx.auditEvent.findMany({
    where: { decisionId, id: { gt: frozen?.id ?? 0n } },
    select: { action: true },
  });
  const acts = [...new Set(events.map((e) => e.action).filter((a) => !NOT_EVIDENCE.has(a)))];
  return acts.length
    ? { inApp: true, cause: `changed in the app since revision ${latest.number} (${acts.join(", ")})` }
    : {
        inApp: false,
        cause: `${CHANGED_OUTSIDE}: the evidence differs from revision ${latest.number} and no change was made through Verdict since`,
      };
}

/**
 * The revision that matches the evidence now: the latest one if its hash still matches, else a
 * new revision (the old one is marked superseded, with an audit event) and its cause. Call under
 * lockDecision.
 */
export async function ensureCurrentRevision(tx: Tx, actor: Actor, decisionId: string, request: RequestInfo) {
  const pack = await buildPack(tx, decisionId);
  const latest = await latestRevision(tx, decisionId);
  if (latest && latest.sha256 === pack.sha256) return { revision: latest, created: false };
  const { inApp, cause } = latest
    ? await causeOfChange(tx, decisionId, latest)
    : { inApp: true, cause: "submitted for review" };
  const now = new Date();
  if (latest) {
    const superseded = await tx.packRevision.updateMany({
      where: { id: latest.id, supersededAt: null },
      data: { supersededAt: now },
    });
    if (superseded.count !== 1) throw new AppError("CONFLICT", "The pack revision changed meanwhile; try again.");
  }
  const revision = await tx.packRevision.create({
    data: {
      decisionId,
      number: (latest?.number ?? 0) + 1,
      sha256: pack.sha256,
      canonicalJson: pack.canonicalJson,
      createdById: inApp ? actor.id : null,
      createdAt: now,
      cause,
    },
    select: { id: true, number: true, sha256: true, supersededAt: true },
  });
  await recordAudit(tx, {
    actor: inApp ? actor : { id: null, roles: [] },
    action: "pack_revision.create",
    entityType: "PackRevision",
    entityId: revision.id,
    decisionId,
    before: latest ? { revision: latest.number, sha256: latest.sha256, supersededAt: now } : null,
    after: { revision: revision.number, sha256: revision.sha256, cause, ...(inApp ? {} : { noticedBy: actor.id }) },
    request,
  });
  return { revision, created: true };
}

/** Conditional status change: only wins if the decision is still in `from` (count must be 1). */
export async function transitionStatus(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  from: DecisionStatus,
  to: DecisionStatus,
  request: RequestInfo,
  detail: Record<string, unknown> = {},
) {
  const result = await tx.decision.updateMany({ where: { id: decisionId, status: from }, data: { status: to } });
  if (result.count !== 1)
    throw new AppError("CONFLICT", `The decision is no longer ${label(from)}; reload to see its state.`);
  await recordAudit(tx, {
    actor,
    action: "decision.transition",
    entityType: "Decision",
    entityId: decisionId,
    decisionId,
    before: { status: from },
    after: { status: to, ...detail },
    request,
  });
}

export const label = (status: DecisionStatus) => status.toLowerCase().replace("_", " ");
