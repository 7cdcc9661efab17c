import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { AppError } from "@/lib/server/errors";
import { requirePagePermission } from "@/lib/server/session";
import { getReviewState } from "@/lib/server/signoff/review-state";
import { StatusBadge } from "@/components/decisions/status-badge";
import { CommentThreads } from "@/components/signoff/comment-threads";
import { GatesTable } from "@/components/signoff/gates-table";
import { SignatureTable } from "@/components/signoff/signature-table";
import { commentAction } from "./actions";
import { EvidenceChangedAlert, RevisionsSection, StatusSection } from "./sections";

export const metadata: Metadata = { title: "Review and sign-off" };

const NOTICES: Record<string, string> = {
  submitted: "Submitted for review: the pack revision is frozen.",
  "changes-requested": "Changes requested: the decision is back with the analyst.",
  reopened: "The decision is a draft again.",
};

export default async function ReviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ notice?: string | string[] }>;
}) {
  const { id } = await params;
  const { notice } = await searchParams;
  const actor = await requirePagePermission("decision.read", `/decisions/${id}/review`);
  const state = await getReviewState(actor, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const { decision, status } = state;

  return (
    <article aria-labelledby="review-title">
      <p className="muted">
        <Link href={`/decisions/${id}`}>{decision.title}</Link> · <StatusBadge status={status} />
      </p>
      <h1 id="review-title">Review and sign-off</h1>
      {typeof notice === "string" && NOTICES[notice] && (
        <p className="message-ok" role="status">
          {NOTICES[notice]}
        </p>
      )}

      <EvidenceChangedAlert state={state} />

      <StatusSection id={id} actor={actor} state={state} />

      <section aria-labelledby="signatures-heading">
        <h2 id="signatures-heading">Signatures</h2>
        <SignatureTable signatures={state.signatures} />
      </section>

      <section aria-labelledby="gates-heading">
        <h2 id="gates-heading">Gates</h2>
        <GatesTable candidates={decision.candidates} gates={state.gates} />
      </section>

      <RevisionsSection id={id} actor={actor} revisions={state.revisions} />

      <section aria-labelledby="comments-heading">
        <h2 id="comments-heading">Comments</h2>
        <CommentThreads
          comments={state.comments}
          action={commentAction}
          decisionId={id}
          canComment={can(actor, "comment.create")}
        />
      </section>
    </article>
  );
}
