import "server-only";
import type { DecisionStatus } from "@/lib/generated/prisma/enums";
import { recordAudit, type RequestInfo } from "../audit";
import { AppError } from "../errors";
import type { Tx } from "../db";
import type { Actor } from "../session";
import { buildPack } from "./build-pack";

/**
 * Every sign-off write on one decision (transitions, signatures, new revisions) runs under the
 * decision's row lock, one after the other, so quorum counts and revision numbers are never
 * decided on a stale read.
 */
export { lockDecisionRow as lockDecision } from "../decision-lock";

export const latestRevision = (tx: Tx, decisionId: string) =>
  tx.packRevision.findFirst({ where: { decisionId }, orderBy: { number: "desc" }, select: { id: true, number: true, sha256: true, supersededAt: true } });

/**
 * The revision that matches the evidence now: the latest one if its hash still matches, else a
 * new revision (the old one is marked superseded, with an audit event). Call under lockDecision.
 */
export async function ensureCurrentRevision(tx: Tx, actor: Actor, decisionId: string, request: RequestInfo) {
  const pack = await buildPack(tx, decisionId);
  const latest = await latestRevision(tx, decisionId);
  if (latest && latest.sha256 === pack.sha256) return { revision: latest, created: false };
  const now = new Date();
  if (latest) {
    const superseded = await tx.packRevision.updateMany({ where: { id: latest.id, supersededAt: null }, data: { supersededAt: now } });
    if (superseded.count !== 1) throw new AppError("CONFLICT", "The pack revision changed meanwhile; try again.");
  }
  const revision = await tx.packRevision.create({
    data: { decisionId, number: (latest?.number ?? 0) + 1, sha256: pack.sha256, canonicalJson: pack.canonicalJson, createdById: actor.id, createdAt: now },
    select: { id: true, number: true, sha256: true, supersededAt: true },
  });
  await recordAudit(tx, {
    actor,
    action: "pack_revision.create",
    entityType: "PackRevision",
    entityId: revision.id,
    decisionId,
    before: latest ? { revision: latest.number, sha256: latest.sha256, supersededAt: now } : null,
    after: { revision: revision.number, sha256: revision.sha256 },
    request,
  });
  return { revision, created: true };
}

/** Conditional status change: only wins if the decision is still in `from` (count must be 1). */
export async function transitionStatus(tx: Tx, actor: Actor, decisionId: string, from: DecisionStatus, to: DecisionStatus, request: RequestInfo, detail: Record<string, unknown> = {}) {
  const result = await tx.decision.updateMany({ where: { id: decisionId, status: from }, data: { status: to } });
  if (result.count !== 1) throw new AppError("CONFLICT", `The decision is no longer ${label(from)}; reload to see its state.`);
  await recordAudit(tx, { actor, action: "decision.transition", entityType: "Decision", entityId: decisionId, decisionId, before: { status: from }, after: { status: to, ...detail }, request });
}

export const label = (status: DecisionStatus) => status.toLowerCase().replace("_", " ");

/** Interactive transactions here wait on a row lock behind other signers: allow for it. */
export const SIGNOFF_TX = { maxWait: 60_000, timeout: 60_000 } as const;
