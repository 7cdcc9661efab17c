import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, readMigrations } from "./migrations";
import { pgliteRunner } from "./sql-runner";

/**
 * The migration that partitions "Prediction" by run (20261203120000_prediction_partitions) on a
 * database that already holds runs: every prediction moves into its run's partition, behind the
 * same keys, and nothing is lost.
 */
const PARTITIONING = "20261203120000_prediction_partitions";
const pg = new PGlite("memory://");
afterAll(() => pg.close());

describe("partitioning Prediction by run, on a database with runs", () => {
  it("moves every run's predictions into its partition with the primary and foreign key", async () => {
    const all = readMigrations();
    const at = all.findIndex((m) => m.name === PARTITIONING);
    expect(at).toBeGreaterThan(0);
    const db = pgliteRunner(pg);
    await applyMigrations(db, all.slice(0, at));
    await pg.exec(`
      INSERT INTO "User" (id, email, name, "passwordHash", roles, "updatedAt") VALUES ('u', 'u@verdict.test', 'U', 'x', '{ANALYST}', now());
      INSERT INTO "Decision" (id, title, "positiveClass", prevalence, "costFn", "costFp", "recallFloor", "createdById", "updatedAt") VALUES ('d', 't', 'p', 0.1, 1, 1, 0.5, 'u', now());
      INSERT INTO "Candidate" (id, "decisionId", name, provider) VALUES ('c', 'd', 'm', 'p');
      INSERT INTO "Dataset" (id, "decisionId", name) VALUES ('s', 'd', 'n');
      INSERT INTO "DatasetVersion" (id, "datasetId", version, "itemCount", "positiveCount") VALUES (1, 's', 1, 3, 1);
      INSERT INTO "EvalRun" (id, "decisionId", "candidateId", "datasetVersionId") VALUES (10, 'd', 'c', 1), (11, 'd', 'c', 1), (12, 'd', 'c', 1);
      SELECT setval(pg_get_serial_sequence('"EvalRun"', 'id'), 12);
      INSERT INTO "Prediction" ("evalRunId", "itemId", score, "rawOutput") VALUES
        (10, 'a', 0.1, 'x'), (10, 'b', 0.9, NULL), (10, 'c', NULL, 'unparsed'), (11, 'a', 0.5, NULL);
    `);
    const before = (await pg.query(`SELECT * FROM "Prediction" ORDER BY "evalRunId", "itemId"`)).rows;

    expect(await applyMigrations(db, all)).toEqual(all.slice(at).map((m) => m.name));

    expect((await pg.query(`SELECT * FROM "Prediction" ORDER BY "evalRunId", "itemId"`)).rows).toEqual(before);
    const partitions = await pg.query<{ name: string; rows: number; bound: string }>(
      `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound,
              (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I', c.relname), false, true, '')))[1]::text::int AS rows
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = '"Prediction"'::regclass ORDER BY c.relname`,
    );
    expect(partitions.rows).toEqual([
      { name: "Prediction_10", bound: "FOR VALUES IN (10)", rows: 3 },
      { name: "Prediction_11", bound: "FOR VALUES IN (11)", rows: 1 },
      { name: "Prediction_12", bound: "FOR VALUES IN (12)", rows: 0 },
    ]);
    await expect(pg.query(`INSERT INTO "Prediction" ("evalRunId", "itemId") VALUES (10, 'a')`)).rejects.toThrow(
      /duplicate key/,
    );
    await expect(pg.query(`INSERT INTO "Prediction" ("evalRunId", "itemId") VALUES (99, 'a')`)).rejects.toThrow(
      /no partition/,
    );
    // A new run gets its partition; deleting a run deletes its rows.
    await pg.exec(`INSERT INTO "EvalRun" ("decisionId", "candidateId", "datasetVersionId") VALUES ('d', 'c', 1)`);
    await pg.exec(`INSERT INTO "Prediction" ("evalRunId", "itemId") VALUES (13, 'a')`);
    await pg.exec(`DELETE FROM "EvalRun" WHERE id = 10`);
    expect((await pg.query(`SELECT "evalRunId", "itemId" FROM "Prediction" ORDER BY 1, 2`)).rows).toEqual([
      { evalRunId: 11, itemId: "a" },
      { evalRunId: 13, itemId: "a" },
    ]);
  });
});
