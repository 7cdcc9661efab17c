import type { PackCandidate } from "@/lib/pack/pack-data";
import {
  costByThreshold,
  costOptimumOfPoints,
  PREVALENCE_CHART_GRID,
  prAtPrevalence,
  precisionAtPrevalence,
  prAtPrevalenceFromPr,
  precisionVersusPrevalence,
  whatIfAt,
  type CostParameters,
  type RocCurve,
} from "@/lib/pack/what-if";
import { formatPercent, formatThreshold } from "@/lib/format";
import type { SeriesStyle } from "./palette";
import type { XyChartModel, XySeries } from "./xy";

/**
 * Stage 4 charts for any (threshold, π) — the stored values or a committee's "what if" — from
 * the stored ROC points (exact at every point shown). Pure; runs in the browser on each change.
 */
export interface StressCandidate {
  candidate: Pick<PackCandidate, "id" | "name">;
  style: SeriesStyle;
  roc: RocCurve | null;
  /** The stored PR curve on the sample and its class counts (for the dense PR curve at π). */
  pr: { x: number[]; y: number[]; thresholds: (number | null)[] } | null;
  positives: number;
  negatives: number;
  /** The candidate's own stored operating threshold (the decision's unless it sets one). */
  threshold: number;
  /**
   * The operating point the figures are read at, on their basis (lib/pack/what-if-pack.ts
   * `operatingAt`: under a choosing rule, the held-out counts at the chosen threshold). Absent: the
   * stored ROC point at the threshold (all items).
   */
  operating?: { threshold: number | null; tpr: number; fpr: number; basis: string | null };
}

export interface StressSettings extends CostParameters {
  /** null: each candidate at its own stored threshold. */
  threshold: number | null;
  currency: string;
}

function thresholdFor(c: StressCandidate, s: StressSettings): number {
  return s.threshold ?? c.threshold;
}

/** Where a candidate's marker and its precision-versus-prevalence curve are read: on the figures' basis. */
function operatingPoint(
  c: StressCandidate & { roc: RocCurve },
  s: StressSettings,
): { threshold: number | null; recall: number; fpr: number; precision: number | null; note: string } {
  if (c.operating) {
    const { threshold, tpr, fpr, basis } = c.operating;
    const precision = precisionAtPrevalence(tpr, fpr, s.prevalence);
    return { threshold, recall: tpr, fpr, precision, note: basis ? ` (${basis})` : "" };
  }
  const f = whatIfAt(c.roc, thresholdFor(c, s), s);
  return { threshold: f.storedThreshold, recall: f.recall, fpr: f.fpr, precision: f.precision, note: "" };
}

/** One series per candidate with stored curve points, in candidate order, with its colour and dash. */
function candidateSeries(
  cands: readonly StressCandidate[],
  build: (c: StressCandidate & { roc: NonNullable<StressCandidate["roc"]> }) => Pick<XySeries, "points" | "marker">,
): XySeries[] {
  return cands.flatMap((c) =>
    c.roc ? [{ key: c.candidate.id, name: c.candidate.name, ...c.style, ...build({ ...c, roc: c.roc }) }] : [],
  );
}

export function stressPrChart(cands: readonly StressCandidate[], s: StressSettings): XyChartModel {
  const series = candidateSeries(cands, (c) => {
    const f = operatingPoint(c, s);
    return {
      points: c.pr
        ? prAtPrevalenceFromPr(c.pr, c.positives, c.negatives, s.prevalence)
        : prAtPrevalence(c.roc, s.prevalence),
      marker:
        f.precision === null
          ? undefined
          : {
              x: f.recall,
              y: f.precision,
              threshold: f.threshold,
              label: `t = ${f.threshold === null ? "+∞" : formatThreshold(f.threshold)}${f.note}`,
            },
    };
  });
  return {
    id: "stress-pr",
    title: `Precision–recall at π = ${formatPercent(s.prevalence)}`,
    description: `Precision re-weighted to prevalence ${formatPercent(s.prevalence)} against recall for ${series.map((x) => x.name).join(", ")}, each candidate's point at the chosen threshold marked.`,
    x: { label: "Recall", unit: "fraction", domain: [0, 1], digits: 3 },
    y: { label: "Precision at π", unit: "fraction", domain: [0, 1], digits: 3 },
    series,
    references: [],
  };
}

export function stressCostChart(cands: readonly StressCandidate[], s: StressSettings): XyChartModel {
  const series = candidateSeries(cands, (c) => {
    const optimum = costOptimumOfPoints(c.roc, s);
    return {
      points: costByThreshold(c.roc, s),
      marker: optimum
        ? {
            x: optimum.threshold,
            y: optimum.expectedCostPer1k,
            threshold: optimum.threshold,
            label: `cost-optimal t = ${formatThreshold(optimum.threshold)}`,
          }
        : undefined,
    };
  });
  return {
    id: "stress-cost",
    title: "Expected cost per 1,000 items vs threshold",
    description: `Expected error cost per 1,000 items (${s.currency}) at π = ${formatPercent(s.prevalence)}, C_FN = ${s.costFn}, C_FP = ${s.costFp}, against the threshold, for ${series.map((x) => x.name).join(", ")}; each cost-optimal point is marked.`,
    x: { label: "Threshold", unit: "score", digits: 3 },
    y: { label: "Expected cost per 1,000 items", unit: s.currency, digits: 1 },
    series,
    references:
      s.threshold === null ? [] : [{ axis: "x", value: s.threshold, label: `t = ${formatThreshold(s.threshold)}` }],
  };
}

export function stressPrecisionVsPrevalenceChart(cands: readonly StressCandidate[], s: StressSettings): XyChartModel {
  const series = candidateSeries(cands, (c) => {
    const f = operatingPoint(c, s);
    return {
      points: precisionVersusPrevalence(f.recall, f.fpr, [...PREVALENCE_CHART_GRID, s.prevalence]).map((r) => ({
        x: r.prevalence,
        y: r.precision,
      })),
      marker:
        f.precision === null
          ? undefined
          : { x: s.prevalence, y: f.precision, label: `π = ${formatPercent(s.prevalence)}` },
    };
  });
  return {
    id: "stress-precision-vs-prevalence",
    title: "Precision vs prevalence at the operating threshold",
    description: `Precision each candidate would have at prevalences from 0.1% to 50% at its operating threshold, for ${series.map((x) => x.name).join(", ")}; the deployment prevalence ${formatPercent(s.prevalence)} is marked.`,
    x: {
      label: "Prevalence π",
      unit: "fraction positive, log scale",
      scale: "log",
      domain: [0.001, 0.5],
      digits: 4,
      ticks: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5],
    },
    y: { label: "Precision", unit: "fraction", domain: [0, 1], digits: 3 },
    series,
    references: [{ axis: "x", value: s.prevalence, label: `π = ${formatPercent(s.prevalence)}` }],
  };
}
