import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDecisionPack } from "@/lib/server/decisions";
import { AppError } from "@/lib/server/errors";
import { requirePagePermission } from "@/lib/server/session";
import { stageHeadlines, type PackInput } from "@/lib/evidence/stage-summary";
import type { StoredRunMetrics } from "@/lib/evidence/run-input";
import type { Pct } from "@/lib/evidence/serving";
import { StageTable } from "@/components/decisions/stage-table";
import { DecisionParameters } from "@/components/decisions/decision-parameters";
import { StatusBadge } from "@/components/decisions/status-badge";

export const metadata: Metadata = { title: "Decision" };

export default async function DecisionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePagePermission("decision.read", `/decisions/${id}`);
  const pack = await getDecisionPack(actor, id).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });

  // The newest computed run per candidate (runs arrive newest first).
  const latestRun = new Map<string, (typeof pack.evalRuns)[number]>();
  for (const run of pack.evalRuns) if (!latestRun.has(run.candidateId)) latestRun.set(run.candidateId, run);
  const input: PackInput = {
    ...pack,
    runs: [...latestRun.values()].map((r) => ({ candidateId: r.candidateId, metrics: r.metrics as unknown as StoredRunMetrics | null })),
    serving: pack.servingBenchmarks.map((s) => ({ ...s, ttftMs: s.ttftMs as Pct, e2eMs: s.e2eMs as Pct })),
  };
  const headlines = stageHeadlines(input);
  const dataset = [...latestRun.values()][0]?.datasetVersion;

  return (
    <article aria-labelledby="decision-title">
      <p className="muted">
        Decision · <StatusBadge status={pack.status} />
      </p>
      <h1 id="decision-title">{pack.title}</h1>
      {pack.description && <p>{pack.description}</p>}
      <section className="card" aria-labelledby="parameters-heading">
        <h2 id="parameters-heading">Task parameters</h2>
        <DecisionParameters decision={pack} />
      </section>
      <section aria-labelledby="stages-heading">
        <h2 id="stages-heading">The five-stage benchmark-to-eval handoff</h2>
        <p className="muted">
          Stages 1–2 justify a shortlist; only stages 3–5, on your data, class balance, costs and serving harness, can justify the verdict.
          {dataset && ` Task evidence: ${dataset.dataset.name}, version ${dataset.version} — ${dataset.itemCount.toLocaleString("en-US")} items, ${dataset.positiveCount.toLocaleString("en-US")} positives.`}
        </p>
        <StageTable candidates={pack.candidates.map((c) => ({ id: c.id, name: c.name, provider: c.provider }))} headlines={headlines} />
      </section>
      <section className="card" aria-labelledby="candidates-heading">
        <h2 id="candidates-heading">Candidates and their shortlist rationale</h2>
        <dl>
          {pack.candidates.map((c) => (
            <div key={c.id}>
              <dt><strong>{c.name}</strong> <span className="muted">— {c.provider}{c.version ? `, ${c.version}` : ""}</span></dt>
              <dd>{c.shortlistRationale || <span className="muted">No rationale written yet.</span>}</dd>
            </div>
          ))}
        </dl>
      </section>
    </article>
  );
}
