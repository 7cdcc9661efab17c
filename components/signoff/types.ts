/** What the sign-off components render (plain data handed in by the page). */
export interface SignatureView {
  id: string;
  printedName: string;
  /** The login email at signing (null on signatures made before it was recorded). */
  signerEmail: string | null;
  /** Four-eyes enrolment at signing (printed names; null on signatures made before it was recorded). */
  enrolledBy?: string | null;
  confirmedBy?: string | null;
  signerId: string;
  signedAt: Date;
  meaning: "REVIEW" | "APPROVAL" | "REJECTION";
  candidate: { name: string } | null;
  reason: string;
  waiver: string | null;
  /** The approved deployment configuration (issue 14): the candidate's threshold and the rule that chose it. */
  operatingThreshold?: number | null;
  operatingRule?: "FIXED" | "COST_OPTIMAL" | "BEST_PRECISION_AT_RECALL_FLOOR" | null;
  revisionSha256: string;
  revisionNumber: number | null;
  superseded: boolean;
}

export interface DiffView {
  toNumber: number | "now";
  total: number;
  entries: Array<{ path: string; kind: "added" | "removed" | "changed"; before?: unknown; after?: unknown }>;
}

export interface RevisionView {
  id: string;
  number: number;
  sha256: string;
  createdAt: Date;
  supersededAt: Date | null;
  /** Null when the evidence changed outside the app (nobody in the app froze it). */
  createdBy: { name: string } | null;
  cause: string | null;
  superseded: boolean;
  diff: DiffView | null;
}

export interface GateView {
  key: string;
  label: string;
  pass: boolean | null;
  detail: string;
}

export interface CommentView {
  id: string;
  stage: number | null;
  parentId: string | null;
  body: string;
  createdAt: Date;
  author: { name: string };
  packRevision: { number: number } | null;
}

export const MEANING_LABEL = { REVIEW: "Reviewed", APPROVAL: "Approved", REJECTION: "Rejected" } as const;

/** ISO-8601 UTC to the second: the §11.50 date and time, unambiguous in any locale. */

export const HASH = { display: "block", fontSize: "0.78rem", wordBreak: "break-all" } as const;
