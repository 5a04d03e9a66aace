// Every failure the user can see is one of these. Each carries the contract's exit code
// (docs/cli-contract.md, "Exit codes") and, where there is one, a next step for the user.
// Only src/main.ts turns them into an exit code and a line on stderr.

/**
 * Whether the service can have received (and acted on) a request that failed with an error.
 * Decides whether a request that is not safe to repeat (a bulk-import upload) may be sent
 * again (docs/cli-contract.md "Retries"):
 * - "not-sent": the service did not take it in — the connection was refused, the request
 *   was never written, or the service answered that it did not act (400, 401, 403, 404,
 *   429), or nothing was sent at all (a usage error);
 * - "maybe-received": timeout, reset after writing, a 5xx, an answer we cannot read, Ctrl-C
 *   mid-request — the service may have acted.
 * Each error class says which it is (the `delivery` property), so no caller keeps a list.
 */
export type DeliveryState = "not-sent" | "maybe-received";

export abstract class CliError extends Error {
  abstract readonly exitCode: number;
  /** A next step shown after the message, e.g. "run `simadmin auth login`". */
  readonly hint: string | undefined;
  /** Unless a class knows better, the service may have received the request. */
  readonly delivery: DeliveryState = "maybe-received";
  /**
   * What the exit code means: a failure of the run, or (false) an answer a script branches
   * on. The error line, the CI step summary and the JUnit report all read it here, so they
   * agree (report-error.ts, output/ci-report.ts).
   */
  readonly failed: boolean = true;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }

  /**
   * The same failure — same class, exit code, delivery and details — told with another
   * message and next step (e.g. in terms of the import batch that failed); it keeps this
   * error as its cause.
   */
  rephrase(message: string, hint: string | undefined): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    Object.defineProperties(copy, {
      message: { value: message, writable: true, configurable: true },
      hint: { value: hint, writable: false, enumerable: true, configurable: true },
      cause: { value: this, writable: true, configurable: true },
      stack: { value: `${this.name}: ${message}`, writable: true, configurable: true },
    });
    return copy;
  }
}

/** 2: bad flag, argument, date, or a command this API version lacks. Nothing was sent. */
export class UsageError extends CliError {
  readonly exitCode = 2;
  override readonly delivery = "not-sent";
}

/** 3: no API key available, or the service answered 401. */
export class AuthError extends CliError {
  readonly exitCode = 3;
  override readonly delivery = "not-sent";
}

/** 4: the service answered 403. */
export class PermissionError extends CliError {
  readonly exitCode = 4;
  override readonly delivery = "not-sent";
}

/** 5: the service answered 404. */
export class NotFoundError extends CliError {
  readonly exitCode = 5;
  override readonly delivery = "not-sent";
}

/** 6: local validation failed (e.g. users CSV) or the service answered 400. */
export class InvalidDataError extends CliError {
  readonly exitCode = 6;
  /** Found locally, or refused by the service (400) without acting. */
  override readonly delivery = "not-sent";
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
  /** 429: the service refused the request without acting on it. */
  override readonly delivery = "not-sent";
  /** Delay the service asked for through Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { hint?: string; cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** 8: 5xx, timeout or network failure (after the retries). */
export class ServiceError extends CliError {
  readonly exitCode = 8;
  /** Network failures tell which they are (client.ts); a 5xx may have been acted on. */
  override readonly delivery: DeliveryState;
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

/**
 * 8 as well: the rate budget had no free slot within the request's time limit, so nothing
 * was sent. `nextSlotInMs` says when one frees: a server answers 503 with that Retry-After
 * (links serve) instead of making its caller wait.
 */
export class BudgetFullError extends ServiceError {
  readonly nextSlotInMs: number;
  constructor(message: string, options: { hint?: string; nextSlotInMs: number }) {
    super(message, { hint: options.hint, delivery: "not-sent" });
    this.nextSlotInMs = options.nextSlotInMs;
  }
}

/**
 * 8 as well: the service answered, but not in a shape we can use. Never the user's fault;
 * never retried. It answered, so the request may have been acted on ("maybe-received", the
 * default) — unless the answer itself says it was not: a redirect (client.ts).
 */
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

/**
 * 12: `users sync --plan` found changes to send (docs/cli-contract.md "Exit codes"): not a
 * failure of the run, an answer a script branches on. Nothing was sent.
 */
export class ChangesPendingError extends CliError {
  readonly exitCode = 12;
  override readonly delivery = "not-sent";
  override readonly failed = false;
}

/**
 * How a run ended, for the reports written after it (output/ci-report.ts): the exit code,
 * the error's message, and whether the code is a failure — read from the error class
 * (`failed`), never from a list of codes.
 */
export interface RunEnd {
  exitCode: number;
  message: string | undefined;
  failed: boolean;
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
  /** What Ctrl-C leaves behind and how to go on, said after "interrupted" (report-error.ts). */
  readonly note: string | undefined;
  constructor(options: { note?: string } = {}) {
    super("interrupted");
    this.note = options.note;
  }
}

/** Throws InterruptedError when the signal has fired; call between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError();
}
