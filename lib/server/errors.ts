import "server-only";

/** One error type for the domain layer: a code mapped to an HTTP status and a user-facing message. */
export const ERROR_STATUS = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION: 422,
  RATE_LIMITED: 429,
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

export const forbiddenError = (what = "You do not have permission to do this.") => new AppError("FORBIDDEN", what);
export const notFoundError = (what: string) => new AppError("NOT_FOUND", `${what} was not found.`);
