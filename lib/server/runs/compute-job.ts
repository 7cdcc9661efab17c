import "server-only";
import type { Database } from "@/lib/db/connect";
import { computeComparisons } from "./comparisons";
import { computeEvalRun } from "./eval-runs";

/**
 * What a background job does for a freshly loaded run: its metrics, then the decision's paired
 * comparisons (the new run changes which runs are newest, so every pair is recomputed).
 */
export async function computeRunAndComparisons(database: Database, runId: number): Promise<void> {
  if (!(await computeEvalRun(database, runId))) return; // a stale or duplicate job: nothing new to pair
  const run = await database.prisma.evalRun.findUniqueOrThrow({ where: { id: runId }, select: { decisionId: true } });
  // Several runs recomputed after one parameter change: each job has marked its own run DONE
  // before this check, so the last one to get here sees none left and pairs them all once.
  const waiting = await database.prisma.evalRun.count({
    where: { decisionId: run.decisionId, status: { in: ["PENDING", "RUNNING"] } },
  });
  if (waiting === 0) await computeComparisons(database, run.decisionId);
}
