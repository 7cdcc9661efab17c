import "server-only";
/** Server-side importers (issue 4): one use case per kind, all-or-nothing, idempotent, audited. */
export { importDataset, type DatasetImportOptions, type DatasetImportResult } from "./dataset";
export { importPredictions, type PredictionsImportOptions, type PredictionsImportResult } from "./predictions";
export {
  importLeaderboard,
  importServing,
  UnmatchedModels,
  type PublicImportOptions,
  type PublicImportResult,
} from "./benchmark-files";
export { ImportRejected, type ImportSummary, type ImportKind } from "./import-record";
export { safeFileName, type UploadFile, type ImportLimits } from "./files";
