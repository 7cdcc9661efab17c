import "server-only";
import { rawQuery, type Database } from "@/lib/db/connect";
import type { ItemResultMapping, RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import { warmWorkersFor } from "@/lib/compute/parallel-bootstrap";
import type { JoinedColumns } from "@/lib/pack/run-input";
import { database as getDatabase } from "../../db";
import type { Actor } from "../../actors";
import { lockImportKey, recordAuditRaw, withRawTx, type RawTx } from "../../raw-tx";
import { computesHere, enqueueComputeRun } from "../../runs/queue";
import { handOverRunInput } from "../../runs/eval-runs";
import { createRunTable, reserveRunId, runTable } from "../../runs/partitions";
import { readJoinedColumns } from "../../runs/joined-columns";
import { defaultLimits, type ImportLimits, type SpooledFile, type UploadFile } from "../files";
import { IMPORT_COLUMNS, insertImport, lockImportableDecision, summaryFrom, type ImportRow } from "../import-record";
import { requirePredictionTarget } from "../predictions";
import { concurrentWinner, withSpooledUpload } from "../upload";
import { checkDuplicates, checkItems } from "./checks";
import { chooseFormat, normalizeMapping, readEvents, spoolPartners, type ChosenFormat } from "./files";
import { stageItems, writeItems, type StagingOptions } from "./staging";
import { isUniqueViolation } from "../tabular";
import type { ItemResultsImportOptions, ItemResultsImportResult } from "./types";
import { AppError } from "../../errors";

/** Examples of missing ids kept in the import's report. */
const EXAMPLES = 20;

type Target = Awaited<ReturnType<typeof requirePredictionTarget>>;

/** One tool-results upload once its files are spooled and its format chosen. */
interface ToolUpload {
  database: Database;
  actor: Actor;
  decisionId: string;
  target: Target;
  key: ToolRunKey;
  main: SpooledFile;
  chosen: ChosenFormat;
  mapping: ItemResultMapping;
  limits: ImportLimits;
  options: ItemResultsImportOptions;
  handOver: boolean;
}

type ToolRunKey = {
  decisionId: string;
  sha256: string;
  candidateId: string;
  datasetVersionId: number;
  mapping: ItemResultMapping;
};

/**
 * Another eval tool's per-item results as a candidate's run on a dataset version (issue 24 §2,
 * §5; SPEC §6): the files spooled, the main file's format named or detected and its partners
 * found, the items mapped and checked in one transaction — duplicate and unknown ids, gold
 * disagreeing with the dataset, positional ids not in the dataset's order, a partial log: any of
 * them refuses the file and nothing is written. The same bytes with the same mapping for the same
 * candidate and dataset version return the run already imported.
 */
export async function importItemResults(
  actor: Actor,
  decisionId: string,
  target: { candidateId: string; datasetVersionId: number },
  files: UploadFile[],
  mapping: ItemResultMapping,
  options: ItemResultsImportOptions = {},
): Promise<ItemResultsImportResult> {
  const database = await getDatabase();
  const { candidateId, datasetVersionId } = target;
  const found = await requirePredictionTarget(database, actor, decisionId, candidateId, datasetVersionId);
  const normalized = normalizeMapping(mapping);
  const [first, ...others] = files;
  if (!first) throw new AppError("VALIDATION", "No file: send the tool's results file (and its partner files).");
  const limits = { ...defaultLimits("bulk"), ...options.limits };
  const spoolOptions = { ...options, recognised: true };
  return withSpooledUpload(database, actor, decisionId, "PREDICTIONS", first, limits, spoolOptions, async (main) => {
    const partners = await spoolPartners(others, limits);
    try {
      const upload: ToolUpload = {
        database,
        actor,
        decisionId,
        target: found,
        key: { decisionId, sha256: main.sha256, candidateId, datasetVersionId, mapping: normalized },
        main,
        chosen: await chooseFormat(main, partners.spooled, options.format),
        mapping: normalized,
        limits,
        options,
        handOver: options.compute !== "none",
      };
      return await importSpooled(upload);
    } finally {
      await partners.cleanup();
    }
  });
}

type ImportedRunRow = ImportRow & {
  runId: number;
  status: string;
  itemCount: number;
  missingCount: number;
  toolRun: RunProvenance;
};

/** The run already imported from these bytes with this mapping for this candidate on this dataset version. */
async function findImportedToolRun(
  query: <T>(sql: string, params: unknown[]) => Promise<T[]>,
  key: ToolRunKey,
): Promise<ItemResultsImportResult | null> {
  const [row] = await query<ImportedRunRow>(
    `SELECT ${IMPORT_COLUMNS}, r.id AS "runId", r.status, r."itemCount", r."missingCount", r."toolRun"
       FROM "Import" i JOIN "EvalRun" r ON r."importId" = i.id
      WHERE i."decisionId" = $1 AND i.kind = 'PREDICTIONS' AND i.sha256 = $2 AND i.status = 'SUCCEEDED'
        AND r."candidateId" = $3 AND r."datasetVersionId" = $4 AND r."toolRun" -> 'mapping' = $5::jsonb`,
    [key.decisionId, key.sha256, key.candidateId, key.datasetVersionId, JSON.stringify(key.mapping)],
  );
  if (!row) return null;
  return {
    ...summaryFrom(row, true),
    runId: row.runId,
    status: row.status,
    itemCount: row.itemCount,
    missingCount: row.missingCount,
    scoreBasis: row.toolRun.scoreBasis,
    unknownScoreCount: row.toolRun.unknownScoreCount,
    mapping: row.toolRun.mapping,
  };
}

async function importSpooled(upload: ToolUpload): Promise<ItemResultsImportResult> {
  const { database } = upload;
  const findExisting = () => findImportedToolRun((sql, params) => rawQuery(database, sql, params), upload.key);
  const before = await findExisting();
  if (before) return before;
  const positionIds = upload.mapping.idField === "position" ? await datasetOrder(upload) : undefined;
  const content = await upload.main.content();
  if (upload.handOver && computesHere(database)) warmWorkersFor(upload.target.version.itemCount);
  let loaded: LoadedRun | null;
  try {
    loaded = await withRawTx(database, (tx) => loadToolRun(tx, upload, content, positionIds));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await withRawTx(database, (tx) => reportDuplicates(tx, upload, positionIds));
    throw error;
  }
  if (!loaded) return concurrentWinner(findExisting);
  if (upload.handOver) {
    if (loaded.joined) handOverRunInput(loaded.result.runId, loaded.joined);
    await enqueueComputeRun(database, loaded.result.runId);
  }
  return loaded.result;
}

/**
 * The dataset's items in the order they were imported: the physical order of a version's rows,
 * written once by its COPY and never updated (a dataset version is immutable).
 */
async function datasetOrder(upload: ToolUpload): Promise<string[]> {
  const rows = await rawQuery<{ itemId: string }>(
    upload.database,
    `SELECT "itemId" FROM "DatasetItem" WHERE "datasetVersionId" = $1 ORDER BY ctid`,
    [upload.key.datasetVersionId],
  );
  return rows.map((r) => r.itemId);
}

interface LoadedRun {
  result: ItemResultsImportResult;
  joined: JoinedColumns | null;
}

/** What the item stream needs from the upload: the mapping, positional ids, the row limit. */
const stagingOptions = (upload: ToolUpload, positionIds: string[] | undefined): StagingOptions => ({
  mapping: upload.mapping,
  positionIds,
  maxRows: upload.limits.maxRows,
  uploadId: upload.options.uploadId,
});

const checkOf = (upload: ToolUpload) => ({
  version: upload.target.version,
  format: upload.chosen.parser.id,
  idField: upload.mapping.idField,
  positiveClass: upload.target.positiveClass,
});

/**
 * The upload's transaction, shaped like a predictions upload's: the run's table created and the
 * mapped items COPYed straight into it (a repeated id fails the COPY: `reportDuplicates` names
 * them), the file's faults checked in one join to the dataset, then the Import row, the run with
 * its score basis and provenance, and the audit event — or nothing when a concurrent upload of
 * the same bytes and mapping won (null).
 */
async function loadToolRun(
  tx: RawTx,
  upload: ToolUpload,
  content: Buffer | null,
  positionIds: string[] | undefined,
): Promise<LoadedRun | null> {
  const { decisionId, sha256, datasetVersionId } = upload.key;
  await lockImportableDecision(tx, decisionId);
  await lockImportKey(tx, `${decisionId}:PREDICTIONS:${sha256}`);
  if (await findImportedToolRun(tx.query, upload.key)) return null;
  // The checks join the staged items (no statistics yet) to the dataset: hash joins, never a
  // nested loop over both (the same choice as the predictions upload's join check, predictions.ts).
  await tx.query(`SET LOCAL work_mem = '256MB'`);
  await tx.query(`SET LOCAL enable_nestloop = off`);
  const runId = await reserveRunId(tx);
  await createRunTable(tx, runId);
  const staged = await writeItems(
    tx,
    runId,
    readEvents(upload.main, upload.chosen),
    stagingOptions(upload, positionIds),
  );
  const check = checkOf(upload);
  if (staged.issues.failed || !staged.run || !staged.mapper) staged.issues.reject(check.format);
  const verified = await checkItems(tx, check, datasetVersionId);
  const warnings: string[] = [];
  if (upload.mapping.idField === "position")
    warnings.push(
      verified > 0
        ? `Positional ids: ${verified} of ${staged.rows} item(s) verified against the dataset's text.`
        : "Positional ids: the file carries no input text to compare with the dataset's, so the order could not be verified.",
    );
  const provenance: RunProvenance = {
    ...staged.run!,
    format: check.format,
    scoreBasis: staged.mapper!.scoreBasis,
    mapping: upload.mapping,
    unknownScoreCount: staged.mapper!.unknownScoreCount,
    ...(upload.chosen.partnersUsed.length ? { partners: upload.chosen.partnersUsed } : {}),
  };
  return recordToolRun(tx, upload, { runId, rowCount: staged.rows, provenance, content, warnings });
}

/**
 * Error path after a repeated id failed the COPY (its transaction is gone): the items read again
 * into the staging table of a transaction of their own, and the file's issues or its duplicates
 * rejected, every repeat named with where it is and where the id was first.
 */
async function reportDuplicates(tx: RawTx, upload: ToolUpload, positionIds: string[] | undefined): Promise<void> {
  const staged = await stageItems(tx, readEvents(upload.main, upload.chosen), stagingOptions(upload, positionIds));
  const check = checkOf(upload);
  if (staged.issues.failed) staged.issues.reject(check.format);
  await checkDuplicates(tx, check);
}

/** The join read (for the metrics job), the Import row, the run row and its audit event. */
async function recordToolRun(
  tx: RawTx,
  upload: ToolUpload,
  run: { runId: number; rowCount: number; provenance: RunProvenance; content: Buffer | null; warnings: string[] },
): Promise<LoadedRun> {
  const { runId, rowCount, provenance } = run;
  const { decisionId, candidateId, datasetVersionId } = upload.key;
  const { version, candidate } = upload.target;
  let joined: JoinedColumns | null = null;
  let missingExamples: string[];
  if (upload.handOver) {
    const read = await readJoinedColumns(tx, runId, datasetVersionId, version.itemCount, EXAMPLES);
    joined = read.columns;
    missingExamples = read.missingExamples;
  } else missingExamples = rowCount < version.itemCount ? await listMissing(tx, runId, datasetVersionId) : [];
  const missingCount = version.itemCount - rowCount;
  const report = { missingCount, missingExamples, unknownCount: 0, duplicateCount: 0 };
  const importId = await insertImport((sql, ...params) => tx.query(sql, params), {
    decisionId,
    kind: "PREDICTIONS",
    format: provenance.format,
    producerVersion: provenance.toolVersion ?? null,
    fileName: upload.main.name,
    sha256: upload.main.sha256,
    sizeBytes: upload.main.sizeBytes,
    content: run.content,
    importedById: upload.actor.id,
    rowCount,
    errors: report,
  });
  await tx.query(
    `INSERT INTO "EvalRun" (id, "decisionId", "candidateId", "datasetVersionId", status, progress, "importId", "itemCount", "missingCount", "unknownCount", "duplicateCount", "scoreBasis", "toolRun")
     VALUES ($1, $2, $3, $4, 'PENDING', 0, $5, $6, $7, 0, 0, $8, $9::jsonb)`,
    [
      runId,
      decisionId,
      candidateId,
      datasetVersionId,
      importId,
      version.itemCount,
      missingCount,
      provenance.scoreBasis,
      JSON.stringify(provenance),
    ],
  );
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
      candidate: candidate.name,
      datasetVersionId,
      format: provenance.format,
      fileName: upload.main.name,
      sha256: upload.main.sha256,
      sizeBytes: upload.main.sizeBytes,
      rowCount,
      missingCount,
      tool: provenance.tool,
      scoreBasis: provenance.scoreBasis,
      unknownScoreCount: provenance.unknownScoreCount,
      mapping: provenance.mapping,
      ...(provenance.partners ? { partners: provenance.partners } : {}),
    },
    request: upload.options.request,
  });
  const notes = [...run.warnings];
  if (missingCount > 0)
    notes.push(
      `${missingCount} dataset item(s) have no prediction; each counts as an error (e.g. ${missingExamples.slice(0, 5).join(", ")})`,
    );
  if (provenance.unknownScoreCount > 0)
    notes.push(
      `${provenance.unknownScoreCount} item(s) have no score the file can give (a label token missing from the top logprobs): reported, never imputed; each counts as an error`,
    );
  const row = {
    id: importId,
    kind: "PREDICTIONS" as const,
    format: provenance.format,
    producerVersion: provenance.toolVersion ?? null,
    sha256: upload.main.sha256,
    sizeBytes: upload.main.sizeBytes,
    rowCount,
  };
  const result: ItemResultsImportResult = {
    ...summaryFrom(row, false, notes),
    runId,
    status: "PENDING",
    itemCount: version.itemCount,
    missingCount,
    scoreBasis: provenance.scoreBasis,
    unknownScoreCount: provenance.unknownScoreCount,
    mapping: provenance.mapping,
  };
  return { result, joined };
}

async function listMissing(tx: RawTx, runId: number, datasetVersionId: number): Promise<string[]> {
  const rows = await tx.query<{ itemId: string }>(
    `SELECT d."itemId" FROM "DatasetItem" d WHERE d."datasetVersionId" = $2
        AND NOT EXISTS (SELECT 1 FROM ${runTable(runId)} p WHERE p."evalRunId" = $1 AND p."itemId" = d."itemId")
      ORDER BY d."itemId" LIMIT ${EXAMPLES}`,
    [runId, datasetVersionId],
  );
  return rows.map((r) => r.itemId);
}
