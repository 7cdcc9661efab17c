import "server-only";
import { recogniseEvidenceKind, wrongKindReason, type EvidenceKind } from "@/lib/ingest/formats/evidence-kind";
import { fileSource } from "@/lib/files/file-source";
import { DELIMITER_SAMPLE_BYTES } from "@/lib/ingest/formats/csv-delimiter";
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
 * only, so a file that imports is never second-guessed. A file within a public file's size limit
 * is read whole (a published JSON report is recognised only whole); a larger one can only be a
 * buyer's file, recognised by its header, so only its first bytes are read.
 */
export async function nameWrongKind(error: unknown, spooled: SpooledFile, kind: ImportKind): Promise<unknown> {
  if (!(error instanceof ImportRejected)) return error;
  const whole = spooled.sizeBytes <= defaultLimits("public").maxBytes;
  const head = await fileSource(spooled.path).head(whole ? spooled.sizeBytes : DELIMITER_SAMPLE_BYTES);
  const found = recogniseEvidenceKind(new TextDecoder("utf-8", { fatal: false }).decode(head));
  if (!found || found.kind === OFFERED[kind]) return error;
  return new ImportRejected([{ field: "(file)", reason: wrongKindReason(found, OFFERED[kind]) }], 1, found.format);
}
