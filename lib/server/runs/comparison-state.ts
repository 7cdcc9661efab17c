import "server-only";
import type { Database } from "@/lib/db/connect";
import type { Tx } from "../db";

/**
 * Whether a decision's paired comparisons are current (issue 30; the ComparisonState table):
 * the one place that marks them stale, stores them conditionally and says whether they are.
 *
 * Every transaction that changes the comparisons' inputs calls `markComparisonsStale` — a run's
 * result stored (eval-runs.ts), runs marked for recomputation (recompute.ts), the evaluation
 * dataset version changed (decisions.ts). A comparisons job reads `comparisonsWanted` before it
 * reads its inputs and stores its pairs with `claimComparisons` in the transaction that writes
 * them: only while nothing was marked since. So stale pairs are never taken for current ones, and
 * a crash at any step leaves them stale, for the job that follows or for recovery
 * (lib/server/maintenance/recovery.ts) to recompute.
 *
 * Lock order: this row is the last one any transaction locks (after the decision's and the runs'),
 * so marking it never closes a cycle; it has no foreign key for the same reason.
 */
export async function markComparisonsStale(tx: Tx, decisionId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "ComparisonState" ("decisionId", wanted) VALUES (${decisionId}, 1)
    ON CONFLICT ("decisionId") DO UPDATE SET wanted = "ComparisonState".wanted + 1, "updatedAt" = now()`;
}

/** The generation a comparisons job computes (0: never marked). Read before the job's inputs. */
export async function comparisonsWanted(database: Database, decisionId: string): Promise<number> {
  const row = await database.prisma.comparisonState.findUnique({ where: { decisionId }, select: { wanted: true } });
  return row?.wanted ?? 0;
}

/**
 * In the transaction that stores the pairs, after writing them: records generation `wanted` as
 * computed, unless the comparisons were marked again since the job read it. False: the caller
 * must roll back (its pairs are already stale; whoever marked them queues the next computation).
 */
export async function claimComparisons(tx: Tx, decisionId: string, wanted: number): Promise<boolean> {
  const claimed = await tx.$executeRaw`
    INSERT INTO "ComparisonState" ("decisionId", wanted, computed) VALUES (${decisionId}, ${wanted}, ${wanted})
    ON CONFLICT ("decisionId") DO UPDATE SET computed = EXCLUDED.computed, "updatedAt" = now()
      WHERE "ComparisonState".wanted = EXCLUDED.computed`;
  return claimed === 1;
}

/** Whether the decision's paired comparisons wait to be (re)computed. */
export async function comparisonsStale(client: Pick<Tx, "comparisonState">, decisionId: string): Promise<boolean> {
  const row = await client.comparisonState.findUnique({
    where: { decisionId },
    select: { wanted: true, computed: true },
  });
  return row !== null && row.wanted !== row.computed;
}

/** Decisions whose comparisons are stale while none of their runs waits for its job: recovery's to queue. */
export async function staleComparisonDecisions(
  database: Database,
  decisionId?: string,
): Promise<{ decisionId: string; markedAt: Date }[]> {
  return database.prisma.$queryRaw<{ decisionId: string; markedAt: Date }[]>`
    SELECT s."decisionId", s."updatedAt" AS "markedAt" FROM "ComparisonState" s
     WHERE s.wanted <> s.computed AND (${decisionId ?? null}::text IS NULL OR s."decisionId" = ${decisionId ?? null})
       AND NOT EXISTS (SELECT 1 FROM "EvalRun" r WHERE r."decisionId" = s."decisionId" AND r.status IN ('PENDING', 'RUNNING'))
     ORDER BY s."updatedAt"`;
}
