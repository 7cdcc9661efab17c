import type { ScoreBasis, ToolRun } from "./types";

/**
 * The analyst's mapping of a tool's per-item results onto the decision (issue 24 §2), as chosen
 * on the page, in the API or the CLI, and kept on the run so a re-import with the same mapping is
 * the same run and the record can say how each score was read.
 */
export interface ItemResultMapping {
  /**
   * Which field holds the buyer's item id: a dotted path among `ToolItem.idFields` (`doc.id`,
   * `metadata.item_id`, `vars.id`), `"toolId"` for the tool's own id, or `"position"` — the
   * n-th item is the dataset's n-th, allowed only when the analyst says so and verified against
   * the dataset's text where the file carries the input.
   */
  idField: string;
  /** The label texts (after trimming, letters and indices resolved) read as the decision's positive class. */
  positiveLabels: string[];
  /** Which repeat counts (Inspect epoch, lm-eval filter, HELM trial, promptfoo repeat), when the file has several. */
  repeat?: string;
  /** Which model or provider of a multi-model file this run is (promptfoo `provider.id`). */
  model?: string;
}

/**
 * Where a run imported from another eval tool came from: stored on `EvalRun.toolRun`, shown on the
 * run, stage 3, the drill-down, the JSON export and the PDF's provenance, and frozen into the pack
 * revision. The file itself (name, SHA-256, importer, time) is the run's `Import` row.
 */
export interface RunProvenance extends ToolRun {
  /** The parser that read the file (`ItemResultParser.id`). */
  format: string;
  scoreBasis: ScoreBasis;
  mapping: ItemResultMapping;
  /** Items whose score is unknown (a label token missing from top-k): reported, never imputed. */
  unknownScoreCount: number;
  /** The files read beside the main one (HELM's pair), each with its SHA-256. */
  partners?: { role: string; fileName: string; sha256: string }[];
}

/** What the analyst sees (the server computes it; the uploads page shows it) before importing another eval tool's per-item results (issue 24 §2). */
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

/** One line a reader can quote: what the scores are and how far they can be trusted. */
export function scoreBasisText(basis: ScoreBasis): string {
  switch (basis) {
    case "label-token-probability":
      return "label-token probability (softmax over the label choices' log-probabilities; a real ranking)";
    case "chosen-token-probability":
      return "chosen-token probability (the probability of the token the model chose; an approximation of a ranking)";
    case "self-reported-confidence":
      return "self-reported confidence (a number the model wrote; coarse, with ties)";
    case "hard-label":
      return "hard label only (no score: one operating point; AP and ROC-AUC undefined)";
  }
}
