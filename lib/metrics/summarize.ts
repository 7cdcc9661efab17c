import { reliabilityTable, type ReliabilityBin } from "./calibration";
import { costCurve, costOptimalThreshold, type CostModel, type CostOptimum } from "./cost";
import { downsampleIndices, pick } from "./downsample";
import { evaluate, DEFAULT_THRESHOLD, type MetricsReport } from "./evaluate";
import { hardLabelCostOptimum, hardLabelCurves, hardLabelReport } from "./hard-labels";
import { wilsonInterval, type Interval } from "./intervals";
import { precisionRecallCurve, type PrCurve } from "./pr-curve";
import {
  PREVALENCE_GRID,
  precisionVersusPrevalence,
  prevalenceWeights,
  type ClassWeights,
  type PrecisionAtPrevalenceRow,
} from "./prevalence";
import { rankCounts, thresholdIndex, type RankedCounts } from "./ranking";
import { rocCurve } from "./roc";
import { recallBySlice, tooFewPositives, type SliceRecall } from "./slices";
import { bootstrapReplicates, DEFAULT_REPLICATES, prepareRanking, type Replicates } from "./bootstrap";
import {
  chooseOperatingPoint,
  HARD_LABELS_REASON,
  splitInHalves,
  type OperatingPoint,
  type RuleNotApplied,
} from "./operating-point";
import type { SelectionRule } from "./threshold-rule";
import type { Labels, Scores } from "./validate";

export interface SummarizeOptions {
  /** Operating threshold t (default 0.5). */
  readonly threshold?: number;
  /** Deployment prevalence π of the decision, in (0, 1). */
  readonly prevalence?: number;
  readonly costFalseNegative?: number;
  readonly costFalsePositive?: number;
  /** Slice value per item (e.g. a dataset's slice column), for recall per slice of positives. */
  readonly slices?: ArrayLike<string | null>;
  /** Bootstrap resamples (default 1,000; 0 turns the bootstrap off). */
  readonly bootstrap?: number;
  readonly seed?: number;
  /** Maximum points per stored chart curve (default 200). */
  readonly maxCurvePoints?: number;
  /** Bootstrap replicates already computed (lib/compute's worker threads) for the same B, seed and π. */
  readonly replicates?: Replicates;
  /** Prevalences for the precision-versus-prevalence table (π and the sample prevalence are added). */
  readonly prevalenceGrid?: readonly number[];
  /**
   * The decision's operating-point rule when it chooses (not FIXED): the threshold is then the
   * rule's choice and `operatingPoint` holds its held-out figures (lib/metrics/operating-point.ts).
   * `threshold` is ignored. Replicates passed in must have been computed with this `selection`.
   */
  readonly operatingRule?: SelectionRule;
  /** Seed of the split into halves (default: `seed`); the decision's, so every candidate shares it. */
  readonly splitSeed?: number;
  /** The run has hard labels only: the rule does not apply (one operating point). */
  readonly hardLabels?: boolean;
}

/** A curve downsampled for charts; `operatingIndex` locates the operating threshold in it. */
export interface ChartCurve {
  readonly x: number[];
  readonly y: number[];
  /** Threshold of each point; null for scikit-learn's appended end point (precision 1, recall 0). */
  readonly thresholds: (number | null)[];
  /** Number of points of the full curve (metrics are computed from the full curve). */
  readonly fullLength: number;
  readonly operatingIndex: number | null;
}

/**
 * Everything the evidence pack shows for one eval run, computed once and stored (issue 3 §5):
 * pages read this object and never recompute over the items. JSON-serialisable: numbers,
 * nulls (undefined metrics, with `undefinedReasons`), arrays and plain objects only.
 */
export interface RunMetrics {
  readonly version: 1;
  readonly n: number;
  readonly positives: number;
  readonly negatives: number;
  readonly parameters: {
    readonly threshold: number;
    readonly prevalence: number | null;
    readonly costFalseNegative: number | null;
    readonly costFalsePositive: number | null;
    readonly bootstrap: number;
    readonly seed: number;
  };
  /** Summary figures and intervals, same shape and code path as `verdict metrics`. */
  readonly report: MetricsReport;
  readonly curves: {
    /** PR curve: x = recall, y = precision. */
    readonly pr: ChartCurve | null;
    /** PR curve re-weighted to π: x = recall, y = precision_π. */
    readonly prAtPrevalence: ChartCurve | null;
    /** ROC curve (all thresholds, then downsampled): x = FPR, y = TPR. */
    readonly roc: ChartCurve | null;
    /** Expected cost per 1,000 items: x = threshold, y = cost. */
    readonly cost: ChartCurve | null;
  };
  readonly reliability: ReliabilityBin[] | null;
  readonly costOptimum: CostOptimum | null;
  readonly precisionVsPrevalence: PrecisionAtPrevalenceRow[] | null;
  readonly slices: SliceRecall[] | null;
  /** Recall Wilson interval at the threshold, for the stage-4 "too few positives" warning. */
  readonly recallInterval: Interval | null;
  readonly warnings: string[];
  /** Present only when the decision's rule chooses the threshold (absent under FIXED, as before issue 14). */
  readonly operatingPoint?: OperatingPoint | RuleNotApplied;
}

const DEFAULT_MAX_POINTS = 200;

/** Compute {@link RunMetrics} for one eval run from (labels, scores), sorting the scores once. */
export function summarize(labels: Labels, scores: Scores, options: SummarizeOptions = {}): RunMetrics {
  const bootstrap = options.bootstrap ?? DEFAULT_REPLICATES;
  const seed = options.seed ?? 0;
  const maxPoints = options.maxCurvePoints ?? DEFAULT_MAX_POINTS;
  const counts = rankCounts(labels, scores);
  const chosen = operatingPointOf(labels, scores, counts, options, bootstrap, seed);
  const threshold = chosen.operatingPoint?.applies
    ? chosen.operatingPoint.threshold
    : (options.threshold ?? DEFAULT_THRESHOLD);
  const evaluated = evaluate(
    labels,
    scores,
    {
      ...options,
      threshold,
      bootstrap: bootstrap > 0 ? bootstrap : undefined,
      seed,
      curve: false,
      replicates: chosen.replicates,
    },
    counts,
  );
  // Hard labels: nothing to rank by — the ranking metrics are undefined, never the 0/1 labels' areas.
  const report = options.hardLabels ? hardLabelReport(evaluated) : evaluated;
  const model: CostModel | null =
    options.prevalence !== undefined &&
    options.costFalseNegative !== undefined &&
    options.costFalsePositive !== undefined
      ? {
          prevalence: options.prevalence,
          costFalseNegative: options.costFalseNegative,
          costFalsePositive: options.costFalsePositive,
        }
      : null;
  const operating = thresholdIndex(counts, threshold);
  const weights =
    options.prevalence === undefined
      ? null
      : prevalenceWeights(counts.positives, counts.negatives, options.prevalence).value;
  const { tp, fp } = report.atThreshold;
  const both = counts.positives > 0 && counts.negatives > 0;
  const recallInterval = report.intervals?.recall ?? wilsonInterval(tp, counts.positives).value;
  const warnings: string[] = [];
  if (counts.positives === 0) warnings.push("no positives: recall and ranking metrics are undefined");
  else if (tooFewPositives(counts.positives, recallInterval ?? [0, 1])) {
    warnings.push(
      `too few positives for a defensible recall (${counts.positives} positives; recall interval half-width must be ≤ 0.05 with ≥ 30 positives)`,
    );
  }
  const grid = [
    ...(options.prevalenceGrid ?? PREVALENCE_GRID),
    ...(options.prevalence !== undefined ? [options.prevalence] : []),
    ...(both ? [counts.positives / labels.length] : []),
  ];
  const cost = model ? costCurve(counts, model).value : null;
  return {
    version: 1,
    n: labels.length,
    positives: counts.positives,
    negatives: counts.negatives,
    parameters: {
      threshold,
      prevalence: options.prevalence ?? null,
      costFalseNegative: options.costFalseNegative ?? null,
      costFalsePositive: options.costFalsePositive ?? null,
      bootstrap,
      seed,
    },
    report,
    curves: options.hardLabels
      ? hardLabelCurves(report, model)
      : scoredCurves(counts, { operating, maxPoints, weights, cost }),
    reliability: reliabilityTable(labels, scores).value,
    costOptimum: model
      ? options.hardLabels
        ? hardLabelCostOptimum(report, model)
        : costOptimalThreshold(counts, model).value
      : null,
    precisionVsPrevalence: both ? precisionVersusPrevalence(tp / counts.positives, fp / counts.negatives, grid) : null,
    slices: options.slices ? recallBySlice(labels, scores, options.slices, threshold) : null,
    recallInterval,
    warnings,
    ...(chosen.operatingPoint ? { operatingPoint: chosen.operatingPoint } : {}),
  };
}

/** The charts of a scored run: every threshold, downsampled. */
function scoredCurves(
  counts: RankedCounts,
  c: {
    operating: number;
    maxPoints: number;
    weights: ClassWeights | null;
    cost: { thresholds: Float64Array; costPer1k: Float64Array } | null;
  },
): RunMetrics["curves"] {
  const { operating, maxPoints, weights, cost } = c;
  return {
    pr: prChart(precisionRecallCurve(counts).value, operating, maxPoints),
    prAtPrevalence: weights ? prChart(precisionRecallCurve(counts, weights).value, operating, maxPoints) : null,
    roc: rocChart(counts, operating, maxPoints),
    cost: cost
      ? chart(
          Array.from(cost.thresholds),
          Array.from(cost.costPer1k),
          Array.from(cost.thresholds),
          operatingOrNull(operating, counts),
          maxPoints,
        )
      : null,
  };
}

/** The rule's operating point, computing the bootstrap here (once) so its replicates carry the rule's choice. */
function operatingPointOf(
  labels: Labels,
  scores: Scores,
  counts: RankedCounts,
  options: SummarizeOptions,
  bootstrap: number,
  seed: number,
): { operatingPoint?: OperatingPoint | RuleNotApplied; replicates?: Replicates } {
  const rule = options.operatingRule;
  if (!rule) return { replicates: options.replicates };
  if (options.hardLabels)
    return {
      operatingPoint: { applies: false, rule: rule.kind, reason: HARD_LABELS_REASON },
      replicates: options.replicates,
    };
  if (counts.positives === 0 || counts.negatives === 0) {
    return {
      operatingPoint: {
        applies: false,
        rule: rule.kind,
        reason:
          counts.positives === 0
            ? "no positives: no threshold can be chosen"
            : "no negatives: no threshold can be chosen",
      },
      replicates: options.replicates,
    };
  }
  const ranking = prepareRanking(labels, scores);
  const replicates =
    options.replicates ??
    (bootstrap > 0
      ? bootstrapReplicates([ranking], {
          replicates: bootstrap,
          seed,
          prevalence: options.prevalence,
          selection: rule,
        })[0]
      : undefined);
  const splitSeed = options.splitSeed ?? seed;
  const part = splitInHalves(labels, options.slices, splitSeed);
  return {
    operatingPoint: chooseOperatingPoint(ranking, labels, part, rule, splitSeed, replicates?.threshold ?? null),
    replicates,
  };
}

function operatingOrNull(index: number, counts: RankedCounts): number | null {
  return index < counts.thresholds.length ? index : null;
}

function chart(
  x: number[],
  y: number[],
  thresholds: (number | null)[],
  operatingIndex: number | null,
  maxPoints: number,
): ChartCurve {
  const keep = operatingIndex === null ? [] : [operatingIndex];
  const idx = downsampleIndices(x, y, Math.max(maxPoints, 2 + keep.length), keep);
  return {
    x: pick(x, idx),
    y: pick(y, idx),
    thresholds: idx.map((i) => thresholds[i] ?? null),
    fullLength: x.length,
    operatingIndex: operatingIndex === null ? null : idx.indexOf(operatingIndex),
  };
}

/** PR chart in scikit-learn's order (thresholds ascending, recall falling to the end point). */
function prChart(curve: PrCurve | null, operating: number, maxPoints: number): ChartCurve | null {
  if (!curve || !curve.recall) return null;
  const m = curve.thresholds.length;
  return chart(
    Array.from(curve.recall),
    Array.from(curve.precision),
    [...Array.from(curve.thresholds), null],
    operating < m ? operating : null,
    maxPoints,
  );
}

/** ROC chart from every threshold (no drop_intermediate), so the operating point is on it. */
function rocChart(counts: RankedCounts, operating: number, maxPoints: number): ChartCurve | null {
  const roc = rocCurve(counts, false).value;
  if (!roc) return null;
  const m = counts.thresholds.length;
  // ROC is in descending threshold order after the prepended (0, 0): ascending index i ↔ 1 + (m − 1 − i).
  return chart(
    Array.from(roc.fpr),
    Array.from(roc.tpr),
    Array.from(roc.thresholds),
    operating < m ? m - operating : null,
    maxPoints,
  );
}
