import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { STAGES } from "@/lib/pack/stages";
import {
  comparisonsRecomputing,
  countComputingRuns,
  getPackDecision,
  getPackStateTag,
  getStageHeadlines,
  getStoredVerdict,
} from "@/lib/server/pack/get-pack";
import { PageViewProvider } from "@/components/pack/page-view-context";
import { WhatIfVerdict } from "@/components/pack/what-if-views";
import { WhatIfBar, WhatIfProvider } from "@/components/pack/what-if-context";
import { AppError } from "@/lib/server/errors";
import { requirePagePermission } from "@/lib/server/session";
import { StageTable } from "@/components/decisions/stage-table";
import { DecisionParameters } from "@/components/decisions/decision-parameters";
import { StatusBadge } from "@/components/decisions/status-badge";
import { CandidateList } from "@/components/pack/candidate-list";
import { HarnessSection } from "./harness-section";
import "./pack.css";
import { AcrossView, StageSection } from "@/components/pack/stage-views";
import { isEditable } from "@/lib/decisions/editable";
import { saveWhatIfAction } from "./actions";

export const metadata: Metadata = { title: "Evidence pack" };

export default async function DecisionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePagePermission("decision.read", `/decisions/${id}`);
  const { decision, candidates } = await getPackDecision(actor, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });
  const base = `/decisions/${encodeURIComponent(id)}`;
  // Every read but the harness's is of the read model cached per evidence state
  // (lib/server/pack/get-pack.ts): the page waits for them all and streams in one piece.
  const [computing, pairsStale, tag, { summary, revisions }, headlines, harness] = await Promise.all([
    countComputingRuns(actor, id),
    comparisonsRecomputing(actor, id),
    getPackStateTag(actor, id),
    getStoredVerdict(actor, id),
    getStageHeadlines(actor, id),
    HarnessSection({ actor, decisionId: id }),
  ]);
  const stored = {
    prevalence: decision.prevalence,
    operatingThreshold: decision.operatingThreshold,
    operatingRule: decision.operatingRule,
  };
  // The stages are drawn in the browser from the page's view (components/pack/stage-views.tsx).
  const saveAction = can(actor, "decision.edit") && isEditable(decision) ? saveWhatIfAction : null;

  return (
    <WhatIfProvider
      prevalence={decision.prevalence}
      operatingThreshold={decision.operatingThreshold}
      operatingRule={decision.operatingRule}
    >
      <PageViewProvider src={`/api/v1/decisions/${encodeURIComponent(id)}/view?state=${tag}`}>
        <article aria-labelledby="decision-title" className="pack">
          <p className="muted">
            Evidence pack · <StatusBadge status={decision.status} />
          </p>
          <h1 id="decision-title">{decision.title}</h1>
          {decision.description && <p>{decision.description}</p>}
          {/* The verdict band, summarised as the PDF's first page is; a what-if moves it in the browser. */}
          <WhatIfVerdict stored={stored} summary={summary} currency={decision.currency} revisions={revisions} />
          {decision.archivedAt && (
            <p className="message-error" role="note">
              This decision is archived: it is kept with its evidence and signatures, and is read-only.
            </p>
          )}
          <RecomputingNotes computing={computing} pairsStale={pairsStale} />
          <nav aria-label="Decision" className="pack-actions no-print">
            <Link href={`${base}/uploads`}>Evidence uploads</Link>
            <Link href={`${base}/review`}>Review &amp; sign-off</Link>
            {can(actor, "decision.edit") && <Link href={`${base}/edit`}>Edit the decision</Link>}
            <a href={`/api/v1/decisions/${encodeURIComponent(id)}/export/pdf`} download>
              Export PDF
            </a>
            <a href={`/api/v1/decisions/${encodeURIComponent(id)}/export/json`} download>
              Export JSON
            </a>
          </nav>
          <nav aria-label="Stages" className="pack-toc no-print">
            <ol>
              {STAGES.map((s) => (
                <li key={s.key}>
                  <a href={`#stage-${s.key}`}>
                    {s.number}. {s.name}
                  </a>
                </li>
              ))}
              <li>
                <a href="#across-stages">Across stages</a>
              </li>
            </ol>
          </nav>
          <section className="card" aria-labelledby="parameters-heading">
            <h2 id="parameters-heading">Task parameters</h2>
            <DecisionParameters decision={decision} />
          </section>
          <section aria-labelledby="stages-heading">
            <h2 id="stages-heading">The five-stage benchmark-to-eval handoff</h2>
            <p className="muted">
              Stages 1–2 justify a shortlist; only stages 3–5, on your data, class balance, costs and serving harness,
              can justify the verdict.
            </p>
            <StageTable
              candidates={candidates.map(({ id, name, provider }) => ({ id, name, provider }))}
              headlines={headlines}
            />
          </section>
          {harness}
          <section className="card" aria-labelledby="candidates-heading">
            <h2 id="candidates-heading">Candidates and their shortlist rationale</h2>
            <CandidateList candidates={candidates} />
          </section>
          {STAGES.map((stage) => (
            <StageSection
              key={stage.key}
              stageKey={stage.key}
              label={stage.name}
              decisionId={id}
              saveAction={saveAction}
            />
          ))}
          <section className="stage card" aria-labelledby="across-stages">
            <h2 id="across-stages">Across stages: gates, funnel, ranks and cost</h2>
            <AcrossView label="the across-stages summary" />
          </section>
          <WhatIfBar />
        </article>
      </PageViewProvider>
    </WhatIfProvider>
  );
}

/** What is being recomputed and what that means for the figures and for submission. */
function RecomputingNotes({ computing, pairsStale }: { computing: number; pairsStale: boolean }) {
  if (computing > 0)
    return (
      <p className="message-warn" role="status" data-recomputing>
        Recomputing: the metrics of {computing} eval run{computing === 1 ? " are" : "s are"} being computed for the
        current parameters. Figures below may be missing or stale until then, and the decision cannot be submitted.
        Reload to see them.
      </p>
    );
  if (!pairsStale) return null;
  return (
    <p className="message-warn" role="status" data-recomputing="comparisons">
      Recomputing: the paired comparisons between candidates are being computed for the current runs and parameters.
      Their significance figures may be missing or stale until then, and the decision cannot be submitted. Reload to see
      them.
    </p>
  );
}
