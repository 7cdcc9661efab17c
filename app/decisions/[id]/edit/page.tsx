import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { frozenReason, isEditable } from "@/lib/decisions/editable";
import { getPackDecision } from "@/lib/server/pack/get-pack";
import { AppError } from "@/lib/server/errors";
import { scoredSuites, unshortlistedModels } from "@/lib/server/decisions/candidates";
import { getUploadsOverview } from "@/lib/server/imports/uploads-page";
import { getResemblances } from "@/lib/server/decisions/resemblances";
import { requirePagePermission } from "@/lib/server/session";
import { DecisionForm } from "@/components/decisions/decision-form";
import { CandidateForm } from "@/components/decisions/candidate-form";
import { AddCandidateForm } from "@/components/decisions/add-candidate-form";
import { ShortlistForm } from "@/components/decisions/shortlist-form";
import { ResemblanceForm } from "@/components/decisions/resemblance-form";
import { EvaluationVersionForm } from "@/components/decisions/evaluation-version-form";
import { ButtonForm } from "@/components/ui/button-form";
import { datasetVersionLabel } from "@/lib/decisions/labels";
import {
  archiveAction,
  createCandidateAction,
  evaluationVersionAction,
  removeCandidateAction,
  resemblanceAction,
  shortlistAction,
  updateCandidateAction,
  updateDecisionAction,
} from "./actions";
import "../pack.css";

export const metadata: Metadata = { title: "Edit decision" };

/** Analyst only: task parameters, the shortlist, candidates and rationale, resemblance answers, the evaluation dataset version. */
export default async function EditDecisionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ created?: string }>;
}) {
  const { id } = await params;
  const { created } = await searchParams;
  const actor = await requirePagePermission("decision.edit", `/decisions/${id}/edit`);
  const [{ decision, candidates }, suites, models, resemblances, overview] = await Promise.all([
    getPackDecision(actor, id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
      throw error;
    }),
    scoredSuites(actor, id),
    unshortlistedModels(actor, id),
    getResemblances(actor, id),
    getUploadsOverview(actor, id),
  ]);
  const editable = isEditable(decision);
  const frozen = frozenReason(decision);
  const base = `/decisions/${encodeURIComponent(id)}`;
  const versions = overview.datasets.flatMap((d) =>
    d.versions.map((v) => ({ id: v.id, label: datasetVersionLabel(d.name, v) })),
  );
  const {
    title: _t,
    description: _d,
    status: _s,
    archivedAt: _a,
    evaluationDatasetVersionId: _e,
    ...parameters
  } = decision;
  return (
    <article aria-labelledby="edit-title" className="pack">
      <p>
        <Link href={base}>← Back to the evidence pack</Link>
      </p>
      <h1 id="edit-title">Edit: {decision.title}</h1>
      {created && (
        <p className="message-ok" role="status">
          Decision created. Next: import leaderboards on the <Link href={`${base}/uploads`}>uploads page</Link> and
          shortlist candidates below, or add them by hand.
        </p>
      )}
      {frozen && (
        <p className="message-error" role="note">
          {frozen}
        </p>
      )}
      <nav aria-label="Steps" className="pack-toc no-print">
        <ol>
          <li>
            <a href="#task-heading">Task parameters</a>
          </li>
          <li>
            <a href="#shortlist-heading">Shortlist</a>
          </li>
          <li>
            <a href="#candidates-heading">Candidates and rationale</a>
          </li>
          <li>
            <a href="#resemblance-heading">Resemblance of the cited suites</a>
          </li>
          <li>
            <a href="#dataset-heading">Evaluation dataset</a>
          </li>
        </ol>
      </nav>
      <section className="card" aria-labelledby="task-heading">
        <h2 id="task-heading">Task parameters</h2>
        <p className="muted">
          Changing π, the costs or the operating threshold recomputes every run&apos;s stored metrics in the background;
          the pack says so until they are ready. Every change is audited.
        </p>
        <DecisionForm
          decisionId={id}
          values={{ ...parameters, title: decision.title, description: decision.description }}
          action={updateDecisionAction}
          disabled={!editable}
        />
      </section>

      <section className="card" aria-labelledby="shortlist-heading">
        <h2 id="shortlist-heading">Shortlist from the leaderboards</h2>
        {models.length === 0 ? (
          <p className="muted">
            No unshortlisted models. Import a leaderboard or an Arena CSV on the{" "}
            <Link href={`${base}/uploads`}>uploads page</Link>: its models are listed here to shortlist from.
          </p>
        ) : editable ? (
          <ShortlistForm decisionId={id} models={models} action={shortlistAction} />
        ) : (
          <p className="muted">{models.length} model(s) of the imported leaderboards are not shortlisted.</p>
        )}
        {editable && (
          <details>
            <summary>Add a candidate by hand</summary>
            <p className="muted">
              For a model no imported leaderboard lists yet. Leaderboard rows imported later under its name, model id or
              aliases become its evidence.
            </p>
            <AddCandidateForm decisionId={id} action={createCandidateAction} />
          </details>
        )}
      </section>

      <section aria-labelledby="candidates-heading">
        <h2 id="candidates-heading">Candidates and their shortlist rationale</h2>
        {candidates.length === 0 && (
          <p className="card muted">
            No candidates yet: shortlist them from the leaderboards or add them by hand above.
          </p>
        )}
        {candidates.map((c) => (
          <div key={c.id}>
            <CandidateForm candidate={c} suites={suites[c.id] ?? []} action={updateCandidateAction} />
            {editable && (
              <details className="no-print">
                <summary>Remove {c.name}…</summary>
                <p className="muted">
                  Its eval runs and serving rows leave the pack (the files stay as imports; the audit trail records what
                  was removed); its leaderboard rows go back to the unshortlisted models.
                </p>
                <ButtonForm
                  action={removeCandidateAction}
                  fields={{ candidateId: c.id }}
                  label={`Remove ${c.name}`}
                  secondary
                />
              </details>
            )}
          </div>
        ))}
      </section>

      <section aria-labelledby="resemblance-heading">
        <h2 id="resemblance-heading">Do the cited suites resemble this decision?</h2>
        <p className="muted">
          For each benchmark a shortlist rationale cites, answer the three questions of resemblance. The answers are
          shown beside the scores in stages 1–2 and in the PDF; submitting needs them all.
        </p>
        {resemblances.length === 0 && <p className="card muted">No rationale cites a suite yet.</p>}
        {resemblances.map((r) => (
          <ResemblanceForm key={r.suite} decisionId={id} values={r} action={resemblanceAction} disabled={!editable} />
        ))}
      </section>

      <section className="card" aria-labelledby="dataset-heading">
        <h2 id="dataset-heading">Evaluation dataset</h2>
        {versions.length === 0 ? (
          <p className="muted">
            No dataset yet: upload your labelled data on the <Link href={`${base}/uploads`}>uploads page</Link>. Its
            first version becomes the one the pack is evaluated on.
          </p>
        ) : (
          <EvaluationVersionForm
            decisionId={id}
            versions={versions}
            current={decision.evaluationDatasetVersionId}
            action={evaluationVersionAction}
            disabled={!editable}
          />
        )}
      </section>

      <section className="card no-print" aria-labelledby="archive-heading">
        <h2 id="archive-heading">{decision.archivedAt ? "Archived" : "Archive"}</h2>
        {decision.archivedAt ? (
          <ButtonForm
            action={archiveAction}
            fields={{ decisionId: id, archived: "false" }}
            label="Restore the decision"
            secondary
          />
        ) : decision.status === "IN_REVIEW" ? (
          <p className="muted">A decision in review cannot be archived.</p>
        ) : (
          <>
            <p className="muted">
              An archived decision is kept with its evidence, signatures and audit trail, becomes read-only, and leaves
              the default list.
            </p>
            <ButtonForm
              action={archiveAction}
              fields={{ decisionId: id, archived: "true" }}
              label="Archive the decision"
              secondary
            />
          </>
        )}
      </section>
    </article>
  );
}
