import type { OperatingPoint, RuleNotApplied } from "@/lib/metrics/operating-point";
import type { RunFigures } from "./pack-data";

/** A run's stored figures with the operating point its decision's rule chose (absent under FIXED). */
export type RunFiguresWithOperatingPoint = RunFigures & { operatingPoint?: OperatingPoint | RuleNotApplied };

const HELD_OUT = "held out";
const IN_SAMPLE = "in-sample";
export const HELD_OUT_BASIS = `${HELD_OUT}: threshold chosen on the other half of the items`;
export const IN_SAMPLE_BASIS = `${IN_SAMPLE}: a half lacked a class, so the threshold was chosen on the items it is reported on`;
/** A what-if threshold overrides the rule (lib/pack/what-if-pack.ts): its figures are read on all items. */
export const WHAT_IF_IN_SAMPLE_BASIS = `${IN_SAMPLE}: the what-if threshold replaces the rule's choice, read on all items`;

/** A basis's short name ("held out" or "in-sample"), for places that have no room for the reason. */
export const basisName = (basis: string): string => (basis === HELD_OUT_BASIS ? HELD_OUT : IN_SAMPLE);

/**
 * The figures the gates, the funnel, the total cost and the task ranks judge a run by (issue 14):
 * under a rule that chooses the threshold, the held-out figures at the chosen threshold — never
 * the in-sample ones, which are optimistic — with AP at π (threshold-free) as stored; otherwise
 * (FIXED, hard labels, a frozen pack from before the rule) the stored figures unchanged.
 * Idempotent: figures without an operating point pass through.
 */
export function runFigures<T extends RunFiguresWithOperatingPoint>(m: T): RunFigures {
  const op = m.operatingPoint;
  if (!op?.applies) return m;
  const h = op.heldOut;
  return {
    report: {
      n: m.report.n,
      atThreshold: { recall: h.recall },
      reweighted: {
        averagePrecision: m.report.reweighted?.averagePrecision ?? null,
        precision: h.precision,
        expectedCostPer1k: h.expectedCostPer1k,
      },
    },
    recallInterval: h.recallInterval,
    basis: op.method === "cross-fitted" ? HELD_OUT_BASIS : IN_SAMPLE_BASIS,
  };
}
