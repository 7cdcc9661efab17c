import "server-only";
import { rawQuery } from "@/lib/db/connect";
import { env } from "@/lib/env";
import { csvField } from "@/lib/db/bulk-copy";
import {
  readPredictionRow,
  resolvePredictionColumns,
  type PredictionColumnOptions,
  type PredictionRow,
} from "@/lib/ingest/buyer-rows";
import { database as getDatabase } from "../db";
import { notFoundError } from "../errors";
import type { Actor } from "../session";
import { defaultLimits, type UploadFile } from "./files";
import {
  IMPORT_COLUMNS,
  ImportRejected,
  type ImportRow,
  type Issues,
  lockImportableDecision,
  requireImportableDecision,
  summaryFrom,
  type ImportOptionsBase,
  type ImportSummary,
  type SqlQuery,
} from "./import-record";
import { lockImportKey, recordAuditRaw, withRawTx } from "../raw-tx";
import { duplicateReport, isUniqueViolation, PREDICTION_FIELDS, type RowSpec } from "./tabular";
import { concurrentWinner, copyUploadRows, insertTabularImport, newTabularSummary, withSpooledUpload } from "./upload";
import { tabularFormat } from "./dataset";
import { computesHere, enqueueComputeRun } from "../runs/queue";
import { warmWorkersFor } from "@/lib/compute/parallel-bootstrap";
import { handOverRunInput, unknownPredictions } from "../runs/eval-runs";
import { createRunTable, reserveRunId, runTable, runTableName } from "../runs/partitions";
import { readJoinedColumns } from "../runs/joined-columns";
import type { JoinedColumns } from "@/lib/pack/run-input";

export interface PredictionsImportOptions extends ImportOptionsBase, PredictionColumnOptions {
  /** Class names read as a negative predicted label (the decision's positive class is positive). */
  negativeLabels?: string[];
  /** "queue" (default): compute the run's metrics as a background job; "none": leave it PENDING (tests, benchmark). */
  compute?: "queue" | "none";
}

export interface PredictionsImportResult extends ImportSummary {
  runId: number;
  status: string;
  itemCount: number;
  missingCount: number;
}

/** Examples of missing ids kept in the import's report. */
const EXAMPLES = 20;

export function predictionSpec(
  positiveClass: string,
  options: PredictionColumnOptions & { negativeLabels?: string[] },
): RowSpec<PredictionRow> {
  const mapping = { positiveClass, negativeLabels: options.negativeLabels };
  return {
    resolve(columns, line) {
      const r = resolvePredictionColumns(columns, options, line);
      if (!r.ok) return r;
      return { ok: true, read: (values, l) => readPredictionRow(values, r.cols, mapping, l) };
    },
    // csvRow's fields written out: this runs once per row of files of millions (the numbers are
    // finite, checked by the row's reader; a string goes through csvField's quoting rule).
    toCsv: (r) =>
      `${csvField(r.itemId)},${r.score ?? ""},${r.predicted === null ? "" : r.predicted ? "t" : "f"},${r.parseFailure ? "t" : "f"},${r.rawOutput === null ? "" : csvField(r.rawOutput)},${r.latencyMs ?? ""},${r.inputTokens ?? ""},${r.outputTokens ?? ""}\n`,
    itemId: (r) => r.itemId,
  };
}

/**
 * The run already imported from these bytes for this candidate on this dataset version, if any:
 * asked before the work (the fast path) and again under the import's lock.
 */
async function findImportedRun(
  query: SqlQuery,
  key: { decisionId: string; sha256: string; candidateId: string; datasetVersionId: number },
): Promise<PredictionsImportResult | null> {
  const [row] = await query<ImportRow & { runId: number; status: string; itemCount: number; missingCount: number }>(
    `SELECT ${IMPORT_COLUMNS}, r.id AS "runId", r.status, r."itemCount", r."missingCount"
       FROM "Import" i JOIN "EvalRun" r ON r."importId" = i.id
      WHERE i."decisionId" = $1 AND i.kind = 'PREDICTIONS' AND i.sha256 = $2 AND i.status = 'SUCCEEDED' AND r."candidateId" = $3 AND r."datasetVersionId" = $4`,
    [key.decisionId, key.sha256, key.candidateId, key.datasetVersionId],
  );
  if (!row) return null;
  return {
    ...summaryFrom(row, true),
    runId: row.runId,
    status: row.status,
    itemCount: row.itemCount,
    missingCount: row.missingCount,
  };
}

/**
 * Uploads a candidate's predictions on a dataset version (SPEC §6). Policy for ids, joined to the
 * dataset version by item id:
 * - duplicate ids (the same id twice in the file) reject the file, every one listed with its line;
 * - unknown ids (in the file, not in the dataset version) reject the file, the first 100 listed —
 *   a prediction for an item the buyer never labelled is a sign of the wrong dataset version;
 * - missing ids (in the dataset, not in the file) are accepted and counted on the run
 *   (EvalRun.missingCount, examples in Import.errors); the metrics count each as an error.
 * The run's metrics are then computed by a background job (EvalRun.status / progress).
 */
export async function importPredictions(
  actor: Actor,
  decisionId: string,
  candidateId: string,
  datasetVersionId: number,
  file: UploadFile,
  options: PredictionsImportOptions = {},
): Promise<PredictionsImportResult> {
  const database = await getDatabase();
  const decision = await requireImportableDecision(database, actor, decisionId);
  const [candidate] = await rawQuery<{ id: string; name: string }>(
    database,
    `SELECT id, name FROM "Candidate" WHERE id = $1 AND "decisionId" = $2`,
    [candidateId, decisionId],
  );
  if (!candidate) throw notFoundError("The candidate");
  if (!Number.isSafeInteger(datasetVersionId)) throw notFoundError("The dataset version");
  const [version] = await rawQuery<{ id: number; itemCount: number; version: number; datasetName: string }>(
    database,
    `SELECT v.id, v."itemCount", v.version, d.name AS "datasetName" FROM "DatasetVersion" v JOIN "Dataset" d ON d.id = v."datasetId" WHERE v.id = $1 AND d."decisionId" = $2`,
    [datasetVersionId, decisionId],
  );
  if (!version) throw notFoundError("The dataset version");
  const limits = { ...defaultLimits("bulk"), ...options.limits };
  return withSpooledUpload(database, actor, decisionId, "PREDICTIONS", file, limits, options, async (spooled) => {
    const format = await tabularFormat(spooled.path, spooled.name, options.format);
    const imported = { decisionId, sha256: spooled.sha256, candidateId, datasetVersionId };
    const findExisting = () => findImportedRun((sql, params) => rawQuery(database, sql, params), imported);
    const before = await findExisting();
    if (before) return before;

    const spec = predictionSpec(decision.positiveClass, options);
    const content = await spooled.content();
    const upload = { decisionId, kind: "PREDICTIONS" as const, format, spooled };
    const handOver = options.compute !== "none";
    // Its job will likely compute here (handed the items): the bootstrap's workers start while the file is read.
    if (handOver && computesHere(database)) warmWorkersFor(version.itemCount);
    let joined: JoinedColumns | null = null;
    let result: PredictionsImportResult | null = null;
    try {
      result = await withRawTx(database, async (tx) => {
        await lockImportableDecision(tx, decisionId);
        await lockImportKey(tx, `${decisionId}:PREDICTIONS:${spooled.sha256}`);
        if (await findImportedRun(tx.query, imported)) return null;
        const importId = await insertTabularImport(tx, upload, content, actor.id);
        // The run's rows go into its own table; the run itself is inserted last, attaching the
        // table (lib/server/runs/partitions.ts).
        const runId = await reserveRunId(tx);
        await createRunTable(tx, runId);
        const timing = env().VERDICT_IMPORT_TIMING === "1";
        const tCopy = performance.now();
        const rowCount = await copyUploadRows(
          tx,
          runTableName(runId),
          PREDICTION_FIELDS,
          { path: spooled.path, format, maxRows: limits.maxRows, uploadId: options.uploadId },
          spec,
          "",
        );
        if (timing) console.error(`parse+validate+COPY ${(performance.now() - tCopy).toFixed(0)} ms`);
        const tJoin = performance.now();

        // Join check against the dataset version: one pass over both, in memory for a few million ids.
        await tx.query(`SET LOCAL work_mem = '256MB'`);
        // Probing the dataset's index once per prediction is slower at any size (EXPLAIN ANALYZE at
        // 1M rows: 2.8 s → 1.9 s for the hash anti-join).
        await tx.query(`SET LOCAL enable_nestloop = off`);
        // With the run's metrics queued, the join is read in full (item-id order, as columns) and
        // handed to the job: the same pass counts the matched predictions — every other one is
        // for an unknown id. Otherwise a count of the unknown ids is enough.
        let unknown: number;
        let missingExamples: string[] | null = null;
        if (handOver) {
          const read = await readJoinedColumns(tx, runId, datasetVersionId, version.itemCount, EXAMPLES);
          unknown = rowCount - read.matched;
          joined = read.columns;
          missingExamples = read.missingExamples;
        } else {
          const [row] = await tx.query<{ unknown: string | number }>(
            `SELECT count(*) AS unknown ${unknownPredictions(runId)}`,
            [runId, datasetVersionId],
          );
          unknown = Number(row!.unknown);
        }
        if (unknown > 0) {
          const ids = await tx.query<{ itemId: string }>(
            `SELECT p."itemId" ${unknownPredictions(runId)} ORDER BY p."itemId" LIMIT 100`,
            [runId, datasetVersionId],
          );
          throw new ImportRejected(
            ids.map((r) => ({
              record: `id ${r.itemId}`,
              field: "id",
              value: r.itemId,
              reason: `unknown id: not in dataset "${version.datasetName}" v${version.version}`,
            })),
            unknown,
            format,
          );
        }
        if (timing) console.error(`join check ${(performance.now() - tJoin).toFixed(0)} ms`);
        const missingCount = version.itemCount - rowCount;
        missingExamples ??=
          missingCount > 0
            ? (
                await tx.query<{ itemId: string }>(
                  `SELECT d."itemId" FROM "DatasetItem" d WHERE d."datasetVersionId" = $2
                      AND NOT EXISTS (SELECT 1 FROM ${runTable(runId)} p WHERE p."evalRunId" = $1 AND p."itemId" = d."itemId")
                    ORDER BY d."itemId" LIMIT ${EXAMPLES}`,
                  [runId, datasetVersionId],
                )
              ).map((r) => r.itemId)
            : [];
        const report = { missingCount, missingExamples, unknownCount: 0, duplicateCount: 0 };
        await tx.query(
          `INSERT INTO "EvalRun" (id, "decisionId", "candidateId", "datasetVersionId", status, progress, "importId", "itemCount", "missingCount", "unknownCount", "duplicateCount")
           VALUES ($1, $2, $3, $4, 'PENDING', 0, $5, $6, $7, 0, 0)`,
          [runId, decisionId, candidateId, datasetVersionId, importId, version.itemCount, missingCount],
        );
        await tx.query(`UPDATE "Import" SET "rowCount" = $2, errors = $3::jsonb WHERE id = $1`, [
          importId,
          rowCount,
          JSON.stringify(report),
        ]);
        await recordAuditRaw(tx, {
          actor,
          action: "evidence.import",
          entityType: "EvalRun",
          entityId: String(runId),
          decisionId,
          after: {
            kind: "PREDICTIONS",
            importId,
            candidateId,
            candidate: candidate.name,
            datasetVersionId,
            format,
            fileName: spooled.name,
            sha256: spooled.sha256,
            sizeBytes: spooled.sizeBytes,
            rowCount,
            missingCount,
          },
          request: options.request,
        });
        return {
          ...newTabularSummary(
            upload,
            importId,
            rowCount,
            missingCount > 0
              ? [
                  `${missingCount} dataset item(s) have no prediction; each counts as an error (e.g. ${missingExamples.slice(0, 5).join(", ")})`,
                ]
              : [],
          ),
          runId,
          status: "PENDING",
          itemCount: version.itemCount,
          missingCount,
        };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const issues: Issues = await withRawTx(database, (tx) =>
        duplicateReport(tx, spooled.path, format, spec, limits.maxRows),
      );
      issues.reject(format);
    }
    if (!result) return concurrentWinner(findExisting);
    if (handOver) {
      // Committed: the run's joined items, read in that transaction, go to its job.
      if (joined) handOverRunInput(result.runId, joined);
      await enqueueComputeRun(database, result.runId);
    }
    return result;
  });
}
