import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import { AppError } from "../errors";
import { apiRoute } from "../route";
import type { Actor } from "../session";
import { defaultLimits, tooLarge, type UploadFile } from "./files";
import { isUploadId, withProgress } from "./progress";
import type { PublicImportOptions, PublicImportResult } from "./public";

/** multipart/form-data is parsed by the platform in memory: accepted only up to this size. */
export const MULTIPART_MAX_BYTES = 64 * 1024 ** 2;

export interface Upload {
  file: UploadFile;
  /** Options from the query string (raw body) or the form's other fields (multipart). */
  fields: Record<string, string>;
}

/**
 * The uploaded file of an API request, streamed: the raw request body (Content-Type of the file,
 * name in `X-File-Name` or `?filename=`) — the path for large files, never buffered — or a
 * multipart form with a `file` field (small files; parsed in memory by the platform).
 */
export async function readUpload(req: NextRequest, maxBytes: number): Promise<Upload> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge("its size", maxBytes, "bytes");
  const fields: Record<string, string> = {};
  req.nextUrl.searchParams.forEach((value, key) => {
    fields[key] = value;
  });
  const type = req.headers.get("content-type") ?? "";
  if (type.toLowerCase().startsWith("multipart/form-data")) {
    if (Number.isFinite(declared) && declared > MULTIPART_MAX_BYTES) {
      throw new AppError("PAYLOAD_TOO_LARGE", `Multipart uploads are limited to ${MULTIPART_MAX_BYTES / 1024 ** 2} MB; send the file as the raw request body instead (curl --data-binary @FILE).`);
    }
    const form = await req.formData();
    let file: File | null = null;
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") fields[key] = value;
      else if (key === "file" || !file) file = value;
    }
    if (!file) throw new AppError("VALIDATION", 'The form has no file (field "file").');
    const blob = file;
    return { file: { name: blob.name || "upload", stream: blobChunks(blob) }, fields };
  }
  if (!req.body) throw new AppError("VALIDATION", "The request has no body: send the file as the request body.");
  const headerName = req.headers.get("x-file-name");
  const name = fields.filename ?? (headerName ? safeDecode(headerName) : "upload");
  return { file: { name, stream: req.body as unknown as AsyncIterable<Uint8Array> }, fields };
}

async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
  for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>) yield chunk;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** "a,b" or a JSON array → list; undefined when absent. */
export function listField(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (value.trim().startsWith("[")) {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) throw new AppError("VALIDATION", "Expected a list.");
    return parsed.map(String);
  }
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

export function jsonField<T>(value: string | undefined, what: string): T | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw new AppError("VALIDATION", `${what} is not valid JSON.`);
  }
}

export const boolField = (value: string | undefined) => value !== undefined && ["1", "true", "yes", "on"].includes(value.toLowerCase());

/**
 * The POST handler shared by the leaderboard and serving upload routes: format detected from the
 * content unless ?format= names it; unmatched model names → 422 { kind: "UNMATCHED_MODELS",
 * unmatched, candidates }, resolved with ?modelMap={"<name>":"<candidateId>" or null} or
 * ?skipUnmatched=1; extra parser inputs ?model=, ?runSpec=, ?individualResponses=.
 */
export function publicImportRoute(importFile: (actor: Actor, decisionId: string, file: UploadFile, options: PublicImportOptions) => Promise<PublicImportResult>) {
  return apiRoute<{ id: string }>("evidence.import", async ({ actor, params, request, req }) => {
    const { file, fields } = await readUpload(req, defaultLimits("public").maxBytes);
    const uploadId = isUploadId(fields.uploadId) ? fields.uploadId : undefined;
    const result = await withProgress(uploadId, () =>
      importFile(actor, params.id, file, {
        format: fields.format,
        modelMap: jsonField<Record<string, string | null>>(fields.modelMap, "modelMap"),
        skipUnmatched: boolField(fields.skipUnmatched),
        parseOptions: { model: fields.model, runSpec: fields.runSpec, individualResponses: fields.individualResponses },
        request,
        uploadId,
      }),
    );
    return NextResponse.json(result, { status: result.existing ? 200 : 201 });
  });
}
