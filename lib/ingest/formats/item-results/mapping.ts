import { MAX_TEXT_LENGTH, type PredictionRow } from "../../buyer-rows";
import { show } from "../issues";
import type { ParseIssue } from "../types";
import type { ItemResultMapping } from "./provenance";
import type { ScoreBasis, ToolItem, ToolRun } from "./types";

/**
 * The analyst's mapping applied to a tool's per-item results (issue 24 §2): which field is the
 * buyer's id, which gold and predicted texts are the decision's positive class, which repeat and
 * model count, and the score — P(positive) summed over the positive choices' probabilities, or
 * the tool's single score turned towards the positive class, or none (hard label). Pure: the
 * importer streams items through one `ItemMapper` and COPYs its rows.
 */

/**
 * A label as the mapping compares it: trimmed; a letter (A, B, …) or an index (0, 1, …) that is
 * not itself one of the choices is read through the item's (else the run's) choice list.
 */
export function resolveLabel(text: string, choices?: readonly string[]): string {
  const t = text.trim();
  if (!choices || choices.length === 0 || choices.includes(t)) return t;
  if (/^\d+$/.test(t) && Number(t) < choices.length) return choices[Number(t)]!.trim();
  if (/^[A-Z]$/.test(t) && t.charCodeAt(0) - 65 < choices.length) return choices[t.charCodeAt(0) - 65]!.trim();
  return t;
}

/** One tool item mapped onto the decision: its prediction row and what the importer checks against the dataset. */
export interface MappedItem {
  row: PredictionRow;
  /** The file's gold read as the positive class (true) or not; null when the file states none. */
  gold: boolean | null;
  goldText: string | null;
  /** The input the file carries, to verify positional ids against the dataset's text. */
  input: string | null;
  /** Where the item is in the file, for error messages: "line 3", "samples/3_epoch_1.json". */
  where: string;
}

export type MapOutcome = { kind: "skip" } | { kind: "item"; item: MappedItem } | { kind: "issue"; issue: ParseIssue };

export const whereOf = (at: ToolItem["at"]): string =>
  at.line !== undefined ? `line ${at.line}` : (at.record ?? "(item)");

/** The basis an item's score would have, before the run's basis is settled. */
function itemBasis(item: ToolItem): ScoreBasis {
  if (item.choiceProbabilities) return "label-token-probability";
  if (item.score) return item.score.basis;
  return "hard-label";
}

export class ItemMapper {
  private readonly positive: Set<string>;
  private position = 0;
  private seenModel: string | undefined;
  private seenRepeat: string | undefined;
  private scored = 0;
  private kept = 0;
  private basisSeen: ScoreBasis | undefined;
  /** Other models and repeats already reported (once each) and skipped. */
  private readonly reported = new Set<string>();

  constructor(
    private readonly run: ToolRun,
    private readonly mapping: ItemResultMapping,
    /** The dataset's item ids in its order: required when `mapping.idField` is "position". */
    private readonly positionIds?: readonly string[],
  ) {
    this.positive = new Set(mapping.positiveLabels.map((l) => l.trim()));
  }

  /** What the run's scores are: the basis of its scored items; hard label when none has a score. */
  get scoreBasis(): ScoreBasis {
    return this.basisSeen ?? "hard-label";
  }

  /** Kept items without a usable score in a scored run: reported, never imputed (counted as errors by the metrics). */
  get unknownScoreCount(): number {
    return this.basisSeen ? this.kept - this.scored : 0;
  }

  map(item: ToolItem): MapOutcome {
    const fail = (field: string, value: unknown, reason: string): MapOutcome => ({
      kind: "issue",
      issue: { ...item.at, field, ...(value === undefined ? {} : { value: show(value) }), reason },
    });
    if (this.mapping.model !== undefined ? item.model !== this.mapping.model : false) return { kind: "skip" };
    if (this.mapping.repeat !== undefined ? item.repeat !== this.mapping.repeat : false) return { kind: "skip" };
    const several = this.several(item);
    if (several === "reported") return { kind: "skip" };
    if (several) return fail(several.field, several.value, several.reason);
    const id = this.itemId(item);
    if ("reason" in id) return fail(this.mapping.idField, undefined, id.reason);
    const choices = item.choices ?? this.run.choices;
    const goldText = item.gold === undefined ? null : resolveLabel(item.gold, choices);
    const predictedText = item.predicted === undefined ? null : resolveLabel(item.predicted, choices);
    const predicted = predictedText === null ? null : this.positive.has(predictedText);
    const score = this.score(item, choices, predicted);
    if ("reason" in score) return fail(score.field, score.value, score.reason);
    this.kept++;
    if (score.value !== null) this.scored++;
    const row: PredictionRow = {
      itemId: id.value,
      score: score.value,
      predicted,
      parseFailure: predicted === null && score.value === null,
      rawOutput: item.predicted === undefined ? null : item.predicted.slice(0, MAX_TEXT_LENGTH),
      latencyMs: null,
      inputTokens: null,
      outputTokens: null,
    };
    return {
      kind: "item",
      item: {
        row,
        gold: goldText === null ? null : this.positive.has(goldText),
        goldText,
        input: item.input ?? null,
        where: whereOf(item.at),
      },
    };
  }

  /** Several models or repeats in one file with none chosen would make every id a duplicate: say which to choose. */
  private several(item: ToolItem): { field: string; value: string; reason: string } | "reported" | null {
    if (this.mapping.model === undefined && item.model !== undefined) {
      this.seenModel ??= item.model;
      if (item.model !== this.seenModel && this.reported.has(`model:${item.model}`)) return "reported";
      if (item.model !== this.seenModel && this.reported.add(`model:${item.model}`))
        return {
          field: "model",
          value: item.model,
          reason: `the file holds several models ("${this.seenModel}", "${item.model}"): choose which one this candidate is (model)`,
        };
    }
    if (this.mapping.repeat === undefined && item.repeat !== undefined) {
      this.seenRepeat ??= item.repeat;
      if (item.repeat !== this.seenRepeat && this.reported.has(`repeat:${item.repeat}`)) return "reported";
      if (item.repeat !== this.seenRepeat && this.reported.add(`repeat:${item.repeat}`))
        return {
          field: "repeat",
          value: item.repeat,
          reason: `the file holds several repeats ("${this.seenRepeat}", "${item.repeat}"): choose the one that counts (repeat)`,
        };
    }
    return null;
  }

  private itemId(item: ToolItem): { value: string } | { reason: string } {
    const { idField } = this.mapping;
    if (idField === "position") {
      const n = this.position++;
      const id = this.positionIds?.[n];
      if (id === undefined)
        return {
          reason: `item ${n + 1} of the file has no counterpart: the dataset version has ${this.positionIds?.length ?? 0} items`,
        };
      return { value: id };
    }
    const value = idField === "toolId" ? item.toolId : item.idFields[idField];
    if (value === undefined || value.trim() === "") return { reason: `no value: the item has no field "${idField}"` };
    return { value: value.trim() };
  }

  /** P(positive), or null for a hard label or a score the file cannot give (a label token missing from top-k). */
  private score(
    item: ToolItem,
    choices: readonly string[] | undefined,
    predicted: boolean | null,
  ): { value: number | null } | { field: string; value?: unknown; reason: string } {
    const basis = itemBasis(item);
    if (basis !== "hard-label") {
      this.basisSeen ??= basis;
      if (basis !== this.basisSeen)
        return {
          field: "score",
          value: basis,
          reason: `the score's basis differs from the run's (${this.basisSeen}): one run, one kind of score`,
        };
    }
    if (item.scoreUnknown !== undefined) return { value: null };
    if (item.choiceProbabilities) {
      let p = 0;
      let any = false;
      for (const [label, probability] of Object.entries(item.choiceProbabilities))
        if (this.positive.has(resolveLabel(label, choices))) {
          p += probability;
          any = true;
        }
      if (!any)
        return {
          field: "positiveLabels",
          value: this.mapping.positiveLabels.join(", "),
          reason: `none of the item's choices (${Object.keys(item.choiceProbabilities)
            .map((l) => resolveLabel(l, choices))
            .join(", ")}) is a positive label`,
        };
      return { value: Math.min(1, Math.max(0, p)) };
    }
    if (item.score) {
      // The tool's probability (or confidence) is that of the answer it gave: towards the positive class, 1 − p for a negative answer.
      if (predicted === null) return { value: null };
      return { value: predicted ? item.score.value : 1 - item.score.value };
    }
    return { value: null };
  }
}

/** What the preview saw, for `suggestMapping`: sampled values of each id field, labels, repeats and models. */
export interface MappingPreviewData {
  idFields: { path: string; values: readonly string[] }[];
  labels: readonly string[];
  repeats: readonly string[];
  models: readonly string[];
}

/** How many of an id field's sampled values are item ids of the dataset version. */
export function countMatches(values: readonly string[], datasetIds: ReadonlySet<string>): number {
  let n = 0;
  for (const v of values) if (datasetIds.has(v.trim())) n++;
  return n;
}

/**
 * A first mapping the analyst confirms or corrects: the id field whose sampled values most often
 * are the dataset's ids (ties: the first listed; without the dataset's ids, the tool's own id) —
 * "position" is never suggested; the labels equal to the decision's positive class
 * (case-insensitively), else none; the first repeat and model.
 */
export function suggestMapping(
  preview: MappingPreviewData,
  datasetIds: ReadonlySet<string> | null,
  positiveClass: string,
): ItemResultMapping {
  let idField = "toolId";
  if (datasetIds) {
    let best = 0;
    for (const field of preview.idFields) {
      const rate = field.values.length ? countMatches(field.values, datasetIds) / field.values.length : 0;
      if (rate > best) {
        best = rate;
        idField = field.path;
      }
    }
  }
  const wanted = positiveClass.trim().toLowerCase();
  const mapping: ItemResultMapping = {
    idField,
    positiveLabels: preview.labels.filter((l) => l.trim().toLowerCase() === wanted),
  };
  if (preview.repeats.length > 0) mapping.repeat = preview.repeats[0]!;
  if (preview.models.length > 0) mapping.model = preview.models[0]!;
  return mapping;
}
