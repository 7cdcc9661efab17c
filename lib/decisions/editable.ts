/**
 * "Is this decision editable?" — the one rule, used by every page, action, route, import and
 * CLI command (the server applies it under the decision's row lock, pages to show or hide forms).
 * Task parameters, candidates, rationale, resemblance answers and evidence change only while the
 * decision is a draft (DRAFT, or CHANGES_REQUESTED on its way back to one) and not archived:
 * submitting freezes them into a pack revision that signatures bind to.
 */
export type DecisionStatusName = "DRAFT" | "IN_REVIEW" | "CHANGES_REQUESTED" | "APPROVED" | "REJECTED";

export interface DecisionState {
  status: DecisionStatusName;
  archivedAt: Date | string | null;
}

export const statusLabel = (status: DecisionStatusName) => status.toLowerCase().replace("_", " ");

export function isEditable(decision: DecisionState): boolean {
  return (decision.status === "DRAFT" || decision.status === "CHANGES_REQUESTED") && !decision.archivedAt;
}

/** Why nothing of the decision can change now, or null when it is editable. */
export function frozenReason(decision: DecisionState): string | null {
  if (decision.archivedAt) return "The decision is archived: restore it to change it.";
  if (isEditable(decision)) return null;
  return `The decision is ${statusLabel(decision.status)}: its parameters, candidates and evidence are frozen.`;
}

/**
 * May the decision be submitted for review now: a draft, or an approved or rejected decision whose
 * evidence changed since its revision (it goes back to review, its signatures superseded). What a
 * draft must still contain is checked on the server (lib/server/signoff/submission-check.ts).
 */
export function isSubmittable(decision: DecisionState, evidenceChanged: boolean): boolean {
  if (decision.archivedAt) return false;
  return (
    isEditable(decision) || ((decision.status === "APPROVED" || decision.status === "REJECTED") && evidenceChanged)
  );
}
