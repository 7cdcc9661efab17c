-- "Prediction" is partitioned by eval run (LIST on "evalRunId"), one partition per run, named
-- "Prediction_<run id>" (issue 12 §3). Same columns and primary key as before; what changes is how
-- an upload loads a run: it COPYs into the run's fresh table, which has its key but no foreign key
-- yet, and the run's insert attaches the table, so PostgreSQL checks the foreign key in one join
-- instead of once per row (lib/server/runs/partitions.ts). Every other writer inserts
-- through "Prediction" as before: the trigger below gives each new run its partition.
--
-- The foreign key points to "PredictionSet", one row per run written by the same trigger, not to
-- "EvalRun": attaching a partition takes SHARE ROW EXCLUSIVE on the table its foreign key
-- references, and a lock on "EvalRun" would wait for every transaction that writes a run (a
-- job's progress, a recompute) and deadlock with one that also audits. "PredictionSet" is written
-- only here, under that lock taken first, so run creations queue and never deadlock.
--
-- The functions run as the owner (SECURITY DEFINER): the app's role owns nothing and may not
-- create or alter tables (lib/db/roles.ts); the owner's default privileges give it the new tables'
-- rows.

-- CreateTable
CREATE TABLE "PredictionSet" (
    "evalRunId" INTEGER NOT NULL,

    CONSTRAINT "PredictionSet_pkey" PRIMARY KEY ("evalRunId")
);

-- AddForeignKey
ALTER TABLE "PredictionSet" ADD CONSTRAINT "PredictionSet_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "PredictionSet" ("evalRunId") SELECT id FROM "EvalRun";

ALTER TABLE "Prediction" RENAME TO "Prediction_unpartitioned";
ALTER TABLE "Prediction_unpartitioned" RENAME CONSTRAINT "Prediction_pkey" TO "Prediction_unpartitioned_pkey";
ALTER TABLE "Prediction_unpartitioned" DROP CONSTRAINT "Prediction_evalRunId_fkey";

CREATE TABLE "Prediction" (
    "evalRunId" INTEGER NOT NULL,
    "itemId" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "predicted" BOOLEAN,
    "parseFailure" BOOLEAN NOT NULL DEFAULT false,
    "rawOutput" TEXT,
    "latencyMs" DOUBLE PRECISION,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,

    CONSTRAINT "Prediction_pkey" PRIMARY KEY ("evalRunId","itemId")
) PARTITION BY LIST ("evalRunId");

ALTER TABLE "Prediction" ADD CONSTRAINT "Prediction_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "PredictionSet"("evalRunId") ON DELETE CASCADE ON UPDATE CASCADE;

-- The run's table: its primary key (a repeated item id fails the COPY, 23505), no foreign key yet,
-- its run id as default and as a CHECK (which also spares ATTACH PARTITION a scan of the rows).
CREATE FUNCTION verdict_prediction_table(run integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE "Prediction" INCLUDING DEFAULTS, CONSTRAINT %I CHECK ("evalRunId" = %s), CONSTRAINT %I PRIMARY KEY ("evalRunId", "itemId"))',
                 'Prediction_' || run, 'Prediction_' || run || '_run', run, 'Prediction_' || run || '_pkey');
  EXECUTE format('ALTER TABLE %I ALTER COLUMN "evalRunId" SET DEFAULT %s', 'Prediction_' || run, run);
END $$;

-- The run table's statistics, taken by the run's metrics job (lib/server/runs/eval-runs.ts) so the
-- pages' queries are planned on the run's real size (a run's id is every row's: without them the
-- planner guesses a few hundred rows and reads the whole run to fetch a page of items). Only an
-- owner may ANALYZE.
CREATE FUNCTION verdict_prediction_analyze(run integer) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  EXECUTE format('ANALYZE %I', 'Prediction_' || run);
END $$;

-- A new run's prediction set and partition: the table its upload loaded, or an empty one,
-- attached. Attaching adopts the key and checks the foreign key over the rows in one query, under
-- SHARE ROW EXCLUSIVE on "PredictionSet", taken first: before this transaction writes that table.
CREATE FUNCTION verdict_attach_prediction_partition() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  LOCK TABLE "PredictionSet" IN SHARE ROW EXCLUSIVE MODE;
  INSERT INTO "PredictionSet" ("evalRunId") VALUES (NEW.id);
  IF to_regclass(format('%I', 'Prediction_' || NEW.id)) IS NULL THEN
    PERFORM verdict_prediction_table(NEW.id);
  END IF;
  EXECUTE format('ALTER TABLE "Prediction" ATTACH PARTITION %I FOR VALUES IN (%s)', 'Prediction_' || NEW.id, NEW.id);
  RETURN NULL;
END $$;

CREATE TRIGGER "EvalRun_prediction_partition"
  AFTER INSERT ON "EvalRun"
  FOR EACH ROW EXECUTE FUNCTION verdict_attach_prediction_partition();

-- The runs already stored, each into its partition.
DO $$
DECLARE
  run integer;
BEGIN
  FOR run IN SELECT id FROM "EvalRun" ORDER BY id LOOP
    PERFORM verdict_prediction_table(run);
    EXECUTE format('INSERT INTO %I SELECT * FROM "Prediction_unpartitioned" WHERE "evalRunId" = %s', 'Prediction_' || run, run);
    PERFORM verdict_prediction_analyze(run);
    EXECUTE format('ALTER TABLE "Prediction" ATTACH PARTITION %I FOR VALUES IN (%s)', 'Prediction_' || run, run);
  END LOOP;
END $$;

DROP TABLE "Prediction_unpartitioned";
