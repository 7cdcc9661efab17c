import "server-only";
import { frozenReason, type DecisionState } from "@/lib/decisions/editable";
import type { Tx } from "../db";
import { AppError, notFoundError } from "../errors";

export type LockedDecision = DecisionState & {
  id: string;
  quorum: number;
  evaluationDatasetVersionId: number | null;
  positiveClass: string;
};

/**
 * Takes the decision's row lock for the rest of the transaction and returns its state. Every
 * change of a decision's content and every status transition takes it first, so a parameter edit
 * sent together with "submit" either lands before the pack is frozen or is refused after.
 */
export async function lockDecisionRow(
  tx: Tx,
  decisionId: string,
  mode: DecisionLockMode = "UPDATE",
): Promise<LockedDecision> {
  const rows = await tx.$queryRawUnsafe<LockedDecision[]>(decisionLockSql(mode), decisionId);
  const row = rows[0];
  if (!row) throw notFoundError("The decision");
  return row;
}

/**
 * UPDATE: edits, transitions, signatures (one at a time). SHARE: imports that only add rows
 * under the decision, so two uploads into one decision still run side by side while an edit or a
 * submission (UPDATE) waits for them to commit — and they wait for it.
 */
export type DecisionLockMode = "UPDATE" | "SHARE";

/** The one locking read of a decision (Prisma here, the raw import transactions in imports/import-record.ts). */
export const decisionLockSql = (mode: DecisionLockMode) =>
  `SELECT id, status::text AS status, "archivedAt", quorum, "evaluationDatasetVersionId", "positiveClass"
     FROM "Decision" WHERE id = $1 FOR ${mode === "SHARE" ? "SHARE" : "UPDATE"}`;

/** The row lock, then the one editability rule (lib/decisions/editable.ts): 409 when frozen. */
export async function lockEditableDecision(
  tx: Tx,
  decisionId: string,
  mode: DecisionLockMode = "UPDATE",
): Promise<LockedDecision> {
  const decision = await lockDecisionRow(tx, decisionId, mode);
  const reason = frozenReason(decision);
  if (reason) throw new AppError("CONFLICT", reason);
  return decision;
}
