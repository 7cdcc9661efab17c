import { candidateStyles } from "@/lib/pack/charts/palette";
import { prCurvesChart, reliabilityChart } from "@/lib/pack/charts/stage-charts";
import type { XyChartModel, XySeries } from "@/lib/pack/charts/xy";
import { compactPr, compactRoc, type CompactCurve } from "../compact-curves";
import type { PackCandidate, PackRun } from "../pack-data";
import type { WhatIfPack } from "../what-if-pack";
import { pageSections, type PageSections, type SectionsInput } from "./page-sections";

/**
 * The decision page's heavy data (issue 12 item 1): the five stages' and the across-stages
 * summary's tables, the chart series (drawn in the browser only), each candidate's stored curves as
 * counts (stage 4's what-if) and the compact pack the what-if recomputes the verdict, gates, funnel
 * and cost from. They are not serialised into the page's HTML and RSC payload, which carries the
 * verdict, the parameters and the stage summary: the browser fetches this view once per evidence
 * state from GET /api/v1/decisions/<id>/view?state=<tag> (an immutable response for the current
 * tag) and draws the stages from it, so a page request renders none of their tables.
 */
export type XyChartShell = Omit<XyChartModel, "series">;

export interface PageView {
  /** The evidence state's tag the view was read at. */
  tag: string;
  /** Chart id → its series. */
  series: Record<string, XySeries[]>;
  /** Candidate id → its run's stored ROC and PR points as counts (lib/pack/compact-curves). */
  curves: Record<string, { roc: CompactCurve | null; pr: CompactCurve | null }>;
  /** The compact pack (lib/pack/what-if-pack.ts); the page shows the stored results meanwhile. */
  whatIf: WhatIfPack;
  /** What each stage and the across-stages summary draw (lib/pack/page/page-sections.ts). */
  sections: PageSections;
  /** Stage 3's chart shells (their series are above). */
  taskCharts: XyChartShell[];
}

/** Stage 3's charts, in the order the page shows them. */
export function taskCharts(candidates: readonly PackCandidate[], runs: readonly PackRun[]): XyChartModel[] {
  const styles = candidateStyles(candidates.map((c) => c.id));
  return [prCurvesChart(candidates, runs, styles, "pr", 0), reliabilityChart(candidates, runs, styles)];
}

export function chartShell({ series: _series, ...shell }: XyChartModel): XyChartShell {
  return shell;
}

export function pageView(tag: string, input: SectionsInput, whatIf: WhatIfPack): PageView {
  const { candidates, runs } = input;
  const curves: PageView["curves"] = {};
  for (const c of candidates) {
    const m = runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    curves[c.id] = {
      roc: m?.curves.roc ? compactRoc(m.curves.roc, m.positives, m.negatives) : null,
      pr: m?.curves.pr ? compactPr(m.curves.pr, m.positives) : null,
    };
  }
  const charts = taskCharts(candidates, runs);
  return {
    tag,
    series: Object.fromEntries(charts.map((m) => [m.id, m.series])),
    curves,
    whatIf,
    sections: pageSections(input),
    taskCharts: charts.map(chartShell),
  };
}
