import type { Metadata } from "next";
import Link from "next/link";
import { DECISION_DEFAULTS } from "@/lib/schemas/decision";
import { getDecisionParameters, listDecisionTemplates } from "@/lib/server/decisions/decisions";
import { AppError } from "@/lib/server/errors";
import { requirePagePermission } from "@/lib/server/session";
import { DecisionForm, type DecisionFormValues } from "@/components/decisions/decision-form";
import { createDecisionAction } from "./actions";
import "../[id]/pack.css";

export const metadata: Metadata = { title: "New decision" };

/** Analyst: a new decision with every task parameter, optionally starting from another decision's parameters. */
export default async function NewDecisionPage({ searchParams }: { searchParams: Promise<{ from?: string }> }) {
  const actor = await requirePagePermission("decision.edit", "/decisions/new");
  const { from } = await searchParams;
  const templates = await listDecisionTemplates(actor);
  let values: DecisionFormValues = { ...DECISION_DEFAULTS };
  let source: { id: string; title: string } | null = null;
  if (from) {
    try {
      const {
        id,
        title,
        description: _d,
        status: _s,
        archivedAt: _a,
        evaluationDatasetVersionId: _e,
        updatedAt: _u,
        ...parameters
      } = await getDecisionParameters(actor, from);
      values = { ...parameters, title: "", description: "" };
      source = { id, title };
    } catch (error) {
      if (!(error instanceof AppError && error.code === "NOT_FOUND")) throw error;
    }
  }
  return (
    <article aria-labelledby="new-title" className="pack">
      <p>
        <Link href="/decisions">← Decisions</Link>
      </p>
      <h1 id="new-title">New decision</h1>
      <p className="muted">
        One decision chooses one model for one task. Set the task parameters that make the evidence yours — the positive
        class, its prevalence π in production, the cost of each kind of error, the floors and the serving SLOs. Next you
        shortlist candidates from imported leaderboards and upload your labelled data.
      </p>
      {templates.length > 0 && (
        <form method="get" className="card stack" aria-label="Start from an existing decision">
          <label>
            Start from an existing decision (copies its parameters, never its candidates or evidence)
            <select name="from" defaultValue={source?.id ?? ""}>
              <option value="">— blank —</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title}
                  {t.archivedAt ? " (archived)" : ""}
                </option>
              ))}
            </select>
          </label>
          <div>
            <button type="submit" className="secondary">
              Use its parameters
            </button>
          </div>
          {source && (
            <p className="message-ok" role="status">
              The form holds the parameters of “{source.title}”. Give the new decision its own title.
            </p>
          )}
        </form>
      )}
      <section className="card" aria-labelledby="parameters-heading">
        <h2 id="parameters-heading">Task parameters</h2>
        <DecisionForm
          key={source?.id ?? "blank"}
          copyFrom={source?.id}
          values={values}
          action={createDecisionAction}
          submitLabel="Create the decision"
        />
      </section>
    </article>
  );
}
