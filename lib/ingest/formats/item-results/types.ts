import type { ByteSource } from "../../byte-source";
import type { Confidence, ParseIssue } from "../types";

/**
 * Per-item results written by other eval tools (Inspect, lm-evaluation-harness, HELM, promptfoo,
 * OpenAI Evals; shared/fixtures/external/EVAL-FORMATS.md). A parser reads what the tool wrote, as
 * the tool wrote it — it decides nothing: which field holds the buyer's id, which gold and
 * predicted texts are the positive class, which repeat counts and which model is which candidate
 * are the analyst's mapping (`mapping.ts`), applied after parsing.
 */

/**
 * What a continuous score is worth (SPEC: provenance stated wherever the run appears):
 * - `label-token-probability`: softmax over the label choices' log-likelihoods or top logprobs, a real ranking;
 * - `chosen-token-probability`: the probability of the token the model chose, an approximation;
 * - `self-reported-confidence`: a confidence the model wrote in its answer (coarse, ties);
 * - `hard-label`: no score at all, one operating point.
 * Correctness fields (Inspect C/I, promptfoo success/score, lm-eval acc) and judge grades are never scores.
 */
export const scoreBases = [
  "label-token-probability",
  "chosen-token-probability",
  "self-reported-confidence",
  "hard-label",
] as const;
export type ScoreBasis = (typeof scoreBases)[number];

/** The run as the tool recorded it: provenance kept on the eval run and frozen into the pack. */
export interface ToolRun {
  /** "inspect-ai", "lm-evaluation-harness", "helm", "promptfoo", "openai-evals". */
  tool: string;
  toolVersion?: string;
  /** The model as the tool resolved it (Inspect `output.model`, lm-eval `model_args`, HELM `adapter_spec.model`). */
  model?: string;
  /** A model revision or hash, where the tool records one (lm-eval `model_sha`). */
  modelRevision?: string;
  task?: string;
  /** Task version or code commit (Inspect `task_version`/`revision`, lm-eval task `version`, `git_hash`). */
  taskVersion?: string;
  /** Generation settings as the tool stored them (temperature, max tokens, logprobs…), flat key → text. */
  generationConfig?: Record<string, string>;
  /** The task's label choices in the tool's order (lm-eval `doc_to_choice`, Inspect `choices`), when known. */
  choices?: string[];
  /** The tool's own completion state: a log that is not "success" (Inspect `started`, `error`) is refused. */
  status?: string;
}

/** One item's result as the tool wrote it: one row per item × repeat × model. */
export interface ToolItem {
  /** Where it is in the file, for error messages: a JSON Lines line or a path such as `samples/3_epoch_1.json`. */
  at: { line?: number; record?: string };
  /** The tool's own id: Inspect `sample.id`, lm-eval `doc_id`, HELM `instance_id`, promptfoo `testIdx`, OpenAI Evals `sample_id`. */
  toolId: string;
  /** Fields that may hold the buyer's id, flattened to dotted paths → text (`doc.id`, `metadata.item_id`, `vars.id`). */
  idFields: Record<string, string>;
  /** The model or provider of this row when a file holds several (promptfoo `provider.id`). */
  model?: string;
  /** Which repeat this row is (Inspect epoch, lm-eval filter, HELM trial/perturbation, promptfoo repeat); absent when one. */
  repeat?: string;
  /** The gold label as the tool states it, trimmed (a letter or index is resolved through `ToolRun.choices` by the mapping). */
  gold?: string;
  /** The model's hard answer, trimmed; undefined when it gave none the tool could read (a parse failure: an error). */
  predicted?: string;
  /**
   * This item's label choices in the tool's order, when the file lists them per item (lm-eval
   * `arguments`): a gold index such as "3" is resolved through them, since the choices may differ
   * from item to item and the keys of `choiceProbabilities` do not keep their order.
   */
  choices?: string[];
  /** Label choice → probability, when the file gives a real ranking over the choices (sums to 1). */
  choiceProbabilities?: Record<string, number>;
  /** Otherwise a single score with what it is worth; absent for hard labels. */
  score?: { value: number; basis: Exclude<ScoreBasis, "label-token-probability" | "hard-label"> };
  /** Why this item's score is unknown (a label token missing from top-k): reported, never imputed. */
  scoreUnknown?: string;
  /** The input text, to verify positional ids against the dataset's text. */
  input?: string;
  /**
   * The tool's own per-item metric values by name (HELM `exact_match`, `xst_score`): correctness
   * and judge grades, kept for display and cross-checks — never a score.
   */
  metrics?: Record<string, number>;
}

/** What a parser yields as it reads: the run once (first), then items in batches; problems as found. */
export type ItemResultEvent =
  { kind: "run"; run: ToolRun } | { kind: "items"; items: ToolItem[] } | { kind: "issue"; issue: ParseIssue };

/**
 * A second file a format needs besides the one `read` is given: HELM writes a run's results as
 * file pairs (`instances.json` + `display_predictions.json`). The caller finds it among the
 * uploaded files with `detect` and hands it to `read` under `role`.
 */
export interface PartnerFile {
  role: string;
  /** What the analyst should add, e.g. "display_predictions.json". */
  label: string;
  /** A required partner that is missing makes `read` refuse the file, naming the partner. */
  required: boolean;
  detect: (head: Buffer, fileName: string) => Confidence;
}

/** What the caller knows beside the bytes: some tools put the task only in the file's name (lm-eval `samples_<task>_<date>.jsonl`). */
export interface ItemResultReadOptions {
  fileName?: string;
  /** The partner files, by `PartnerFile.role`. */
  partners?: Readonly<Record<string, ByteSource>>;
}

export interface ItemResultParser {
  id: string;
  label: string;
  /** From the first bytes of the file (at most 64 KiB, decoded as UTF-8 leniently) and its name. */
  detect: (head: Buffer, fileName: string) => Confidence;
  /** The partner files this format reads besides the detected one (absent: a single file). */
  partners?: readonly PartnerFile[];
  /** Streams the file: never the whole of a large file in memory. */
  read: (source: ByteSource, options?: ItemResultReadOptions) => AsyncGenerator<ItemResultEvent>;
}
