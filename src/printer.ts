import { basename, extname } from "node:path";
import { LocalFileError, UsageError } from "./errors.js";
import { openAtomicFile } from "./output/atomic-file.js";
import { writeChunk, type IOStreams } from "./output/io.js";
import type { Clock } from "./clock.js";
import type { CiReport } from "./output/ci-report.js";
import type { Progress } from "./output/progress.js";
import { Redactor } from "./output/redact.js";
import { resultOfJson, writeResult, type CommandResult, type OutputFormat, type RenderOptions } from "./output/render.js";
import { escapeControlChars, escapeForLine } from "./output/sanitize.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions, ResolvedSettings } from "./settings/resolve.js";
import type { CompiledQuery } from "./output/query.js";

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

/** `--out` extensions that pick the format when -o is not given (`.jsonl`: a common alias of ndjson). */
const OUT_EXTENSIONS: Record<string, OutputFormat | undefined> = {
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
  ".csv": "csv",
  ".xlsx": "xlsx",
  ".txt": "text",
};

/** --delimiter's words to characters (the global flag offers exactly these choices). */
const CSV_DELIMITERS: Record<string, "," | ";" | "\t" | undefined> = { ",": ",", ";": ";", tab: "\t" };

/** Names of this process's stdout (docs/cli-contract.md, "Output files": never replaced). */
const STDOUT_NAMES = new Set(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", `/proc/${process.pid}/fd/1`]);

export class Printer {
  readonly redactor = new Redactor();
  /**
   * Set by commands whose output holds a user token or a link carrying one (token, link):
   * a new --out file is then created 0600 (docs/cli-contract.md, "Output files").
   */
  secretOutput = false;
  private queryPromise: Promise<CompiledQuery | undefined> | undefined;
  private outputDirectory: string | undefined;

  constructor(
    readonly io: IOStreams,
    private readonly env: Env,
    private readonly globals: GlobalOptions,
    /** The settings decide the format when -o is not given (the profile's `output`). */
    private readonly settings: () => Promise<ResolvedSettings>,
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

  /** --out: the file the result goes to instead of stdout. */
  get out(): string | undefined {
    return this.globals.out;
  }

  /** -o as given on the command line (undefined: the profile's, or the default). */
  get outputFlag(): string | undefined {
    return this.globals.output;
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
  async finishCi(exitCode: number, failure: string | undefined): Promise<void> {
    if (!this.ciReport && this.globals.junit === undefined) return;
    const report = await this.ci();
    for (const warning of await report.finish(exitCode, failure)) this.warn(warning);
  }

  /** Stops every progress still running (main.ts, when the run ends however it ends). */
  stopProgress(): void {
    for (const progress of this.progresses.splice(0)) progress.done();
  }

  /**
   * The output format: -o, else the --out extension, else the profile's, else table on a
   * terminal and json otherwise (docs/cli-contract.md, Global options `-o` and `--out`).
   * Usage errors, found before anything is sent (the runner asks first): an --out extension
   * that names no format when -o is not given, and xlsx with nowhere to go but stdout.
   */
  async format(): Promise<OutputFormat> {
    const settings = await this.settings();
    const out = this.globals.out;
    let format: OutputFormat;
    if (this.globals.output) format = settings.output ?? "json";
    else if (out !== undefined && extname(out) !== "") {
      const extension = extname(out).toLowerCase();
      const fromExtension = OUT_EXTENSIONS[extension];
      if (!fromExtension) {
        throw new UsageError(`--out ${out}: the extension ${extension} names no output format`, {
          hint: "use .json, .ndjson, .csv, .xlsx or .txt, or give the format with -o",
        });
      }
      format = fromExtension;
    } else format = settings.output ?? (this.io.stdoutIsTTY && !out ? "table" : "json");
    if (format === "xlsx" && !out && !this.outputDirectory) {
      throw new UsageError("-o xlsx writes a workbook, not text for a terminal or a pipe", {
        hint: "add --out <file>.xlsx",
      });
    }
    return format;
  }

  /** A command writing files into a directory (reports --out-dir): xlsx needs no --out then. */
  useOutputDirectory(dir: string): void {
    this.outputDirectory = dir;
  }

  /**
   * Where the output format came from, as the user gave it — for messages, which must never
   * name an `-o` the user did not type (issue 15 item 5).
   */
  async formatOrigin(): Promise<string> {
    const format = await this.format();
    if (this.globals.output) return `-o ${this.globals.output}`;
    const settings = await this.settings();
    if (this.globals.out && settings.output === undefined) return `--out ${this.globals.out}`;
    if (settings.output) return `the profile's output setting '${settings.output}' (\`simadmin config unset output\`)`;
    return `the default for ${this.io.stdoutIsTTY ? "a terminal" : "a pipe"} (${format})`;
  }

  fields(): string[] | undefined {
    if (this.globals.fields === undefined) return undefined;
    const fields = this.globals.fields
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) throw new UsageError("--fields needs at least one field name, e.g. --fields id,title");
    const repeated = fields.filter((field, i) => fields.indexOf(field) !== i);
    if (repeated.length > 0) {
      throw new UsageError(`--fields names ${[...new Set(repeated)].join(", ")} more than once; name each column once`);
    }
    return fields;
  }

  async renderOptions(): Promise<RenderOptions> {
    return {
      format: await this.format(),
      fields: this.fields(),
      bom: this.globals.bom === true,
      delimiter: CSV_DELIMITERS[this.globals.delimiter ?? ","],
      color: this.colorOn(this.io.stdoutIsTTY && !this.globals.out),
      width: this.io.columns,
    };
  }

  /**
   * stdout, or --out written atomically: nothing is left behind if the command fails.
   * Failures of the file are LocalFileError (exit 11) naming it (output/atomic-file.ts).
   */
  async openOutput(path = this.globals.out): Promise<OutputSink> {
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

  /** --query compiled (the runner asks before the command runs: a bad one sends nothing). */
  query(): Promise<CompiledQuery | undefined> {
    const expression = this.globals.query;
    this.queryPromise ??=
      expression === undefined ? Promise.resolve(undefined) : import("./output/query.js").then((m) => m.compileQuery(expression));
    return this.queryPromise;
  }

  /** Prints a complete result in the chosen format, after --query when given (the runner calls it with what a command returned). */
  async print(result: CommandResult): Promise<void> {
    if (result.kind === "none") return;
    const options = await this.renderOptions();
    const query = await this.query();
    if (result.kind === "object" && result.defaultText && !this.globals.output && !query) options.format = "text";
    // A service answer is JSON whatever the terminal, unless -o or --out's extension says otherwise.
    if (result.kind === "answer" && !this.globals.output && !this.globals.out) options.format = "json";
    if (this.globals.out) options.sheetName = basename(this.globals.out, extname(this.globals.out));
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
    if (this.globals.out) this.info(`wrote ${this.globals.out}`);
  }
}
