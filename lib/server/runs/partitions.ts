import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import type { RawTx } from "../raw-tx";

/**
 * "Prediction" is partitioned by eval run, one table per run (migration
 * 20261203120000_prediction_partitions). An upload reserves its run's id, COPYs into the run's
 * fresh table (its primary key, no foreign key yet: the key's upkeep runs on PostgreSQL's core while
 * the app parses), and only then inserts the run, whose trigger attaches the table — checking the
 * foreign key in one join rather than once per row (issue 12 §3). Every other writer inserts the run
 * first and its rows through "Prediction"; the same trigger gives the run an empty partition. The
 * foreign key points to the run's "PredictionSet" row, which the trigger writes under a lock it
 * takes first, so run creations queue and never deadlock (the migration says why not "EvalRun").
 * One rule for callers: a transaction creates its runs before it audits (the trigger's lock is
 * held to the commit; the audit chain's lock, taken later, is then never held by a transaction
 * waiting for it). The run's metrics job takes the table's statistics (analyzeRunTable).
 */

/** The table name of one run's predictions (for COPY, which quotes it). */
export function runTableName(runId: number): string {
  if (!Number.isSafeInteger(runId) || runId <= 0)
    throw new Error(`run table: a positive integer id expected, got ${runId}`);
  return `Prediction_${runId}`;
}

/** The run's predictions as a relation for SQL: its partition, which holds its rows before and after it is attached. */
export const runTable = (runId: number) => `"${runTableName(runId)}"`;

/** A bulk load's run id, taken from the runs' sequence before the run is inserted with it. */
export async function reserveRunId(tx: RawTx): Promise<number> {
  const [row] = await tx.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('"EvalRun"', 'id'))::int AS id`);
  return row!.id;
}

/** The reserved run's table: its primary key, no foreign key; its run id as default and CHECK. */
export async function createRunTable(tx: RawTx, runId: number): Promise<void> {
  await tx.query(`SELECT verdict_prediction_table($1)`, [runId]);
}

/**
 * The run's statistics (an owner's ANALYZE: the app's role may not), taken by its metrics job, so
 * pages plan on the run's real size: without them the planner guesses a few hundred rows and reads
 * a whole run to fetch a page of items.
 */
export async function analyzeRunTable(database: Database, runId: number): Promise<void> {
  await rawQuery(database, `SELECT verdict_prediction_analyze($1)`, [runId]);
}
