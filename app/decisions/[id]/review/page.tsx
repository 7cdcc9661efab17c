import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { isEditable, isSubmittable } from "@/lib/decisions/editable";
import { AppError } from "@/lib/server/errors";
import { requirePagePermission } from "@/lib/server/session";
import { getReviewState } from "@/lib/server/signoff/review-state";
import { StatusBadge } from "@/components/decisions/status-badge";
import { ActionForm } from "@/components/signoff/action-form";
import { CommentThreads } from "@/components/signoff/comment-threads";
import { GatesTable } from "@/components/signoff/gates-table";
import { RevisionList } from "@/components/signoff/revision-list";
import { SignatureTable } from "@/components/signoff/signature-table";
import { SignDialog } from "@/components/signoff/sign-dialog";
import { formatUtc } from "@/lib/format";
import { commentAction, reopenAction, requestChangesAction, signAction, submitAction } from "./actions";

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
  const { decision, status, latestRevision } = state;
  const meanings = [
    ...(can(actor, "signature.review") ? (["REVIEW"] as const) : []),
    ...(can(actor, "signature.approve") ? (["APPROVAL", "REJECTION"] as const) : []),
  ];
  const signed = new Set(
    state.signatures.filter((s) => !s.superseded).map((s) => `${s.signerId}:${s.meaning === "REVIEW" ? "R" : "A"}`),
  );
  const openMeanings = meanings.filter((m) => !signed.has(`${actor.id}:${m === "REVIEW" ? "R" : "A"}`));
  const canSubmit = can(actor, "decision.submit") && isSubmittable(decision, state.evidenceChanged);
  const approvals = new Map<string, number>();
  for (const s of state.signatures)
    if (s.meaning === "APPROVAL" && !s.superseded && s.candidate)
      approvals.set(s.candidate.name, (approvals.get(s.candidate.name) ?? 0) + 1);

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

      {state.evidenceChanged && (
        <p className="message-error" role="alert">
          The evidence changed after revision {latestRevision?.number} was frozen (hash now{" "}
          {state.liveSha256.slice(0, 16)}…): every signature on revision {latestRevision?.number} is superseded.{" "}
          {status === "APPROVED" || status === "REJECTED"
            ? `The ${status === "APPROVED" ? "approval" : "rejection"} was signed on revision ${latestRevision?.number}; it does not cover the changed evidence until the analyst submits it for review again.`
            : "The next submission or signature freezes a new revision."}{" "}
          See what changed below.
        </p>
      )}

      <section className="card" aria-labelledby="status-heading">
        <h2 id="status-heading" style={{ marginTop: 0 }}>
          Status
        </h2>
        <p>
          <StatusBadge status={status} />{" "}
          {latestRevision ? (
            <>
              Current revision <strong>{latestRevision.number}</strong>, SHA-256{" "}
              <code style={{ wordBreak: "break-all" }}>{latestRevision.sha256}</code>.
            </>
          ) : (
            "Not yet submitted: no revision is frozen."
          )}{" "}
          Quorum: {decision.quorum} distinct approvers approving the same candidate on the same revision.
          {approvals.size > 0 &&
            ` Approvals on the current revision: ${[...approvals].map(([name, n]) => `${name} ${n}/${decision.quorum}`).join(", ")}.`}
        </p>
        {canSubmit && state.missing.length > 0 && (
          <div className="message-error" role="note">
            <p>Before this decision can be submitted:</p>
            <ul>
              {state.missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </div>
        )}
        {canSubmit && (
          <ActionForm
            action={submitAction}
            decisionId={id}
            label={isEditable(decision) ? "Submit for review" : "Submit the changed evidence for review"}
          />
        )}
        {can(actor, "decision.submit") && status === "CHANGES_REQUESTED" && (
          <ActionForm action={reopenAction} decisionId={id} label="Back to draft" secondary />
        )}
        {status === "IN_REVIEW" && latestRevision && openMeanings.length > 0 && (
          <>
            {state.actorImportedEvidence && (
              <p className="message-error">
                You imported evidence in this pack: separation of duties does not let you sign it.
              </p>
            )}
            <SignDialog
              // A new revision starts a fresh dialog: nothing chosen for the old one carries over.
              key={latestRevision.sha256}
              action={signAction}
              decisionId={id}
              revisionNumber={latestRevision.number}
              revisionSha256={latestRevision.sha256}
              meanings={[...openMeanings]}
              candidates={decision.candidates}
              gates={state.gates}
              signerName={actor.name}
            />
          </>
        )}
        {status === "IN_REVIEW" && can(actor, "signature.approve") && (
          <details style={{ marginTop: 12 }}>
            <summary>Request changes</summary>
            <ActionForm
              action={requestChangesAction}
              decisionId={id}
              label="Request changes"
              reasonLabel="Which changes do you request?"
              secondary
            />
          </details>
        )}
        {state.history.length > 0 && (
          <details style={{ marginTop: 12 }}>
            <summary>History of transitions</summary>
            <ul>
              {state.history.map((h) => (
                <li key={h.id}>
                  {formatUtc(h.at, "second")} — {h.by}: {h.before?.status ?? "?"} → {h.after?.status ?? "?"}
                  {h.after?.reason ? ` (“${h.after.reason}”)` : ""}
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>

      <section aria-labelledby="signatures-heading">
        <h2 id="signatures-heading">Signatures</h2>
        <SignatureTable signatures={state.signatures} />
      </section>

      <section aria-labelledby="gates-heading">
        <h2 id="gates-heading">Gates</h2>
        <GatesTable candidates={decision.candidates} gates={state.gates} />
      </section>

      <section aria-labelledby="revisions-heading">
        <h2 id="revisions-heading">Pack revisions</h2>
        <RevisionList revisions={state.revisions} />
        {can(actor, "audit.read") && (
          <p>
            <a href={`/api/v1/decisions/${id}/audit-bundle`} download>
              Download the auditor bundle (JSON)
            </a>{" "}
            · <Link href={`/audit?decision=${encodeURIComponent(id)}`}>Audit trail of this decision</Link>
          </p>
        )}
      </section>

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
