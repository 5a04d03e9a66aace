import { basename, extname } from "node:path";
import { LocalFileError } from "./errors.js";
import type { Messages } from "./messages.js";
import { openAtomicFile } from "./output/atomic-file.js";
import { writeChunk, type IOStreams } from "./output/io.js";
import type { CiReport } from "./output/ci-report.js";
import type { Progress } from "./output/progress.js";
import type { Redactor } from "./output/redact.js";
import { resultOfJson, writeResult, type CommandResult, type RenderOptions } from "./output/render.js";
import type { OutputSink, SectionsSource, SectionsTarget } from "./output/sections.js";
import { escapeControlChars } from "./text/sanitize.js";
import type { OutputPlan } from "./output-plan.js";
import { showPath } from "./messages.js";

// The half of a command's context that writes (gh's IOStreams): where data goes (stdout or
// --out) and in which format, by the output plan the runner decided before the command ran
// (output-plan.ts; the printer is built after it and has no setters); stderr through the
// run's Messages (messages.ts: warnings, progress, redaction). It builds nothing costly; the
// other half (services.ts) does.

/**
 * What a streamed result is given (reports): the output engine, which writes its sections by
 * the plan (output/sections.ts) and returns the sections a failure left unwritten.
 */
export interface StreamTarget {
  writeSections(source: SectionsSource): Promise<string[]>;
}

/**
 * A result too large to hold, written as it arrives (reports: window by window) through the
 * same engine as a complete one: the command prepares (its cache, its spinner) and hands its
 * sections to the printer's engine, which writes them by the plan; the command never opens
 * an output nor chooses a format.
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
  readonly outputPlan: OutputPlan;
  private readonly messages: Messages;

  /** Built by the runner once the plan is decided (output-plan.ts): nothing about it changes after. */
  constructor(messages: Messages, outputPlan: OutputPlan) {
    this.messages = messages;
    this.outputPlan = outputPlan;
  }

  get redactor(): Redactor {
    return this.messages.redactor;
  }

  get io(): IOStreams {
    return this.messages.io;
  }

  get quiet(): boolean {
    return this.messages.quiet;
  }

  get verbose(): boolean {
    return this.messages.verbose;
  }

  /** --verbose trace line on stderr, secrets redacted. */
  trace(line: string): void {
    this.messages.trace(line);
  }

  /** A warning on stderr (shown even with --quiet: it may change what the user does). */
  warn(text: string): void {
    this.messages.warn(text);
  }

  /** A warning about how an input file was read, silent under --quiet (messages.ts). */
  notice(text: string): void {
    this.messages.notice(text);
  }

  /** Information for people on stderr; silent under --quiet. */
  info(text: string): void {
    this.messages.info(text);
  }

  /** A line on stderr that --quiet does not silence (messages.ts). */
  say(text: string): void {
    this.messages.say(text);
  }

  progress(): Promise<Progress> {
    return this.messages.progress();
  }

  /** The run's report to its CI system (messages.ts). */
  ci(): Promise<CiReport> {
    return this.messages.ci();
  }

  /** The plan as the output engine's options (render.ts), for a complete result or a stream. */
  renderOptions(): RenderOptions {
    const { outputPlan } = this;
    return {
      format: outputPlan.format,
      fields: outputPlan.fields,
      bom: outputPlan.bom,
      delimiter: outputPlan.delimiter,
      color: outputPlan.color,
      width: outputPlan.width,
      // A workbook's sheet is named after its file.
      ...(outputPlan.out ? { sheetName: basename(outputPlan.out, extname(outputPlan.out)) } : {}),
    };
  }

  /** --delimiter and --bom as given, for side files written in their input's form (output/csv.ts sideFileForm). */
  sideFileFlags(): { delimiter: "," | ";" | "\t" | undefined; bom: boolean } {
    return { delimiter: this.outputPlan.delimiterGiven ? this.outputPlan.delimiter : undefined, bom: this.outputPlan.bom };
  }

  /**
   * stdout, or --out written atomically: nothing is left behind if the command fails.
   * Failures of the file are LocalFileError (exit 11) naming it (output/atomic-file.ts).
   */
  async openOutput(path = this.outputPlan.out): Promise<OutputSink> {
    // `--out /dev/stdout` names our own stdout, which may be a socket that cannot be opened
    // again (ENXIO): write to the stream we already hold, never replace the name.
    if (path && STDOUT_NAMES.has(path)) path = undefined;
    if (path) {
      const file = await openAtomicFile(path, this.outputPlan.secretOutput ? 0o600 : 0o644);
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
    const { outputPlan } = this;
    const options = this.renderOptions();
    const query = outputPlan.query;
    if (result.kind === "stream") {
      // reports: records arrive window by window and leave as they come (memory stays flat).
      const { writeSections } = await import("./output/sections.js");
      const target: SectionsTarget = {
        format: outputPlan.format,
        fields: outputPlan.fields,
        query: outputPlan.query,
        out: outputPlan.out,
        outDir: outputPlan.outDir,
        options,
        openOutput: (path) => this.openOutput(path),
        note: (text) => this.info(text),
        showPath,
      };
      await result.write({ writeSections: (source) => writeSections(target, source) });
      return;
    }
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
    if (outputPlan.out) this.info(`wrote ${showPath(outputPlan.out)}`);
  }
}
