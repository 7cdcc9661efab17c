import type { XyChartShell } from "@/lib/pack/page/page-view";
import type { PackCandidate } from "@/lib/pack/pack-data";
import type { TaskRun } from "@/lib/pack/page/page-sections";
import { formatInterval, formatNumber, formatPercent, formatThreshold } from "@/lib/format";
import { bootstrapCoverageLabel } from "@/lib/metrics/coverage";
import { ViewChart } from "./page-view-context";
import Link from "next/link";
import { drillDownHref, type Cell } from "@/lib/schemas/drill-down";
import { TableScroll } from "@/components/ui/table-scroll";
import { rankingUndefinedReason, runProvenanceLine } from "@/lib/pack/run-provenance";

/** One candidate's figures on the labelled sample, each with its 95% interval. */
function TaskFiguresRow({ candidate: c, runs }: { candidate: PackCandidate; runs: TaskRun[] }) {
  const run = runs.find((r) => r.candidateId === c.id);
  const m = run?.metrics;
  if (!run || !m)
    return (
      <tr>
        <th scope="row">{c.name}</th>
        <td colSpan={8} className="muted">
          No computed eval run
        </td>
      </tr>
    );
  const r = m.report;
  const undefinedReason = rankingUndefinedReason(run);
  // Where the bootstrap's measured coverage is not 95 % at this many positives, the label says so (issue 27).
  const positives = r.atThreshold.tp + r.atThreshold.fn;
  const negatives = r.atThreshold.fp + r.atThreshold.tn;
  const coverage = (interval: "averagePrecision" | "rocAuc") =>
    r.intervals?.[interval] ? bootstrapCoverageLabel(interval, positives, negatives) : null;
  return (
    <tr data-candidate={c.name}>
      <th scope="row">{c.name}</th>
      {undefinedReason ? (
        <td className="num" colSpan={2} data-testid="ranking-undefined">
          undefined
          <small className="block muted">{undefinedReason}</small>
        </td>
      ) : (
        <>
          <td className="num">
            {formatNumber(r.averagePrecision)}
            <small className="block muted">{formatInterval(r.intervals?.averagePrecision)}</small>
            {coverage("averagePrecision") && <small className="block muted">{coverage("averagePrecision")}</small>}
          </td>
          <td className="num">
            {formatNumber(r.rocAuc)}
            <small className="block muted">{formatInterval(r.intervals?.rocAuc)}</small>
            {coverage("rocAuc") && <small className="block muted">{coverage("rocAuc")}</small>}
          </td>
        </>
      )}
      <td className="num">{formatThreshold(r.atThreshold.threshold)}</td>
      <td className="num">
        {formatNumber(r.atThreshold.precision)}
        <small className="block muted">{formatInterval(r.intervals?.precision)}</small>
      </td>
      <td className="num">
        {formatNumber(r.atThreshold.recall)}
        <small className="block muted">{formatInterval(r.intervals?.recall ?? m.recallInterval)}</small>
      </td>
      <td className="num">{formatNumber(r.atThreshold.f1)}</td>
      <td className="num">{m.input.scoreKind === "scores" ? formatNumber(r.brier) : "—"}</td>
      <td className="num">
        {formatPercent(run.parseFailureCount / Math.max(1, run.itemCount))}
        <small className="block muted">
          {run.parseFailureCount.toLocaleString("en-US")} of {run.itemCount.toLocaleString("en-US")}
          {run.missingCount ? `; ${run.missingCount} missing` : ""}
        </small>
      </td>
    </tr>
  );
}

/** Where each tool run's scores came from: one line per candidate whose run was imported from another eval tool. */
function ScoreProvenance({ candidates, runs }: { candidates: PackCandidate[]; runs: TaskRun[] }) {
  const lines = candidates.flatMap((c) => {
    const run = runs.find((r) => r.candidateId === c.id);
    return run?.toolRun ? [{ candidate: c, text: runProvenanceLine(run.toolRun, run.toolFile) }] : [];
  });
  if (lines.length === 0) return null;
  return (
    <ul className="muted" data-testid="score-provenance" aria-label="Where the scores came from">
      {lines.map(({ candidate, text }) => (
        <li key={candidate.id} data-candidate={candidate.name}>
          <strong>{candidate.name}</strong>: {text}
        </li>
      ))}
    </ul>
  );
}

/** Every candidate's accuracy figures on the labelled sample. */
function TaskFiguresTable({ candidates, runs }: { candidates: PackCandidate[]; runs: TaskRun[] }) {
  return (
    <TableScroll label="Figures on the labelled sample">
      <table data-testid="task-figures">
        <caption>
          Figures on the labelled sample (95% intervals: stratified bootstrap for AP and ROC-AUC, Wilson for precision
          and recall)
        </caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col" className="num">
              AP (PR-AUC)
            </th>
            <th scope="col" className="num">
              ROC-AUC
            </th>
            <th scope="col" className="num">
              Threshold t
            </th>
            <th scope="col" className="num">
              Precision at t
            </th>
            <th scope="col" className="num">
              Recall at t
            </th>
            <th scope="col" className="num">
              F1 at t
            </th>
            <th scope="col" className="num">
              Brier score
            </th>
            <th scope="col" className="num">
              Parse-failure rate
            </th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <TaskFiguresRow key={c.id} candidate={c} runs={runs} />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** One candidate's confusion matrix at its operating threshold; each count links to the items behind it. */
function ConfusionMatrix({
  decisionId,
  candidate: c,
  runs,
}: {
  decisionId: string;
  candidate: PackCandidate;
  runs: TaskRun[];
}) {
  const run = runs.find((r) => r.candidateId === c.id);
  const a = run?.metrics?.report.atThreshold;
  if (!run || !a) return null;
  // Each count links to the items behind it (the drill-down).
  const cell = (name: Cell, count: number) => (
    <td className="num">
      <Link
        prefetch={false}
        href={drillDownHref(decisionId, run.runId, { cell: name })}
        aria-label={`${c.name}: the ${count.toLocaleString("en-US")} items in ${name}`}
      >
        {name} {count.toLocaleString("en-US")}
      </Link>
    </td>
  );
  return (
    <table className="confusion">
      <caption>
        {c.name} (t = {formatThreshold(a.threshold)})
      </caption>
      <thead>
        <tr>
          <td />
          <th scope="col">Predicted positive</th>
          <th scope="col">Predicted negative</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">Actual positive</th>
          {cell("TP", a.tp)}
          {cell("FN", a.fn)}
        </tr>
        <tr>
          <th scope="row">Actual negative</th>
          {cell("FP", a.fp)}
          {cell("TN", a.tn)}
        </tr>
      </tbody>
    </table>
  );
}

/** Stage 3: accuracy on the buyer's labelled sample, at each candidate's operating threshold. */
export function TaskStage({
  decisionId,
  candidates,
  runs,
  prChart,
  reliability,
}: {
  decisionId: string;
  candidates: PackCandidate[];
  runs: TaskRun[];
  prChart: XyChartShell;
  reliability: XyChartShell;
}) {
  const datasets = [
    ...new Map(
      runs.filter((r) => r.dataset).map((r) => [`${r.dataset!.name}@${r.dataset!.version}`, r.dataset!]),
    ).values(),
  ];
  return (
    <div>
      <p>
        {datasets.length === 0 && <span className="muted">No computed eval run yet.</span>}
        {datasets.map((d) => (
          <span key={`${d.name}-${d.version}`} data-testid="dataset">
            Dataset <strong>{d.name}</strong>, version {d.version}: {d.itemCount.toLocaleString("en-US")} items,{" "}
            {d.positiveCount.toLocaleString("en-US")} positives ({formatPercent(d.positiveCount / d.itemCount)} — the
            sample&apos;s prevalence, not the deployment&apos;s).{" "}
          </span>
        ))}
      </p>
      <TaskFiguresTable candidates={candidates} runs={runs} />
      <ScoreProvenance candidates={candidates} runs={runs} />
      {runs.some((r) => rankingUndefinedReason(r) !== null) && (
        <p className="warn" role="note">
          Some candidates gave hard labels only: their PR &quot;curve&quot; is the single operating point plus the end
          points, their AP and ROC-AUC are undefined (ranking metrics need scores, e.g. log-probabilities), and the
          cost-optimal rule has one threshold to choose.
        </p>
      )}
      <p className="muted">
        Parse failures and missing predictions count as errors (the wrong class), never dropped. Undefined figures are
        shown as —.
      </p>
      <div className="chart-grid">
        <ViewChart shell={prChart} />
        <ViewChart shell={reliability} />
      </div>
      <h3>Confusion matrices at each operating threshold</h3>
      <div className="confusion-grid">
        {candidates.map((c) => (
          <ConfusionMatrix key={c.id} decisionId={decisionId} candidate={c} runs={runs} />
        ))}
      </div>
    </div>
  );
}
