import "server-only";
import { can } from "@/lib/auth/permissions";
import type { Gate } from "@/lib/pack/gates";
import type { SignatureMeaning } from "@/lib/generated/prisma/enums";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../session";
import { frozenGates, frozenOperatingPoint } from "./build-pack";
import { ensureCurrentRevision, lockDecision, SIGNOFF_TX, transitionStatus } from "./revisions";
import { verifySigningPassword } from "./signing-password";
import { signingRefusal } from "./separation";
import { SIGNATURE_SELECT } from "../audit/signature-select";

export interface SignInput {
  meaning: SignatureMeaning;
  /** Both components of the signature (§11.200): the signer's login email and password. */
  email: string;
  password: string;
  /** The hash of the revision the signer was shown: a signature never lands on other content. */
  revisionSha256: string;
  reason: string;
  candidateId?: string | null;
  waiver?: string | null;
}

export const MIN_WAIVER_LENGTH = 20;

/**
 * An electronic signature (21 CFR Part 11): review (reviewer), approval of one candidate or
 * rejection (approver). Password first (§11.200); then, under the decision's row lock, the
 * signature, its audit event and — when the quorum of distinct approvers has approved the same
 * candidate on the same revision — the transition to APPROVED, all in one transaction.
 */
export async function signPack(actor: Actor, decisionId: string, input: SignInput, request: RequestInfo = {}) {
  const permission = input.meaning === "REVIEW" ? "signature.review" : "signature.approve";
  if (!can(actor, permission))
    throw forbiddenError(
      input.meaning === "REVIEW"
        ? "Only a reviewer records a review signature."
        : "Only an approver signs an approval or a rejection.",
    );
  const reason = input.reason.trim();
  if (reason.length < 3) throw new AppError("VALIDATION", "State the reason for your signature.");
  if (input.meaning === "APPROVAL" && !input.candidateId)
    throw new AppError("VALIDATION", "Choose the candidate you approve.");
  const candidateId = input.meaning === "APPROVAL" ? (input.candidateId ?? null) : null;
  const waiver = input.waiver?.trim() || null;

  const prisma = await db();
  // Who may not sign this pack is refused before anything else, and before any password attempt
  // (and again under the lock).
  const refusedEarly = await prisma.$transaction(async (tx) => {
    const latest = await tx.packRevision.findFirst({
      where: { decisionId },
      orderBy: { number: "desc" },
      select: { number: true, createdAt: true },
    });
    return signingRefusal(tx, { actor, decisionId, revision: latest, meaning: input.meaning, request });
  });
  if (refusedEarly) throw forbiddenError(refusedEarly);

  // Before asking argon2: a decision that is not there or not in review takes no password attempt.
  const target = await prisma.decision.findUnique({ where: { id: decisionId }, select: { status: true } });
  if (!target) throw notFoundError("The decision");
  if (target.status !== "IN_REVIEW")
    throw new AppError("CONFLICT", "Signatures are taken only while the decision is in review.");

  await verifySigningPassword(actor, input.email, input.password, request);

  // A change of evidence since the last revision freezes a new one first, committed on its own:
  // the old revision is superseded whether or not this signature then goes through.
  const current = await prisma.$transaction(async (tx) => {
    const { status } = await lockDecision(tx, decisionId);
    if (status !== "IN_REVIEW")
      throw new AppError("CONFLICT", "Signatures are taken only while the decision is in review.");
    return (await ensureCurrentRevision(tx, actor, decisionId, request)).revision;
  }, SIGNOFF_TX);
  if (current.sha256 !== input.revisionSha256) {
    throw new AppError(
      "CONFLICT",
      `The revision you signed is superseded: the pack is now revision ${current.number} (${current.sha256.slice(0, 12)}…). Review it and sign again.`,
    );
  }

  return prisma.$transaction(async (tx) => {
    const { status, quorum } = await lockDecision(tx, decisionId);
    if (status !== "IN_REVIEW")
      throw new AppError("CONFLICT", "Signatures are taken only while the decision is in review.");
    const revision = await tx.packRevision.findFirst({
      where: { decisionId },
      orderBy: { number: "desc" },
      select: { id: true, number: true, sha256: true, canonicalJson: true, createdAt: true },
    });
    if (!revision || revision.sha256 !== input.revisionSha256)
      throw new AppError("CONFLICT", "The revision you signed is superseded; review the new revision and sign again.");

    const group: SignatureMeaning[] = input.meaning === "REVIEW" ? ["REVIEW"] : ["APPROVAL", "REJECTION"];
    const earlier = await tx.signature.findFirst({
      where: { packRevisionId: revision.id, signerId: actor.id, meaning: { in: group } },
      select: { meaning: true },
    });
    if (earlier)
      throw new AppError(
        "CONFLICT",
        `You already signed revision ${revision.number} (${earlier.meaning.toLowerCase()}).`,
      );

    const refusal = await signingRefusal(tx, { actor, decisionId, revision, meaning: input.meaning, request });
    if (refusal) throw forbiddenError(refusal);

    let failed: Gate[] = [];
    if (candidateId) {
      const candidate = await tx.candidate.findFirst({ where: { id: candidateId, decisionId }, select: { id: true } });
      if (!candidate) throw new AppError("VALIDATION", "That candidate is not part of this decision.");
      // The gates frozen in the revision, so the waiver answers exactly what was signed.
      failed = (frozenGates(revision.canonicalJson)[candidateId] ?? []).filter((g) => !g.pass);
      if (failed.length && (!waiver || waiver.length < MIN_WAIVER_LENGTH)) {
        throw new AppError(
          "VALIDATION",
          `This candidate fails ${failed.map((g) => g.label).join("; ")}. Approving it requires a written waiver (at least ${MIN_WAIVER_LENGTH} characters).`,
        );
      }
    }

    const signer = await tx.user.findUniqueOrThrow({ where: { id: actor.id }, select: { name: true, email: true } });
    const signature = await tx.signature.create({
      data: {
        decisionId,
        packRevisionId: revision.id,
        revisionSha256: revision.sha256,
        signerId: actor.id,
        printedName: signer.name,
        signerEmail: signer.email,
        meaning: input.meaning,
        candidateId,
        reason,
        waiver: failed.length ? waiver : null,
        ...(candidateId ? frozenOperatingPoint(revision.canonicalJson, candidateId) : {}),
        signedAt: new Date(),
      },
      select: SIGNATURE_SELECT,
    });
    await recordAudit(tx, {
      actor,
      action: "signature.create",
      entityType: "Signature",
      entityId: signature.id,
      decisionId,
      after: { ...signature, revision: revision.number, failedGates: failed.map((g) => g.key) },
      request,
    });

    let outcome: "signed" | "approved" | "rejected" = "signed";
    if (input.meaning === "REJECTION") {
      // One accountable owner's rejection closes the decision: approval needs a quorum, a veto does not.
      await transitionStatus(tx, actor, decisionId, "IN_REVIEW", "REJECTED", request, {
        signatureId: signature.id,
        revision: revision.number,
      });
      outcome = "rejected";
    } else if (input.meaning === "APPROVAL") {
      const approvers = await tx.signature.findMany({
        where: { packRevisionId: revision.id, meaning: "APPROVAL", candidateId },
        distinct: ["signerId"],
        select: { signerId: true },
      });
      if (approvers.length >= quorum) {
        await transitionStatus(tx, actor, decisionId, "IN_REVIEW", "APPROVED", request, {
          candidateId,
          revision: revision.number,
          sha256: revision.sha256,
          approvers: approvers.map((a) => a.signerId).sort(),
        });
        outcome = "approved";
      }
    }
    return { signature, outcome, revision: { number: revision.number, sha256: revision.sha256 } };
  }, SIGNOFF_TX);
}
