import { expectedCostPer1k, type CostModel, type CostOptimum } from "./cost";
import type { MetricsReport } from "./evaluate";
import { precisionAtPrevalence } from "./prevalence";
import type { ChartCurve } from "./summarize";

/**
 * A run of hard labels only (no score: issue 24 §3, SPEC §4): there is nothing to rank the items
 * by, so AP, PR-AUC and ROC-AUC are undefined with this reason — never 0, and never the area of
 * the two-step "curve" the 0/1 labels would draw — the curves are the one operating point, and
 * the cost-optimal rule has that one threshold to choose.
 */
export const HARD_LABELS_METRIC_REASON =
  "hard labels only: no score to rank the items by, so ranking metrics are undefined (one operating point)";

const RANKING = ["averagePrecision", "rocAuc", "prAucTrapezoid"] as const;

/** The report with its ranking metrics (and their intervals) undefined for that reason. */
export function hardLabelReport(report: MetricsReport): MetricsReport {
  const reasons = { ...report.undefinedReasons };
  const out: MetricsReport = { ...report, undefinedReasons: reasons };
  for (const key of RANKING) {
    out[key] = null;
    reasons[key] = HARD_LABELS_METRIC_REASON;
  }
  if (report.reweighted) {
    out.reweighted = { ...report.reweighted, averagePrecision: null };
    reasons["reweighted.averagePrecision"] = HARD_LABELS_METRIC_REASON;
  }
  if (report.intervals) {
    out.intervals = { ...report.intervals, averagePrecision: null, rocAuc: null };
    if ("averagePrecisionAtPrevalence" in report.intervals) out.intervals.averagePrecisionAtPrevalence = null;
  }
  return out;
}

const point = (x: number | null, y: number | null, threshold: number): ChartCurve | null =>
  x === null || y === null ? null : { x: [x], y: [y], thresholds: [threshold], fullLength: 1, operatingIndex: 0 };

/** PR, PR at π, ROC and cost "curves" of one point each: the labels' operating point. */
export function hardLabelCurves(
  report: MetricsReport,
  model: CostModel | null,
): { pr: ChartCurve | null; prAtPrevalence: ChartCurve | null; roc: ChartCurve | null; cost: ChartCurve | null } {
  const { threshold, recall, precision, fpr } = report.atThreshold;
  const prevalence = model?.prevalence ?? report.reweighted?.prevalence;
  const precisionPi =
    prevalence !== undefined && recall !== null && fpr !== null
      ? precisionAtPrevalence(recall, fpr, prevalence).value
      : null;
  const optimum = model ? hardLabelCostOptimum(report, model) : null;
  return {
    pr: point(recall, precision, threshold),
    prAtPrevalence: prevalence === undefined ? null : point(recall, precisionPi, threshold),
    roc: point(fpr, recall, threshold),
    cost: optimum ? point(threshold, optimum.expectedCostPer1k, threshold) : null,
  };
}

/** The cost at the labels' one operating point: the only threshold the rule can choose. */
export function hardLabelCostOptimum(report: MetricsReport, model: CostModel): CostOptimum | null {
  const { threshold, recall, fpr } = report.atThreshold;
  if (recall === null || fpr === null) return null;
  return {
    threshold,
    expectedCostPer1k: expectedCostPer1k(recall, fpr, model),
    predictNothingCostPer1k: expectedCostPer1k(0, 0, model),
  };
}
