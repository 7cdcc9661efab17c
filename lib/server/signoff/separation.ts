import "server-only";
import type { SignatureMeaning } from "@/lib/generated/prisma/enums";
import type { RequestInfo } from "../audit/write";
import type { Tx } from "../db";
import type { Actor } from "../actors";
import { awaitingConfirmation } from "../identity/enrolment";

/**
 * Who may NOT sign a pack revision, and why — every rule of separation and identity at signing
 * in this one function (issue 11 §1–2, 21 CFR Part 11 §11.200). It returns the reason shown to
 * the signer, or null. sign-pack.ts calls it before asking for the password and again under the
 * decision's row lock.
 *
 * 1. Signatures are made in an interactive session: an API token cannot sign. The signer's
 *    role must be confirmed by a second person (four-eyes enrolment, identity/enrolment.ts).
 * 2. An account created after the revision was frozen cannot sign it, and one that became an
 *    approver after it cannot approve or reject it (an admin cannot mint approvers for a pack
 *    already in review).
 * 3. Nobody signs a pack holding evidence they imported.
 * 4. Nobody approves a revision carrying a change they made to the gate-relevant parameters
 *    (π, costs, floors, SLOs, quorum — decision.create sets them too) or to the candidates
 *    (which includes each operating threshold). The revision carries every such change made
 *    before it was frozen.
 */
export const GATE_PARAMETERS = [
  "prevalence",
  "costFn",
  "costFp",
  "recallFloor",
  "precisionFloor",
  "sloP95E2eMs",
  "sloP95TtftMs",
  "sloMinThroughputRps",
  "sloThroughputConcurrency",
  "sloMaxCostPer1kRequests",
  "quorum",
] as const;
const CANDIDATE_CHANGES = ["candidate.create", "candidate.update", "candidate.remove"];

export interface SigningContext {
  actor: Actor;
  decisionId: string;
  /** Null when the decision has no revision (or does not exist): only the session rule applies. */
  revision: { number: number; createdAt: Date } | null;
  meaning: SignatureMeaning;
  request: RequestInfo;
}

export async function signingRefusal(
  tx: Tx,
  { actor, decisionId, revision, meaning, request }: SigningContext,
): Promise<string | null> {
  if (request.via === "token")
    return "Signatures are made only in an interactive session: sign in the browser and sign there. API tokens cannot sign.";
  if (!revision) return awaitingConfirmation(tx, actor.id);

  const frozen = `revision ${revision.number} was frozen (${revision.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC)`;
  const user = await tx.user.findUnique({
    where: { id: actor.id },
    select: { createdAt: true, approverSince: true, signerConfirmedAt: true },
  });
  if (!user || user.createdAt > revision.createdAt)
    return `Your account was created after ${frozen}, so you cannot sign it.`;
  if (meaning !== "REVIEW" && (user.approverSince ?? user.createdAt) > revision.createdAt)
    return `You became an approver after ${frozen}, so you cannot approve or reject it.`;
  // After the clock: a late grant is refused for good, an unconfirmed one only until confirmed.
  const unconfirmed = user.signerConfirmedAt ? null : await awaitingConfirmation(tx, actor.id);
  if (unconfirmed) return unconfirmed;

  const own = await tx.import.findFirst({
    where: {
      importedById: actor.id,
      OR: [
        { decisionId },
        { scores: { some: { decisionId } } },
        { evalRun: { is: { decisionId } } },
        { servingBenchmarks: { some: { decisionId } } },
        { datasetVersion: { is: { dataset: { decisionId } } } },
      ],
    },
    select: { fileName: true },
  });
  if (own) return `Separation of duties: you imported evidence in this pack (${own.fileName}), so you cannot sign it.`;

  if (meaning === "APPROVAL") {
    const changes = await tx.auditEvent.findMany({
      where: {
        decisionId,
        actorId: actor.id,
        createdAt: { lte: revision.createdAt },
        action: { in: ["decision.create", "decision.update_parameters", ...CANDIDATE_CHANGES] },
      },
      orderBy: { id: "asc" },
      select: { action: true, after: true },
    });
    const gateChange = changes.find(
      (e) => e.action !== "decision.update_parameters" || GATE_PARAMETERS.some((k) => k in ((e.after ?? {}) as object)),
    );
    if (gateChange) {
      const what = gateChange.action.startsWith("candidate.")
        ? "the candidates"
        : "the gate-relevant parameters (π, costs, floors, SLOs, quorum)";
      return `Separation of duties: you set ${what} of this pack (${gateChange.action}), so you cannot approve it.`;
    }
  }
  return null;
}
