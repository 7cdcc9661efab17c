import "server-only";
import { detectItemResultFormat, itemResultFormats } from "@/lib/ingest/formats/item-results";
import type { ItemResultMapping } from "@/lib/ingest/formats/item-results/provenance";
import type { Actor } from "../../actors";
import { AppError } from "../../errors";
import type { RequestInfo } from "../../audit/write";
import type { UploadFile } from "../files";
import { jsonField, listField, peekUpload } from "../http";
import { importItemResults } from "./import";
import { previewItemResults } from "./preview";
import type { ItemResultsImportResult, ItemResultsPreview } from "./types";

/** What `detect` reads of a file (the parsers' contract). */
const HEAD_BYTES = 64 * 1024;

/**
 * Whether a predictions upload is another eval tool's results: a `format` that names one of their
 * parsers, a mapping sent with it, or — neither format nor mapping — its first bytes recognised
 * by one of the parsers. Returns the upload's files whole again (the head was read off a stream).
 */
export async function routeItemResults(
  files: UploadFile[],
  fields: Record<string, string>,
): Promise<{ itemResults: boolean; files: UploadFile[] }> {
  if (fields.format) return { itemResults: itemResultFormats.some((p) => p.id === fields.format), files };
  if (fields.mapping || fields.idField) return { itemResults: true, files };
  const [first, ...rest] = files;
  if (!first) return { itemResults: false, files };
  const peeked = await peekUpload(first, HEAD_BYTES);
  const detected = detectItemResultFormat(peeked.head, first.name) !== undefined;
  return { itemResults: detected, files: [peeked.file, ...rest] };
}

/** The mapping from a `mapping` JSON field, else from `idField`, `positiveLabels`, `repeat` and `model`; undefined when none is sent. */
export function mappingFromFields(fields: Record<string, string>): ItemResultMapping | undefined {
  const json = jsonField<ItemResultMapping>(fields.mapping, "The mapping field");
  if (json !== undefined) return json;
  if (!fields.idField && !fields.positiveLabels) return undefined;
  const mapping: ItemResultMapping = {
    idField: fields.idField ?? "",
    positiveLabels: listField(fields.positiveLabels) ?? [],
  };
  if (fields.repeat) mapping.repeat = fields.repeat;
  if (fields.model) mapping.model = fields.model;
  return mapping;
}

const versionOf = (fields: Record<string, string>) =>
  fields.datasetVersionId ? Number(fields.datasetVersionId) : undefined;

/** The preview of an upload (POST …/predictions/preview, and the body of MAPPING_REQUIRED). */
export function previewFromFields(
  actor: Actor,
  decisionId: string,
  files: UploadFile[],
  fields: Record<string, string>,
): Promise<ItemResultsPreview> {
  return previewItemResults(actor, decisionId, files, { format: fields.format, datasetVersionId: versionOf(fields) });
}

/**
 * The tool results imported with the mapping sent. Without one nothing is imported: 422
 * MAPPING_REQUIRED with the file's preview and suggested mapping in `details`, for the client to
 * confirm (or correct) and send again with `mapping`.
 */
export async function importItemResultsFromFields(
  actor: Actor,
  decisionId: string,
  files: UploadFile[],
  fields: Record<string, string>,
  context: { request: RequestInfo; uploadId?: string },
): Promise<ItemResultsImportResult> {
  const mapping = mappingFromFields(fields);
  if (!mapping) {
    const preview = await previewFromFields(actor, decisionId, files, fields);
    throw new AppError(
      "MAPPING_REQUIRED",
      `This is ${preview.format.label}: say which field holds the item id and which labels are the positive class (send "mapping"; the suggested one is in details.preview.suggested).`,
      { preview },
    );
  }
  return importItemResults(
    actor,
    decisionId,
    { candidateId: fields.candidateId ?? "", datasetVersionId: Number(fields.datasetVersionId) },
    files,
    mapping,
    { format: fields.format, request: context.request, uploadId: context.uploadId },
  );
}
