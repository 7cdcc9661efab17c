import "server-only";
import type { Actor } from "../../actors";
import type { UploadFile } from "../files";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import type {
  ItemResultsImportOptions,
  ItemResultsImportResult,
  ItemResultsPreview,
  ItemResultsPreviewOptions,
} from "./types";

export type * from "./types";

/** The preview of another eval tool's per-item results: format, run, id fields, labels, suggested mapping. */
export async function previewItemResults(
  actor: Actor,
  decisionId: string,
  files: UploadFile[],
  options: ItemResultsPreviewOptions = {},
): Promise<ItemResultsPreview> {
  void actor;
  void decisionId;
  void files;
  void options;
  throw new Error("not implemented yet");
}

/** Imports another eval tool's per-item results as a candidate's eval run on a dataset version. */
export async function importItemResults(
  actor: Actor,
  decisionId: string,
  target: { candidateId: string; datasetVersionId: number },
  files: UploadFile[],
  mapping: ItemResultMapping,
  options: ItemResultsImportOptions = {},
): Promise<ItemResultsImportResult> {
  void actor;
  void decisionId;
  void target;
  void files;
  void mapping;
  void options;
  throw new Error("not implemented yet");
}
