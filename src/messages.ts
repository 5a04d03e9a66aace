import type { Clock } from "./clock.js";
import type { RunEnd } from "./errors.js";
import type { CiReport } from "./output/ci-report.js";
import type { IOStreams } from "./output/io.js";
import type { Progress } from "./output/progress.js";
import { Redactor } from "./output/redact.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions } from "./settings/resolve.js";
import { wrapCell } from "./output/table-text.js";
import { escapeControlChars, escapeForLine } from "./text/sanitize.js";

// Everything a run says on stderr, and the redaction of secrets from it: warnings, notices,
// --verbose traces, progress, the lines a user must see even under -q, the run's CI report.
// It exists from the start of a run — the services warn while settings are resolved, an
// error must be redacted however early it comes — while the printer (printer.ts), which
// writes the data, is built only once the output plan is decided (output-plan.ts).

/**
 * A path (or a file name, a state location) as a warning, info or error line shows it:
 * escaped like a table cell (text/sanitize.ts escapeForLine), so that a name holding a line
 * break, `::error::` or a terminal escape stays on its line and drives neither the terminal
 * nor a CI runner (docs/ci-and-cron.md "No forged commands"). Every message that names a
 * path passes it through here; a warning keeps its whole text on one line too.
 */
export function showPath(path: string): string {
  return escapeForLine(path);
}

/** Colour on each stream, decided once for the run (no-color.org: NO_COLOR, any non-empty value). */
export interface ColorChoice {
  /** On stdout: a terminal, no --out (output-plan.ts adds the --out rule). */
  stdout: boolean;
  /** Spinners and progress on stderr. */
  stderr: boolean;
}

export function decideColor(globals: GlobalOptions, env: Env, io: IOStreams): ColorChoice {
  const allowed = globals.color !== false && !env.NO_COLOR;
  return { stdout: allowed && io.stdoutIsTTY && !globals.out, stderr: allowed && io.stderrIsTTY };
}

export interface MessagesOptions {
  io: IOStreams;
  env: Env;
  globals: GlobalOptions;
  color: ColorChoice;
  /** What the run is, for CI reports: `users import staff.csv`. */
  title: string;
  /** Times the heartbeat lines of progress without a terminal. */
  clock?: Clock | undefined;
}

export class Messages {
  readonly redactor = new Redactor();
  readonly io: IOStreams;
  readonly color: ColorChoice;
  readonly title: string;
  private readonly env: Env;
  private readonly globals: GlobalOptions;
  private readonly clock: Clock | undefined;
  /** Every progress handed out, stopped when the run ends (a failed run never calls done()). */
  private readonly progresses: Progress[] = [];
  private ciReport: CiReport | undefined;

  constructor(options: MessagesOptions) {
    this.io = options.io;
    this.env = options.env;
    this.globals = options.globals;
    this.color = options.color;
    this.title = options.title;
    this.clock = options.clock;
  }

  get quiet(): boolean {
    return this.globals.quiet === true;
  }

  get verbose(): boolean {
    return this.globals.verbose === true;
  }

  /** --verbose trace line on stderr, secrets redacted. */
  trace(line: string): void {
    this.io.stderr.write(`${this.redactor.apply(escapeForLine(line))}\n`);
  }

  /**
   * Writes finished lines to stderr. On a terminal, a line longer than it is broken at
   * spaces, as a table cell is (output/table-text.ts): the terminal would break it mid-word,
   * inside an id or a `--fields` list (docs/output.md). Piped, a line stays one line.
   */
  private write(text: string): void {
    const columns = this.io.stderrIsTTY ? ((this.io.stderr as { columns?: number }).columns ?? 0) : 0;
    // The last column stays free: some terminals wrap on it.
    const lines = columns > 20 ? text.split("\n").map((line) => wrapCell(line, columns - 1)) : [text];
    this.io.stderr.write(`${lines.join("\n")}\n`);
  }

  /** A warning on stderr (shown even with --quiet: it may change what the user does). */
  warn(text: string): void {
    this.write(`warning: ${this.redactor.apply(escapeForLine(text))}`);
  }

  /**
   * A warning about how an input file was read that every run of the same file repeats and
   * that asks nothing of anyone (unknown or unnamed columns ignored, blank rows skipped, the
   * encoding guessed): `warning:` like any other, but silent under --quiet, so that a nightly
   * cron job does not mail it every night (docs/ci-and-cron.md "What -q keeps").
   */
  notice(text: string): void {
    if (!this.quiet) this.warn(text);
  }

  /** Information for people on stderr; silent under --quiet. */
  info(text: string): void {
    if (!this.quiet) this.write(this.redactor.apply(escapeControlChars(text)));
  }

  /**
   * A line on stderr that --quiet does not silence: what a prompt asks about, a taskId the
   * user must have whatever fails next, a kind of `reports all` that failed.
   */
  say(text: string): void {
    this.write(this.redactor.apply(escapeControlChars(text)));
  }

  async progress(): Promise<Progress> {
    const { createProgress } = await import("./output/progress.js");
    const clock = this.clock;
    const progress = await createProgress(this.io, {
      quiet: this.quiet,
      color: this.color.stderr,
      ...(clock ? { now: () => clock.now() } : {}),
    });
    this.progresses.push(progress);
    return progress;
  }

  /** Stops every progress still running (main.ts, when the run ends however it ends). */
  stopProgress(): void {
    for (const progress of this.progresses.splice(0)) progress.done();
  }

  /**
   * The run's report to its CI system (annotations, step summary, --junit; output/ci-report.ts).
   * Commands that read rows record them here; main.ts finishes it with how the run ended.
   */
  async ci(): Promise<CiReport> {
    if (!this.ciReport) {
      const { CiReport } = await import("./output/ci-report.js");
      const clock = this.clock;
      this.ciReport = new CiReport(
        this.env,
        (line) => (this.io.commands ?? this.io.stderr).write(`${this.redactor.apply(line)}\n`),
        this.globals.junit,
        clock ? () => clock.now() : Date.now,
        this.title,
      );
    }
    return this.ciReport;
  }

  /** Writes the CI report if the run made one or --junit asks for one (main.ts). */
  async finishCi(end: RunEnd): Promise<void> {
    if (!this.ciReport && this.globals.junit === undefined) return;
    const report = await this.ci();
    for (const warning of await report.finish(end)) this.warn(warning);
  }
}
