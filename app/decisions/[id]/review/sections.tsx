import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { isEditable, isSubmittable } from "@/lib/decisions/editable";
import type { requirePagePermission } from "@/lib/server/session";
import type { getReviewState } from "@/lib/server/signoff/review-state";
import { StatusBadge } from "@/components/decisions/status-badge";
import { ActionForm } from "@/components/signoff/action-form";
import { RevisionList } from "@/components/signoff/revision-list";
import { SignDialog } from "@/components/signoff/sign-dialog";
import { formatUtc } from "@/lib/format";
import { reopenAction, requestChangesAction, signAction, submitAction } from "./actions";

type Actor = Awaited<ReturnType<typeof requirePagePermission>>;
type ReviewState = Awaited<ReturnType<typeof getReviewState>>;

/** Says that the evidence changed after the latest revision was frozen, and what that does to its signatures. */
export function EvidenceChangedAlert({ state }: { state: ReviewState }) {
  const { status, latestRevision } = state;
  if (!state.evidenceChanged) return null;
  return (
    <p className="message-error" role="alert">
      The evidence changed after revision {latestRevision?.number} was frozen (hash now {state.liveSha256.slice(0, 16)}
      …): every signature on revision {latestRevision?.number} is superseded.{" "}
      {status === "APPROVED" || status === "REJECTED"
        ? `The ${status === "APPROVED" ? "approval" : "rejection"} was signed on revision ${latestRevision?.number}; it does not cover the changed evidence until the analyst submits it for review again.`
        : "The next submission or signature freezes a new revision."}{" "}
      See what changed below.
    </p>
  );
}

/** The status, the current revision and the approvals counted toward the quorum. */
function StatusLine({ state, approvals }: { state: ReviewState; approvals: Map<string, number> }) {
  const { decision, status, latestRevision } = state;
  return (
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
  );
}

/** Every status transition, who made it, and why. */
function TransitionHistory({ history }: { history: ReviewState["history"] }) {
  if (history.length === 0) return null;
  return (
    <details style={{ marginTop: 12 }}>
      <summary>History of transitions</summary>
      <ul>
        {history.map((h) => (
          <li key={h.id}>
            {formatUtc(h.at, "second")} — {h.by}: {h.before?.status ?? "?"} → {h.after?.status ?? "?"}
            {h.after?.reason ? ` (“${h.after.reason}”)` : ""}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The status and what this reviewer may do now: submit, reopen, sign, or request changes. */
export function StatusSection({ id, actor, state }: { id: string; actor: Actor; state: ReviewState }) {
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
    <section className="card" aria-labelledby="status-heading">
      <h2 id="status-heading" style={{ marginTop: 0 }}>
        Status
      </h2>
      <StatusLine state={state} approvals={approvals} />
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
          {state.awaitingConfirmation && (
            <p className="message-error" role="note" data-testid="awaiting-confirmation">
              {state.awaitingConfirmation}
            </p>
          )}
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
      <TransitionHistory history={state.history} />
    </section>
  );
}

/** The frozen pack revisions, with the auditor bundle and the audit trail for those who may read them. */
export function RevisionsSection({
  id,
  actor,
  revisions,
}: {
  id: string;
  actor: Actor;
  revisions: ReviewState["revisions"];
}) {
  return (
    <section aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Pack revisions</h2>
      <RevisionList revisions={revisions} />
      {can(actor, "audit.read") && (
        <p>
          <a href={`/api/v1/decisions/${id}/audit-bundle`} download>
            Download the auditor bundle (JSON)
          </a>{" "}
          · <Link href={`/audit?decision=${encodeURIComponent(id)}`}>Audit trail of this decision</Link>
        </p>
      )}
    </section>
  );
}
