import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getPackDecision } from "@/lib/server/evidence-pack";
import { AppError } from "@/lib/server/errors";
import { scoredSuites } from "@/lib/server/candidates";
import { requirePagePermission } from "@/lib/server/session";
import { DecisionForm } from "@/components/decisions/decision-form";
import { CandidateForm } from "@/components/decisions/candidate-form";
import { updateCandidateAction, updateDecisionAction } from "./actions";
import "../pack.css";

export const metadata: Metadata = { title: "Edit decision" };

/** Analyst only: the task parameters and the candidates with their shortlist rationale. */
export default async function EditDecisionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePagePermission("decision.edit", `/decisions/${id}/edit`);
  const [{ decision, candidates }, suites] = await Promise.all([
    getPackDecision(actor, id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
      throw error;
    }),
    scoredSuites(actor, id),
  ]);
  const frozen = decision.status !== "DRAFT" && decision.status !== "CHANGES_REQUESTED";
  return (
    <article aria-labelledby="edit-title" className="pack">
      <p><Link href={`/decisions/${encodeURIComponent(id)}`}>← Back to the evidence pack</Link></p>
      <h1 id="edit-title">Edit: {decision.title}</h1>
      {frozen && <p className="message-error" role="note">The decision is {decision.status.toLowerCase().replace("_", " ")}: its parameters and candidates are frozen.</p>}
      <section className="card" aria-labelledby="task-heading">
        <h2 id="task-heading">Task parameters</h2>
        <p className="muted">Changing π, the costs or the operating threshold recomputes every run&apos;s stored metrics. Every change is audited.</p>
        <DecisionForm decisionId={id} values={{ ...decision }} action={updateDecisionAction} />
      </section>
      <section aria-labelledby="candidates-heading">
        <h2 id="candidates-heading">Candidates and their shortlist rationale</h2>
        {candidates.map((c) => <CandidateForm key={c.id} candidate={c} suites={suites[c.id] ?? []} action={updateCandidateAction} />)}
      </section>
    </article>
  );
}
