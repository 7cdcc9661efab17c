import { COLUMN_NAMES } from "../buyer-rows";
import { normaliseHeader, pickColumn } from "../records";
import { csvHeaderCells } from "./csv-delimiter";
import { detectLeaderboardFormat, detectServingFormat } from "./index";

/**
 * Which kind of evidence a file is, whatever it was offered as — so a file refused as one kind
 * (a GuideLLM report offered as a leaderboard) says what it is and where it belongs, rather than
 * "unrecognised". Published formats are recognised by their own detectors (index.ts), the buyer's
 * own files by their columns (buyer-rows.ts COLUMN_NAMES).
 */

export type EvidenceKind = "dataset" | "predictions" | "leaderboard" | "serving";

/** What each kind is called, and where it is uploaded (the uploads page's panel, `verdict import <kind>`, the API's collection). */
const KINDS: Record<EvidenceKind, { noun: string; under: string }> = {
  dataset: { noun: "a labelled dataset", under: "datasets" },
  predictions: { noun: "a candidate's predictions", under: "predictions" },
  leaderboard: { noun: "leaderboard scores", under: "leaderboards" },
  serving: { noun: "a serving benchmark", under: "serving" },
};

export type RecognisedKind = { kind: EvidenceKind; format?: string; label?: string };

/**
 * The kind `text` (a file, or its first bytes) is recognised as, or undefined. A published format
 * is named by its detector; a buyer's CSV or JSON Lines by its header: an id and a gold label
 * without scores is a dataset, an id and a score or predicted label without a gold label is
 * predictions; a file with both is left unrecognised (either kind may read it).
 */
export function recogniseEvidenceKind(text: string): RecognisedKind | undefined {
  const leaderboard = detectLeaderboardFormat(text);
  const serving = detectServingFormat(text);
  const published =
    leaderboard && (!serving || leaderboard.confidence >= serving.confidence)
      ? { kind: "leaderboard" as const, ...leaderboard }
      : serving && { kind: "serving" as const, ...serving };
  if (published) return { kind: published.kind, format: published.format, label: published.label };
  const columns = headerColumns(text);
  const has = (names: readonly string[]) => pickColumn(columns, names) !== undefined;
  if (!has(COLUMN_NAMES.id)) return undefined;
  const gold = has(COLUMN_NAMES.label);
  const scored = has(COLUMN_NAMES.score) || has(COLUMN_NAMES.predicted);
  if (gold && !scored) return { kind: "dataset" };
  if (scored && !gold) return { kind: "predictions" };
  return undefined;
}

/** The reason a file of one kind, offered as another, is refused: what it is, and where to upload it. */
export function wrongKindReason(found: RecognisedKind, offered: EvidenceKind): string {
  const is = KINDS[found.kind];
  const what = found.label ? `${/^[aeiou]/i.test(found.label) ? "an" : "a"} ${found.label} (${is.noun})` : is.noun;
  return `this is ${what}, not ${KINDS[offered].noun}: upload it under ${is.under}`;
}

/** The normalised column names of a CSV header, or of the first JSON Lines record. */
function headerColumns(text: string): string[] {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (!start.startsWith("{")) return csvHeaderCells(text).map(normaliseHeader);
  try {
    const first: unknown = JSON.parse(start.split("\n", 1)[0] ?? "");
    return first && typeof first === "object" && !Array.isArray(first) ? Object.keys(first).map(normaliseHeader) : [];
  } catch {
    return [];
  }
}
