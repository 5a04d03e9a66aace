// Every failure the user can see is one of these. Each carries the contract's exit code
// (docs/cli-contract.md, "Exit codes") and, where there is one, a next step for the user.
// Only src/main.ts turns them into an exit code and a line on stderr.

export abstract class CliError extends Error {
  abstract readonly exitCode: number;
  /** A next step shown after the message, e.g. "run `simadmin auth login`". */
  readonly hint: string | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

/** 2: bad flag, argument, date, or a command this API version lacks. Nothing was sent. */
export class UsageError extends CliError {
  readonly exitCode = 2;
}

/** 3: no API key available, or the service answered 401. */
export class AuthError extends CliError {
  readonly exitCode = 3;
}

/** 4: the service answered 403. */
export class PermissionError extends CliError {
  readonly exitCode = 4;
}

/** 5: the service answered 404. */
export class NotFoundError extends CliError {
  readonly exitCode = 5;
}

/** 6: local validation failed (e.g. users CSV) or the service answered 400. */
export class InvalidDataError extends CliError {
  readonly exitCode = 6;
  /** The service's parsed answer to a 400, when there was one (bulk-import row errors live here). */
  readonly body: unknown;

  constructor(message: string, options: { hint?: string; cause?: unknown; body?: unknown } = {}) {
    super(message, options);
    this.body = options.body;
  }
}

/** 7: still 429 after the retries. */
export class RateLimitError extends CliError {
  readonly exitCode = 7;
  /** Delay the service asked for through Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Whether the service can have received a request that failed. Decides whether a request
 * that is not safe to repeat (a bulk-import upload) may be sent again.
 * - "not-sent": the connection was refused or the request was never written.
 * - "maybe-received": timeout, reset after writing, or a 5xx — the service may have acted.
 */
export type DeliveryState = "not-sent" | "maybe-received";

/** 8: 5xx, timeout or network failure (after the retries). */
export class ServiceError extends CliError {
  readonly exitCode = 8;
  readonly delivery: DeliveryState;
  readonly status: number | undefined;
  /**
   * False for failures that a retry cannot mend (docs/cli-contract.md "Retries"): a
   * certificate the machine does not trust, an answer too large, a proxy that refuses us.
   */
  readonly retryable: boolean;

  constructor(
    message: string,
    options: { hint?: string; cause?: unknown; delivery?: DeliveryState; status?: number; retryable?: boolean } = {},
  ) {
    super(message, options);
    this.delivery = options.delivery ?? "maybe-received";
    this.status = options.status;
    this.retryable = options.retryable ?? true;
  }
}

/** 8 as well: the service answered, but not in a shape we can use. Never the user's fault; never retried. */
export class UnexpectedResponseError extends ServiceError {
  override readonly retryable = false;
}

/** 9: a --wait ran out of time before the awaited state. */
export class WaitTimeoutError extends CliError {
  readonly exitCode = 9;
}

/** 10: a bulk import task ended FAILED. */
export class ImportFailedError extends CliError {
  readonly exitCode = 10;
}

/** What an errno code means, for the one line a user reads ("permission denied"). */
const FILE_ERROR_CAUSES: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  EEXIST: "already exists",
  EMFILE: "too many open files",
  ENFILE: "too many open files",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "file name too long",
  EIO: "input/output error",
  EBUSY: "resource busy",
  ETXTBSY: "text file busy",
  EXDEV: "not on the same file system",
};

/**
 * 11: a local file could not be read or written (docs/cli-contract.md, "Bad input", exit 11).
 * The message always names the path and the cause; never "internal error".
 */
export class LocalFileError extends CliError {
  readonly exitCode = 11;
  readonly path: string;
  /** The errno code (EACCES, ENOENT…) when the failure came from the system. */
  readonly code: string | undefined;

  constructor(message: string, options: { path: string; code?: string; hint?: string; cause?: unknown }) {
    super(message, options);
    this.path = options.path;
    this.code = options.code;
  }

  /**
   * `cannot write /out/t.json: permission denied (EACCES)` from a failed fs call. `action`
   * is the verb ("write", "read", "create the directory for"…).
   */
  static fromSystem(error: unknown, path: string, action: string, hint?: string): LocalFileError {
    if (error instanceof LocalFileError) return error;
    const code = isErrnoError(error) ? error.code : undefined;
    const cause = code
      ? `${FILE_ERROR_CAUSES[code] ?? "failed"} (${code})`
      : error instanceof Error
        ? error.message
        : String(error);
    return new LocalFileError(`cannot ${action} ${path}: ${cause}`, { path, code, hint, cause: error });
  }
}

/** A Node.js system error (fs, net) with its errno code. */
export function isErrnoError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/** 130: Ctrl-C. Thrown when the run's AbortSignal fires. */
export class InterruptedError extends CliError {
  readonly exitCode = 130;
  constructor() {
    super("interrupted");
  }
}

/** Throws InterruptedError when the signal has fired; call between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError();
}
