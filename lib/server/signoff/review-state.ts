import "server-only";
import { isEditable } from "@/lib/decisions/editable";
import { submissionProblems } from "./submission-check";
import { can } from "@/lib/auth/permissions";
import { jsonDiff, type DiffEntry, type JsonValue } from "@/lib/signoff/diff";
import { readComments } from "../decisions/comments";
import { db } from "../db";
import { forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { buildPack, frozenGates } from "./build-pack";
import { FROZEN_REVISION } from "./revisions";
import { SIGNATURE_SELECT } from "../audit/signature-select";
import { awaitingConfirmation } from "../identity/enrolment";

const MAX_DIFF = 200;

/**
 * Everything the review page shows: status, revisions (each superseded one with its diff to the
 * next), the signatures in their §11.50 form, comments, the gates per candidate, and whether
 * the evidence changed since the latest revision — recomputed now, so a change shows at once
 * even before the next transition or signature freezes a new revision.
 */
export async function getReviewState(actor: Actor, decisionId: string) {
  if (!can(actor, "decision.read")) throw forbiddenError();
  const prisma = await db();
  const decision = await prisma.decision.findUnique({
    where: { id: decisionId },
    select: {
      id: true,
      title: true,
      status: true,
      archivedAt: true,
      quorum: true,
      candidates: { orderBy: { createdAt: "asc" }, select: { id: true, name: true, provider: true } },
    },
  });
  if (!decision) throw notFoundError("The decision");
  const [revisions, signatures, comments, transitions, ownImport, live, missing, unconfirmed] = await Promise.all([
    prisma.packRevision.findMany({
      where: { decisionId },
      orderBy: { number: "asc" },
      select: { ...FROZEN_REVISION, cause: true, createdBy: { select: { name: true } } },
    }),
    prisma.signature.findMany({
      where: { decisionId },
      orderBy: { signedAt: "asc" },
      select: { ...SIGNATURE_SELECT, candidate: { select: { name: true } } },
    }),
    readComments(prisma, decisionId),
    prisma.auditEvent.findMany({
      where: { decisionId, action: "decision.transition" },
      orderBy: { id: "asc" },
      select: { id: true, actorId: true, before: true, after: true, createdAt: true },
    }),
    prisma.import.findFirst({ where: { importedById: actor.id, decisionId }, select: { id: true } }),
    prisma.$transaction((tx) => buildPack(tx, decisionId)),
    // What a draft still lacks before it can be submitted, listed before the submit button.
    isEditable(decision)
      ? prisma.$transaction((tx) => submissionProblems(tx, decisionId))
      : Promise.resolve([] as string[]),
    // Why a signer whose role no second person confirmed yet cannot sign (four-eyes enrolment).
    can(actor, "signature.review") || can(actor, "signature.approve")
      ? prisma.$transaction((tx) => awaitingConfirmation(tx, actor.id))
      : Promise.resolve(null),
  ]);

  const latest = revisions[revisions.length - 1] ?? null;
  const evidenceChanged = latest !== null && latest.sha256 !== live.sha256;
  const parse = (json: string) => JSON.parse(json) as JsonValue;
  const diffs = new Map<string, { toNumber: number | "now"; entries: DiffEntry[]; total: number }>();
  revisions.forEach((r, i) => {
    const next = revisions[i + 1];
    if (next) {
      const entries = jsonDiff(parse(r.canonicalJson), parse(next.canonicalJson));
      diffs.set(r.id, { toNumber: next.number, entries: entries.slice(0, MAX_DIFF), total: entries.length });
    } else if (evidenceChanged) {
      const entries = jsonDiff(parse(r.canonicalJson), parse(live.canonicalJson));
      diffs.set(r.id, { toNumber: "now", entries: entries.slice(0, MAX_DIFF), total: entries.length });
    }
  });
  const gates = frozenGates(latest && !evidenceChanged ? latest.canonicalJson : live.canonicalJson);
  const supersededIds = new Set(
    revisions.filter((r) => r.supersededAt || (r.id === latest?.id && evidenceChanged)).map((r) => r.id),
  );
  const names = new Map(
    (
      await prisma.user.findMany({
        where: { id: { in: [...new Set(transitions.map((t) => t.actorId).filter((x): x is string => !!x))] } },
        select: { id: true, name: true },
      })
    ).map((u) => [u.id, u.name]),
  );

  return {
    decision,
    status: decision.status,
    revisions: revisions.map(({ canonicalJson: _json, ...r }) => ({
      ...r,
      superseded: supersededIds.has(r.id),
      diff: diffs.get(r.id) ?? null,
    })),
    latestRevision: latest ? { id: latest.id, number: latest.number, sha256: latest.sha256 } : null,
    liveSha256: live.sha256,
    evidenceChanged,
    signatures: signatures.map((s) => ({
      ...s,
      superseded: supersededIds.has(s.packRevisionId),
      revisionNumber: revisions.find((r) => r.id === s.packRevisionId)?.number ?? null,
    })),
    comments,
    gates,
    history: transitions.map((t) => ({
      id: t.id.toString(),
      by: t.actorId ? (names.get(t.actorId) ?? t.actorId) : "system",
      at: t.createdAt,
      before: t.before as { status?: string } | null,
      after: t.after as { status?: string; reason?: string } | null,
    })),
    actorImportedEvidence: ownImport !== null,
    awaitingConfirmation: unconfirmed,
    missing,
  };
}

export type ReviewState = Awaited<ReturnType<typeof getReviewState>>;
