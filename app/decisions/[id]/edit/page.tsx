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
import { datasetVersionLabel } from "@/lib/decisions/labels";
import { updateDecisionAction } from "./actions";
import {
  ArchiveSection,
  CandidatesSection,
  DatasetSection,
  EditSteps,
  ResemblanceSection,
  ShortlistSection,
  StrandedRowsSection,
} from "./sections";
import { HarnessConfigSection } from "./harness-config";
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
      <EditSteps />
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

      <ShortlistSection id={id} models={models} editable={editable} />

      <StrandedRowsSection id={id} models={models} candidates={candidates} editable={editable} />

      <CandidatesSection candidates={candidates} suites={suites} editable={editable} />

      <ResemblanceSection id={id} resemblances={resemblances} editable={editable} />

      <DatasetSection id={id} versions={versions} current={decision.evaluationDatasetVersionId} editable={editable} />

      <HarnessConfigSection actor={actor} id={id} positiveClass={decision.positiveClass} editable={editable} />

      <ArchiveSection id={id} decision={decision} />
    </article>
  );
}
