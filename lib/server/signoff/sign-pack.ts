import "server-only";
import { can } from "@/lib/auth/permissions";
import type { Gate } from "@/lib/pack/gates";
import type { SignatureMeaning } from "@/lib/generated/prisma/enums";
import { recordAudit, type RequestInfo } from "../audit/write";
import { db, type Tx } from "../db";
import { AppError, forbiddenError, notFoundError } from "../errors";
import type { Actor } from "../actors";
import { frozenGates, frozenOperatingPoint } from "./build-pack";
import { ensureCurrentRevision, lockDecision, transitionStatus } from "./revisions";
import { verifySigningPassword } from "./signing-password";
import { signingRefusal } from "./separation";
import { SIGNATURE_SELECT } from "../audit/signature-select";
import { enrolmentAtSigning } from "../identity/enrolment";

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

type Prisma = Awaited<ReturnType<typeof db>>;

/** What a signature states beyond its meaning, as given: trimmed, and the candidate only for an approval. */
interface SignStatement {
  reason: string;
  candidateId: string | null;
  waiver: string | null;
}

const NOT_IN_REVIEW = "Signatures are taken only while the decision is in review.";

/**
 * An electronic signature (21 CFR Part 11): review (reviewer), approval of one candidate or
 * rejection (approver). Password first (§11.200); then, under the decision's row lock, the
 * signature, its audit event and — when the quorum of distinct approvers has approved the same
 * candidate on the same revision — the transition to APPROVED, all in one transaction.
 */
export async function signPack(actor: Actor, decisionId: string, input: SignInput, request: RequestInfo = {}) {
  const statement = checkSignInput(actor, input);
  const prisma = await db();
  await refuseBeforePassword(prisma, actor, decisionId, input.meaning, request);
  await verifySigningPassword(actor, input.email, input.password, request);
  await freezeSignedRevision(prisma, actor, decisionId, input.revisionSha256, request);
  return prisma.$transaction((tx) => recordSignature(tx, actor, decisionId, input, statement, request));
}

/** The signer's permission for this meaning and the statement's own rules, before any database read. */
function checkSignInput(actor: Actor, input: SignInput): SignStatement {
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
  return { reason, candidateId, waiver };
}

/**
 * Who may not sign this pack is refused before anything else, and before any password attempt
 * (and again under the lock); so is a decision that is not there or not in review, before asking
 * argon2.
 */
async function refuseBeforePassword(
  prisma: Prisma,
  actor: Actor,
  decisionId: string,
  meaning: SignatureMeaning,
  request: RequestInfo,
) {
  const refusedEarly = await prisma.$transaction(async (tx) => {
    const latest = await tx.packRevision.findFirst({
      where: { decisionId },
      orderBy: { number: "desc" },
      select: { number: true, createdAt: true },
    });
    return signingRefusal(tx, { actor, decisionId, revision: latest, meaning, request });
  });
  if (refusedEarly) throw forbiddenError(refusedEarly);

  const target = await prisma.decision.findUnique({ where: { id: decisionId }, select: { status: true } });
  if (!target) throw notFoundError("The decision");
  if (target.status !== "IN_REVIEW") throw new AppError("CONFLICT", NOT_IN_REVIEW);
}

/**
 * A change of evidence since the last revision freezes a new one first, committed on its own:
 * the old revision is superseded whether or not this signature then goes through.
 */
async function freezeSignedRevision(
  prisma: Prisma,
  actor: Actor,
  decisionId: string,
  revisionSha256: string,
  request: RequestInfo,
) {
  const current = await prisma.$transaction(async (tx) => {
    const { status } = await lockDecision(tx, decisionId);
    if (status !== "IN_REVIEW") throw new AppError("CONFLICT", NOT_IN_REVIEW);
    return (await ensureCurrentRevision(tx, actor, decisionId, request)).revision;
  });
  if (current.sha256 !== revisionSha256) {
    throw new AppError(
      "CONFLICT",
      `The revision you signed is superseded: the pack is now revision ${current.number} (${current.sha256.slice(0, 12)}…). Review it and sign again.`,
    );
  }
}

/** Under the decision's lock: the signature, its audit event and the transition it completes, if any. */
async function recordSignature(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  input: SignInput,
  statement: SignStatement,
  request: RequestInfo,
) {
  const { status, quorum } = await lockDecision(tx, decisionId);
  if (status !== "IN_REVIEW") throw new AppError("CONFLICT", NOT_IN_REVIEW);
  const revision = await tx.packRevision.findFirst({
    where: { decisionId },
    orderBy: { number: "desc" },
    select: { id: true, number: true, sha256: true, canonicalJson: true, createdAt: true },
  });
  if (!revision || revision.sha256 !== input.revisionSha256)
    throw new AppError("CONFLICT", "The revision you signed is superseded; review the new revision and sign again.");
  await refuseSecondSignature(tx, actor, revision, input.meaning);

  const refusal = await signingRefusal(tx, { actor, decisionId, revision, meaning: input.meaning, request });
  if (refusal) throw forbiddenError(refusal);

  const { candidateId, reason, waiver } = statement;
  const failed = candidateId
    ? await failedGatesWaived(tx, decisionId, candidateId, revision.canonicalJson, waiver)
    : [];

  const signer = await tx.user.findUniqueOrThrow({ where: { id: actor.id }, select: { name: true, email: true } });
  const signature = await tx.signature.create({
    data: {
      decisionId,
      packRevisionId: revision.id,
      revisionSha256: revision.sha256,
      signerId: actor.id,
      printedName: signer.name,
      signerEmail: signer.email,
      ...(await enrolmentAtSigning(tx, actor.id)),
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

  const outcome = await closeBySignature(tx, actor, decisionId, input.meaning, {
    signatureId: signature.id,
    candidateId,
    revision,
    quorum,
    request,
  });
  return { signature, outcome, revision: { number: revision.number, sha256: revision.sha256 } };
}

/** One review, and one approval or rejection, per signer and revision. */
async function refuseSecondSignature(
  tx: Tx,
  actor: Actor,
  revision: { id: string; number: number },
  meaning: SignatureMeaning,
) {
  const group: SignatureMeaning[] = meaning === "REVIEW" ? ["REVIEW"] : ["APPROVAL", "REJECTION"];
  const earlier = await tx.signature.findFirst({
    where: { packRevisionId: revision.id, signerId: actor.id, meaning: { in: group } },
    select: { meaning: true },
  });
  if (earlier)
    throw new AppError(
      "CONFLICT",
      `You already signed revision ${revision.number} (${earlier.meaning.toLowerCase()}).`,
    );
}

/**
 * The gates the approved candidate fails in the frozen revision, so the waiver answers exactly
 * what was signed; refused without a waiver long enough.
 */
async function failedGatesWaived(
  tx: Tx,
  decisionId: string,
  candidateId: string,
  canonicalJsonText: string,
  waiver: string | null,
): Promise<Gate[]> {
  const candidate = await tx.candidate.findFirst({ where: { id: candidateId, decisionId }, select: { id: true } });
  if (!candidate) throw new AppError("VALIDATION", "That candidate is not part of this decision.");
  const failed = (frozenGates(canonicalJsonText)[candidateId] ?? []).filter((g) => !g.pass);
  if (failed.length && (!waiver || waiver.length < MIN_WAIVER_LENGTH)) {
    throw new AppError(
      "VALIDATION",
      `This candidate fails ${failed.map((g) => g.label).join("; ")}. Approving it requires a written waiver (at least ${MIN_WAIVER_LENGTH} characters).`,
    );
  }
  return failed;
}

/** A rejection closes the decision; an approval closes it once the quorum approved the same candidate. */
async function closeBySignature(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  meaning: SignatureMeaning,
  signed: {
    signatureId: string;
    candidateId: string | null;
    revision: { id: string; number: number; sha256: string };
    quorum: number;
    request: RequestInfo;
  },
): Promise<"signed" | "approved" | "rejected"> {
  const { revision, candidateId, request } = signed;
  if (meaning === "REJECTION") {
    // One accountable owner's rejection closes the decision: approval needs a quorum, a veto does not.
    await transitionStatus(tx, actor, decisionId, "IN_REVIEW", "REJECTED", request, {
      signatureId: signed.signatureId,
      revision: revision.number,
    });
    return "rejected";
  }
  if (meaning !== "APPROVAL") return "signed";
  const approvers = await tx.signature.findMany({
    where: { packRevisionId: revision.id, meaning: "APPROVAL", candidateId },
    distinct: ["signerId"],
    select: { signerId: true },
  });
  if (approvers.length < signed.quorum) return "signed";
  await transitionStatus(tx, actor, decisionId, "IN_REVIEW", "APPROVED", request, {
    candidateId,
    revision: revision.number,
    sha256: revision.sha256,
    approvers: approvers.map((a) => a.signerId).sort(),
  });
  return "approved";
}
