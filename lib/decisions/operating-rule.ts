import type { OperatingRuleKind } from "@/lib/metrics/threshold-rule";

/** How the pack, the forms and the exports name each operating-point rule (issue 14). */
export const OPERATING_RULE_LABELS: Record<OperatingRuleKind, string> = {
  COST_OPTIMAL: "Cost-optimal within the floors",
  BEST_PRECISION_AT_RECALL_FLOOR: "Best precision at the recall floor",
  FIXED: "Fixed threshold",
};
