// The sandbox's one error body shape (documented in README.md beside this file):
//   {"error": {"code": "...", "message": "human sentence naming the field", "details"?: ...}}
// The spec shows no error body (§7), so clients must not depend on it; it exists so that
// humans and our own tests can see what went wrong.

export type ErrorCode =
  "INVALID_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "RATE_LIMITED" | "INTERNAL";

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** Thrown by handlers and validators; the server turns it into an answer. */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra top-level fields merged beside `error` (bulk-import keeps its counts there). */
    readonly extraBody?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxHttpError";
  }

  body(): ErrorBody & Record<string, unknown> {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { ...this.extraBody, error };
  }
}

export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "INVALID_REQUEST";
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 405:
      return "METHOD_NOT_ALLOWED";
    case 429:
      return "RATE_LIMITED";
    default:
      return status >= 500 ? "INTERNAL" : "INVALID_REQUEST";
  }
}

export function errorBody(status: number, message: string, details?: unknown): ErrorBody {
  const error: ErrorBody["error"] = { code: errorCodeForStatus(status), message };
  if (details !== undefined) error.details = details;
  return { error };
}

export const badRequest = (message: string, details?: unknown): SandboxHttpError =>
  new SandboxHttpError(400, "INVALID_REQUEST", message, details);

export const notFound = (message: string, details?: unknown): SandboxHttpError =>
  new SandboxHttpError(404, "NOT_FOUND", message, details);
