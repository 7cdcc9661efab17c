import "server-only";
import type { z } from "zod";

/** One error type for the domain layer: a code mapped to an HTTP status and a user-facing message. */
export const ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 422,
  /** Another eval tool's results sent without the analyst's mapping: the body holds the preview and a suggested mapping to confirm. */
  MAPPING_REQUIRED: 422,
  RATE_LIMITED: 429,
  /** A server-side setting is missing or broken (e.g. the PDF signing key): the message says which. */
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Seconds a client is asked to wait before retrying a request the server was too busy to start. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * Prisma's P2028: a transaction that did not start within its maxWait, or outlived its timeout
 * (TRANSACTION_OPTIONS, lib/db/connect.ts). Nothing was written — the transaction rolled back —
 * so the honest answer is "busy, try again" (503 with Retry-After), not an internal error.
 */
export function busyError(error: unknown): AppError | null {
  if ((error as { code?: unknown } | null)?.code !== "P2028") return null;
  return new AppError(
    "UNAVAILABLE",
    `The server is too busy to take this now; nothing was changed. Try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`,
    { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
  );
}

export const forbiddenError = (what = "You do not have permission to do this.") => new AppError("FORBIDDEN", what);
export const notFoundError = (what: string) => new AppError("NOT_FOUND", `${what} was not found.`);

/** A problem of a request, as the API, the forms and the CLI name it. */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** Zod's issues as field problems; an unknown key is a field of its own ("prevalance" must not pass silently). */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ field: [...issue.path, key].join("."), reason: "Unknown field." }))
      : [{ field: issue.path.join("."), reason: issue.message }],
  );
}
