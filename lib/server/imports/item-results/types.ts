import "server-only";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import type { ImportOptionsBase } from "../import-record";
import type { PredictionsImportResult } from "../predictions";

export type { ItemResultsPreview } from "@/lib/ingest/formats/item-results/provenance";

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
