import type { CandidateGates } from "./across-stages";
import type { TotalCost } from "./stage-types";
import { failedGates, type Gate } from "./gates";
import type { PackData, PackDecision } from "./pack-data";
import type { PackResults } from "./pack-results";

/**
 * The verdict up front (issue "The pack a committee reads and signs", item 5): the decision's
 * state, the recommendation, each candidate's gate outcome and why the leaderboard leader is not
 * the recommendation. Pure, from results already derived by `acrossStages()` — the gates, the
 * total costs and the best candidate are never re-derived here — plus the signatures.
 */
export type DecisionStatus = PackDecision["status"];

export const STATUS_LABEL: Record<DecisionStatus, string> = {
  DRAFT: "Draft",
  IN_REVIEW: "In review",
  CHANGES_REQUESTED: "Changes requested",
  APPROVED: "Approved",
  REJECTED: "Rejected",
};

export const MEANING_WORD = { REVIEW: "Review", APPROVAL: "Approval", REJECTION: "Rejection" } as const;

export interface SummarySignature {
  signerId: string;
  printedName: string;
  meaning: keyof typeof MEANING_WORD;
  candidateId: string | null;
  signedAt: string | Date;
}

export interface SummaryRevision {
  number: number;
  sha256: string;
  supersededAt: string | Date | null;
  signatures: readonly SummarySignature[];
}

export interface VerdictSummaryInput {
  status: DecisionStatus;
  quorum: number;
  candidates: readonly { id: string; name: string }[];
  gates: readonly CandidateGates[];
  totals: readonly TotalCost[];
  /** `acrossStages().bestCandidateId`: lowest total cost among those passing every gate (else a fallback). */
  bestCandidateId: string | null;
  /** The shortlisting rankings (stage 1 first): the leaderboard leader is #1 on the first. */
  shortlisting: readonly { label: string; ranks: Readonly<Record<string, number>> }[];
  revisions: readonly SummaryRevision[];
}

export interface CandidateOutcome {
  candidateId: string;
  name: string;
  passes: boolean;
  gateCount: number;
  failed: Gate[];
  totalPer1k: number | null;
}

export interface VerdictSummary {
  status: DecisionStatus;
  /** "Approved: Sentry-Guard-13B", "In review", "Rejected"… */
  heading: string;
  approved: { candidateId: string; name: string; revision: number; signers: string[] } | null;
  rejected: { revision: number; signer: string } | null;
  /** The candidate with the lowest total cost per 1,000 items among those passing every gate; null when none passes. */
  recommendation: { candidateId: string; name: string; totalPer1k: number | null } | null;
  outcomes: CandidateOutcome[];
  /** The leaderboard's #1 and, unless it is the recommendation, its first failed gate. */
  leader: {
    candidateId: string;
    name: string;
    ranking: string;
    isRecommendation: boolean;
    firstFailedGate: Gate | null;
  } | null;
}

export function verdictSummary(input: VerdictSummaryInput): VerdictSummary {
  const name = (id: string) => input.candidates.find((c) => c.id === id)?.name ?? id;
  const outcomes: CandidateOutcome[] = input.candidates.map((c) => {
    const g = input.gates.find((x) => x.candidateId === c.id);
    const failed = failedGates(g?.gates ?? []);
    return {
      candidateId: c.id,
      name: c.name,
      passes: g?.passes ?? false,
      gateCount: g?.gates.length ?? 0,
      failed,
      totalPer1k: input.totals.find((t) => t.candidateId === c.id)?.totalPer1k ?? null,
    };
  });

  // bestCandidateId falls back to the lowest error cost when nobody passes: that is no recommendation.
  const best = input.bestCandidateId
    ? outcomes.find((o) => o.candidateId === input.bestCandidateId && o.passes)
    : undefined;
  const recommendation = best ? { candidateId: best.candidateId, name: best.name, totalPer1k: best.totalPer1k } : null;

  let leader: VerdictSummary["leader"] = null;
  const board = input.shortlisting.find((r) => Object.keys(r.ranks).length > 0);
  const first = board ? input.candidates.find((c) => board.ranks[c.id] === 1) : undefined;
  if (board && first) {
    const isRecommendation = recommendation?.candidateId === first.id;
    const outcome = outcomes.find((o) => o.candidateId === first.id);
    leader = {
      candidateId: first.id,
      name: first.name,
      ranking: `#1 on ${board.label}`,
      isRecommendation,
      firstFailedGate: isRecommendation ? null : (outcome?.failed[0] ?? null),
    };
  }

  const approved = input.status === "APPROVED" ? approvedCandidate(input, name) : null;
  const rejected = input.status === "REJECTED" ? rejection(input) : null;
  const heading = approved ? `${STATUS_LABEL.APPROVED}: ${approved.name}` : STATUS_LABEL[input.status];
  return { status: input.status, heading, approved, rejected, recommendation, outcomes, leader };
}

const newestFirst = (revisions: readonly SummaryRevision[]) => [...revisions].sort((a, b) => b.number - a.number);

/** The candidate a quorum of distinct approvers approved, on the newest revision holding approvals. */
function approvedCandidate(input: VerdictSummaryInput, name: (id: string) => string): VerdictSummary["approved"] {
  for (const revision of newestFirst(input.revisions)) {
    const signers = new Map<string, Map<string, string>>();
    for (const s of revision.signatures) {
      if (s.meaning !== "APPROVAL" || !s.candidateId) continue;
      if (!signers.has(s.candidateId)) signers.set(s.candidateId, new Map());
      signers.get(s.candidateId)!.set(s.signerId, s.printedName);
    }
    const [candidateId, who] = [...signers].sort((a, b) => b[1].size - a[1].size)[0] ?? [];
    if (candidateId && who && who.size >= input.quorum)
      return { candidateId, name: name(candidateId), revision: revision.number, signers: [...who.values()] };
  }
  return null;
}

function rejection(input: VerdictSummaryInput): VerdictSummary["rejected"] {
  for (const revision of newestFirst(input.revisions)) {
    const s = revision.signatures.find((x) => x.meaning === "REJECTION");
    if (s) return { revision: revision.number, signer: s.printedName };
  }
  return null;
}

/** The summary from the read model and its results — the one call the page's band and the PDF's first page make. */
export function verdictSummaryOf(
  data: Pick<PackData, "decision" | "candidates">,
  results: PackResults,
  revisions: readonly SummaryRevision[],
): VerdictSummary {
  return verdictSummary({
    status: data.decision.status,
    quorum: data.decision.quorum,
    candidates: data.candidates,
    gates: results.gates,
    totals: results.totalCostPer1k,
    bestCandidateId: results.bestCandidateId,
    shortlisting: results.rankComparison.rankings.filter((r) => r.role === "shortlisting"),
    revisions,
  });
}
