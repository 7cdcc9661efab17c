import "server-only";
import { recogniseEvidenceKind, wrongKindReason, type EvidenceKind } from "@/lib/ingest/formats/evidence-kind";
import { fileSource } from "@/lib/files/file-source";
import { defaultLimits, type SpooledFile } from "./files";
import { ImportRejected, type ImportKind } from "./import-record";

const OFFERED: Record<ImportKind, EvidenceKind> = {
  DATASET: "dataset",
  PREDICTIONS: "predictions",
  LEADERBOARD: "leaderboard",
  SERVING: "serving",
};

/**
 * A refused file recognised as another kind of evidence is refused for that reason alone ("this
 * is a GuideLLM benchmarks report JSON (a serving benchmark), not leaderboard scores: upload it
 * under serving"): its problems as the offered kind would only mislead. Asked on the refusal path
 * only, so a file that imports is never second-guessed. Reads at most a public file's size limit:
 * a published report is never larger, and a buyer's file is recognised by its header.
 */
export async function nameWrongKind(error: unknown, spooled: SpooledFile, kind: ImportKind): Promise<unknown> {
  if (!(error instanceof ImportRejected)) return error;
  const head = await fileSource(spooled.path).head(defaultLimits("public").maxBytes);
  const found = recogniseEvidenceKind(new TextDecoder("utf-8", { fatal: false }).decode(head));
  if (!found || found.kind === OFFERED[kind]) return error;
  return new ImportRejected([{ field: "(file)", reason: wrongKindReason(found, OFFERED[kind]) }], 1, found.format);
}
