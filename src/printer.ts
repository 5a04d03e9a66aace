import { basename, extname } from "node:path";
import { LocalFileError, type RunEnd } from "./errors.js";
import { openAtomicFile } from "./output/atomic-file.js";
import { writeChunk, type IOStreams } from "./output/io.js";
import type { Clock } from "./clock.js";
import type { CiReport } from "./output/ci-report.js";
import type { Progress } from "./output/progress.js";
import { Redactor } from "./output/redact.js";
import { resultOfJson, writeResult, type CommandResult, type RenderOptions } from "./output/render.js";
import { escapeControlChars, escapeForLine } from "./text/sanitize.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions } from "./settings/resolve.js";
import type { OutputPlan } from "./output-plan.js";

// The half of a command's context that writes (gh's IOStreams): where data goes (stdout or
// --out), in which format, progress and warnings on stderr, and the redaction of secrets
// from everything shown. It builds nothing costly; the other half (services.ts) does.

/** Where a command's data goes: stdout, or a temp file renamed into place on commit. */
export interface OutputSink {
  write(chunk: string | Uint8Array): Promise<void>;
  /** True when the bytes reach a terminal (control characters must be escaped). */
  readonly toTerminal: boolean;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** What a streamed result is given to write with (reports): the plan and the way to open outputs. */
export interface StreamTarget {
  plan: OutputPlan;
  options: RenderOptions;
  /** stdout, or the path (the plan's --out when not given) written atomically. */
  openOutput(path?: string): Promise<OutputSink>;
}

/**
 * A result too large to hold, written as it arrives (reports: window by window) through the
 * same printer path as a complete one: the printer hands it the plan, it writes.
 */
export interface StreamResult {
  kind: "stream";
  write(target: StreamTarget): Promise<void>;
}

/** What a command returns for printing: complete (render.ts) or streamed. */
export type PrintableResult = CommandResult | StreamResult;

/** Names of this process's stdout (docs/cli-contract.md, "Output files": never replaced). */
const STDOUT_NAMES = new Set(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", `/proc/${process.pid}/fd/1`]);

export class Printer {
  readonly redactor = new Redactor();
  /**
   * Set by commands whose output holds a user token or a link carrying one (token, link):
   * a new --out file is then created 0600 (docs/cli-contract.md, "Output files").
   */
  secretOutput = false;
  private resolvedPlan: OutputPlan | undefined;

  constructor(
    readonly io: IOStreams,
    private readonly env: Env,
    private readonly globals: GlobalOptions,
    /** Times the heartbeat lines of progress without a terminal. */
    private readonly clock?: Clock,
  ) {}

  /** Every progress handed out, stopped when the run ends (a failed run never calls done()). */
  private readonly progresses: Progress[] = [];

  get quiet(): boolean {
    return this.globals.quiet === true;
  }

  get verbose(): boolean {
    return this.globals.verbose === true;
  }

  /** Colour on a stream: not with --no-color or NO_COLOR (any non-empty value, no-color.org), only on a terminal. */
  private colorOn(isTerminal: boolean): boolean {
    return this.globals.color !== false && !this.env.NO_COLOR && isTerminal;
  }

  /** --verbose trace line on stderr, secrets redacted. */
  trace(line: string): void {
    this.io.stderr.write(`${this.redactor.apply(escapeForLine(line))}\n`);
  }

  /** A warning on stderr (shown even with --quiet: it may change what the user does). */
  warn(text: string): void {
    this.io.stderr.write(`warning: ${this.redactor.apply(escapeControlChars(text))}\n`);
  }

  /** Information for people on stderr; silent under --quiet. */
  info(text: string): void {
    if (!this.quiet) this.io.stderr.write(`${this.redactor.apply(escapeControlChars(text))}\n`);
  }

  async progress(): Promise<Progress> {
    const { createProgress } = await import("./output/progress.js");
    const clock = this.clock;
    const progress = await createProgress(this.io, {
      quiet: this.quiet,
      color: this.colorOn(this.io.stderrIsTTY),
      ...(clock ? { now: () => clock.now() } : {}),
    });
    this.progresses.push(progress);
    return progress;
  }

  /**
   * What Ctrl-C leaves behind and how to go on, said after "interrupted" (report-error.ts):
   * set by a command once it has something worth keeping (issue 26 item 6).
   */
  interruptNote: string | undefined;

  /** What the run is, for CI reports: `users import staff.csv` (set by the runner). */
  runTitle = "simadmin";
  private ciReport: CiReport | undefined;

  /**
   * The run's report to its CI system (annotations, step summary, --junit; output/ci-report.ts).
   * Commands that read rows record them here; main.ts finishes it with the exit code.
   */
  async ci(): Promise<CiReport> {
    if (!this.ciReport) {
      const { CiReport } = await import("./output/ci-report.js");
      const clock = this.clock;
      this.ciReport = new CiReport(
        this.env,
        (line) => this.io.stderr.write(`${this.redactor.apply(line)}\n`),
        this.globals.junit,
        clock ? () => clock.now() : Date.now,
      );
      this.ciReport.title = this.runTitle;
    }
    return this.ciReport;
  }

  /** Writes the CI report if the run made one or --junit asks for one (main.ts, with the exit code). */
  async finishCi(end: RunEnd): Promise<void> {
    if (!this.ciReport && this.globals.junit === undefined) return;
    const report = await this.ci();
    for (const warning of await report.finish(end)) this.warn(warning);
  }

  /** Stops every progress still running (main.ts, when the run ends however it ends). */
  stopProgress(): void {
    for (const progress of this.progresses.splice(0)) progress.done();
  }

  /**
   * The output plan the runner resolved once before the command ran (output-plan.ts): the
   * format, --out, --fields, --query, the CSV delimiter. Commands read it here; nothing
   * derives them again.
   */
  get plan(): OutputPlan {
    if (!this.resolvedPlan) throw new Error("bug: the output plan is read before the runner resolved it");
    return this.resolvedPlan;
  }

  /** The runner hands the plan over once (runner.ts). */
  usePlan(plan: OutputPlan): void {
    this.resolvedPlan = plan;
  }

  /** The plan as the output engine's options (render.ts), for a complete result or a stream. */
  renderOptions(): RenderOptions {
    const { plan } = this;
    return {
      format: plan.format,
      fields: plan.fields,
      bom: plan.bom,
      delimiter: plan.delimiter,
      color: plan.color,
      width: plan.width,
    };
  }

  /**
   * stdout, or --out written atomically: nothing is left behind if the command fails.
   * Failures of the file are LocalFileError (exit 11) naming it (output/atomic-file.ts).
   */
  async openOutput(path = this.plan.out): Promise<OutputSink> {
    // `--out /dev/stdout` names our own stdout, which may be a socket that cannot be opened
    // again (ENXIO): write to the stream we already hold, never replace the name.
    if (path && STDOUT_NAMES.has(path)) path = undefined;
    if (path) {
      const file = await openAtomicFile(path, this.secretOutput ? 0o600 : 0o644);
      return {
        toTerminal: false,
        write: async (chunk) => {
          try {
            await writeChunk(file.stream, chunk);
          } catch (error) {
            throw file.failure() ?? LocalFileError.fromSystem(error, path, "write");
          }
        },
        commit: () => file.commit(),
        abort: () => file.abort(),
      };
    }
    const toTerminal = this.io.stdoutIsTTY;
    return {
      toTerminal,
      write: (chunk) => writeChunk(this.io.stdout, chunk),
      commit: async () => {},
      abort: async () => {},
    };
  }

  /** Prints a complete result in the chosen format, after --query when given (the runner calls it with what a command returned). */
  async print(result: PrintableResult): Promise<void> {
    if (result.kind === "none") return;
    const { plan } = this;
    const options = this.renderOptions();
    const query = plan.query;
    if (result.kind === "stream") {
      // reports: records arrive window by window and leave as they come (memory stays flat).
      await result.write({ plan, options, openOutput: (path) => this.openOutput(path) });
      return;
    }
    if (result.kind === "object" && result.defaultText && plan.formatSource !== "flag" && !query) options.format = "text";
    // A service answer is JSON whatever the terminal, unless -o or --out's extension says otherwise.
    if (result.kind === "answer" && (plan.formatSource === "profile" || plan.formatSource === "default")) {
      options.format = "json";
    }
    if (plan.out) options.sheetName = basename(plan.out, extname(plan.out));
    // The API key echoed inside an answer never reaches the output (redact.ts).
    result = this.redactor.redactData(result);
    let text: string | undefined;
    let printed: CommandResult = result;
    if (query || (result.kind === "answer" && options.format === "text")) {
      const { renderQueried, resultJson } = await import("./output/query.js");
      const queried = query ? query.apply(resultJson(result)) : resultJson(result);
      // A workbook is binary: the queried value goes through the engine as records or one object.
      if (options.format === "xlsx") printed = resultOfJson(queried);
      else text = await renderQueried(queried, options);
    }
    const sink = await this.openOutput();
    try {
      if (text === undefined) await writeResult(printed, sink, options);
      // Tables escape each cell already (and may carry colour codes of our own).
      else await sink.write(sink.toTerminal && options.format !== "table" ? escapeControlChars(text) : text);
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
    if (result.kind !== "answer" && result.note) this.info(result.note);
    if (plan.out) this.info(`wrote ${plan.out}`);
  }
}
