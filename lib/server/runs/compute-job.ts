import "server-only";
import type { Database } from "@/lib/db/connect";
import { computeComparisons } from "./comparisons";
import { comparisonsStale } from "./comparison-state";
import { computeEvalRun } from "./eval-runs";
import { jobCheckpoint } from "./job-checkpoint";
import { withComparisonsLock } from "./run-lock";

/**
 * waiting: a run of the decision still waits for its job (the last one pairs them);
 * current: nothing was marked since the pairs were stored; stored: recomputed now;
 * superseded: marked again while computing, left to the job of that change.
 */
export type ComparisonsOutcome = "waiting" | "current" | "stored" | "superseded";

/**
 * What a background job does for a loaded or recomputed run: its metrics, then the decision's
 * paired comparisons when they are stale and no other run waits (several runs recomputed after
 * one parameter change: the last job to finish pairs them all once). The comparisons are
 * attempted even after the run failed or was already computed by an earlier job: a job lost
 * between the two steps left them stale, and this is where they catch up.
 */
export async function computeRunAndComparisons(
  database: Database,
  runId: number,
): Promise<{ metrics: "computed" | "unchanged"; comparisons: ComparisonsOutcome }> {
  let failure: { error: unknown } | null = null;
  let computed = false;
  try {
    computed = await computeEvalRun(database, runId);
  } catch (error) {
    failure = { error }; // stored on the run (FAILED); the pairs change all the same
  }
  await jobCheckpoint("metrics-stored");
  const run = await database.prisma.evalRun.findUnique({ where: { id: runId }, select: { decisionId: true } });
  const comparisons = run ? await computeComparisonsIfDue(database, run.decisionId) : "current";
  if (failure) throw failure.error;
  return { metrics: computed ? "computed" : "unchanged", comparisons };
}

/**
 * The comparisons job (queued by recovery, or after a change that re-queues no run): under the
 * decision's comparisons lock, so two jobs never compute them at once — the second waits, then
 * finds them current.
 */
export async function computeComparisonsIfDue(database: Database, decisionId: string): Promise<ComparisonsOutcome> {
  return withComparisonsLock(database, decisionId, async () => {
    const waiting = await database.prisma.evalRun.count({
      where: { decisionId, status: { in: ["PENDING", "RUNNING"] } },
    });
    if (waiting > 0) return "waiting";
    if (!(await comparisonsStale(database.prisma, decisionId))) return "current";
    return (await computeComparisons(database, decisionId)) === null ? "superseded" : "stored";
  });
}
