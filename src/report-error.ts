import type { Deps, RunContext } from "./context.js";
import { CliError, InterruptedError, LocalFileError, type RunEnd } from "./errors.js";
import { escapeControlChars, escapeForLine } from "./text/sanitize.js";

// Where errors become exit codes and a line on stderr (house style; gh's internal/ghcmd/cmd.go):
// main.ts hands over every error that is not commander's.

function describeCause(cause: Error): string {
  const code = (cause as NodeJS.ErrnoException).code;
  return `${cause.name}${code ? ` ${code}` : ""}: ${cause.message}`;
}

/**
 * Any error but commander's (main.ts handles those) → one line on stderr and the exit code.
 * A module of its own, loaded only when a run fails. The bundle holds one copy of errors.ts,
 * so an error class is the same wherever it was thrown (docs/architecture.md, Start-up).
 */
export function reportError(error: unknown, deps: Deps, ctx: RunContext | undefined, verbose: boolean): number {
  const redact = (text: string): string => (ctx ? ctx.messages.redactor.apply(text) : text);
  // The message may carry text from the service or an input file (a taskId, a CSV cell):
  // escaped, on a terminal or not, so that it cannot drive the terminal (docs/cli-contract.md
  // "Output"). The one-line error stays one line; a --verbose stack keeps its line breaks.
  const write = (text: string): void => {
    deps.io.stderr.write(`${redact(escapeForLine(text))}\n`);
  };
  const writeBlock = (text: string): void => {
    deps.io.stderr.write(`${redact(escapeControlChars(text))}\n`);
  };
  if (deps.signal.aborted || error instanceof InterruptedError) {
    // What Ctrl-C leaves behind and how to go on, when the command said (errors.ts InterruptedError).
    const note = (error as { note?: unknown } | null | undefined)?.note;
    write(typeof note === "string" && note ? `interrupted; ${note}` : "interrupted");
    return 130;
  }
  if (error instanceof CliError) {
    // An answer, not a failure (exit 12, users sync --plan: changes pending): no "error:".
    write(`${error.failed ? "error: " : ""}${error.message}${error.hint ? `; ${error.hint}` : ""}`);
    // -v shows the HTTP exchange (traced as it happens) and, here, the underlying cause in one
    // line — never a JavaScript stack: traces are for bugs, exit 1.
    if (verbose && error.cause instanceof Error) write(`cause: ${describeCause(error.cause)}`);
    return error.exitCode;
  }
  const local = localFileError(error);
  if (local) {
    write(`error: ${local.message}${local.hint ? `; ${local.hint}` : ""}`);
    if (verbose && error instanceof Error) write(`cause: ${describeCause(error)}`);
    return local.exitCode;
  }
  const err = error instanceof Error ? error : new Error(String(error));
  write(
    `internal error: ${err.message}; this is a bug in simadmin, please report it${verbose ? "" : " (run with --verbose for details)"}`,
  );
  if (verbose && err.stack) writeBlock(err.stack);
  return 1;
}

// A file system error that no command turned into a CliError is still the machine's state
// (permissions, a full or read-only disk, a directory where a file is needed), never a bug:
// exit 11 naming the path and the cause (docs/cli-contract.md exit 11).
const FILE_SYSTEM_CODES = new Set([
  "EACCES",
  "EPERM",
  "EROFS",
  "ENOSPC",
  "EDQUOT",
  "EFBIG",
  "EISDIR",
  "ENOTDIR",
  "ENOENT",
  "EEXIST",
  "ENOTEMPTY",
  "ELOOP",
  "ENAMETOOLONG",
  "EMFILE",
  "ENFILE",
  "EIO",
  "EBUSY",
  "ETXTBSY",
  "EXDEV",
]);

const SYSCALL_VERBS: Record<string, string> = {
  open: "open",
  read: "read",
  write: "write",
  mkdir: "create the directory",
  rename: "move into place",
  unlink: "remove",
  rmdir: "remove",
  scandir: "list",
  stat: "check",
  lstat: "check",
  chmod: "change the mode of",
  copyfile: "copy",
  fsync: "write",
  close: "write",
};

const FILE_HINTS: Record<string, string> = {
  EACCES: "check its permissions and owner (a file made under sudo belongs to root)",
  EPERM: "check its permissions and owner (a file made under sudo belongs to root)",
  EROFS: "the disk is mounted read-only: choose a path on a writable disk",
  ENOSPC: "free some disk space, or choose a path on another disk",
  EDQUOT: "free some space within your quota, or choose a path on another disk",
  EISDIR: "a directory is in the way: give the path of a file",
  ENOTDIR: "a part of the path is a file, not a directory",
};

function localFileError(error: unknown): LocalFileError | undefined {
  const { code, syscall, path, dest } = (error ?? {}) as NodeJS.ErrnoException & { dest?: string };
  if (typeof code !== "string" || !FILE_SYSTEM_CODES.has(code)) return undefined;
  if (syscall && /^(connect|listen|bind|getaddrinfo|spawn)/.test(syscall)) return undefined;
  const verb = (syscall && SYSCALL_VERBS[syscall]) ?? "use";
  // A rename names the temp file first; the user knows the destination.
  return LocalFileError.fromSystem(error, dest ?? path ?? "a local file", verb, FILE_HINTS[code]);
}

/**
 * The RunEnd of a failed run (main.ts). By the error's properties, not instanceof: the
 * bundle's two halves each have a copy of errors.ts (docs/architecture.md, Start-up).
 */
export function runEndOf(error: unknown, exitCode: number): RunEnd {
  const message = error instanceof Error ? error.message : undefined;
  const failed = (error as { failed?: unknown } | null | undefined)?.failed !== false;
  return { exitCode, message, failed: exitCode !== 0 && failed };
}
