"use client";

import { useMemo } from "react";
import type { ActionState } from "@/lib/action-state";
import { acrossStagesAt } from "@/lib/pack/what-if-pack";
import type { PageSections } from "@/lib/pack/page/page-sections";
import { usePageView } from "./page-view-context";
import type { StageKey } from "@/lib/pack/stages";
import { StageHeader, StageSkeleton } from "./stage-header";
import { ScoresStage } from "./scores-stage";
import { TaskStage } from "./task-stage";
import { OtherRuns } from "./other-runs";
import { OperatingPoints } from "./operating-points";
import { StressStage } from "./stress-stage";
import { OperationalStage } from "./operational-stage";
import { WhatIfAcross } from "./what-if-views";

/**
 * The five stages and the across-stages summary, drawn in the browser from the page's view
 * (lib/pack/page/page-sections.ts, derived once per evidence state): a page request renders
 * none of their tables (issue 12 item 1). Until the view has arrived each shows its skeleton.
 */
function useSections(): PageSections | null {
  return usePageView()?.sections ?? null;
}

export function ScoresView({ stage, label }: { stage: "LEADERBOARD" | "PREFERENCE"; label: string }) {
  const s = useSections();
  if (!s) return <StageSkeleton label={label} />;
  return (
    <ScoresStage
      candidates={s.candidates}
      scores={s.scores.scores}
      resemblances={s.scores.resemblances}
      stage={stage}
      openedAt={s.decision.createdAt}
    />
  );
}

export function TaskView({ decisionId, label }: { decisionId: string; label: string }) {
  const view = usePageView();
  if (!view) return <StageSkeleton label={label} />;
  const { candidates, task } = view.sections;
  const [prChart, reliability] = view.taskCharts;
  return (
    <>
      <TaskStage
        decisionId={decisionId}
        candidates={candidates}
        runs={task.runs}
        prChart={prChart!}
        reliability={reliability!}
      />
      <OtherRuns runs={task.otherRuns} candidates={candidates} />
    </>
  );
}

export function StressView({
  decisionId,
  label,
  saveAction,
}: {
  decisionId: string;
  label: string;
  saveAction: SaveAction;
}) {
  const s = useSections();
  if (!s) return <StageSkeleton label={label} />;
  const { decision, stress } = s;
  return (
    <>
      <OperatingPoints
        rows={stress.operatingPoints}
        currency={decision.currency}
        recallFloor={decision.recallFloor}
        precisionFloor={decision.precisionFloor}
      />
      <StressStage
        candidates={stress.candidates}
        stored={stress.stored}
        decisionId={decisionId}
        decision={stress.decision}
        saveAction={saveAction}
      />
    </>
  );
}

export function OperationalView({ label }: { label: string }) {
  const s = useSections();
  if (!s) return <StageSkeleton label={label} />;
  return (
    <OperationalStage
      decision={s.decision}
      candidates={s.candidates}
      serving={s.operational.serving}
      charts={s.operational.charts}
    />
  );
}

export function AcrossView({ label }: { label: string }) {
  const view = usePageView();
  // At the stored parameters, by the function the server's stored results use (lib/pack/what-if-pack.ts).
  const across = useMemo(
    () => view && acrossStagesAt(view.whatIf, { threshold: null, prevalence: view.whatIf.decision.prevalence }),
    [view],
  );
  if (!view || !across) return <StageSkeleton label={label} />;
  const { decision, candidates } = view.sections;
  const stored = {
    prevalence: decision.prevalence,
    operatingThreshold: decision.operatingThreshold,
    operatingRule: decision.operatingRule,
  };
  return <WhatIfAcross stored={stored} decision={decision} candidates={candidates} across={across} />;
}

type SaveAction = ((state: ActionState, form: FormData) => Promise<ActionState>) | null;

/** One stage's card: its heading (SPEC §3) and its view. */
export function StageSection({
  stageKey,
  label,
  decisionId,
  saveAction,
}: {
  stageKey: StageKey;
  label: string;
  decisionId: string;
  saveAction: SaveAction;
}) {
  const body = {
    leaderboard: <ScoresView stage="LEADERBOARD" label={label} />,
    preference: <ScoresView stage="PREFERENCE" label={label} />,
    "task-accuracy": <TaskView decisionId={decisionId} label={label} />,
    "class-balance": <StressView decisionId={decisionId} label={label} saveAction={saveAction} />,
    operational: <OperationalView label={label} />,
  }[stageKey];
  return (
    <section className="stage card" aria-labelledby={`stage-${stageKey}`} data-stage-section={stageKey}>
      <StageHeader stageKey={stageKey} />
      {body}
    </section>
  );
}
