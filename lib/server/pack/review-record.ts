import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Tx } from "../db";

/**
 * The review as the record states it (issue 25 §3): every comment with its author, time, stage and
 * the pack revision it was written on, and its resolution; every signature with what it means.
 * A comment's resolution is what followed it: the last reply in its thread (who, when, what), else
 * the revision that superseded the one it was written on, else "open". Read by the JSON export and
 * the PDF's "Review" section; comments and signatures are the workflow on a revision, never part of
 * the revision's own hash (which a signature binds to), so they sit beside it in the exports.
 */
type Client = PrismaClient | Tx;

export interface RecordComment {
  id: string;
  /** 1–5, or null for the pack as a whole. */
  stage: number | null;
  stageLabel: string;
  author: string;
  createdAt: string;
  /** The pack revision current when it was written (null: before the first one). */
  revision: number | null;
  body: string;
  replies: { author: string; createdAt: string; body: string }[];
  resolution: string;
}

export interface RecordSignature {
  revision: number;
  printedName: string;
  signerEmail: string | null;
  meaning: "REVIEW" | "APPROVAL" | "REJECTION";
  /** What this signer attests by signing, in one sentence. */
  meaningText: string;
  candidateId: string | null;
  reason: string;
  waiver: string | null;
  signedAt: string;
}

export interface PackReview {
  comments: RecordComment[];
  signatures: RecordSignature[];
}

/** What a signature of each meaning attests (SPEC §7, 21 CFR Part 11 §11.50(a)(3)). */
export const SIGNATURE_MEANING_TEXT: Record<RecordSignature["meaning"], string> = {
  REVIEW: "Reviewed: the signer has examined this revision's evidence and results; a review does not approve.",
  APPROVAL:
    "Approved: the signer approves deploying the named candidate at its operating point on this revision's evidence.",
  REJECTION: "Rejected: the signer rejects this revision's recommendation; the decision is not approved on it.",
};

const STAGE_LABELS = [
  "",
  "stage 1 (leaderboards)",
  "stage 2 (preference)",
  "stage 3 (your data)",
  "stage 4 (operating point)",
  "stage 5 (serving)",
];
export const stageLabel = (stage: number | null) =>
  stage === null ? "the pack as a whole" : (STAGE_LABELS[stage] ?? `stage ${stage}`);

function resolutionOf(
  replies: RecordComment["replies"],
  revision: number | null,
  revisions: { number: number; createdAt: Date; cause: string | null }[],
): string {
  const last = replies.at(-1);
  if (last)
    return `Resolved by reply of ${last.author}, ${last.createdAt.slice(0, 16).replace("T", " ")} UTC: ${last.body}`;
  const later = revisions.find((r) => revision !== null && r.number > revision);
  if (later)
    return `No reply; revision ${revision} was superseded by revision ${later.number} (${later.cause ?? "new evidence"}).`;
  return "Open: no reply yet.";
}

export async function readReview(client: Client, decisionId: string): Promise<PackReview> {
  const comments = await client.comment.findMany({
    where: { decisionId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      stage: true,
      parentId: true,
      body: true,
      createdAt: true,
      author: { select: { name: true } },
      packRevision: { select: { number: true } },
    },
  });
  const revisions = await client.packRevision.findMany({
    where: { decisionId },
    orderBy: { number: "asc" },
    select: {
      number: true,
      createdAt: true,
      cause: true,
      signatures: {
        orderBy: { signedAt: "asc" },
        select: {
          printedName: true,
          signerEmail: true,
          meaning: true,
          candidateId: true,
          reason: true,
          waiver: true,
          signedAt: true,
        },
      },
    },
  });
  const reply = (c: (typeof comments)[number]) => ({
    author: c.author.name,
    createdAt: c.createdAt.toISOString(),
    body: c.body,
  });
  const threads = comments
    .filter((c) => c.parentId === null)
    .map((c): RecordComment => {
      const replies = comments.filter((r) => r.parentId === c.id).map(reply);
      const revision = c.packRevision?.number ?? null;
      return {
        id: c.id,
        stage: c.stage,
        stageLabel: stageLabel(c.stage),
        ...reply(c),
        revision,
        replies,
        resolution: resolutionOf(replies, revision, revisions),
      };
    });
  const signatures = revisions.flatMap((r) =>
    r.signatures.map((s) => ({
      revision: r.number,
      ...s,
      meaningText: SIGNATURE_MEANING_TEXT[s.meaning],
      signedAt: s.signedAt.toISOString(),
    })),
  );
  return { comments: threads, signatures };
}
