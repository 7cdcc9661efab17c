import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import { z } from "zod";
import { csvRow } from "@/lib/db/bulk-copy";
import { detectTabularFormat, type TabularFormat } from "@/lib/ingest/records";
import { fileSource } from "@/lib/files/file-source";
import {
  readDatasetRow,
  resolveDatasetColumns,
  type DatasetColumnOptions,
  type DatasetRow,
} from "@/lib/ingest/buyer-rows";
import { database as getDatabase } from "../db";
import type { Actor } from "../actors";
import { defaultLimits, type ImportLimits, type UploadFile } from "./files";
import {
  IMPORT_COLUMNS,
  ImportRejected,
  type ImportRow,
  Issues,
  newId,
  lockImportableDecision,
  requireImportableDecision,
  summaryFrom,
  type ImportOptionsBase,
  type ImportSummary,
  type SqlQuery,
} from "./import-record";
import { lockImportKey, recordAuditRaw, withRawTx, type RawTx } from "../raw-tx";
import { DATASET_ITEM_COLUMNS, duplicateReport, isUniqueViolation, type RowSpec } from "./tabular";
import {
  concurrentWinner,
  copyUploadRows,
  insertTabularImport,
  newTabularSummary,
  withSpooledUpload,
  type TabularImport,
} from "./upload";

export interface DatasetImportOptions extends ImportOptionsBase, DatasetColumnOptions {
  /** The dataset's name within the decision; each upload is a new version of it. */
  datasetName: string;
  /** Class names read as negative; the decision's positive class is positive; any other name is an error. */
  negativeLabels?: string[];
}

export interface DatasetImportResult extends ImportSummary {
  datasetId: string;
  datasetVersionId: number;
  version: number;
  itemCount: number;
  positiveCount: number;
}

const optionsSchema = z.object({
  datasetName: z.string().trim().min(1, "a dataset name is required").max(200),
  negativeLabels: z.array(z.string().trim().min(1).max(200)).max(1000).optional(),
});

export function datasetSpec(
  positiveClass: string,
  options: DatasetColumnOptions & { negativeLabels?: string[] },
  counts = { positives: 0 },
): RowSpec<DatasetRow> & { sliceColumn?: string } {
  const mapping = { positiveClass, negativeLabels: options.negativeLabels };
  const spec: RowSpec<DatasetRow> & { sliceColumn?: string } = {
    resolve(columns, line) {
      const r = resolveDatasetColumns(columns, options, line);
      if (!r.ok) return r;
      spec.sliceColumn = r.cols.slice;
      return { ok: true, read: (values, l) => readDatasetRow(values, r.cols, mapping, l) };
    },
    toCsv: (row) => csvRow([row.itemId, row.label, row.slice, row.text]),
    itemId: (row) => row.itemId,
    onRow: (row) => {
      if (row.label) counts.positives++;
    },
  };
  return spec;
}

async function tabularFormat(path: string, name: string, explicit?: string): Promise<TabularFormat> {
  try {
    return await detectTabularFormat(fileSource(path), name, explicit);
  } catch (error) {
    throw new ImportRejected([{ field: "format", value: explicit, reason: (error as Error).message }], 1);
  }
}
export { tabularFormat };

/**
 * The dataset version already imported from these bytes under this dataset name, if any: asked
 * before the work (the fast path) and again under the import's lock.
 */
async function findImportedVersion(
  query: SqlQuery,
  key: { decisionId: string; sha256: string; datasetName: string },
): Promise<DatasetImportResult | null> {
  const [row] = await query<
    ImportRow & { versionId: number; version: number; itemCount: number; positiveCount: number; datasetId: string }
  >(
    `SELECT ${IMPORT_COLUMNS}, v.id AS "versionId", v.version, v."itemCount", v."positiveCount", v."datasetId"
       FROM "Import" i JOIN "DatasetVersion" v ON v."importId" = i.id JOIN "Dataset" d ON d.id = v."datasetId"
      WHERE i."decisionId" = $1 AND i.kind = 'DATASET' AND i.sha256 = $2 AND i.status = 'SUCCEEDED' AND d.name = $3`,
    [key.decisionId, key.sha256, key.datasetName],
  );
  if (!row) return null;
  return {
    ...summaryFrom(row, true),
    datasetId: row.datasetId,
    datasetVersionId: row.versionId,
    version: row.version,
    itemCount: row.itemCount,
    positiveCount: row.positiveCount,
  };
}

/**
 * Uploads a labelled dataset as a new version of the named dataset: streamed, validated row by
 * row, COPYed into DatasetItem with its Import row, version row and audit event in one
 * transaction. Same bytes for the same dataset again → the existing version, nothing written.
 */
export async function importDataset(
  actor: Actor,
  decisionId: string,
  file: UploadFile,
  options: DatasetImportOptions,
): Promise<DatasetImportResult> {
  const database = await getDatabase();
  const decision = await requireImportableDecision(database, actor, decisionId);
  const parsedOptions = optionsSchema.parse(options);
  const limits = { ...defaultLimits("bulk"), ...options.limits };
  return withSpooledUpload(database, actor, decisionId, "DATASET", file, limits, options, async (spooled) =>
    importSpooledDataset({
      database,
      actor,
      positiveClass: decision.positiveClass,
      datasetName: parsedOptions.datasetName,
      negativeLabels: parsedOptions.negativeLabels,
      upload: {
        decisionId,
        kind: "DATASET",
        format: await tabularFormat(spooled.path, spooled.name, options.format),
        spooled,
      },
      limits,
      options,
    }),
  );
}

/** One dataset upload once its file is spooled (and its format known): what each of its steps reads. */
interface DatasetUpload {
  database: Database;
  actor: Actor;
  positiveClass: string;
  /** The parsed options' name and negative labels (trimmed), which the raw options may not be. */
  datasetName: string;
  negativeLabels: string[] | undefined;
  upload: TabularImport;
  limits: ImportLimits;
  options: DatasetImportOptions;
}

/**
 * The spooled file's way to a dataset version: the existing version for the same bytes, else the
 * rows loaded in one transaction; duplicate ids are listed in a transaction of their own.
 */
async function importSpooledDataset(upload: DatasetUpload): Promise<DatasetImportResult> {
  const { database, datasetName } = upload;
  const { decisionId, spooled, format } = upload.upload;
  const imported = { decisionId, sha256: spooled.sha256, datasetName };
  const findExisting = () => findImportedVersion((sql, params) => rawQuery(database, sql, params), imported);
  const before = await findExisting();
  if (before) return before;

  const counts = { positives: 0 };
  const spec = datasetSpec(upload.positiveClass, { ...upload.options, negativeLabels: upload.negativeLabels }, counts);
  const content = await spooled.content();
  try {
    const result = await withRawTx(database, async (tx) => {
      await lockImportableDecision(tx, decisionId, "UPDATE");
      await lockImportKey(tx, `${decisionId}:DATASET:${spooled.sha256}`);
      // A concurrent upload of the same bytes won: read it after this transaction.
      if (await findImportedVersion(tx.query, imported)) return null;
      return loadDataset(tx, upload, { spec, counts, content });
    });
    return result ?? (await concurrentWinner(findExisting));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Duplicate ids: list every one with its line (own transaction, rolled back).
    const issues: Issues = await withRawTx(database, (tx) =>
      duplicateReport(
        tx,
        spooled.path,
        format,
        datasetSpec(upload.positiveClass, { ...upload.options, negativeLabels: upload.negativeLabels }),
        upload.limits.maxRows,
      ),
    );
    issues.reject(format);
  }
}

/**
 * Under the upload's locks: the next version of the named dataset, its Import row, its items
 * COPYed from the file, its counts, and its audit event.
 */
async function loadDataset(
  tx: RawTx,
  upload: DatasetUpload,
  rows: { spec: ReturnType<typeof datasetSpec>; counts: { positives: number }; content: Buffer | null },
): Promise<DatasetImportResult> {
  const { decisionId, spooled, format } = upload.upload;
  const { spec, counts } = rows;
  const { datasetId, next } = await nextDatasetVersion(tx, decisionId, upload.datasetName);
  const importId = await insertTabularImport(tx, upload.upload, rows.content, upload.actor.id);
  const [version] = await tx.query<{ id: number }>(
    `INSERT INTO "DatasetVersion" ("datasetId", version, "itemCount", "positiveCount", "sliceColumn", "importId") VALUES ($1, $2, 0, 0, NULL, $3) RETURNING id`,
    [datasetId, next, importId],
  );
  const versionId = version!.id;
  const { rows: itemCount, notes } = await copyUploadRows(
    tx,
    "DatasetItem",
    DATASET_ITEM_COLUMNS,
    { path: spooled.path, format, maxRows: upload.limits.maxRows, uploadId: upload.options.uploadId },
    spec,
    `${versionId},`,
  );
  await tx.query(
    `UPDATE "DatasetVersion" SET "itemCount" = $2, "positiveCount" = $3, "sliceColumn" = $4 WHERE id = $1`,
    [versionId, itemCount, counts.positives, spec.sliceColumn ?? null],
  );
  await tx.query(`UPDATE "Import" SET "rowCount" = $2 WHERE id = $1`, [importId, itemCount]);
  // The first dataset of a decision becomes its evaluation version; a later version is
  // chosen explicitly (setEvaluationDatasetVersion), never switched behind the analyst's back.
  const chosen = await tx.query<{ id: string }>(
    `UPDATE "Decision" SET "evaluationDatasetVersionId" = $2 WHERE id = $1 AND "evaluationDatasetVersionId" IS NULL RETURNING id`,
    [decisionId, versionId],
  );
  await recordAuditRaw(tx, {
    actor: upload.actor,
    action: "evidence.import",
    entityType: "DatasetVersion",
    entityId: String(versionId),
    decisionId,
    after: {
      kind: "DATASET",
      importId,
      dataset: upload.datasetName,
      version: next,
      format,
      fileName: spooled.name,
      sha256: spooled.sha256,
      sizeBytes: spooled.sizeBytes,
      itemCount,
      positiveCount: counts.positives,
      evaluationVersion: chosen.length > 0,
    },
    request: upload.options.request,
  });
  return {
    ...newTabularSummary(upload.upload, importId, itemCount, notes),
    datasetId,
    datasetVersionId: versionId,
    version: next,
    itemCount,
    positiveCount: counts.positives,
  };
}

/**
 * The named dataset (created on its first upload) and the number its next version takes; the
 * dataset's row stays locked so concurrent uploads of other files number their versions in turn.
 */
async function nextDatasetVersion(
  tx: RawTx,
  decisionId: string,
  datasetName: string,
): Promise<{ datasetId: string; next: number }> {
  await tx.query(
    `INSERT INTO "Dataset" (id, "decisionId", name) VALUES ($1, $2, $3) ON CONFLICT ("decisionId", name) DO NOTHING`,
    [newId("ds"), decisionId, datasetName],
  );
  const [dataset] = await tx.query<{ id: string }>(
    `SELECT id FROM "Dataset" WHERE "decisionId" = $1 AND name = $2 FOR UPDATE`,
    [decisionId, datasetName],
  );
  const [{ next }] = (await tx.query<{ next: number }>(
    `SELECT COALESCE(MAX(version), 0) + 1 AS next FROM "DatasetVersion" WHERE "datasetId" = $1`,
    [dataset!.id],
  )) as [{ next: number }];
  return { datasetId: dataset!.id, next: Number(next) };
}
