import { candidateStyles } from "@/lib/charts/palette";
import { prCurvesChart, reliabilityChart } from "@/lib/charts/evidence-charts";
import type { XyChartModel, XySeries } from "@/lib/charts/xy";
import { compactPr, compactRoc, type CompactCurve } from "./compact-curves";
import type { PackCandidate, PackRun } from "./pack-data";
import type { WhatIfPack } from "./what-if-pack";

/**
 * The decision page's heavy, invisible-at-first data (issue 12 item 1): the chart series (drawn in
 * the browser only), each candidate's stored curves as counts (stage 4's what-if) and the compact
 * pack the what-if recomputes the verdict, gates, funnel and cost from. They are
 * not serialised into the page's HTML and RSC payload: the page sends each chart's shell (title,
 * description, axes) and the browser fetches this view once per evidence state from
 * GET /api/v1/decisions/<id>/view?state=<tag> (an immutable response for the current tag).
 */
export type XyChartShell = Omit<XyChartModel, "series">;

export interface PageView {
  /** The evidence state's tag the view was read at. */
  tag: string;
  /** Chart id → its series. */
  series: Record<string, XySeries[]>;
  /** Candidate id → its run's stored ROC and PR points as counts (lib/evidence/compact-curves). */
  curves: Record<string, { roc: CompactCurve | null; pr: CompactCurve | null }>;
  /** The compact pack (lib/evidence/what-if-pack.ts); the page shows the stored results meanwhile. */
  whatIf: WhatIfPack;
}

/** Stage 3's charts, in the order the page shows them. */
export function taskCharts(candidates: readonly PackCandidate[], runs: readonly PackRun[]): XyChartModel[] {
  const styles = candidateStyles(candidates.map((c) => c.id));
  return [prCurvesChart(candidates, runs, styles, "pr", 0), reliabilityChart(candidates, runs, styles)];
}

export function chartShell({ series: _series, ...shell }: XyChartModel): XyChartShell {
  return shell;
}

export function pageView(tag: string, candidates: readonly PackCandidate[], runs: readonly PackRun[], whatIf: WhatIfPack): PageView {
  const curves: PageView["curves"] = {};
  for (const c of candidates) {
    const m = runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    curves[c.id] = {
      roc: m?.curves.roc ? compactRoc(m.curves.roc, m.positives, m.negatives) : null,
      pr: m?.curves.pr ? compactPr(m.curves.pr, m.positives) : null,
    };
  }
  return { tag, series: Object.fromEntries(taskCharts(candidates, runs).map((m) => [m.id, m.series])), curves, whatIf };
}
