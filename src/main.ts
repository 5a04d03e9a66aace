import { CommanderError, type Command } from "commander";
import type { Deps, RunContext } from "./context.js";
import type { RunEnd } from "./errors.js";
import { packageVersion } from "./package-root.js";
import { createProgram, namedCommand, type Runner } from "./program.js";
import { HELP_WIDTH, helpTopic, isHelpTopic } from "./help.js";
// Static on purpose: every run needs both, and two dynamic imports cost start-up time.
import { systemClock } from "./clock.js";
import { systemIO } from "./output/io.js";
import { escapeControlChars, escapeForLine } from "./text/sanitize.js";

// run(argv, deps) → exit code. Every error ends here: commander's are answered below, all
// others by report-error.ts, the one place where they become exit codes and a line on stderr
// (house style; gh's internal/ghcmd/cmd.go).

async function defaultDeps(): Promise<Deps & { dispose(): void }> {
  const controller = new AbortController();
  let forced: NodeJS.Timeout | undefined;
  let holds = 0;
  const onSignal = (): void => {
    controller.abort();
    // A server draining its requests (links serve) ends by itself; a second signal forces.
    if (holds > 0) {
      holds = 0;
      return;
    }
    if (forced) return;
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
    holdForcedExit() {
      holds++;
      let released = false;
      return () => {
        if (!released && holds > 0) holds--;
        released = true;
      };
    },
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
  let deps: Deps = injected ?? owned!;
  // Under GitHub Actions no line of data or message may become a workflow command.
  if (deps.env.GITHUB_ACTIONS === "true") {
    const { guardWorkflowCommands } = await import("./output/workflow-guard.js");
    deps = { ...deps, io: guardWorkflowCommands(deps.io) };
  }
  // Help is laid out for 80 columns, or the terminal's width when it is narrower.
  const helpWidth = Math.min(HELP_WIDTH, deps.io.columns ?? HELP_WIDTH);
  // `simadmin help options | environment | exit-codes`: topics, not commands (gh's `help environment`).
  if (argv.length === 2 && argv[0] === "help" && isHelpTopic(argv[1])) {
    deps.io.stdout.write(helpTopic(argv[1], helpWidth));
    owned?.dispose();
    return 0;
  }
  let ctx: RunContext | undefined;

  // main → program (commander, from the declarations) → runner.ts → the command's run function.
  const runner: Runner = async (declaration, command) => {
    const { runCommand } = await import("./runner.js");
    await runCommand(declaration, command, deps, (context) => {
      ctx = context;
    }).catch((error: unknown) => {
      throw ctx?.services.explain(error) ?? error;
    });
  };

  // Only the command argv names is built whole (the others as the help lists them).
  const args = helpAsFlag(argv);
  const program = createProgram(runner, packageVersion(), namedCommand(args));
  // Every command, not only the root: subcommands copied commander's defaults (process.stdout
  // and stderr) when they were created, and an injected IOStreams must get all of the output.
  const output = {
    writeOut: (text: string) => deps.io.stdout.write(text),
    // Commander echoes argv (an unknown option, a bad value): escaped like every stderr line.
    writeErr: (text: string) => deps.io.stderr.write(escapeControlChars(text)),
    getOutHelpWidth: () => helpWidth,
    getErrHelpWidth: () => helpWidth,
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
  let code = 1;
  let end: RunEnd | undefined;
  try {
    try {
      await program.parseAsync(args, { from: "user" });
      code = 0;
    } catch (error) {
      if (error instanceof CommanderError) {
        // Commander already printed its message (with a suggestion for typos).
        if (error.code === "commander.missingMandatoryOptionValue") suggestRequiredFlag(error.message, argv, deps);
        if (error.code === "commander.helpDisplayed" || error.code === "commander.version") code = 0;
        else if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync")
          code = error.exitCode === 0 ? 0 : 2;
        else code = 2;
      } else {
        const { reportError, runEndOf } = await import("./report-error.js");
        code = reportError(error, deps, ctx, argv.includes("--verbose") || argv.includes("-v"));
        end = runEndOf(error, code);
      }
    }
    ctx?.messages.stopProgress();
    // The CI report (annotations, step summary, --junit) holds the exit code: written last.
    code = await finishCi(ctx, end ?? { exitCode: code, message: undefined, failed: code !== 0 }, deps, argv);
    // --ping-url: success or the exit code, once the run's last line is out (run-ping.ts).
    await ctx?.pinger?.finish(code, end?.message);
  } finally {
    ctx?.messages.stopProgress();
    await ctx?.services.dispose();
    owned?.dispose();
  }
  return code;
}

/** Writes the run's CI report; a --junit file that cannot be written is the run's failure (exit 11 unless it had failed already). */
async function finishCi(ctx: RunContext | undefined, end: RunEnd, deps: Deps, argv: string[]): Promise<number> {
  const code = end.exitCode;
  try {
    await ctx?.messages.finishCi(end);
    return code;
  } catch (error) {
    // The run already failed on this very file (--junit checked before the work): said once.
    if (code !== 0 && error instanceof Error && error.message === end.message) return code;
    const { reportError } = await import("./report-error.js");
    const reported = reportError(error, deps, ctx, argv.includes("--verbose") || argv.includes("-v"));
    return code === 0 ? reported : code;
  }
}

/**
 * `simadmin token --usr u`: commander reports the missing --user before the unknown --usr, so
 * its own "did you mean" never shows. A flag given in argv that is close to the missing one
 * is named.
 */
function suggestRequiredFlag(message: string, argv: string[], deps: Deps): void {
  const missing = /'(--[a-z][\w-]*)/i.exec(message)?.[1];
  if (!missing) return;
  const typo = argv
    .map((arg) => arg.split("=")[0]!)
    .find((arg) => arg.startsWith("--") && arg !== missing && (editDistance(arg, missing) <= 2 || arg.startsWith(`${missing}-`)));
  if (typo) deps.io.stderr.write(`did you mean ${missing} instead of ${escapeForLine(typo)}?\n`);
}

/** Levenshtein distance (flag names are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * `simadmin help auth login` → `simadmin auth login --help`: commander's own help command
 * only looks one level deep and would show the help of `auth`.
 */
function helpAsFlag(argv: string[]): string[] {
  return argv[0] === "help" && argv.length > 2 ? [...argv.slice(1), "--help"] : argv;
}
