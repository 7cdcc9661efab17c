import Link from "next/link";
import type { getPackDecision } from "@/lib/server/pack/get-pack";
import type { scoredSuites, unshortlistedModels } from "@/lib/server/decisions/candidates";
import type { getResemblances } from "@/lib/server/decisions/resemblances";
import { CandidateForm } from "@/components/decisions/candidate-form";
import { AddCandidateForm } from "@/components/decisions/add-candidate-form";
import { ShortlistForm } from "@/components/decisions/shortlist-form";
import { ResemblanceForm } from "@/components/decisions/resemblance-form";
import { EvaluationVersionForm } from "@/components/decisions/evaluation-version-form";
import { AttachRowsForm } from "@/components/decisions/attach-rows-form";
import { ButtonForm } from "@/components/ui/button-form";
import {
  archiveAction,
  attachRowsAction,
  createCandidateAction,
  evaluationVersionAction,
  removeCandidateAction,
  resemblanceAction,
  shortlistAction,
  updateCandidateAction,
} from "./actions";

type PackDecisionData = Awaited<ReturnType<typeof getPackDecision>>;

/** The page's table of contents, one step per section. */
export function EditSteps() {
  return (
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
        <li>
          <a href="#harness-config-heading">Evaluation harness</a>
        </li>
      </ol>
    </nav>
  );
}

/** Shortlisting from the imported leaderboards, or adding a candidate by hand. */
export function ShortlistSection({
  id,
  models,
  editable,
}: {
  id: string;
  models: Awaited<ReturnType<typeof unshortlistedModels>>;
  editable: boolean;
}) {
  const base = `/decisions/${encodeURIComponent(id)}`;
  return (
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
  );
}

/**
 * Leaderboard rows stranded without a candidate, attached to an existing one (shown once the
 * decision has candidates: before that, they are what the shortlist is made from).
 */
export function StrandedRowsSection({
  id,
  models,
  candidates,
  editable,
}: {
  id: string;
  models: Awaited<ReturnType<typeof unshortlistedModels>>;
  candidates: PackDecisionData["candidates"];
  editable: boolean;
}) {
  if (candidates.length === 0 || models.length === 0 || !editable) return null;
  return (
    <section className="card" aria-labelledby="stranded-heading">
      <h2 id="stranded-heading">Leaderboard rows without a candidate</h2>
      <p className="muted">
        These model names in the imported leaderboards matched none of the candidates by name, model id, version or
        alias. If one is a candidate under another spelling, attach it: its scores become that candidate&apos;s
        evidence, and the spelling is remembered, so the next file that spells it so attaches by itself.
      </p>
      <AttachRowsForm
        decisionId={id}
        models={models.map((m) => ({ name: m.name, rows: m.scores.length }))}
        candidates={candidates.map((c) => ({ id: c.id, name: c.name }))}
        action={attachRowsAction}
      />
    </section>
  );
}

/** Each candidate's shortlist rationale, and its removal while the decision is editable. */
export function CandidatesSection({
  candidates,
  suites,
  editable,
}: {
  candidates: PackDecisionData["candidates"];
  suites: Awaited<ReturnType<typeof scoredSuites>>;
  editable: boolean;
}) {
  return (
    <section aria-labelledby="candidates-heading">
      <h2 id="candidates-heading">Candidates and their shortlist rationale</h2>
      {candidates.length === 0 && (
        <p className="card muted">No candidates yet: shortlist them from the leaderboards or add them by hand above.</p>
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
  );
}

/** The three questions of resemblance for each suite a rationale cites. */
export function ResemblanceSection({
  id,
  resemblances,
  editable,
}: {
  id: string;
  resemblances: Awaited<ReturnType<typeof getResemblances>>;
  editable: boolean;
}) {
  return (
    <section aria-labelledby="resemblance-heading">
      <h2 id="resemblance-heading">Do the cited suites resemble this decision?</h2>
      <p className="muted">
        For each benchmark a shortlist rationale cites, answer the three questions of resemblance. The answers are shown
        beside the scores in stages 1–2 and in the PDF; submitting needs them all.
      </p>
      {resemblances.length === 0 && <p className="card muted">No rationale cites a suite yet.</p>}
      {resemblances.map((r) => (
        <ResemblanceForm key={r.suite} decisionId={id} values={r} action={resemblanceAction} disabled={!editable} />
      ))}
    </section>
  );
}

/** Which dataset version the pack is evaluated on. */
export function DatasetSection({
  id,
  versions,
  current,
  editable,
}: {
  id: string;
  versions: { id: number; label: string }[];
  current: PackDecisionData["decision"]["evaluationDatasetVersionId"];
  editable: boolean;
}) {
  const base = `/decisions/${encodeURIComponent(id)}`;
  return (
    <section className="card" aria-labelledby="dataset-heading">
      <h2 id="dataset-heading">Evaluation dataset</h2>
      {versions.length === 0 ? (
        <p className="muted">
          No dataset yet: upload your labelled data on the <Link href={`${base}/uploads`}>uploads page</Link>. Its first
          version becomes the one the pack is evaluated on.
        </p>
      ) : (
        <EvaluationVersionForm
          decisionId={id}
          versions={versions}
          current={current}
          action={evaluationVersionAction}
          disabled={!editable}
        />
      )}
    </section>
  );
}

/** Archiving (or restoring) the decision; a decision in review cannot be archived. */
export function ArchiveSection({ id, decision }: { id: string; decision: PackDecisionData["decision"] }) {
  return (
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
  );
}
