import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
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
import type { Actor } from "../actors";
import { defaultLimits, type ImportLimits, type UploadFile } from "./files";
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
import { lockImportKey, recordAuditRaw, withRawTx, type RawTx } from "../raw-tx";
import { duplicateReport, isUniqueViolation, PREDICTION_FIELDS, type RowSpec } from "./tabular";
import {
  concurrentWinner,
  copyUploadRows,
  insertTabularImport,
  newTabularSummary,
  withSpooledUpload,
  type TabularImport,
} from "./upload";
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
    toCsv: predictionCsv,
    itemId: (r) => r.itemId,
  };
}

/**
 * A prediction as a COPY row of PREDICTION_FIELDS, for every writer of a run's table (this upload
 * and the other tools' importer): csvRow's fields written out, as this runs once per row of files
 * of millions (the numbers are finite, checked by the row's reader or mapper; a string goes
 * through csvField's quoting rule).
 */
export const predictionCsv = (r: PredictionRow): string =>
  `${csvField(r.itemId)},${r.score ?? ""},${r.predicted === null ? "" : r.predicted ? "t" : "f"},${r.parseFailure ? "t" : "f"},${r.rawOutput === null ? "" : csvField(r.rawOutput)},${r.latencyMs ?? ""},${r.inputTokens ?? ""},${r.outputTokens ?? ""}\n`;

/**
 * The run already imported from these bytes for this candidate on this dataset version, if any:
 * asked before the work (the fast path) and again under the import's lock.
 */
async function findImportedRun(query: SqlQuery, key: RunImportKey): Promise<PredictionsImportResult | null> {
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
  const target = await requirePredictionTarget(database, actor, decisionId, candidateId, datasetVersionId);
  const limits = { ...defaultLimits("bulk"), ...options.limits };
  return withSpooledUpload(database, actor, decisionId, "PREDICTIONS", file, limits, options, async (spooled) => {
    const upload: PredictionsUpload = {
      database,
      actor,
      ...target,
      imported: { decisionId, sha256: spooled.sha256, candidateId, datasetVersionId },
      upload: {
        decisionId,
        kind: "PREDICTIONS",
        format: await tabularFormat(spooled.path, spooled.name, options.format),
        spooled,
      },
      spec: predictionSpec(target.positiveClass, options),
      limits,
      options,
      handOver: options.compute !== "none",
    };
    return importSpooledPredictions(upload);
  });
}

/** The dataset version predictions are joined to, with what its rejections and warnings name. */
export interface TargetVersion {
  id: number;
  itemCount: number;
  version: number;
  datasetName: string;
}

/** One predictions upload once its file is spooled: what each of its steps reads. */
interface PredictionsUpload {
  database: Database;
  actor: Actor;
  candidate: { id: string; name: string };
  version: TargetVersion;
  /** The key of the import: the same bytes for the same candidate and dataset version are one run. */
  imported: RunImportKey;
  upload: TabularImport;
  spec: RowSpec<PredictionRow>;
  limits: ImportLimits;
  options: PredictionsImportOptions;
  /** Whether the run's metrics are queued (and its joined items handed to that job). */
  handOver: boolean;
}

type RunImportKey = { decisionId: string; sha256: string; candidateId: string; datasetVersionId: number };

/** Checked before the file is read, so a wrong candidate or version costs no upload. */
export async function requirePredictionTarget(
  database: Database,
  actor: Actor,
  decisionId: string,
  candidateId: string,
  datasetVersionId: number,
) {
  const decision = await requireImportableDecision(database, actor, decisionId);
  const [candidate] = await rawQuery<{ id: string; name: string }>(
    database,
    `SELECT id, name FROM "Candidate" WHERE id = $1 AND "decisionId" = $2`,
    [candidateId, decisionId],
  );
  if (!candidate) throw notFoundError("The candidate");
  if (!Number.isSafeInteger(datasetVersionId)) throw notFoundError("The dataset version");
  const [version] = await rawQuery<TargetVersion>(
    database,
    `SELECT v.id, v."itemCount", v.version, d.name AS "datasetName" FROM "DatasetVersion" v JOIN "Dataset" d ON d.id = v."datasetId" WHERE v.id = $1 AND d."decisionId" = $2`,
    [datasetVersionId, decisionId],
  );
  if (!version) throw notFoundError("The dataset version");
  return { positiveClass: decision.positiveClass, candidate, version };
}

/**
 * The spooled file's way to a run: the existing run for the same bytes, else the rows loaded in
 * one transaction and, once committed, the run handed to its compute job.
 */
async function importSpooledPredictions(upload: PredictionsUpload): Promise<PredictionsImportResult> {
  const { database } = upload;
  const { spooled, format } = upload.upload;
  const findExisting = () => findImportedRun((sql, params) => rawQuery(database, sql, params), upload.imported);
  const before = await findExisting();
  if (before) return before;

  const content = await spooled.content();
  // Its job will likely compute here (handed the items): the bootstrap's workers start while the file is read.
  if (upload.handOver && computesHere(database)) warmWorkersFor(upload.version.itemCount);
  let loaded: LoadedRun | null = null;
  try {
    loaded = await withRawTx(database, (tx) => loadPredictions(tx, upload, content));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const issues: Issues = await withRawTx(database, (tx) =>
      duplicateReport(tx, spooled.path, format, upload.spec, upload.limits.maxRows),
    );
    issues.reject(format);
  }
  if (!loaded) return concurrentWinner(findExisting);
  if (upload.handOver) await handOverRun(database, loaded);
  return loaded.result;
}

/** A run written by its upload's transaction, with the joined items read in it (when handed over). */
interface LoadedRun {
  result: PredictionsImportResult;
  joined: JoinedColumns | null;
}

/**
 * The upload's transaction: under the decision's and the import key's locks, the Import row, the
 * run's own table COPYed from the file, the join check, the run row and its audit event — or, when
 * a concurrent upload of the same bytes won, nothing (null).
 */
async function loadPredictions(
  tx: RawTx,
  upload: PredictionsUpload,
  content: Buffer | null,
): Promise<LoadedRun | null> {
  const { decisionId, sha256 } = upload.imported;
  await lockImportableDecision(tx, decisionId);
  await lockImportKey(tx, `${decisionId}:PREDICTIONS:${sha256}`);
  if (await findImportedRun(tx.query, upload.imported)) return null;
  const importId = await insertTabularImport(tx, upload.upload, content, upload.actor.id);
  // The run's rows go into its own table; the run itself is inserted last, attaching the
  // table (lib/server/runs/partitions.ts).
  const runId = await reserveRunId(tx);
  await createRunTable(tx, runId);
  const timing = env().VERDICT_IMPORT_TIMING === "1";
  const tCopy = performance.now();
  const { spooled, format } = upload.upload;
  const { rows: rowCount, notes } = await copyUploadRows(
    tx,
    runTableName(runId),
    PREDICTION_FIELDS,
    { path: spooled.path, format, maxRows: upload.limits.maxRows, uploadId: upload.options.uploadId },
    upload.spec,
    "",
  );
  if (timing) console.error(`parse+validate+COPY ${(performance.now() - tCopy).toFixed(0)} ms`);
  const tJoin = performance.now();
  const join = await checkJoin(tx, upload, runId, rowCount);
  if (timing) console.error(`join check ${(performance.now() - tJoin).toFixed(0)} ms`);
  const missingCount = upload.version.itemCount - rowCount;
  const missingExamples = join.missingExamples ?? (await listMissingIds(tx, upload, runId, missingCount));
  await recordRun(tx, upload, { importId, runId, rowCount, missingCount, missingExamples });
  const result = {
    ...newTabularSummary(upload.upload, importId, rowCount, [
      ...notes,
      ...(missingCount > 0
        ? [
            `${missingCount} dataset item(s) have no prediction; each counts as an error (e.g. ${missingExamples.slice(0, 5).join(", ")})`,
          ]
        : []),
    ]),
    runId,
    status: "PENDING",
    itemCount: upload.version.itemCount,
    missingCount,
  };
  return { result, joined: join.joined };
}

/**
 * The join check against the dataset version (one pass over both, in memory for a few million
 * ids): a prediction for an unknown id rejects the file. Returns the joined items and the missing
 * ids' examples when the run is handed over (read in the same pass), else nulls.
 */
async function checkJoin(
  tx: RawTx,
  upload: PredictionsUpload,
  runId: number,
  rowCount: number,
): Promise<{ joined: JoinedColumns | null; missingExamples: string[] | null }> {
  const { datasetVersionId } = upload.imported;
  await tx.query(`SET LOCAL work_mem = '256MB'`);
  // Probing the dataset's index once per prediction is slower at any size (EXPLAIN ANALYZE at
  // 1M rows: 2.8 s → 1.9 s for the hash anti-join).
  await tx.query(`SET LOCAL enable_nestloop = off`);
  // With the run's metrics queued, the join is read in full (item-id order, as columns) and
  // handed to the job: the same pass counts the matched predictions — every other one is
  // for an unknown id. Otherwise a count of the unknown ids is enough.
  let unknown: number;
  let joined: JoinedColumns | null = null;
  let missingExamples: string[] | null = null;
  if (upload.handOver) {
    const read = await readJoinedColumns(tx, runId, datasetVersionId, upload.version.itemCount, EXAMPLES);
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
  if (unknown > 0) await rejectUnknownIds(tx, upload, runId, unknown);
  return { joined, missingExamples };
}

/** Unknown ids mean the wrong dataset version: the file is rejected with the first 100 listed. */
async function rejectUnknownIds(tx: RawTx, upload: PredictionsUpload, runId: number, unknown: number): Promise<never> {
  const { version } = upload;
  const ids = await tx.query<{ itemId: string }>(
    `SELECT p."itemId" ${unknownPredictions(runId)} ORDER BY p."itemId" LIMIT 100`,
    [runId, upload.imported.datasetVersionId],
  );
  throw new ImportRejected(
    ids.map((r) => ({
      record: `id ${r.itemId}`,
      field: "id",
      value: r.itemId,
      reason: `unknown id: not in dataset "${version.datasetName}" v${version.version}`,
    })),
    unknown,
    upload.upload.format,
  );
}

/** Examples of the dataset's items the file has no prediction for, kept in the import's report. */
async function listMissingIds(
  tx: RawTx,
  upload: PredictionsUpload,
  runId: number,
  missingCount: number,
): Promise<string[]> {
  if (missingCount <= 0) return [];
  const rows = await tx.query<{ itemId: string }>(
    `SELECT d."itemId" FROM "DatasetItem" d WHERE d."datasetVersionId" = $2
        AND NOT EXISTS (SELECT 1 FROM ${runTable(runId)} p WHERE p."evalRunId" = $1 AND p."itemId" = d."itemId")
      ORDER BY d."itemId" LIMIT ${EXAMPLES}`,
    [runId, upload.imported.datasetVersionId],
  );
  return rows.map((r) => r.itemId);
}

/**
 * The run row (inserted last: it attaches the run's table), the import's row count and report,
 * and the audit event — all in the upload's transaction.
 */
async function recordRun(
  tx: RawTx,
  upload: PredictionsUpload,
  run: { importId: string; runId: number; rowCount: number; missingCount: number; missingExamples: string[] },
): Promise<void> {
  const { importId, runId, rowCount, missingCount, missingExamples } = run;
  const { decisionId, candidateId, datasetVersionId } = upload.imported;
  const { spooled, format } = upload.upload;
  const report = { missingCount, missingExamples, unknownCount: 0, duplicateCount: 0 };
  await tx.query(
    `INSERT INTO "EvalRun" (id, "decisionId", "candidateId", "datasetVersionId", status, progress, "importId", "itemCount", "missingCount", "unknownCount", "duplicateCount")
     VALUES ($1, $2, $3, $4, 'PENDING', 0, $5, $6, $7, 0, 0)`,
    [runId, decisionId, candidateId, datasetVersionId, importId, upload.version.itemCount, missingCount],
  );
  await tx.query(`UPDATE "Import" SET "rowCount" = $2, errors = $3::jsonb WHERE id = $1`, [
    importId,
    rowCount,
    JSON.stringify(report),
  ]);
  await recordAuditRaw(tx, {
    actor: upload.actor,
    action: "evidence.import",
    entityType: "EvalRun",
    entityId: String(runId),
    decisionId,
    after: {
      kind: "PREDICTIONS",
      importId,
      candidateId,
      candidate: upload.candidate.name,
      datasetVersionId,
      format,
      fileName: spooled.name,
      sha256: spooled.sha256,
      sizeBytes: spooled.sizeBytes,
      rowCount,
      missingCount,
    },
    request: upload.options.request,
  });
}

/**
 * Committed: the run's joined items, read in that transaction, go to its job, which is queued —
 * kept in memory only where that job runs: a VERDICT_WORKER=0 server's jobs run on a worker,
 * which reads the rows from the database.
 */
async function handOverRun(database: Database, loaded: LoadedRun): Promise<void> {
  if (loaded.joined && computesHere(database)) handOverRunInput(loaded.result.runId, loaded.joined);
  await enqueueComputeRun(database, loaded.result.runId);
}
