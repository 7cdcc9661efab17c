import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";
import type { OperatingFigures } from "@/lib/metrics/operating-point";
import { bootstrapCoverageLabel } from "@/lib/metrics/coverage";
import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";
import type { PackCandidate, PackRun } from "./pack-data";

/**
 * Each candidate's operating point as the pack states it (stage 4, the JSON export, the PDF):
 * its threshold, how it was chosen, the in-sample figures beside the held-out ones and the
 * threshold's interval. Pure; one shape for every reader.
 */
export interface OperatingPointRow {
  candidateId: string;
  name: string;
  rule: OperatingRuleKind;
  ruleLabel: string;
  threshold: number | null;
  /** How the threshold was chosen, or why the rule does not apply. */
  how: string;
  thresholdInterval: readonly [number, number] | null;
  /** What the threshold interval's coverage is (issue 27); "95 %" for runs computed before it said. */
  thresholdIntervalCoverage: string | null;
  inSample: OperatingFigures | null;
  heldOut: OperatingFigures | null;
  /** Where the held-out recall or cost interval's measured coverage is not 95 % at this many positives, what it is. */
  heldOutCoverage: string | null;
  meetsFloors: boolean | null;
  shortfall: { recall: number | null; precision: number | null } | null;
}

export function operatingPointRows(
  rule: OperatingRuleKind,
  candidates: readonly Pick<PackCandidate, "id" | "name">[],
  runs: readonly Pick<PackRun, "candidateId" | "metrics">[],
): OperatingPointRow[] {
  return candidates.map((c) => {
    const m = runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    const op = m?.operatingPoint;
    const base = {
      candidateId: c.id,
      name: c.name,
      rule,
      ruleLabel: OPERATING_RULE_LABELS[rule],
      threshold: m?.parameters.threshold ?? null,
      thresholdInterval: null,
      thresholdIntervalCoverage: null,
      inSample: null,
      heldOut: null,
      heldOutCoverage: null,
      meetsFloors: null,
      shortfall: null,
    };
    if (!m) return { ...base, how: "no computed eval run" };
    if (!op)
      return {
        ...base,
        how:
          rule === "FIXED"
            ? "fixed: the decision's threshold, or the candidate's own"
            : "computed before the rule was set: recomputing",
      };
    if (!op.applies) return { ...base, rule: op.rule, ruleLabel: OPERATING_RULE_LABELS[op.rule], how: op.reason };
    const halves = op.split.parts.map((p) => p.threshold ?? "—").join(" and ");
    const how =
      op.method === "cross-fitted"
        ? `${OPERATING_RULE_LABELS[op.rule].toLowerCase()} on all items; figures cross-fitted (chosen on one half at ${halves}, reported on the other, pooled)`
        : `${OPERATING_RULE_LABELS[op.rule].toLowerCase()} on all items; ${op.note}`;
    return {
      ...base,
      rule: op.rule,
      ruleLabel: OPERATING_RULE_LABELS[op.rule],
      threshold: op.threshold,
      how: op.meetsFloors ? how : `${how}; no threshold meets every floor, the closest is shown`,
      thresholdInterval: op.thresholdInterval,
      thresholdIntervalCoverage: op.thresholdIntervalCoverage ?? "95 %",
      inSample: op.inSample,
      heldOut: op.heldOut,
      heldOutCoverage: heldOutCoverage(op.heldOut),
      meetsFloors: op.meetsFloors,
      shortfall: op.shortfall,
    };
  });
}

/** "held-out recall interval ≈ 92 % coverage at this many positives; …", or null where both are nominal (issue 27). */
function heldOutCoverage(f: OperatingFigures): string | null {
  const parts = (
    [
      ["recall", "heldOutRecall"],
      ["cost", "heldOutCost"],
    ] as const
  ).flatMap(([name, key]) => {
    const label = bootstrapCoverageLabel(key, f.positives, f.negatives);
    return label ? [`held-out ${name} interval: ${label}`] : [];
  });
  return parts.length > 0 ? parts.join("; ") : null;
}
