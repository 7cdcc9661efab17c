import "server-only";
import { MAX_JSON_BODY_BYTES, tooLargeMessage } from "@/lib/security/body-limits";
import { AppError } from "./errors";

// The limits are lib/security/body-limits.ts's, which the guard in front of Next enforces first
// (scripts/serve.ts); these reads keep each handler bounded on its own (next dev, direct calls).
export { MAX_JSON_BODY_BYTES };

/**
 * The request's JSON body: 413 beyond MAX_JSON_BODY_BYTES (by Content-Length before reading, and
 * while reading for a chunked body), 422 when it is not JSON.
 */
export async function readJsonBody(req: Request): Promise<unknown> {
  const body = await readBoundedBody(req, MAX_JSON_BODY_BYTES, "The JSON body");
  try {
    return JSON.parse(body.toString("utf8")) as unknown;
  } catch {
    throw new AppError("VALIDATION", "The body must be JSON.");
  }
}

/**
 * A whole request body of at most `maxBytes`, or 413 PAYLOAD_TOO_LARGE: refused unread when
 * Content-Length says more, else counted as it streams in and cancelled at the first chunk beyond
 * the limit (a chunked body declares no length), so no more than the limit and one chunk are read.
 */
export async function readBoundedBody(req: Request, maxBytes: number, what: string): Promise<Buffer> {
  const tooLarge = () =>
    new AppError("PAYLOAD_TOO_LARGE", tooLargeMessage({ bytes: maxBytes, what }), {
      limit: maxBytes,
      unit: "bytes",
    });
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}
