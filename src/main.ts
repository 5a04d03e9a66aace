import { readFileSync } from "node:fs";
import { CommanderError, type Command } from "commander";
import type { CommandContext, Deps } from "./context.js";
import { CliError, InterruptedError, LocalFileError } from "./errors.js";
import { packagePath } from "./package-root.js";
import { createProgram, type Runner } from "./program.js";
// Static on purpose: every run needs both, and two dynamic imports cost start-up time.
import { systemClock } from "./clock.js";
import { systemIO } from "./output/io.js";
import { escapeControlChars, escapeForLine } from "./output/sanitize.js";

// run(argv, deps) → exit code. The ONE place where errors become exit codes and a line on
// stderr (house style; gh's internal/ghcmd/cmd.go).

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

async function defaultDeps(): Promise<Deps & { dispose(): void }> {
  const controller = new AbortController();
  let forced: NodeJS.Timeout | undefined;
  const onSignal = (): void => {
    if (controller.signal.aborted) return;
    controller.abort();
    // Ctrl-C stops within a second: if unwinding takes longer, remove temp files and leave.
    forced = setTimeout(() => {
      void import("./output/atomic-file.js").then(({ removePendingTempFilesSync }) => {
        removePendingTempFilesSync();
        process.stderr.write("interrupted\n");
        process.exit(130);
      });
    }, 800);
    forced.unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  // `simadmin reports … | head`: the reader left and wants no more. Stop quietly, as a
  // program killed by SIGPIPE would, instead of crashing on the unhandled write error.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    controller.abort();
    void import("./output/atomic-file.js").then(({ removePendingTempFilesSync }) => {
      removePendingTempFilesSync();
      process.exit(0);
    });
  });
  return {
    io: systemIO(),
    env: process.env,
    clock: systemClock,
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (forced) clearTimeout(forced);
    },
  };
}

export async function run(argv: string[], injected?: Deps): Promise<number> {
  // `--version` is asked by scripts and package managers often; it needs no parser at all.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    (injected?.io.stdout ?? process.stdout).write(`${packageVersion()}\n`);
    return 0;
  }
  const owned = injected ? undefined : await defaultDeps();
  const deps: Deps = injected ?? owned!;
  let ctx: CommandContext | undefined;

  // main → program (commander, from the declarations) → runner.ts → the command's run function.
  const runner: Runner = async (declaration, command) => {
    const { runCommand } = await import("./runner.js");
    await runCommand(declaration, command, deps, (context) => {
      ctx = context;
    }).catch((error: unknown) => {
      throw ctx?.services.explain(error) ?? error;
    });
  };

  const program = createProgram(runner, packageVersion());
  // Every command, not only the root: subcommands copied commander's defaults (process.stdout
  // and stderr) when they were created, and an injected IOStreams must get all of the output.
  const output = {
    writeOut: (text: string) => deps.io.stdout.write(text),
    // Commander echoes argv (an unknown option, a bad value): escaped like every stderr line.
    writeErr: (text: string) => deps.io.stderr.write(escapeControlChars(text)),
  };
  const configure = (command: Command): void => {
    command.configureOutput(output);
    command.commands.forEach(configure);
  };
  configure(program);

  // `simadmin help nope`: commander would print the general help; say what is wrong (exit 2).
  const asked = argv[0] === "help" ? argv[1] : undefined;
  if (
    asked !== undefined &&
    !asked.startsWith("-") &&
    !program.commands.some((c) => c.name() === asked || c.aliases().includes(asked))
  ) {
    deps.io.stderr.write(`error: unknown command '${escapeForLine(asked)}'; run \`simadmin --help\` for the list of commands\n`);
    return 2;
  }
  try {
    await program.parseAsync(helpAsFlag(argv), { from: "user" });
    return 0;
  } catch (error) {
    return reportError(error, deps, ctx, argv.includes("--verbose") || argv.includes("-v"));
  } finally {
    await ctx?.services.dispose();
    owned?.dispose();
  }
}

/**
 * `simadmin help auth login` → `simadmin auth login --help`: commander's own help command
 * only looks one level deep and would show the help of `auth`.
 */
function helpAsFlag(argv: string[]): string[] {
  return argv[0] === "help" && argv.length > 2 ? [...argv.slice(1), "--help"] : argv;
}

function describeCause(cause: Error): string {
  const code = (cause as NodeJS.ErrnoException).code;
  return `${cause.name}${code ? ` ${code}` : ""}: ${cause.message}`;
}

function reportError(error: unknown, deps: Deps, ctx: CommandContext | undefined, verbose: boolean): number {
  const redact = (text: string): string => (ctx ? ctx.printer.redactor.apply(text) : text);
  // The message may carry text from the service or an input file (a taskId, a CSV cell):
  // escaped, on a terminal or not, so that it cannot drive the terminal (docs/cli-contract.md
  // "Output"). The one-line error stays one line; a --verbose stack keeps its line breaks.
  const write = (text: string): void => {
    deps.io.stderr.write(`${redact(escapeForLine(text))}\n`);
  };
  const writeBlock = (text: string): void => {
    deps.io.stderr.write(`${redact(escapeControlChars(text))}\n`);
  };
  if (error instanceof CommanderError) {
    // Commander already printed its message (with a suggestion for typos).
    if (error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
    if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync") return error.exitCode === 0 ? 0 : 2;
    return 2;
  }
  if (deps.signal.aborted || error instanceof InterruptedError) {
    write("interrupted");
    return 130;
  }
  if (error instanceof CliError) {
    write(`error: ${error.message}${error.hint ? `; ${error.hint}` : ""}`);
    // -v shows the HTTP exchange (traced as it happens) and, here, the underlying cause in one
    // line — never a JavaScript stack: traces are for bugs, exit 1 (issue 15 item 7).
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
// exit 11 naming the path and the cause (docs/cli-contract.md exit 11; issue 13 item 7).
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
