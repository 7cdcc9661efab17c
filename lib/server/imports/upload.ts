import "server-only";
import type { Database } from "@/lib/db/connect";
import type { TabularFormat } from "@/lib/ingest/records";
import { delimiterNote } from "@/lib/ingest/formats/csv-delimiter";
import { AppError } from "../errors";
import type { RawTx } from "../raw-tx";
import type { Actor } from "../actors";
import {
  auditRejectedImport,
  insertImport,
  Issues,
  summaryFrom,
  type ImportKind,
  type ImportOptionsBase,
  type ImportSummary,
} from "./import-record";
import { safeFileName, spool, type ImportLimits, type SpooledFile, type UploadFile } from "./files";
import { reportProgress } from "./progress";
import { copyChunks, typedRows, type RowSpec, type StreamState } from "./tabular";
import { nameWrongKind } from "./wrong-kind";

/**
 * The life of every upload around its importer's work: the file spooled to disk, the work run on
 * it, the spool removed whatever happens. A refused file (too large, or rows rejected) is audited
 * on the way out, with as much of the file as is known by then (see auditRejectedImport); a file
 * refused as one kind but recognised as another says so (nameWrongKind).
 */
export async function withSpooledUpload<T>(
  database: Database,
  actor: Actor,
  decisionId: string,
  kind: ImportKind,
  file: UploadFile,
  limits: ImportLimits,
  options: Pick<ImportOptionsBase, "request" | "uploadId"> & {
    /** The file was read as the kind it is (another eval tool's results): its refusal stands as it is. */
    recognised?: boolean;
  },
  work: (spooled: SpooledFile) => Promise<T>,
): Promise<T> {
  const refused = async (error: unknown, known: { name: string; sha256?: string; sizeBytes?: number }) => {
    throw await auditRejectedImport(database, actor, decisionId, kind, known, error, options.request);
  };
  const spooled = await spool(file, limits, options.uploadId).catch((error: unknown) =>
    refused(error, { name: safeFileName(file.name) }),
  );
  try {
    return await work(spooled);
  } catch (error) {
    const named = options.recognised ? error : await nameWrongKind(error, spooled, kind);
    return await refused(named, { name: spooled.name, sha256: spooled.sha256, sizeBytes: spooled.sizeBytes });
  } finally {
    await spooled.cleanup();
  }
}

/**
 * After a transaction found the same bytes already imported by a concurrent upload: that upload's
 * result, read once it has committed.
 */
export async function concurrentWinner<T>(findExisting: () => Promise<T | null>): Promise<T> {
  const after = await findExisting();
  if (!after) throw new AppError("CONFLICT", "A concurrent import of the same file did not finish; try again.");
  return after;
}

/**
 * COPYs a tabular upload's valid rows into `table`, each prefixed by its parent key, publishing
 * progress as it reads; any invalid row rejects the whole file. Returns the number of rows and
 * the notes for the import's report (a CSV separator other than the comma: "Read as
 * semicolon-separated.").
 */
export async function copyUploadRows<R>(
  tx: RawTx,
  table: string,
  columns: readonly string[],
  upload: { path: string; format: TabularFormat; maxRows: number; uploadId?: string },
  spec: RowSpec<R>,
  prefix: string,
): Promise<{ rows: number; notes: string[] }> {
  const state: StreamState = {
    issues: new Issues(),
    rows: 0,
    onProgress: (rows) => reportProgress(upload.uploadId, { phase: "validating", rows }),
  };
  await tx.copy(
    table,
    columns,
    copyChunks(typedRows(upload.path, upload.format, spec, state, upload.maxRows), spec, state, prefix),
  );
  if (state.issues.failed) state.issues.reject(upload.format);
  const note = delimiterNote(state.delimiter);
  return { rows: state.rows, notes: note ? [note] : [] };
}

/** A tabular upload (dataset or predictions) as the import it becomes: no producer version, the spooled file's name, hash and size. */
export interface TabularImport {
  decisionId: string;
  kind: ImportKind;
  format: TabularFormat;
  spooled: SpooledFile;
}

/** The tabular upload's "Import" row, written in the upload's transaction (rows counted later). */
export function insertTabularImport(
  tx: RawTx,
  upload: TabularImport,
  content: Buffer | null,
  importedById: string,
): Promise<string> {
  return insertImport((sql, ...params) => tx.query(sql, params), {
    decisionId: upload.decisionId,
    kind: upload.kind,
    format: upload.format,
    producerVersion: null,
    fileName: upload.spooled.name,
    sha256: upload.spooled.sha256,
    sizeBytes: upload.spooled.sizeBytes,
    content,
    importedById,
  });
}

/** The summary of a tabular import just written. */
export function newTabularSummary(
  upload: TabularImport,
  importId: string,
  rowCount: number,
  warnings: string[] = [],
): ImportSummary {
  const { kind, format, spooled } = upload;
  const row = {
    id: importId,
    kind,
    format,
    producerVersion: null,
    sha256: spooled.sha256,
    sizeBytes: spooled.sizeBytes,
  };
  return summaryFrom({ ...row, rowCount }, false, warnings);
}
