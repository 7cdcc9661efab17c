import "server-only";
import { can } from "@/lib/auth/permissions";
import { auditHeadWith, formatHead } from "../audit/verify";
import { AUDIT_EVENT_SELECT, GENESIS_HASH, recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { FROZEN_REVISION } from "./revisions";
import { SIGNATURE_SELECT } from "../audit/signature-select";

export const AUDITOR_BUNDLE_FORMAT = "verdict.auditor-bundle/1";

/**
 * What an auditor needs to check a decision's sign-off offline (scripts/verify-pack.ts): every
 * pack revision with its canonical JSON and SHA-256; every signature in its §11.50 form; the
 * decision's audit events in full with their hashes; and the hash links of the whole chain from
 * the decision's first event to the head, so the decision's events can be shown to sit in one
 * unbroken chain without disclosing other decisions' events. Exporting it is itself audited.
 */
export async function getAuditorBundle(actor: Actor, decisionId: string, request: RequestInfo = {}) {
  if (!can(actor, "decision.read") || !can(actor, "audit.read")) throw forbiddenError();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const decision = await tx.decision.findUnique({
      where: { id: decisionId },
      select: { id: true, title: true, status: true, quorum: true },
    });
    if (!decision) throw notFoundError("The decision");
    await recordAudit(tx, {
      actor,
      action: "export.audit_bundle",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      request,
    });
    const revisions = await tx.packRevision.findMany({
      where: { decisionId },
      orderBy: { number: "asc" },
      select: { ...FROZEN_REVISION, createdById: true, cause: true },
    });
    const signatures = await tx.signature.findMany({
      where: { decisionId },
      orderBy: { signedAt: "asc" },
      select: SIGNATURE_SELECT,
    });
    const events = await tx.auditEvent.findMany({
      where: { decisionId },
      orderBy: { id: "asc" },
      select: AUDIT_EVENT_SELECT,
    });
    const firstId = events[0]?.id;
    const head = await auditHeadWith(tx);
    const links =
      firstId === undefined
        ? []
        : await tx.auditEvent.findMany({
            where: { id: { gte: firstId } },
            orderBy: { id: "asc" },
            select: { id: true, prevHash: true, hash: true },
          });
    return {
      format: AUDITOR_BUNDLE_FORMAT,
      exportedAt: new Date().toISOString(),
      decision,
      revisions: revisions.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        supersededAt: r.supersededAt?.toISOString() ?? null,
      })),
      signatures: signatures.map((s) => ({ ...s, signedAt: s.signedAt.toISOString() })),
      audit: {
        genesisHash: GENESIS_HASH,
        hashRule:
          "hash = SHA-256(prevHash ‖ canonical JSON of {actorId, actorRoles, action, entityType, entityId, decisionId, before, after, ip, userAgent, createdAt})",
        events: events.map((e) => ({ ...e, id: e.id.toString(), createdAt: e.createdAt.toISOString() })),
        links: links.map((l) => ({ id: l.id.toString(), prevHash: l.prevHash, hash: l.hash })),
        // The chain head (this export's own event): verify the live system against it later.
        head: head ? { ...head, text: formatHead(head) } : null,
      },
    };
  });
}

export type AuditorBundle = Awaited<ReturnType<typeof getAuditorBundle>>;
