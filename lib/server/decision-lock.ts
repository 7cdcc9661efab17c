import "server-only";
import { frozenReason, type DecisionState } from "@/lib/decisions/editable";
import type { Tx } from "./db";
import { AppError, notFoundError } from "./errors";

export type LockedDecision = DecisionState & { id: string; quorum: number; evaluationDatasetVersionId: number | null };

/**
 * Takes the decision's row lock for the rest of the transaction and returns its state. Every
 * change of a decision's content and every status transition takes it first, so a parameter edit
 * sent together with "submit" either lands before the pack is frozen or is refused after.
 */
export async function lockDecisionRow(tx: Tx, decisionId: string): Promise<LockedDecision> {
  const rows = await tx.$queryRaw<LockedDecision[]>`
    SELECT id, status::text AS status, "archivedAt", quorum, "evaluationDatasetVersionId"
      FROM "Decision" WHERE id = ${decisionId} FOR UPDATE`;
  const row = rows[0];
  if (!row) throw notFoundError("The decision");
  return row;
}

/** The row lock, then the one editability rule (lib/decisions/editable.ts): 409 when frozen. */
export async function lockEditableDecision(tx: Tx, decisionId: string): Promise<LockedDecision> {
  const decision = await lockDecisionRow(tx, decisionId);
  const reason = frozenReason(decision);
  if (reason) throw new AppError("CONFLICT", reason);
  return decision;
}
