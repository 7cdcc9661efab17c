"use client";

import { useActionState, useMemo } from "react";
import type { CompactStressCandidate, StoredStress, StressDecision } from "@/lib/pack/page/page-sections";
import type { ActionState } from "@/lib/action-state";
import {
  stressCostChart,
  stressPrChart,
  stressPrecisionVsPrevalenceChart,
  type StressCandidate,
  type StressSettings,
} from "@/lib/pack/charts/stress-charts";
import { costOptimumOfPoints } from "@/lib/pack/what-if";
import { operatingAt, stressMarker, type OperatingAt, type WhatIfBasis } from "@/lib/pack/what-if-pack";
import { expandPr, expandRoc } from "@/lib/pack/compact-curves";
import { formatInterval, formatMoney, formatNumber, formatPercent, formatThreshold } from "@/lib/format";
import { XyChart } from "@/components/charts/xy-chart";
import { FormMessage } from "@/components/ui/form-feedback";
import Link from "next/link";
import { drillDownHref } from "@/lib/schemas/drill-down";
import { useWhatIf } from "./what-if-context";
import { usePageView } from "./page-view-context";
import { TableScroll } from "@/components/ui/table-scroll";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";

type WhatIf = ReturnType<typeof useWhatIf>;

/** The decision's operating-point rule, unless it is the fixed threshold (which the texts need not name). */
function chosenRule(decision: StressDecision) {
  return decision.operatingRule && decision.operatingRule !== "FIXED" ? decision.operatingRule : null;
}

/** The threshold and prevalence controls, and what the figures below show. */
function WhatIfControls({ decision, whatIf }: { decision: StressDecision; whatIf: WhatIf }) {
  const { at, setThreshold, setPrevalence, reset, isStored } = whatIf;
  const { threshold, prevalence } = at;
  const pct = formatPercent(prevalence);
  const ruled = chosenRule(decision);
  return (
    <form className="what-if" aria-labelledby="what-if-heading" onSubmit={(e) => e.preventDefault()}>
      <h3 id="what-if-heading">What if?</h3>
      <div className="what-if-controls">
        <label>
          Operating threshold t{" "}
          {threshold === null && <span className="muted">(each candidate&apos;s stored threshold)</span>}
          <span className="inline">
            <input
              type="range"
              min={0}
              max={1}
              step={0.005}
              value={threshold ?? decision.operatingThreshold}
              onChange={(e) => setThreshold(Number(e.target.value))}
              aria-label="Operating threshold slider"
            />
            <input
              type="number"
              min={0}
              max={1}
              step={0.005}
              value={threshold ?? decision.operatingThreshold}
              onChange={(e) => e.target.value !== "" && setThreshold(Number(e.target.value))}
              aria-label="Operating threshold"
            />
          </span>
        </label>
        <label>
          Deployment prevalence π
          <span className="inline">
            <input
              type="range"
              min={-3}
              max={Math.log10(0.5)}
              step={0.01}
              value={Math.log10(prevalence)}
              onChange={(e) => setPrevalence(Number(Math.pow(10, Number(e.target.value)).toPrecision(3)))}
              aria-label="Prevalence slider (log scale)"
              aria-valuetext={pct}
            />
            <input
              type="number"
              min={0.0001}
              max={0.9999}
              step={0.001}
              value={prevalence}
              onChange={(e) => {
                const v = Number(e.target.value);
                if (v > 0 && v < 1) setPrevalence(v);
              }}
              aria-label="Prevalence π"
            />
          </span>
        </label>
        <button type="button" className="secondary" disabled={isStored} onClick={reset}>
          Back to the stored values (t = {formatThreshold(decision.operatingThreshold)}, π ={" "}
          {formatPercent(decision.prevalence)})
        </button>
      </div>
      <p className="muted" aria-live="polite" data-testid="what-if-status">
        {isStored
          ? `Showing the decision's stored values: π = ${formatPercent(decision.prevalence)}, each candidate at its operating threshold${ruled ? ` (${OPERATING_RULE_LABELS[ruled].toLowerCase()}; held-out figures)` : ""}.`
          : `What if: t = ${threshold ?? "stored"}, π = ${pct}. Figures are exact at the stored curve points; a threshold between points uses the nearest stored threshold at or above it (shown).`}
        {!isStored &&
          ruled &&
          (whatIf.basis === "in-sample"
            ? ` The what-if threshold overrides the decision's rule (${OPERATING_RULE_LABELS[ruled].toLowerCase()}) for every candidate; these figures are in-sample, and so are the verdict's and the gates'.`
            : " Each candidate keeps the threshold its rule chose, with the held-out counts the verdict uses, re-weighted to this π; the rule is not re-applied at this π.")}
      </p>
    </form>
  );
}

/**
 * One candidate's figures at π, read by `operatingAt` (lib/pack/what-if-pack.ts) — the function the
 * verdict band and the gates read — so the row and the band always stand on the same counts: under
 * a choosing rule the held-out counts at the chosen threshold, a what-if threshold in-sample.
 */
function FiguresRow({
  decisionId,
  candidate: c,
  stored,
  operating: op,
  decision,
  settings,
  isStored,
}: {
  decisionId: string;
  candidate: StressCandidate;
  stored: StoredStress[];
  operating: OperatingAt | null;
  decision: StressDecision;
  settings: StressSettings;
  isStored: boolean;
}) {
  const { threshold } = settings;
  const s = stored.find((x) => x.candidateId === c.candidate.id);
  if (!s || !op)
    return (
      <tr>
        <th scope="row">{c.candidate.name}</th>
        <td colSpan={7} className="muted">
          {s ? "No stored curve points for a what-if threshold" : "No computed eval run"}
        </td>
      </tr>
    );
  const { report, recallInterval } = op.figures;
  const recall = report.atThreshold.recall;
  const precision = report.reweighted?.precision ?? null;
  const cost = report.reweighted?.expectedCostPer1k ?? null;
  const optimum = isStored ? s.costOptimum : c.roc ? costOptimumOfPoints(c.roc, settings) : null;
  const meets = recall !== null && recall >= decision.recallFloor;
  const lowerMeets = recallInterval ? recallInterval[0] >= decision.recallFloor : null;
  return (
    <tr data-candidate={c.candidate.name}>
      <th scope="row">
        <span className="swatch" style={{ background: c.style.colour }} aria-hidden="true" /> {c.candidate.name}
      </th>
      <td className="num">{op.threshold === null ? "+∞" : formatThreshold(op.threshold)}</td>
      <td className="num" data-figure="recall">
        {formatNumber(recall)}
        <small className="block muted">{formatInterval(recallInterval)}</small>
      </td>
      <td className={meets ? "pass" : "fail"}>
        {meets ? "✓ met" : "✗ missed"}
        {lowerMeets === false && meets && <small className="block warn">interval reaches below</small>}
      </td>
      <td className="num">
        {formatNumber(precision)}
        {decision.precisionFloor !== null && precision !== null && precision < decision.precisionFloor && (
          <small className="block fail">below floor {decision.precisionFloor}</small>
        )}
      </td>
      <td className="num">{formatMoney(cost, decision.currency, 1)}</td>
      <td className="num">
        {optimum ? (
          <>{`${formatThreshold(optimum.threshold)} → ${formatMoney(optimum.expectedCostPer1k, decision.currency, 1)}`}</>
        ) : (
          "—"
        )}
      </td>
      {/* The items behind this row's figures, in a column of their own so each figure's cell holds only the figure. */}
      <td>
        <Link
          prefetch={false}
          href={drillDownHref(decisionId, s.runId, {
            cell: "errors",
            threshold: isStored || threshold === null ? undefined : (op.threshold ?? threshold),
          })}
        >
          errors at this t
        </Link>
        {optimum && (
          <small className="block">
            <Link
              prefetch={false}
              href={drillDownHref(decisionId, s.runId, { cell: "errors", threshold: optimum.threshold })}
            >
              errors at the cost-optimal threshold
            </Link>
          </small>
        )}
      </td>
    </tr>
  );
}

/** Recall, precision and cost at π per candidate, with the items behind them. */
function FiguresTable({
  decisionId,
  candidates,
  stored,
  operating,
  decision,
  settings,
  isStored,
  basis,
}: {
  decisionId: string;
  candidates: StressCandidate[];
  stored: StoredStress[];
  operating: ReadonlyMap<string, OperatingAt | null>;
  decision: StressDecision;
  settings: StressSettings;
  isStored: boolean;
  basis: WhatIfBasis;
}) {
  const pct = formatPercent(settings.prevalence);
  return (
    <TableScroll label="Figures at π">
      <table data-testid="stress-figures" data-basis={basis ?? "all items"}>
        <caption>
          At π = {pct} ({isStored ? "stored values" : "what if"}
          {basis && `, ${basis === "held out" ? "held-out" : "in-sample"} figures`}): recall is unchanged by π;
          precision and cost are re-weighted
        </caption>
        <thead>
          <tr>
            <th scope="col">Candidate</th>
            <th scope="col" className="num">
              Threshold used
            </th>
            <th scope="col" className="num">
              Recall at π
            </th>
            <th scope="col">Recall floor {decision.recallFloor}</th>
            <th scope="col" className="num">
              Precision at π
            </th>
            <th scope="col" className="num">
              Expected cost per 1,000 items
            </th>
            <th scope="col" className="num">
              Cost-optimal threshold
            </th>
            <th scope="col">Items</th>
          </tr>
        </thead>
        <tbody>
          {candidates.map((c) => (
            <FiguresRow
              key={c.candidate.id}
              decisionId={decisionId}
              candidate={c}
              stored={stored}
              operating={operating.get(c.candidate.id) ?? null}
              decision={decision}
              settings={settings}
              isStored={isStored}
            />
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The warnings of candidates with too few positives for a defensible figure. */
function TooFewPositives({ candidates, stored }: { candidates: StressCandidate[]; stored: StoredStress[] }) {
  if (!stored.some((s) => s.warnings.length > 0)) return null;
  return (
    <div className="message-warn" role="note" data-testid="too-few-positives">
      {stored.flatMap((s) =>
        s.warnings.map((w) => (
          <p key={`${s.candidateId}-${w}`}>
            <strong>{candidates.find((c) => c.candidate.id === s.candidateId)?.candidate.name}:</strong> {w}
          </p>
        )),
      )}
    </div>
  );
}

/**
 * Stage 4 with the committee's "what if": a threshold and a prevalence control recompute every
 * figure and chart here, in the browser, from the stored ROC points (exact at the points shown).
 * The decision's stored values are one click away; saving them is an analyst's audited action.
 */
export function StressStage({
  candidates: compact,
  stored,
  decision,
  saveAction,
  decisionId,
}: {
  decisionId: string;
  candidates: CompactStressCandidate[];
  stored: StoredStress[];
  decision: StressDecision;
  saveAction: ((state: ActionState, form: FormData) => Promise<ActionState>) | null;
}) {
  // The page's what-if (components/pack/what-if-context.tsx): the verdict and the gates follow it too.
  const whatIf = useWhatIf(decision);
  const { threshold, prevalence } = whatIf.at;
  const { isStored, basis } = whatIf;
  // The stored curves and the compact pack come with the page's view (the stages are drawn once it is here).
  const view = usePageView();
  const pack = view?.whatIf ?? null;
  const operating = useMemo(
    () =>
      new Map(
        (pack?.runs ?? []).map((r) => [r.candidateId, operatingAt(r, pack!, { threshold, prevalence })] as const),
      ),
    [pack, threshold, prevalence],
  );
  const candidates: StressCandidate[] = useMemo(
    () =>
      compact.map((c) => {
        const roc = c.roc ?? view?.curves[c.candidate.id]?.roc ?? null;
        const pr = c.pr ?? view?.curves[c.candidate.id]?.pr ?? null;
        const op = operating.get(c.candidate.id);
        return {
          ...c,
          roc: roc && expandRoc(roc, c.positives, c.negatives),
          pr: pr && expandPr(pr, c.positives),
          ...(op ? { operating: stressMarker(op) } : {}),
        };
      }),
    [compact, view, operating],
  );
  const [state, formAction, pending] = useActionState(saveAction ?? (async () => null), null);
  const settings: StressSettings = {
    threshold,
    prevalence,
    costFn: decision.costFn,
    costFp: decision.costFp,
    currency: decision.currency,
  };
  const charts = useMemo(
    () => ({
      pr: stressPrChart(candidates, settings),
      cost: stressCostChart(candidates, settings),
      pvp: stressPrecisionVsPrevalenceChart(candidates, settings),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- settings is rebuilt from these each render
    [candidates, threshold, prevalence, decision.costFn, decision.costFp, decision.currency],
  );
  const pct = formatPercent(prevalence);

  return (
    <div>
      <WhatIfControls decision={decision} whatIf={whatIf} />
      {saveAction && !isStored && (
        <form action={formAction} className="save-what-if">
          {threshold !== null && <input type="hidden" name="operatingThreshold" value={threshold} />}
          <input type="hidden" name="decisionId" value={decisionId} />
          <input type="hidden" name="prevalence" value={prevalence} />
          <button type="submit" disabled={pending}>
            {pending
              ? "Saving and recomputing…"
              : `Save t = ${formatThreshold(threshold ?? decision.operatingThreshold)} and π = ${pct} to the decision`}
          </button>
          <span className="muted"> The runs&apos; stored metrics are recomputed; the change is audited.</span>
        </form>
      )}
      <FormMessage state={state} />

      <FiguresTable
        decisionId={decisionId}
        candidates={candidates}
        stored={stored}
        operating={operating}
        decision={decision}
        settings={settings}
        isStored={isStored}
        basis={basis}
      />
      <div className="chart-grid">
        <XyChart model={charts.pr} />
        <XyChart model={charts.cost} />
        <XyChart model={charts.pvp} />
      </div>

      <h3>Recall per slice of positives (at each stored operating threshold)</h3>
      <SliceTable decisionId={decisionId} candidates={candidates} stored={stored} recallFloor={decision.recallFloor} />
      <TooFewPositives candidates={candidates} stored={stored} />
    </div>
  );
}

function SliceTable({
  decisionId,
  candidates,
  stored,
  recallFloor,
}: {
  decisionId: string;
  candidates: StressCandidate[];
  stored: StoredStress[];
  recallFloor: number;
}) {
  const slices = [...new Set(stored.flatMap((s) => s.slices?.map((x) => x.slice) ?? []))].sort();
  if (slices.length === 0) return <p className="muted">The dataset has no slice column.</p>;
  return (
    <TableScroll label="Recall per slice">
      <table data-testid="slice-recall">
        <caption>
          Recall per slice with its Wilson 95% interval; ! marks too few positives for a defensible recall (fewer than
          30, or half-width above 0.05)
        </caption>
        <thead>
          <tr>
            <th scope="col">Slice</th>
            {candidates.map((c) => (
              <th scope="col" key={c.candidate.id} className="num">
                {c.candidate.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {slices.map((slice) => (
            <tr key={slice}>
              <th scope="row">{slice}</th>
              {candidates.map((c) => {
                const run = stored.find((s) => s.candidateId === c.candidate.id);
                const x = run?.slices?.find((y) => y.slice === slice);
                if (!run || !x)
                  return (
                    <td key={c.candidate.id} className="num muted">
                      —
                    </td>
                  );
                return (
                  <td key={c.candidate.id} className={`num ${x.recall < recallFloor ? "fail" : ""}`}>
                    {x.tooFewPositives ? "! " : ""}
                    {formatNumber(x.recall)}
                    <small className="block muted">
                      {formatInterval(x.interval)} ·{" "}
                      <Link
                        prefetch={false}
                        href={drillDownHref(decisionId, run.runId, { cell: "FN", slice })}
                        aria-label={`${c.candidate.name}, slice ${slice}: the ${x.positives - x.detected} positives missed`}
                      >
                        {x.detected}/{x.positives}
                      </Link>
                    </small>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
