import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";

/**
 * Where a run's scores came from, in the words stage 3 and the drill-down print (issue 24 §3–4):
 * one line per run imported from another eval tool, and why a hard-label run has no AP or
 * ROC-AUC. One place, so the page and the drill-down say the same thing.
 */

/** The score basis by its short name, as the provenance line opens. */
export const SCORE_BASIS_NAMES: Record<ScoreBasis, string> = {
  "label-token-probability": "label-token probability",
  "chosen-token-probability": "chosen-token probability (an approximation)",
  "self-reported-confidence": "self-reported confidence (coarse, with ties)",
  "hard-label": "hard label only",
};

/** The imported file a tool run was read from. */
export interface ToolFile {
  name: string;
  sha256: string;
}

/**
 * "Scores: label-token probability — lm-evaluation-harness 0.4.8, task bias (v1), model
 * hf/pretrained=…, file samples_bias.jsonl (sha256 0123456789ab)".
 */
export function runProvenanceLine(toolRun: RunProvenance, file?: ToolFile | null): string {
  const tool = toolRun.toolVersion
    ? `${toolRun.tool} ${toolRun.toolVersion}`
    : `${toolRun.tool} (version not recorded)`;
  const parts = [tool];
  if (toolRun.task) parts.push(`task ${toolRun.task}${toolRun.taskVersion ? ` (${toolRun.taskVersion})` : ""}`);
  if (toolRun.model || toolRun.mapping.model)
    parts.push(
      `model ${toolRun.model ?? toolRun.mapping.model}${toolRun.modelRevision ? ` (${toolRun.modelRevision})` : ""}`,
    );
  if (file) parts.push(`file ${file.name} (sha256 ${file.sha256.slice(0, 12)})`);
  const unknown = toolRun.unknownScoreCount
    ? `; ${toolRun.unknownScoreCount.toLocaleString("en-US")} item(s) with an unknown score (a label token missing from top-k, not imputed)`
    : "";
  return `Scores: ${SCORE_BASIS_NAMES[toolRun.scoreBasis]} — ${parts.join(", ")}${unknown}`;
}

/** How the analyst mapped the file, for the drill-down: id field, positive label(s), repeat. */
export function runMappingLine(toolRun: RunProvenance): string {
  const m = toolRun.mapping;
  const id = m.idField === "position" ? "the item's position (the file's order is the dataset's)" : m.idField;
  return `Mapping: item id from ${id}; positive label(s) ${m.positiveLabels.map((l) => `“${l}”`).join(", ")}${m.repeat ? `; repeat ${m.repeat}` : ""}.`;
}

/**
 * Why a run's AP and ROC-AUC are undefined, or null when they are defined: a run with hard
 * labels only ranks nothing — its PR "curve" is one operating point — so a number there would
 * be an artefact of the 0/1 scores, never a figure (and never 0).
 */
export function rankingUndefinedReason(run: {
  scoreBasis?: ScoreBasis | null;
  metrics: { input: { scoreKind: "scores" | "hard-labels" } } | null;
}): string | null {
  if (run.scoreBasis === "hard-label" || run.metrics?.input.scoreKind === "hard-labels")
    return "hard labels only: no score ranks the items, so the PR curve is one operating point";
  return null;
}
