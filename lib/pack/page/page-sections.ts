import { candidateStyles } from "@/lib/pack/charts/palette";
import { measuresItl, servingLatencyChart, throughputChart } from "@/lib/pack/charts/stage-charts";
import type { XyChartModel } from "@/lib/pack/charts/xy";
import { runFigures } from "../operating-figures";
import { operatingPointRows, type OperatingPointRow } from "../operating-point-rows";
import type {
  OtherRun,
  PackCandidate,
  PackDecision,
  PackResemblance,
  PackRun,
  PackScore,
  PackServing,
  TaskParameters,
} from "../pack-data";
import type { StoredRunMetrics } from "../run-input";
import type { StressCandidate } from "@/lib/pack/charts/stress-charts";
import type { CompactCurve } from "../compact-curves";

/**
 * The five stages as the page draws them (issue 12 item 1): the props of each stage's view,
 * derived once per evidence state on the server and carried as JSON in the page's view
 * (lib/pack/page/page-view.ts), so that a page request renders none of these tables — the browser
 * draws them from the view it fetches once per state (components/pack/stage-views.tsx). The
 * across-stages summary (which holds Maps) is derived in the browser from the view's compact pack.
 */

/** A run as stage 3's table reads it: its figures, not its curves (those come as chart series). */
export type TaskRun = Omit<PackRun, "metrics"> & {
  metrics: Pick<StoredRunMetrics, "report" | "input" | "recallInterval"> | null;
};

/** A candidate's stored curves as integer counts (lib/pack/compact-curves): exact, and small. */
export type CompactStressCandidate = Omit<StressCandidate, "roc" | "pr"> & {
  roc: CompactCurve | null;
  pr: CompactCurve | null;
};

export interface StoredStress {
  candidateId: string;
  /** The run that counts, whose items the figures link to (the drill-down). */
  runId: number;
  positives: number;
  recall: number | null;
  recallInterval: [number, number] | null;
  precisionAtPi: number | null;
  expectedCostPer1k: number | null;
  costOptimum: { threshold: number; expectedCostPer1k: number } | null;
  /** What the figures were measured on under an operating-point rule (held out), null under FIXED. */
  basis?: string | null;
  slices:
    | {
        slice: string;
        positives: number;
        detected: number;
        recall: number;
        interval: readonly [number, number];
        tooFewPositives: boolean;
      }[]
    | null;
  warnings: string[];
}

export type StressDecision = Pick<
  TaskParameters,
  | "prevalence"
  | "costFn"
  | "costFp"
  | "currency"
  | "recallFloor"
  | "precisionFloor"
  | "operatingThreshold"
  | "operatingRule"
>;

export interface PageSections {
  decision: PackDecision;
  candidates: PackCandidate[];
  scores: { scores: PackScore[]; resemblances: PackResemblance[] };
  task: { runs: TaskRun[]; otherRuns: OtherRun[] };
  stress: {
    candidates: CompactStressCandidate[];
    stored: StoredStress[];
    decision: StressDecision;
    operatingPoints: OperatingPointRow[];
  };
  operational: { serving: PackServing[]; charts: XyChartModel[] };
}

export interface SectionsInput {
  decision: PackDecision;
  candidates: PackCandidate[];
  scores: PackScore[];
  resemblances: PackResemblance[];
  runs: PackRun[];
  otherRuns: OtherRun[];
  serving: PackServing[];
}

export function pageSections({
  decision,
  candidates,
  scores,
  resemblances,
  runs,
  otherRuns,
  serving,
}: SectionsInput): PageSections {
  const styles = candidateStyles(candidates.map((c) => c.id));
  const rule = decision.operatingRule ?? "FIXED";
  return {
    decision,
    candidates,
    scores: { scores, resemblances },
    task: {
      runs: runs.map(({ metrics: m, ...run }) => ({
        ...run,
        metrics: m && { report: m.report, input: m.input, recallInterval: m.recallInterval },
      })),
      otherRuns,
    },
    stress: {
      candidates: candidates.map((c) => {
        const m = runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
        // The stored curves come with the page's view (its `curves`); the table shows the stored figures.
        return {
          candidate: { id: c.id, name: c.name },
          style: styles.get(c.id)!,
          roc: null,
          pr: null,
          positives: m?.positives ?? 0,
          negatives: m?.negatives ?? 0,
          threshold: m?.parameters.threshold ?? c.operatingThreshold ?? decision.operatingThreshold,
        };
      }),
      stored: runs.flatMap((r) => (r.metrics ? [storedStress(r, r.metrics)] : [])),
      decision: {
        prevalence: decision.prevalence,
        costFn: decision.costFn,
        costFp: decision.costFp,
        currency: decision.currency,
        recallFloor: decision.recallFloor,
        precisionFloor: decision.precisionFloor,
        operatingThreshold: decision.operatingThreshold,
        operatingRule: rule,
      },
      operatingPoints: operatingPointRows(rule, candidates, runs),
    },
    operational: {
      serving,
      charts: [
        servingLatencyChart(candidates, serving, styles, "ttftMs", "p95", decision.sloP95TtftMs),
        servingLatencyChart(candidates, serving, styles, "tpotMs", "p95", null),
        ...(measuresItl(serving) ? [servingLatencyChart(candidates, serving, styles, "itlMs", "p95", null)] : []),
        servingLatencyChart(candidates, serving, styles, "e2eMs", "p95", decision.sloP95E2eMs),
        throughputChart(candidates, serving, styles, decision.sloMinThroughputRps, decision.sloThroughputConcurrency),
      ],
    },
  };
}

function storedStress(r: PackRun, m: StoredRunMetrics): StoredStress {
  const f = runFigures(m); // held out where the decision's rule chose the threshold
  return {
    candidateId: r.candidateId,
    runId: r.runId,
    positives: m.positives,
    recall: f.report.atThreshold.recall,
    recallInterval: f.recallInterval ? [f.recallInterval[0], f.recallInterval[1]] : null,
    precisionAtPi: f.report.reweighted?.precision ?? null,
    expectedCostPer1k: f.report.reweighted?.expectedCostPer1k ?? null,
    basis: f.basis ?? null,
    costOptimum: m.costOptimum
      ? { threshold: m.costOptimum.threshold, expectedCostPer1k: m.costOptimum.expectedCostPer1k }
      : null,
    slices: m.slices,
    warnings: m.warnings,
  };
}
