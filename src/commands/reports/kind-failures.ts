import type { ReportKind } from "../../api/schemas.js";
import { AuthError, CliError, InterruptedError, LocalFileError, ServiceError, UsageError } from "../../errors.js";
import { escapeForLine } from "../../text/sanitize.js";

// `reports all`: one kind that fails does not stop the others (docs/cli-contract.md, Report
// kinds). Which failures the run goes on after, and how each is named on
// stderr; report-sections.ts applies them (output/sections.ts runs the kinds).

/** Local file failures that every kind's file would meet alike (full disk, quota, read-only). */
const DISK_WIDE_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS"]);

/**
 * The error as a kind's own failure the run goes on after, or undefined when it stops
 * everything: any failure of a single kind, a key the service refuses, a usage error,
 * Ctrl-C, a bug, and a disk that would fail every kind alike.
 */
export function kindOnlyFailure(error: unknown, all: boolean, aborted: boolean): CliError | undefined {
  const fatal =
    !all ||
    !(error instanceof CliError) ||
    error instanceof InterruptedError ||
    error instanceof AuthError ||
    error instanceof UsageError ||
    // A full or read-only disk fails every kind the same way: stop spending requests.
    (error instanceof LocalFileError && error.code !== undefined && DISK_WIDE_CODES.has(error.code)) ||
    aborted;
  return fatal ? undefined : error;
}

/** The stderr line naming a kind's failure (before redaction). */
export function kindFailureLine(kind: ReportKind, error: CliError): string {
  // The message names the report already ("report syms-result 2026-…: …"): no second prefix.
  const named = error.message.startsWith(`report ${kind}`) || error.message.startsWith(`${kind}:`);
  return escapeForLine(`error: ${named ? "" : `${kind}: `}${error.message}${error.hint ? `; ${error.hint}` : ""}`);
}

/**
 * A failure before anything reached the service — connection refused, no such host, no
 * route, a connect timeout, a TLS handshake — after the scheduler's retries: the next kind
 * would meet it too. A 5xx or a read timeout may concern one kind only: those go on.
 */
export function neverReached(error: CliError): boolean {
  return error instanceof ServiceError && error.status === undefined && error.delivery === "not-sent";
}
