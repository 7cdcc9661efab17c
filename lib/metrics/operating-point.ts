import type { PreparedRanking } from "./bootstrap";
import { expectedCostPer1k } from "./cost";
import { moverRatio, moverSum, percentileInterval, wilsonInterval, type Interval } from "./intervals";
import { precisionAtPrevalence } from "./prevalence";
import { Xoshiro128 } from "./random";
import { selectGroup, type OperatingRuleKind, type SelectingRuleKind, type SelectionRule } from "./threshold-rule";
import type { Labels } from "./validate";

/**
 * A candidate's operating point under a decision's rule (issue 14), chosen and reported without
 * optimism by cross-fitting:
 *   1. the items are split once, seeded, into halves A and B, stratified by label and slice
 *      ({@link splitInHalves}; the same split for every candidate on the same dataset version);
 *   2. the rule chooses t_A on A and t_B on B; B's counts at t_A and A's counts at t_B are pooled
 *      into the held-out figures (recall, precision at π, expected cost, each with an interval);
 *   3. the threshold deployed is the rule's choice on all items, its in-sample figures are shown
 *      beside the held-out ones (the optimism removed), and its uncertainty is a percentile interval
 *      of the rule's choice over the stratified bootstrap, read at a level calibrated to cover 95 %
 *      ({@link thresholdIntervalLevel}) (the replicates that give AP's
 *      interval: the choice is O(K) per replicate on the same histograms, no extra draw or sort).
 * The held-out figures estimate what the rule delivers on new items when it chooses on half as
 * many; so they are, if anything, slightly conservative for the threshold chosen on all items.
 * When a half lacks positives or negatives there is nothing to choose on: the figures are
 * in-sample and `note` says so.
 */
export interface OperatingFigures {
  tp: number;
  fp: number;
  positives: number;
  negatives: number;
  recall: number;
  /** Wilson 95% interval of TP/P. */
  recallInterval: Interval | null;
  /** Precision at π (SPEC §4); null when nothing is predicted positive. */
  precision: number | null;
  /** MOVER-R on the Wilson 95 % intervals of FPR and TPR (see {@link operatingFigures}). */
  precisionInterval: Interval | null;
  expectedCostPer1k: number;
  costInterval: Interval | null;
}

export interface OperatingPoint {
  applies: true;
  rule: SelectingRuleKind;
  /** The threshold deployed: the rule's choice on all items. */
  threshold: number;
  /**
   * 95 % interval of the population's best threshold under the rule: a percentile interval of the
   * rule's choice over the bootstrap at the calibrated level {@link thresholdIntervalLevel}; null
   * without replicates.
   */
  thresholdInterval: Interval | null;
  /** The bootstrap percentile level the interval is read at (absent in runs computed before issue 27: 95). */
  thresholdIntervalLevel?: number;
  /** What the interval's coverage is, in words, for the pack's label (absent before issue 27). */
  thresholdIntervalCoverage?: string;
  replicates: number;
  /** Whether a threshold meeting every floor exists on all items; false: the closest is chosen. */
  meetsFloors: boolean;
  method: "cross-fitted" | "in-sample";
  note: string | null;
  split: { seed: number; parts: { positives: number; negatives: number; threshold: number | null }[] };
  inSample: OperatingFigures;
  heldOut: OperatingFigures;
  /** By how much the held-out figures miss each floor (positive), null where met or not set. */
  shortfall: { recall: number | null; precision: number | null };
}

/** The decision has a rule, but it cannot choose for this run (hard labels, one class). */
export interface RuleNotApplied {
  applies: false;
  rule: OperatingRuleKind;
  reason: string;
}

/** Positives at which the threshold interval's coverage was measured (bench/intervals.ts). */
export const THRESHOLD_COVERAGE_MEASURED = { fewest: 40, most: 300 } as const;

/**
 * The percentile level at which the bootstrap's threshold choices give a 95 % interval (issue 27).
 * The rule's choice is an argmin of an empirical cost, a cube-root estimator, for which the
 * percentile bootstrap is not consistent: at 40 positives among 2,000 items its 95 % percentile
 * interval covered the population optimum only ≈ 88 % of the time (the project's own simulation
 * and an independent one), while at 300 positives it is near nominal. The level is widened where
 * positives are few, as measured by `npm run bench:intervals` (binormal populations, 2 % and 10 %
 * positives): 99 at ≤ 40 positives, 95 at ≥ 300, and in between linear in log(positives).
 * Chosen over the alternatives by the same simulation: the basic (reflected) interval covered
 * 0.53–0.78; an m-out-of-n bootstrap needs m and a rescaling by (m/n)^⅓ that are unstable at 40
 * positives; a smoothed bootstrap needs a bandwidth and a re-sort per replicate. The calibrated
 * level costs nothing: the same replicates, read at other percentiles. The calibration is the
 * binormal population's: at 40 positives the level that covers 95 % depends on the scores'
 * distribution (an exponential population covers ≈ 0.975 at 99, threshold-coverage.test.ts).
 */
export function thresholdIntervalLevel(positives: number): number {
  const { fewest, most } = THRESHOLD_COVERAGE_MEASURED;
  if (positives <= fewest) return 99;
  if (positives >= most) return 95;
  return 99 - (4 * Math.log(positives / fewest)) / Math.log(most / fewest);
}

/** The threshold interval's coverage in words: measured near 95 % from 40 positives up; not measured below. */
export function thresholdCoverageLabel(positives: number): string {
  return positives >= THRESHOLD_COVERAGE_MEASURED.fewest
    ? "95 % (bootstrap percentiles widened to the level that covers 95 % in simulation)"
    : `coverage not measured below ${THRESHOLD_COVERAGE_MEASURED.fewest} positives (${positives} here): read it as rough`;
}

export const HARD_LABELS_REASON =
  "hard labels: one operating point, so the rule does not apply (a threshold needs scores)";

/**
 * Assigns each item to half 0 or 1, stratified by (label, slice): within a stratum, items are
 * taken in order in pairs and a seeded coin sends one of each pair to each half (an odd last item
 * gets a coin of its own), so every stratum is split evenly to within one item. O(n); the same
 * labels, slices, order and seed give the same split.
 */
export function splitInHalves(labels: Labels, slices: ArrayLike<string | null> | undefined, seed: number): Uint8Array {
  const rng = new Xoshiro128(seed);
  const part = new Uint8Array(labels.length);
  const sliceIds = new Map<string | null, number>();
  const pending: number[] = []; // per stratum (2·slice + label): the item waiting for its pair, or −1
  for (let i = 0; i < labels.length; i++) {
    const slice = slices ? (slices[i] ?? null) : null;
    let id = sliceIds.get(slice);
    if (id === undefined) sliceIds.set(slice, (id = sliceIds.size));
    const stratum = 2 * id + (labels[i] as number);
    const waiting = pending[stratum] ?? -1;
    if (waiting < 0) {
      pending[stratum] = i;
      continue;
    }
    const coin = rng.nextUint32() & 1;
    part[waiting] = coin;
    part[i] = 1 - coin;
    pending[stratum] = -1;
  }
  for (const i of pending) if (i !== undefined && i >= 0) part[i] = rng.nextUint32() & 1;
  return part;
}

interface Histograms {
  pos: Int32Array;
  neg: Int32Array;
  positives: number;
  negatives: number;
}

function histogramsOf(ranking: PreparedRanking, labels: Labels, part: Uint8Array): [Histograms, Histograms] {
  const make = (): Histograms => ({
    pos: new Int32Array(ranking.groups),
    neg: new Int32Array(2 * ranking.groups + 1),
    positives: 0,
    negatives: 0,
  });
  const halves: [Histograms, Histograms] = [make(), make()];
  for (let i = 0, p = 0, q = 0; i < labels.length; i++) {
    const h = halves[part[i] as 0 | 1];
    if (labels[i] === 1) {
      h.pos[ranking.positiveGroup[p++] as number]!++;
      h.positives++;
    } else {
      h.neg[ranking.negativeSegment[q++] as number]!++;
      h.negatives++;
    }
  }
  return halves;
}

/** (TP, FP) of s ≥ t_g on a histogram. */
function countsAtGroup(h: Histograms, group: number): { tp: number; fp: number } {
  let tp = 0;
  let fp = 0;
  for (let k = 0; k <= group; k++) {
    tp += h.pos[k] as number;
    fp += (h.neg[2 * k] as number) + (h.neg[2 * k + 1] as number);
  }
  return { tp, fp };
}

/**
 * Recall, precision at π and expected cost of (TP, FP) out of (P, N), with their 95 % intervals:
 * recall's is Wilson's; precision at π = 1/(1 + (1−π)/π · FPR/TPR) and the expected cost (linear
 * in TPR and FPR) combine the Wilson intervals of TPR and FPR by MOVER (`moverRatio`,
 * `moverSum`), which keeps the nominal level — the corners of the two intervals (both ends at
 * once) covered ≈ 99–100 % (issue 27, `npm run bench:intervals`).
 */
export function operatingFigures(
  tp: number,
  fp: number,
  positives: number,
  negatives: number,
  rule: SelectionRule,
): OperatingFigures {
  const recall = wilsonInterval(tp, positives).value;
  const fpr = wilsonInterval(fp, negatives).value;
  const r = tp / positives;
  const f = fp / negatives;
  const k = (1 - rule.prevalence) / rule.prevalence;
  const ratio = recall && fpr && r > 0 ? moverRatio(f, fpr, r, recall) : null;
  const scale = 1000;
  const cost =
    recall && fpr
      ? moverSum([
          { c: -scale * rule.prevalence * rule.costFalseNegative, p: r, interval: recall },
          { c: scale * (1 - rule.prevalence) * rule.costFalsePositive, p: f, interval: fpr },
        ])
      : null;
  const costOffset = scale * rule.prevalence * rule.costFalseNegative;
  return {
    tp,
    fp,
    positives,
    negatives,
    recall: r,
    recallInterval: recall,
    precision: precisionAtPrevalence(r, f, rule.prevalence).value,
    precisionInterval: ratio ? [1 / (1 + k * ratio[1]), 1 / (1 + k * ratio[0])] : null,
    expectedCostPer1k: expectedCostPer1k(r, f, rule),
    costInterval: cost ? [Math.max(0, costOffset + cost[0]), costOffset + cost[1]] : null,
  };
}

/**
 * The operating point of one run under `rule` (see the interface's comment). `part` is the
 * split ({@link splitInHalves}); `thresholdReplicates` the rule's choice per bootstrap replicate
 * (`bootstrapReplicates` with `selection`). Needs both classes in the run.
 */
export function chooseOperatingPoint(
  ranking: PreparedRanking,
  labels: Labels,
  part: Uint8Array,
  rule: SelectionRule,
  splitSeed: number,
  thresholdReplicates: Float64Array | null,
): OperatingPoint {
  const [a, b] = histogramsOf(ranking, labels, part);
  const all: Histograms = {
    pos: a.pos.map((v, k) => v + (b.pos[k] as number)),
    neg: a.neg.map((v, k) => v + (b.neg[k] as number)),
    positives: a.positives + b.positives,
    negatives: a.negatives + b.negatives,
  };
  const chosen = selectGroup(all.pos, all.neg, all.positives, all.negatives, rule);
  if (!chosen) throw new RangeError("the operating-point rule needs both classes");
  const atAll = countsAtGroup(all, chosen.group);
  const inSample = operatingFigures(atAll.tp, atAll.fp, all.positives, all.negatives, rule);
  const selA = selectGroup(a.pos, a.neg, a.positives, a.negatives, rule);
  const selB = selectGroup(b.pos, b.neg, b.positives, b.negatives, rule);
  let heldOut = inSample;
  let note: string | null = null;
  if (selA && selB) {
    const onB = countsAtGroup(b, selA.group);
    const onA = countsAtGroup(a, selB.group);
    heldOut = operatingFigures(onB.tp + onA.tp, onB.fp + onA.fp, all.positives, all.negatives, rule);
  } else {
    const [name, h] = selA ? ["B", b] : ["A", a];
    note = `half ${name} has ${h.positives === 0 ? "no positives" : "no negatives"}: the threshold is chosen and reported on all items (in-sample, so optimistic)`;
  }
  const finite = thresholdReplicates ? thresholdReplicates.filter(Number.isFinite) : null;
  const miss = (value: number | null, floor: number | null) =>
    floor === null || value === null || value >= floor ? null : floor - value;
  return {
    applies: true,
    rule: rule.kind,
    threshold: ranking.groupScores[chosen.group] as number,
    thresholdInterval:
      finite && finite.length > 0 ? percentileInterval(finite, thresholdIntervalLevel(all.positives)) : null,
    thresholdIntervalLevel: thresholdIntervalLevel(all.positives),
    thresholdIntervalCoverage: thresholdCoverageLabel(all.positives),
    replicates: finite?.length ?? 0,
    meetsFloors: chosen.meetsFloors,
    method: note === null ? "cross-fitted" : "in-sample",
    note,
    split: {
      seed: splitSeed,
      parts: [
        {
          positives: a.positives,
          negatives: a.negatives,
          threshold: selA ? (ranking.groupScores[selA.group] as number) : null,
        },
        {
          positives: b.positives,
          negatives: b.negatives,
          threshold: selB ? (ranking.groupScores[selB.group] as number) : null,
        },
      ],
    },
    inSample,
    heldOut,
    shortfall: {
      recall: miss(heldOut.recall, rule.recallFloor),
      precision: miss(heldOut.precision ?? 0, rule.precisionFloor),
    },
  };
}
