// @ts-nocheck
// The sandbox's error bodies (documented in README.md beside this file). The default dialect:
//   {"error": {"code": "...", "message": "human sentence naming the field", "details"?: ...}}
// other dialects (dialects.ts) answer in other styles (styledError). The spec shows no error
// body (§7), so clients must not depend on any of them.

import type { ErrorStyle } from "./dialects.js";

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

  /** The answer in a dialect's error style (dialects.ts); the default style is body(). */
  answer(style: ErrorStyle): { body: unknown; headers: Record<string, string> } {
    if (style === "nested") return { body: this.body(), headers: { ...this.headers } };
    return styledError(style, this.status, this.message, fieldOf(this.details), this.extraBody, this.headers);
  }
}

/** The field an error is about, when its details name one (the first of several). */
function fieldOf(details: unknown): string | undefined {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return undefined;
  const record = details as Record<string, unknown>;
  if (Array.isArray(record.fields)) {
    const first = record.fields[0] as { field?: unknown } | undefined;
    return typeof first?.field === "string" ? first.field : undefined;
  }
  // lookup.ts lists the ids of a 404 from the outside in: the last one is what was missing.
  const keys = Object.keys(record).filter((k) => /Id$/.test(k));
  return keys.at(-1);
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * Error bodies of the other dialects: `flat` {"error": "Not Found", "message", "field"?}
 * (what a typical web framework sends), `message` a bare {"message"}, `empty` nothing at all,
 * `html` a gateway-style page. Extra fields (bulk-import counts) stay beside them in JSON.
 */
export function styledError(
  style: ErrorStyle,
  status: number,
  message: string,
  field?: string,
  extraBody?: Record<string, unknown>,
  headers: Record<string, string> = {},
): { body: unknown; headers: Record<string, string> } {
  const reason = REASONS[status] ?? (status >= 500 ? "Server Error" : "Error");
  switch (style) {
    case "nested":
      return { body: { ...extraBody, error: { code: errorCodeForStatus(status), message } }, headers: { ...headers } };
    case "flat":
      return { body: { error: reason, message, ...(field ? { field } : {}), ...extraBody }, headers: { ...headers } };
    case "message":
      return { body: { message, ...extraBody }, headers: { ...headers } };
    case "empty":
      return { body: "", headers: { ...headers } };
    case "html":
      return {
        body: `<html><head><title>${status} ${reason}</title></head><body><h1>${status} ${reason}</h1></body></html>`,
        headers: { ...headers, "content-type": "text/html; charset=utf-8" },
      };
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

export const badRequest = (message: string, details?: unknown): SandboxHttpError =>
  new SandboxHttpError(400, "INVALID_REQUEST", message, details);

export const notFound = (message: string, details?: unknown): SandboxHttpError =>
  new SandboxHttpError(404, "NOT_FOUND", message, details);
