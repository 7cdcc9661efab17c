import "server-only";
import type { Database } from "@/lib/db/connect";
import { recordAudit, type RequestInfo } from "../audit/write";
import type { Tx } from "../db";
import { enqueueComputeRun } from "./queue";
import { markComparisonsStale } from "./comparison-state";
import type { Actor } from "../actors";

/** Task parameters that are inputs of an eval run's stored metrics (SPEC §4: π, costs, threshold). */
export const METRIC_INPUTS = ["prevalence", "costFn", "costFp", "operatingThreshold", "operatingRule"] as const;
/** Inputs of the stored metrics only when a rule chooses the threshold (issue 14): the floors bound its choice. */
export const RULE_INPUTS = ["recallFloor", "precisionFloor"] as const;

/** The changed parameters that change the stored metrics, given the decision's rule after the change. */
export function metricInputsChanged(changed: readonly string[], operatingRule: string): string[] {
  const inputs: readonly string[] = operatingRule === "FIXED" ? METRIC_INPUTS : [...METRIC_INPUTS, ...RULE_INPUTS];
  return inputs.filter((k) => changed.includes(k));
}

/**
 * Marks the computed runs whose stored metrics depend on a changed parameter as PENDING, in the
 * caller's transaction (with its audit event), and returns their ids for `enqueueRecompute` to
 * hand to the job queue after the commit. Until they are DONE again the pack says "recomputing"
 * and submitting is refused. Only one candidate's runs when only its own threshold changed. A run
 * whose job is computing with the old inputs (RUNNING) is marked too: that job then finds its run
 * no longer RUNNING and drops its result (computeEvalRun), and the new job stores the right one.
 * The decision's paired comparisons are marked stale with them (comparison-state.ts).
 */
export async function markRunsForRecompute(
  tx: Tx,
  actor: Actor,
  decisionId: string,
  reason: string,
  request: RequestInfo,
  candidateId?: string,
): Promise<number[]> {
  const rows = candidateId
    ? await tx.$queryRaw<
        { id: number }[]
      >`UPDATE "EvalRun" SET status = 'PENDING', progress = 0 WHERE "decisionId" = ${decisionId} AND "candidateId" = ${candidateId} AND status IN ('DONE', 'RUNNING') RETURNING id`
    : await tx.$queryRaw<
        { id: number }[]
      >`UPDATE "EvalRun" SET status = 'PENDING', progress = 0 WHERE "decisionId" = ${decisionId} AND status IN ('DONE', 'RUNNING') RETURNING id`;
  const runIds = rows.map((r) => r.id).sort((a, b) => a - b);
  if (runIds.length > 0) {
    await markComparisonsStale(tx, decisionId);
    await recordAudit(tx, {
      actor,
      action: "eval_run.recompute_queued",
      entityType: "Decision",
      entityId: decisionId,
      decisionId,
      after: { runIds, reason, candidateId: candidateId ?? null },
      request,
    });
  }
  return runIds;
}

/** After the commit: one job per run (the last to finish recomputes the paired comparisons). */
export async function enqueueRecompute(database: Database, runIds: readonly number[]): Promise<void> {
  for (const id of runIds) await enqueueComputeRun(database, id);
}
