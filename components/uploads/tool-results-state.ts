import type { ItemResultMapping, ItemResultsPreview } from "@/lib/ingest/formats/item-results/provenance";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { ReportedIssue } from "./error-report";

/**
 * The mapping step of another eval tool's per-item results (issue 24 §2) as the uploads page
 * holds it: the server's preview of the file(s), the analyst's choices, and what the JSON API
 * answers. Pure, so the rules of the step (a positional id only when the analyst says
 * the order is the dataset's; at least one positive label; every model mapped or skipped) are
 * testable without a browser. The preview is `ItemResultsPreview`, declared with the pure provenance types.
 */
export type ToolResultsPreview = ItemResultsPreview;

/** One run the import created (one per model of the file). */
export interface ToolImportedRun {
  model: string | null;
  candidateId: string;
  runId: number;
  existing: boolean;
  rowCount: number;
  itemCount: number;
  missingCount: number;
  unknownScoreCount: number;
  scoreBasis: ScoreBasis;
}

/** A refusal: one message, and the file's problems (item, field, reason) when the file was rejected. */
export interface ToolFailure {
  message: string;
  errors?: ReportedIssue[];
  errorCount?: number;
}

export type ToolPreviewState = ({ ok: true; preview: ToolResultsPreview } | ({ ok: false } & ToolFailure)) | null;

/** What was imported before a refusal (a later model's run), so the page never hides a half-done import. */
export type ToolImportState = { ok: boolean; runs: ToolImportedRun[]; failure?: ToolFailure & { model?: string } };

/** The choice that reads the n-th item as the dataset's n-th: only offered behind an explicit checkbox. */
export const POSITION = "position";

/** The analyst's choices on the mapping step. */
export interface ToolChoices {
  idField: string;
  /** The analyst said the file's order is the dataset's order (required for `position`). */
  orderIsDatasetOrder: boolean;
  positiveLabels: string[];
  repeat: string;
  /** Single-model files: the candidate the run is for. */
  candidateId: string;
  /** Multi-model files: model → candidate id ("" = not imported). */
  modelCandidates: Record<string, string>;
}

/** The step's starting point: the server's suggested mapping and matched candidates. */
export function initialChoices(preview: ToolResultsPreview, firstCandidateId: string): ToolChoices {
  const s = preview.suggested;
  return {
    idField: s.idField,
    orderIsDatasetOrder: false,
    positiveLabels: s.positiveLabels.filter((l) => preview.labels.includes(l)),
    repeat: s.repeat ?? preview.repeats[0] ?? "",
    candidateId: (preview.models.length === 1 && preview.candidates[0]?.candidateId) || firstCandidateId,
    modelCandidates: Object.fromEntries(
      preview.models.map((m) => [m, preview.candidates.find((c) => c.model === m)?.candidateId ?? ""]),
    ),
  };
}

/** "12 of 20 sampled values match the dataset's ids", the evidence for choosing an id field. */
export function matchText(field: { matches: number; sampled: number }): string {
  return `${field.matches.toLocaleString("en-US")} of ${field.sampled.toLocaleString("en-US")} match the dataset's ids`;
}

/** The (model, candidate) pairs to import: one run each. A single-model file is one pair, with no model to pick. */
export function importTargets(
  preview: ToolResultsPreview,
  choices: ToolChoices,
): { model: string | null; candidateId: string }[] {
  if (preview.models.length <= 1) return [{ model: null, candidateId: choices.candidateId }];
  return preview.models
    .filter((m) => choices.modelCandidates[m])
    .map((m) => ({ model: m, candidateId: choices.modelCandidates[m]! }));
}

/** Why the mapping cannot be imported yet (field → reason), empty when it can. */
export function choiceProblems(preview: ToolResultsPreview, choices: ToolChoices): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!choices.idField) problems.idField = "Choose the field that holds the dataset's item id.";
  else if (choices.idField === POSITION && !choices.orderIsDatasetOrder)
    problems.idField = "Item position is an id only when the file's order is the dataset's order: tick the box.";
  if (choices.positiveLabels.length === 0)
    problems.positiveLabels = "Tick the label(s) that mean the decision's positive class.";
  else if (choices.positiveLabels.length === preview.labels.length)
    problems.positiveLabels = "Every label is ticked as positive: leave the negative label(s) unticked.";
  if (preview.repeats.length > 1 && !preview.repeats.includes(choices.repeat))
    problems.repeat = "Choose the repeat that counts.";
  const targets = importTargets(preview, choices);
  if (targets.length === 0 || targets.some((t) => !t.candidateId))
    problems.candidate = "Choose the candidate each model's results are for.";
  const ids = targets.map((t) => t.candidateId);
  if (new Set(ids).size !== ids.length) problems.candidate = "Two models are mapped to the same candidate.";
  return problems;
}

/** The mapping one run is imported with. */
export function mappingFor(preview: ToolResultsPreview, choices: ToolChoices, model: string | null): ItemResultMapping {
  return {
    idField: choices.idField,
    positiveLabels: choices.positiveLabels,
    ...(preview.repeats.length > 1 && choices.repeat ? { repeat: choices.repeat } : {}),
    ...(model !== null ? { model } : {}),
  };
}
