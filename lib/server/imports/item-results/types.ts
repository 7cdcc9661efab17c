import "server-only";
import type { ScoreBasis, ToolRun } from "@/lib/ingest/formats/item-results/types";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import type { ImportOptionsBase } from "../import-record";
import type { PredictionsImportResult } from "../predictions";

/** What the analyst sees before importing another eval tool's per-item results (issue 24 §2). */
export interface ItemResultsPreview {
  format: { id: string; label: string };
  run: ToolRun;
  itemCount: number;
  scoreBasis: ScoreBasis;
  /** matches: how many of the sampled values are item ids of the dataset version. */
  idFields: { path: string; examples: string[]; matches: number; sampled: number }[];
  /** Gold and predicted label texts seen, trimmed, letters/indices resolved. */
  labels: string[];
  repeats: string[];
  models: string[];
  suggested: ItemResultMapping;
  /** Multi-model files: proposed by the existing model-name matcher (lib/ingest/model-match.ts). */
  candidates: { model: string; candidateId: string | null }[];
}

export interface ItemResultsPreviewOptions {
  /** A parser id of `itemResultFormats`; detected from the file when absent. */
  format?: string;
  /** The dataset version the ids are checked against (`idFields[].matches`). */
  datasetVersionId?: number;
}

export type ItemResultsImportOptions = ImportOptionsBase & { format?: string; compute?: "queue" | "none" };

export type ItemResultsImportResult = PredictionsImportResult & {
  scoreBasis: ScoreBasis;
  unknownScoreCount: number;
  mapping: ItemResultMapping;
};
