import { can } from "@/lib/auth/permissions";
import { runFigures } from "@/lib/evidence/operating-figures";
import { operatingPointRows } from "@/lib/evidence/operating-point-rows";
import { OperatingPoints } from "@/components/evidence/operating-points";
import { isEditable } from "@/lib/decisions/editable";
import { candidateStyles } from "@/lib/charts/palette";
import { servingLatencyChart, throughputChart } from "@/lib/charts/evidence-charts";
import { chartShell } from "@/lib/evidence/page-view";
import { getOtherRuns, getPackDecision, getPackRuns, getPackScores, getPackServing, getStoredAcross, getTaskCharts } from "@/lib/server/evidence-pack";
import { OtherRuns } from "@/components/evidence/other-runs";
import type { Actor } from "@/lib/server/session";
import { ScoresStage } from "@/components/evidence/scores-stage";
import { TaskStage } from "@/components/evidence/task-stage";
import { StressStage, type CompactStressCandidate, type StoredStress } from "@/components/evidence/stress-stage";
import { OperationalStage } from "@/components/evidence/operational-stage";
import { WhatIfAcross } from "@/components/evidence/what-if-views";
import { saveWhatIfAction } from "./actions";

/**
 * One async server component per stage: each awaits only its own evidence, so each streams in
 * its own <Suspense> boundary and a slow stage does not hold the others back.
 */
type Props = { actor: Actor; decisionId: string };

export async function ScoresSection({ actor, decisionId, stage }: Props & { stage: "LEADERBOARD" | "PREFERENCE" }) {
  const [{ candidates }, { scores, resemblances }] = await Promise.all([getPackDecision(actor, decisionId), getPackScores(actor, decisionId)]);
  return <ScoresStage candidates={candidates} scores={scores} resemblances={resemblances} stage={stage} />;
}

export async function TaskSection({ actor, decisionId }: Props) {
  const [{ candidates }, runs, other, [prChart, reliability]] = await Promise.all([getPackDecision(actor, decisionId), getPackRuns(actor, decisionId), getOtherRuns(actor, decisionId), getTaskCharts(actor, decisionId)]);
  // The charts' series come with the page's view (components/evidence/page-view-context.tsx).
  return (
    <>
      <TaskStage decisionId={decisionId} candidates={candidates} runs={runs} prChart={chartShell(prChart!)} reliability={chartShell(reliability!)} />
      <OtherRuns runs={other} candidates={candidates} />
    </>
  );
}

export async function StressSection({ actor, decisionId }: Props) {
  const [{ decision, candidates }, runs] = await Promise.all([getPackDecision(actor, decisionId), getPackRuns(actor, decisionId)]);
  const styles = candidateStyles(candidates.map((c) => c.id));
  const stress: CompactStressCandidate[] = candidates.map((c) => {
    const m = runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    return {
      candidate: { id: c.id, name: c.name },
      style: styles.get(c.id)!,
      // The stored curves come with the page's view; the table shows the stored figures meanwhile.
      roc: null,
      pr: null,
      positives: m?.positives ?? 0,
      negatives: m?.negatives ?? 0,
      threshold: m?.parameters.threshold ?? c.operatingThreshold ?? decision.operatingThreshold,
    };
  });
  const stored: StoredStress[] = runs.flatMap((r) => {
    const m = r.metrics;
    if (!m) return [];
    const f = runFigures(m); // held out where the decision's rule chose the threshold
    return [{
      candidateId: r.candidateId,
      runId: r.runId,
      positives: m.positives,
      recall: f.report.atThreshold.recall,
      recallInterval: f.recallInterval ? [f.recallInterval[0], f.recallInterval[1]] : null,
      precisionAtPi: f.report.reweighted?.precision ?? null,
      expectedCostPer1k: f.report.reweighted?.expectedCostPer1k ?? null,
      basis: f.basis ?? null,
      costOptimum: m.costOptimum ? { threshold: m.costOptimum.threshold, expectedCostPer1k: m.costOptimum.expectedCostPer1k } : null,
      slices: m.slices,
      warnings: m.warnings,
    }];
  });
  const editable = can(actor, "decision.edit") && isEditable(decision);
  const rule = decision.operatingRule ?? "FIXED";
  return (
    <>
    <OperatingPoints rows={operatingPointRows(rule, candidates, runs)} currency={decision.currency} recallFloor={decision.recallFloor} precisionFloor={decision.precisionFloor} />
    <StressStage
      candidates={stress}
      stored={stored}
      decisionId={decisionId}
      decision={{ prevalence: decision.prevalence, costFn: decision.costFn, costFp: decision.costFp, currency: decision.currency, recallFloor: decision.recallFloor, precisionFloor: decision.precisionFloor, operatingThreshold: decision.operatingThreshold, operatingRule: rule }}
      saveAction={editable ? saveWhatIfAction : null}
    />
    </>
  );
}

export async function OperationalSection({ actor, decisionId }: Props) {
  const [{ decision, candidates }, serving] = await Promise.all([getPackDecision(actor, decisionId), getPackServing(actor, decisionId)]);
  const styles = candidateStyles(candidates.map((c) => c.id));
  const charts = [
    servingLatencyChart(candidates, serving, styles, "ttftMs", "p95", decision.sloP95TtftMs),
    servingLatencyChart(candidates, serving, styles, "tpotMs", "p95", null),
    servingLatencyChart(candidates, serving, styles, "e2eMs", "p95", decision.sloP95E2eMs),
    throughputChart(candidates, serving, styles, decision.sloMinThroughputRps, decision.sloThroughputConcurrency),
  ];
  return <OperationalStage decision={decision} candidates={candidates} serving={serving} charts={charts} />;
}

export async function AcrossSection({ actor, decisionId }: Props) {
  const [{ decision, candidates }, across] = await Promise.all([getPackDecision(actor, decisionId), getStoredAcross(actor, decisionId)]);
  return <WhatIfAcross stored={{ prevalence: decision.prevalence, operatingThreshold: decision.operatingThreshold }} decision={decision} candidates={candidates} across={across} />;
}
