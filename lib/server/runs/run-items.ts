import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { csvRow } from "@/lib/db/bulk-copy";
import { buildRunInput, type JoinedRow, type RunInput } from "@/lib/pack/run-input";
import { withRawTx } from "../raw-tx";

/**
 * The drill-down's per-item rows (RunItem), written once per eval run from the same RunInput the
 * metrics are computed from (buildRunInput: a parse failure or a missing prediction gets the
 * wrong-side score), so the items behind a confusion-matrix cell are exactly the ones it counts.
 * orderKey = score for a positive, −score for a negative (negation is exact in IEEE-754).
 */
export type ItemRow = JoinedRow & { itemId: string };

/** Every item of the run's dataset version joined to its prediction, in item-id order. */
export const JOINED_ITEMS_SQL = `SELECT di."itemId", di.label, p.score, p.predicted, COALESCE(p."parseFailure", false) AS "parseFailure",
        (p."itemId" IS NULL) AS missing, di.slice
   FROM "DatasetItem" di
   LEFT JOIN "Prediction" p ON p."evalRunId" = $1 AND p."itemId" = di."itemId"
  WHERE di."datasetVersionId" = $2
  ORDER BY di."itemId"`;

/** Serialises two writers of one run's items (the job and a reader of a run computed before RunItem existed). */
const RUN_ITEMS_LOCK_CLASS = 7_348_102;
const COLUMNS = ["evalRunId", "itemId", "label", "orderKey", "slice"] as const;

async function hasRunItems(
  query: (sql: string, params: unknown[]) => Promise<unknown[]>,
  runId: number,
): Promise<boolean> {
  return (await query(`SELECT 1 FROM "RunItem" WHERE "evalRunId" = $1 LIMIT 1`, [runId])).length > 0;
}

/**
 * Writes the run's items unless they are there: predictions and dataset items never change once
 * imported, so a recomputation after a change of π or a threshold keeps them. One transaction, so
 * a reader sees all of a run's items or none.
 */
export async function writeRunItemsOnce(
  database: Database,
  runId: number,
  datasetVersionId: number,
  loaded?: { rows: readonly ItemRow[]; input: RunInput } | { input: RunInput },
): Promise<void> {
  if (await hasRunItems((sql, params) => rawQuery(database, sql, params), runId)) return;
  await withRawTx(database, async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1, $2)`, [RUN_ITEMS_LOCK_CLASS, runId]);
    if (await hasRunItems((sql, params) => tx.query(sql, params), runId)) return;
    if (loaded && !("rows" in loaded)) {
      // The input without its rows (the upload handed the job columns): the same items and
      // order keys, joined and written by PostgreSQL — buildRunInput's rule in SQL, with its
      // wrong-side scores as parameters (float8 is the engine's IEEE double: 0 − s is −s exactly, and +0 for 0 as the CSV path writes it).
      const { input } = loaded;
      const raw =
        input.scoreKind === "scores"
          ? `p.score`
          : `(CASE WHEN p.predicted THEN 1 WHEN NOT p.predicted THEN 0 END)::float8`;
      await tx.query(`SET LOCAL work_mem = '256MB'`);
      await tx.query(`SET LOCAL enable_nestloop = off`);
      await tx.query(
        `INSERT INTO "RunItem" ("evalRunId", "itemId", label, "orderKey", slice)
         SELECT $1, j."itemId", j.label, CASE WHEN j.label THEN j.s ELSE 0 - j.s END, j.slice
           FROM (SELECT di."itemId", di.label, di.slice,
                        CASE WHEN p."itemId" IS NULL OR COALESCE(p."parseFailure", false) OR ${raw} IS NULL
                             THEN CASE WHEN di.label THEN $3::float8 ELSE $4::float8 END
                             ELSE ${raw} END AS s
                   FROM "DatasetItem" di
                   LEFT JOIN "Prediction" p ON p."evalRunId" = $1 AND p."itemId" = di."itemId"
                  WHERE di."datasetVersionId" = $2) j`,
        [runId, datasetVersionId, input.wrongSide.positive, input.wrongSide.negative],
      );
      return;
    }
    const rows =
      (loaded && "rows" in loaded ? loaded.rows : null) ??
      (await tx.query<ItemRow>(JOINED_ITEMS_SQL, [runId, datasetVersionId]));
    const input = loaded?.input ?? buildRunInput(rows);
    await tx.copy("RunItem", COLUMNS, chunks(runId, rows, input));
  });
}

async function* chunks(runId: number, rows: readonly ItemRow[], input: RunInput): AsyncIterable<string> {
  const BATCH = 10_000;
  for (let start = 0; start < rows.length; start += BATCH) {
    let text = "";
    for (let i = start; i < Math.min(rows.length, start + BATCH); i++) {
      const r = rows[i]!;
      const score = input.scores[i]!;
      text += csvRow([runId, r.itemId, r.label, r.label ? score : -score, r.slice]);
    }
    yield text;
  }
}
