import "server-only";
import { open } from "node:fs/promises";
import type { NextRequest } from "next/server";
import { MULTIPART_MAX_BYTES } from "@/lib/security/body-limits";
import { AppError } from "../errors";
import { tooLarge, type UploadFile } from "./files";

export { MULTIPART_MAX_BYTES };

export interface Upload {
  file: UploadFile;
  /** Every file of a multipart form, `file` parts first in order (partner files: HELM's pairs); the raw body's one file. */
  files: UploadFile[];
  /** Options from the query string (raw body) or the form's other fields (multipart). */
  fields: Record<string, string>;
}

/**
 * The uploaded file of an API request, streamed: the raw request body (Content-Type of the file,
 * name in `X-File-Name` or `?filename=`) — the path for large files, never buffered — or a
 * multipart form with a `file` field (small files; parsed in memory by the platform). Either way
 * the body's bytes are counted as they stream in: a body over the limit (Content-Length when it
 * says so, else — chunked — at the first chunk beyond it) is 413 and no more of it is read.
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
    const multipartTooLarge = () =>
      new AppError(
        "PAYLOAD_TOO_LARGE",
        `Multipart uploads are limited to ${MULTIPART_MAX_BYTES / 1024 ** 2} MB; send the file as the raw request body instead (curl --data-binary @FILE).`,
        { limit: MULTIPART_MAX_BYTES, unit: "bytes" },
      );
    if (Number.isFinite(declared) && declared > MULTIPART_MAX_BYTES) throw multipartTooLarge();
    if (!req.body) throw new AppError("VALIDATION", 'The form has no file (field "file").');
    const limit = Math.min(maxBytes, MULTIPART_MAX_BYTES);
    const counted = countedBody(
      req.body,
      limit,
      limit === MULTIPART_MAX_BYTES ? multipartTooLarge : () => tooLarge("its size", maxBytes, "bytes"),
    );
    let form: FormData;
    try {
      form = await new Request(req.url, {
        method: "POST",
        headers: { "content-type": type },
        body: counted.stream,
        duplex: "half",
      } as RequestInit).formData();
    } catch (error) {
      throw (
        counted.error() ??
        new AppError(
          "VALIDATION",
          `The multipart form could not be read: ${error instanceof Error ? error.message : String(error)}`,
        )
      );
    }
    const named: File[] = [];
    const other: File[] = [];
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") fields[key] = value;
      else (key === "file" ? named : other).push(value);
    }
    const blobs = named.length ? named : other.slice(0, 1);
    if (!blobs.length) throw new AppError("VALIDATION", 'The form has no file (field "file").');
    const files = blobs.map((blob) => ({ name: blob.name || "upload", stream: blobChunks(blob) }));
    return { file: files[0]!, files, fields };
  }
  if (!req.body) throw new AppError("VALIDATION", "The request has no body: send the file as the request body.");
  const headerName = req.headers.get("x-file-name");
  const name = fields.filename ?? (headerName ? safeDecode(headerName) : "upload");
  const counted = countedBody(req.body, maxBytes, () => tooLarge("its size", maxBytes, "bytes"));
  const file = { name, stream: counted.stream as unknown as AsyncIterable<Uint8Array> };
  return { file, files: [file], fields };
}

/**
 * The body as a stream that errors, and cancels the request body, at the first chunk that takes
 * it past `maxBytes`; `error()` is that error once it happened (the multipart parser reports its
 * own).
 */
export function countedBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLargeError: () => Error,
): { stream: ReadableStream<Uint8Array>; error(): Error | undefined } {
  const reader = body.getReader();
  let size = 0;
  let failure: Error | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      if (size > maxBytes) {
        failure = tooLargeError();
        await reader.cancel(failure).catch(() => {});
        return controller.error(failure);
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { stream, error: () => failure };
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
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export function jsonField<T>(value: string | undefined, what: string): T | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    throw new AppError("VALIDATION", `${what} is not valid JSON.`);
  }
}

export const boolField = (value: string | undefined) =>
  value !== undefined && ["1", "true", "yes", "on"].includes(value.toLowerCase());

/**
 * The first bytes of an upload (at least `bytes` of it, unless shorter) and the same upload whole
 * again: a stream's chunks read for the head are replayed before the rest, so nothing is buffered
 * beyond the head.
 */
export async function peekUpload(file: UploadFile, bytes: number): Promise<{ head: Buffer; file: UploadFile }> {
  if ("path" in file) {
    const handle = await open(file.path, "r");
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return { head: buffer.subarray(0, bytesRead), file };
    } finally {
      await handle.close();
    }
  }
  const iterator = file.stream[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    seen.push(next.value);
    size += next.value.byteLength;
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* seen;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(seen).subarray(0, bytes), file: { name: file.name, stream: replay() } };
}
