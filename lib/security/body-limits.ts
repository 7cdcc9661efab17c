/**
 * How large a request body each entry of the app takes: the one table that the Node-level guard in
 * front of Next (lib/security/body-guard.ts, scripts/serve.ts), next.config.ts and the route
 * handlers' own bounded reads all take their limits from. Pure apart from reading the import
 * limits from the environment.
 */
import { env } from "../env";

/** A sign-in form (email, password ≤ 1,024 characters, CSRF token, callback URL) is a few hundred bytes. */
export const SIGN_IN_MAX_BODY_BYTES = 16 * 1024;
/** JSON bodies of the API are small (a decision, a shortlist, an answer). */
export const MAX_JSON_BODY_BYTES = 1 << 20;
/** Pages' server actions carry small forms. */
export const SERVER_ACTION_MAX_BODY_BYTES = 1 << 20;
/** multipart/form-data is parsed by the platform in memory: accepted only up to this size. */
export const MULTIPART_MAX_BYTES = 64 * 1024 ** 2;

export type UploadKind = "bulk" | "public";

/** The largest uploaded file: bulk evidence (datasets, predictions, tool files) or public files (leaderboards, serving). */
export function uploadMaxBytes(kind: UploadKind): number {
  const config = env();
  return kind === "bulk" ? config.VERDICT_IMPORT_MAX_BYTES : config.VERDICT_IMPORT_MAX_PUBLIC_BYTES;
}

export interface BodyLimit {
  /** Most bytes of body accepted. */
  bytes: number;
  /** What the body is, for the refusal's message ("A sign-in request is larger than 16 KiB."). */
  what: string;
  /** The JSON API's error shape ({ error: { code, message, details } }) rather than plain text. */
  json: boolean;
}

// The streaming upload routes: the body is the file (or a multipart form carrying it).
const UPLOAD_ROUTES: [RegExp, UploadKind][] = [
  [/^\/api\/v1\/decisions\/[^/]+\/(datasets|predictions|predictions\/preview)\/?$/, "bulk"],
  [/^\/api\/v1\/decisions\/[^/]+\/(leaderboards|serving)\/?$/, "public"],
];

/**
 * The body limit of a request to `pathname` (without the query) with this Content-Type: uploads
 * their import limit (multipart ones at most MULTIPART_MAX_BYTES), Auth.js's routes a sign-in
 * form's, the rest of the JSON API a JSON body's, and everything else — pages, whose only bodies
 * are server actions — a server action's.
 */
export function bodyLimitFor(pathname: string, contentType: string | undefined): BodyLimit {
  for (const [pattern, kind] of UPLOAD_ROUTES) {
    if (!pattern.test(pathname)) continue;
    const file = uploadMaxBytes(kind);
    if (contentType?.toLowerCase().startsWith("multipart/form-data"))
      return { bytes: Math.min(file, MULTIPART_MAX_BYTES), what: "A multipart upload", json: true };
    return { bytes: file, what: "The file", json: true };
  }
  if (pathname.startsWith("/api/auth/"))
    return { bytes: SIGN_IN_MAX_BODY_BYTES, what: "A sign-in request", json: true };
  if (pathname.startsWith("/api/")) return { bytes: MAX_JSON_BODY_BYTES, what: "The JSON body", json: true };
  return { bytes: SERVER_ACTION_MAX_BODY_BYTES, what: "A form's request", json: false };
}

/** "16 KiB", "1 MiB", "2 GiB", "1,000,000 bytes": the limit as a refusal states it. */
export function formatLimit(n: number): string {
  if (n % (1 << 30) === 0) return `${n / (1 << 30)} GiB`;
  if (n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n.toLocaleString("en-US")} bytes`;
}

/** The refusal's message and the JSON API's error body (code PAYLOAD_TOO_LARGE, as AppError writes it). */
export function tooLargeMessage(limit: Pick<BodyLimit, "bytes" | "what">): string {
  return `${limit.what} is larger than ${formatLimit(limit.bytes)}.`;
}

export function tooLargeJson(limit: BodyLimit): string {
  return JSON.stringify({
    error: {
      code: "PAYLOAD_TOO_LARGE",
      message: tooLargeMessage(limit),
      details: { limit: limit.bytes, unit: "bytes" },
    },
  });
}
