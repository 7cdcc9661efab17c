import {
  averagePrecision,
  bootstrapIntervals,
  brierScore,
  confusionFromCounts,
  costCurve,
  costOptimalThreshold,
  downsampleIndices,
  expectedCostAt,
  logLoss,
  pick,
  PREVALENCE_GRID,
  precisionAtPrevalence,
  precisionRecallCurve,
  precisionVersusPrevalence,
  prAucTrapezoid,
  prevalenceWeights,
  rankCounts,
  ratesAt,
  recallBySlice,
  reliabilityTable,
  rocAuc,
  rocCurve,
  thresholdIndex,
  tooFewPositives,
  wilsonInterval,
  type Maybe,
  type ReliabilityBin,
  type SliceRecall,
} from "@/lib/metrics";
import type { RunInput } from "./run-input";

/**
 * The stored result of one eval run (EvalRun.metrics): every figure the evidence pack shows for
 * stages 3 and 4, computed once from the full data, with curves downsampled for charts (AP is
 * always from the full curve). A figure the engine cannot define is null, with its reason in
 * `undefinedReasons`. Plain JSON: numbers, arrays, nulls.
 */
export const RUN_METRICS_VERSION = 1;
export const CHART_POINTS = 240;
export const BOOTSTRAP_REPLICATES = 1000;
export const BOOTSTRAP_SEED = 20_261_202;

export interface RunMetricsOptions {
  threshold: number;
  prevalence: number;
  costFalseNegative: number;
  costFalsePositive: number;
  replicates?: number;
}

type Pair = [number, number];

export interface Curve {
  x: number[];
  y: number[];
  thresholds: (number | null)[];
}

export interface RunMetrics {
  version: number;
  n: number;
  positives: number;
  negatives: number;
  scoreKind: "scores" | "hard-labels";
  parseFailures: number;
  missing: number;
  threshold: number;
  averagePrecision: number | null;
  averagePrecisionCi: Pair | null;
  rocAuc: number | null;
  rocAucCi: Pair | null;
  prAucTrapezoid: number | null;
  brier: number | null;
  logLoss: number | null;
  atThreshold: {
    tp: number;
    fp: number;
    tn: number;
    fn: number;
    precision: number | null;
    precisionCi: Pair | null;
    recall: number | null;
    recallCi: Pair | null;
    f1: number | null;
    fpr: number | null;
  };
  atPrevalence: {
    prevalence: number;
    averagePrecision: number | null;
    averagePrecisionCi: Pair | null;
    precision: number | null;
    recall: number | null;
    expectedCostPer1k: number | null;
    costOptimal: { threshold: number; expectedCostPer1k: number; recall: number; precision: number | null; predictNothingCostPer1k: number } | null;
  };
  /** x = recall, y = precision; the last point is scikit-learn's end point (recall 0, precision 1, no threshold). */
  prCurve: Curve | null;
  prCurveAtPrevalence: Curve | null;
  /** x = FPR, y = TPR. */
  rocCurve: Curve | null;
  /** x = threshold, y = expected cost per 1,000 items at π. */
  costCurve: Curve | null;
  precisionVersusPrevalence: { prevalence: number; precision: number | null }[];
  reliability: ReliabilityBin[] | null;
  slices: (SliceRecall & { tooFewPositives: boolean })[];
  recallTooFewPositives: boolean;
  undefinedReasons: Record<string, string>;
}

const valueOf = <T>(m: Maybe<T>, key: string, reasons: Record<string, string>): T | null => {
  if (m.reason !== null) reasons[key] = m.reason;
  return m.value;
};

/** Keep the curve's ends, corners and the operating point within CHART_POINTS points. */
function chartCurve(x: ArrayLike<number>, y: ArrayLike<number>, thresholds: ArrayLike<number>, keep: number[]): Curve {
  const idx = downsampleIndices(x, y, CHART_POINTS, keep);
  return { x: pick(x, idx), y: pick(y, idx), thresholds: idx.map((i) => (i < thresholds.length ? (thresholds[i] as number) : null)) };
}

export function computeRunMetrics(input: RunInput, options: RunMetricsOptions): RunMetrics {
  const reasons: Record<string, string> = {};
  const { labels, scores } = input;
  const counts = rankCounts(labels, scores);
  const { positives, negatives } = counts;
  const t = options.threshold;
  const cost = { prevalence: options.prevalence, costFalseNegative: options.costFalseNegative, costFalsePositive: options.costFalsePositive };

  const confusion = confusionFromCounts(counts, t);
  const rates = ratesAt(confusion);
  const weights = prevalenceWeights(positives, negatives, options.prevalence);
  const boot = bootstrapIntervals(labels, scores, { replicates: options.replicates ?? BOOTSTRAP_REPLICATES, seed: BOOTSTRAP_SEED, prevalence: options.prevalence });

  // Operating point on the curves: the index of the smallest threshold ≥ t.
  const opIndex = thresholdIndex(counts, t);
  const pr = precisionRecallCurve(counts);
  const prPi = weights.value ? precisionRecallCurve(counts, weights.value) : null;
  const roc = rocCurve(counts);
  const costs = costCurve(counts, cost);
  const optimum = costOptimalThreshold(counts, cost);
  const tpr = rates.recall.value;
  const fpr = rates.fpr.value;
  const precisionPi = tpr !== null && fpr !== null ? precisionAtPrevalence(tpr, fpr, options.prevalence) : null;

  // Calibration only where scores are probabilities of usable outputs.
  const probabilities = input.scoreKind === "scores" && scores.every((s, i) => input.valid[i] === 0 || (s >= 0 && s <= 1));
  const validIdx: number[] = [];
  input.valid.forEach((v, i) => v && validIdx.push(i));
  const vLabels = Uint8Array.from(validIdx, (i) => labels[i]!);
  const vScores = Float64Array.from(validIdx, (i) => scores[i]!);

  const recallCi = valueOf(wilsonInterval(confusion.tp, confusion.tp + confusion.fn), "recallCi", reasons);
  const slices = input.slices.some((s) => s !== null) ? recallBySlice(labels, scores, input.slices, t) : [];
  let optimumDetail: RunMetrics["atPrevalence"]["costOptimal"] = null;
  if (optimum.value) {
    const oc = ratesAt(confusionFromCounts(counts, optimum.value.threshold));
    const oTpr = oc.recall.value ?? 0;
    optimumDetail = {
      ...optimum.value,
      recall: oTpr,
      precision: precisionAtPrevalence(oTpr, oc.fpr.value ?? 0, options.prevalence).value,
    };
  } else reasons.costOptimal = optimum.reason;

  return {
    version: RUN_METRICS_VERSION,
    n: labels.length,
    positives,
    negatives,
    scoreKind: input.scoreKind,
    parseFailures: input.parseFailures,
    missing: input.missing,
    threshold: t,
    averagePrecision: valueOf(averagePrecision(counts), "averagePrecision", reasons),
    averagePrecisionCi: valueOf(boot.averagePrecision, "averagePrecisionCi", reasons) as Pair | null,
    rocAuc: valueOf(rocAuc(counts), "rocAuc", reasons),
    rocAucCi: valueOf(boot.rocAuc, "rocAucCi", reasons) as Pair | null,
    prAucTrapezoid: pr.value ? valueOf(prAucTrapezoid(pr.value), "prAucTrapezoid", reasons) : null,
    brier: probabilities ? valueOf(brierScore(vLabels, vScores), "brier", reasons) : ((reasons.brier = "scores are not probabilities"), null),
    logLoss: probabilities ? valueOf(logLoss(vLabels, vScores), "logLoss", reasons) : ((reasons.logLoss = "scores are not probabilities"), null),
    atThreshold: {
      ...confusion,
      precision: valueOf(rates.precision, "precision", reasons),
      precisionCi: valueOf(wilsonInterval(confusion.tp, confusion.tp + confusion.fp), "precisionCi", reasons) as Pair | null,
      recall: valueOf(rates.recall, "recall", reasons),
      recallCi: recallCi as Pair | null,
      f1: valueOf(rates.f1, "f1", reasons),
      fpr: valueOf(rates.fpr, "fpr", reasons),
    },
    atPrevalence: {
      prevalence: options.prevalence,
      averagePrecision: weights.value ? valueOf(averagePrecision(counts, weights.value), "averagePrecisionAtPrevalence", reasons) : null,
      averagePrecisionCi: valueOf(boot.averagePrecisionAtPrevalence, "averagePrecisionAtPrevalenceCi", reasons) as Pair | null,
      precision: precisionPi ? valueOf(precisionPi, "precisionAtPrevalence", reasons) : null,
      recall: rates.recall.value,
      expectedCostPer1k: valueOf(expectedCostAt(counts, t, cost), "expectedCostPer1k", reasons),
      costOptimal: optimumDetail,
    },
    prCurve: pr.value?.recall ? chartCurve(pr.value.recall, pr.value.precision, pr.value.thresholds, [opIndex]) : null,
    prCurveAtPrevalence: prPi?.value?.recall ? chartCurve(prPi.value.recall, prPi.value.precision, prPi.value.thresholds, [opIndex]) : null,
    rocCurve: roc.value ? chartCurve(roc.value.fpr, roc.value.tpr, roc.value.thresholds, []) : null,
    costCurve: costs.value ? chartCurve(costs.value.thresholds, costs.value.costPer1k, costs.value.thresholds, [opIndex]) : null,
    precisionVersusPrevalence: tpr !== null && fpr !== null ? precisionVersusPrevalence(tpr, fpr, [...PREVALENCE_GRID, options.prevalence]) : [],
    reliability: probabilities ? valueOf(reliabilityTable(vLabels, vScores), "reliability", reasons) : null,
    slices: slices.map((s) => ({ ...s, tooFewPositives: tooFewPositives(s.positives, s.interval) })),
    recallTooFewPositives: recallCi ? tooFewPositives(positives, recallCi) : true,
    undefinedReasons: reasons,
  };
}
