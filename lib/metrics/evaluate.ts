import { averagePrecision } from "./average-precision";
import { bootstrapReplicates, intervalsOf, prepareRanking, type Replicates } from "./bootstrap";
import { brierScore, logLoss } from "./calibration";
import { confusionFromCounts, ratesAt } from "./confusion";
import { costOptimalThreshold, expectedCostAt, type CostModel } from "./cost";
import { wilsonInterval, type Interval } from "./intervals";
import { precisionRecallCurve } from "./pr-curve";
import { precisionAtPrevalence, prevalenceWeights } from "./prevalence";
import { rankCounts, type RankedCounts } from "./ranking";
import { REASONS, type Maybe } from "./result";
import { rocAuc } from "./roc";
import { prAucTrapezoid } from "./trapezoid";
import type { Labels, Scores } from "./validate";

export interface EvaluateOptions {
  /** Operating threshold t (predict positive ⇔ s ≥ t); default 0.5. */
  readonly threshold?: number;
  /** Deployment prevalence π in (0, 1). */
  readonly prevalence?: number;
  /** Error costs; used with a prevalence. */
  readonly costFalseNegative?: number;
  readonly costFalsePositive?: number;
  /** Include the full PR curve. */
  readonly curve?: boolean;
  /** Stratified bootstrap resamples (0 or absent: no intervals). */
  readonly bootstrap?: number;
  readonly seed?: number;
  /** Bootstrap replicates computed elsewhere (e.g. on worker threads by lib/compute) with the same B and seed. */
  readonly replicates?: Replicates;
}

type N = number | null;

/** The summary of one eval run, as printed by `verdict metrics` (issue 3 §3). */
export interface MetricsReport {
  n: number;
  positives: number;
  negatives: number;
  averagePrecision: N;
  rocAuc: N;
  prAucTrapezoid: N;
  brier: N;
  logLoss: N;
  undefinedReasons: Record<string, string>;
  atThreshold: {
    threshold: number;
    tp: number;
    fp: number;
    tn: number;
    fn: number;
    precision: N;
    recall: N;
    f1: N;
    fpr: N;
  };
  curve?: { precision: number[]; recall: number[] | null; thresholds: number[] };
  reweighted?: {
    prevalence: number;
    averagePrecision: N;
    precision: N;
    recall: N;
    expectedCostPer1k?: N;
    costOptimalThreshold?: N;
    costOptimalExpectedCostPer1k?: N;
  };
  intervals?: {
    precision: Interval | null;
    recall: Interval | null;
    averagePrecision: Interval | null;
    rocAuc: Interval | null;
    averagePrecisionAtPrevalence?: Interval | null;
  };
}

export const DEFAULT_THRESHOLD = 0.5;

/**
 * Every summary figure of one eval run from (labels, scores), sorting once: the shared code path
 * of the `verdict metrics` command and of the stored {@link RunMetrics}. A null value always has
 * its reason in `undefinedReasons`, keyed by the value's path ("atThreshold.precision").
 */
export function evaluate(
  labels: Labels,
  scores: Scores,
  options: EvaluateOptions = {},
  counts: RankedCounts = rankCounts(labels, scores),
): MetricsReport {
  const reasons: Record<string, string> = {};
  const take = <T>(path: string, m: Maybe<T>): T | null => {
    if (m.value === null) reasons[path] = m.reason ?? REASONS.noItems;
    return m.value;
  };
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const curve = precisionRecallCurve(counts);
  const conf = confusionFromCounts(counts, threshold);
  const rates = ratesAt(conf);
  const report: MetricsReport = {
    n: labels.length,
    positives: counts.positives,
    negatives: counts.negatives,
    averagePrecision: take("averagePrecision", averagePrecision(counts)),
    rocAuc: take("rocAuc", rocAuc(counts)),
    prAucTrapezoid: take("prAucTrapezoid", curve.value ? prAucTrapezoid(curve.value) : curve),
    brier: take("brier", brierScore(labels, scores)),
    logLoss: take("logLoss", logLoss(labels, scores)),
    undefinedReasons: reasons,
    atThreshold: {
      threshold,
      tp: conf.tp,
      fp: conf.fp,
      tn: conf.tn,
      fn: conf.fn,
      precision: take("atThreshold.precision", rates.precision),
      recall: take("atThreshold.recall", rates.recall),
      f1: take("atThreshold.f1", rates.f1),
      fpr: take("atThreshold.fpr", rates.fpr),
    },
  };
  if (options.curve && curve.value) {
    const c = curve.value;
    if (!c.recall) reasons["curve.recall"] = c.recallReason ?? REASONS.noPositives;
    report.curve = {
      precision: Array.from(c.precision),
      recall: c.recall ? Array.from(c.recall) : null,
      thresholds: Array.from(c.thresholds),
    };
  }
  if (options.prevalence !== undefined)
    report.reweighted = reweighted(counts, options.prevalence, options, rates.recall, take);
  if (options.bootstrap) report.intervals = intervals(labels, scores, counts, conf, options, take);
  return report;
}

type Take = <T>(path: string, m: Maybe<T>) => T | null;

function reweighted(
  counts: RankedCounts,
  prevalence: number,
  options: EvaluateOptions,
  recall: Maybe<number>,
  take: Take,
): NonNullable<MetricsReport["reweighted"]> {
  const weights = prevalenceWeights(counts.positives, counts.negatives, prevalence);
  const conf = confusionFromCounts(counts, options.threshold ?? DEFAULT_THRESHOLD);
  const precision: Maybe<number> = weights.value
    ? precisionAtPrevalence(conf.tp / counts.positives, conf.fp / counts.negatives, prevalence)
    : { value: null, reason: weights.reason ?? REASONS.noPrevalence };
  const out: NonNullable<MetricsReport["reweighted"]> = {
    prevalence,
    averagePrecision: take(
      "reweighted.averagePrecision",
      weights.value
        ? averagePrecision(counts, weights.value)
        : { value: null, reason: weights.reason ?? REASONS.noPrevalence },
    ),
    precision: take("reweighted.precision", precision),
    recall: take("reweighted.recall", recall),
  };
  if (options.costFalseNegative !== undefined && options.costFalsePositive !== undefined) {
    const model: CostModel = {
      prevalence,
      costFalseNegative: options.costFalseNegative,
      costFalsePositive: options.costFalsePositive,
    };
    out.expectedCostPer1k = take(
      "reweighted.expectedCostPer1k",
      expectedCostAt(counts, options.threshold ?? DEFAULT_THRESHOLD, model),
    );
    const best = costOptimalThreshold(counts, model);
    out.costOptimalThreshold = take(
      "reweighted.costOptimalThreshold",
      best.value ? { value: best.value.threshold, reason: null } : best,
    );
    out.costOptimalExpectedCostPer1k = take(
      "reweighted.costOptimalExpectedCostPer1k",
      best.value ? { value: best.value.expectedCostPer1k, reason: null } : best,
    );
  }
  return out;
}

function intervals(
  labels: Labels,
  scores: Scores,
  counts: RankedCounts,
  conf: { tp: number; fp: number; fn: number },
  options: EvaluateOptions,
  take: Take,
): NonNullable<MetricsReport["intervals"]> {
  const both = counts.positives > 0 && counts.negatives > 0;
  const reason = counts.positives === 0 ? REASONS.noPositives : REASONS.noNegatives;
  const boot = both
    ? intervalsOf(
        options.replicates ??
          bootstrapReplicates([prepareRanking(labels, scores)], {
            replicates: options.bootstrap,
            seed: options.seed ?? 0,
            prevalence: options.prevalence,
          })[0]!,
      )
    : null;
  const none = { value: null, reason } as const;
  const out: NonNullable<MetricsReport["intervals"]> = {
    precision: take("intervals.precision", wilsonInterval(conf.tp, conf.tp + conf.fp)),
    recall: take("intervals.recall", wilsonInterval(conf.tp, conf.tp + conf.fn)),
    averagePrecision: take("intervals.averagePrecision", boot ? boot.averagePrecision : none),
    rocAuc: take("intervals.rocAuc", boot ? boot.rocAuc : none),
  };
  if (options.prevalence !== undefined)
    out.averagePrecisionAtPrevalence = take(
      "intervals.averagePrecisionAtPrevalence",
      boot ? boot.averagePrecisionAtPrevalence : none,
    );
  return out;
}
