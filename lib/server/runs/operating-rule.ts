import "server-only";
import { createHash } from "node:crypto";
import type { SummarizeOptions } from "@/lib/metrics";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import type { RunInput } from "@/lib/pack/run-input";

export interface RuleInputs {
  operatingRule: OperatingRuleKind;
  prevalence: number;
  costFn: number;
  costFp: number;
  recallFloor: number;
  precisionFloor: number | null;
}

/**
 * The split of a decision's items into halves is seeded by the decision (issue 14: "split once
 * per decision"): every candidate's run on the same dataset version gets the same halves, and a
 * recomputation the same figures. 31 bits of SHA-256("verdict.split:" + decision id).
 */
export function splitSeedOf(decisionId: string): number {
  return createHash("sha256").update(`verdict.split:${decisionId}`).digest().readUInt32BE(0) >>> 1;
}

/**
 * summarize()'s options for the decision's operating-point rule; under FIXED none but whether the
 * run has hard labels only (its ranking metrics are then undefined, whatever the rule).
 */
export function operatingRuleOptions(
  d: RuleInputs,
  decisionId: string,
  scoreKind: RunInput["scoreKind"],
): Pick<SummarizeOptions, "operatingRule" | "splitSeed" | "hardLabels"> {
  if (d.operatingRule === "FIXED") return scoreKind === "hard-labels" ? { hardLabels: true } : {};
  return {
    operatingRule: {
      kind: d.operatingRule,
      prevalence: d.prevalence,
      costFalseNegative: d.costFn,
      costFalsePositive: d.costFp,
      recallFloor: d.recallFloor,
      precisionFloor: d.precisionFloor,
    },
    splitSeed: splitSeedOf(decisionId),
    hardLabels: scoreKind === "hard-labels",
  };
}
