import { join } from "node:path";
import type { ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import type { CliError } from "../../errors.js";
import { jsonText } from "../../output/json-text.js";
import type { CompiledQuery } from "../../output/query.js";
import { tableHint, type TableColumns } from "../../output/table-columns.js";
import type { OutputSink, StreamTarget } from "../../printer.js";
import { checkFields } from "./fields-check.js";
import { kindFailureLine, kindOnlyFailure, neverReached } from "./kind-failures.js";
import { KindWriter, textCollector } from "./kind-writer.js";
import type { ReportsPlan } from "./reports-plan.js";
import type { ReportProgress } from "./progress.js";
import type { ReportWindows } from "../../engines/reports/windows.js";
import { showPath } from "../../messages.js";

// Where `reports` writes (docs/cli-contract.md, "Output files", report kinds): one kind to
// stdout or --out; `all` as one JSON object keyed by kind, a table per kind, or one
// workbook with a sheet per kind; --out-dir as a file per kind; --query over what -o json
// would print. Every record goes through the output engine (output/record-stream.ts) as
// its window is read: memory holds neither a window nor the output (kind-writer.ts).
// A kind of `all` that fails does not stop the others (kind-failures.ts); --fields is
// checked against what the service sent first (fields-check.ts).

export class ReportOutputs {
  /** `reports all`: kinds that failed, each already named on stderr; the run goes on without them. */
  readonly failed: { kind: ReportKind; error: CliError }[] = [];
  /**
   * `reports all`: the kinds never asked for, because an earlier one could not reach the
   * service at all — every kind would fail the same way, each after its retries.
   */
  readonly notAttempted: ReportKind[] = [];
  private hintGiven = false;
  private readonly kinds: KindWriter;

  constructor(
    private readonly ctx: CommandContext,
    private readonly reportsPlan: ReportsPlan,
    private readonly target: StreamTarget,
    private readonly windows: ReportWindows,
    private readonly progress: ReportProgress,
    /** Where the CSV writer spools rows (under the settings directory; cache.ts). */
    spoolDir: string | undefined,
  ) {
    const notes = {
      note: (text: string) => this.note(text),
      columnsHidden: (kind: ReportKind, choice: TableColumns) => this.columnsHint(kind, choice),
    };
    this.kinds = new KindWriter(ctx, reportsPlan, target, windows, notes, spoolDir);
  }

  async write(): Promise<void> {
    const { query } = this.reportsPlan.output;
    // --fields against what the service sent, before any output is written.
    // With --query it names the columns of the query's answer, checked when that is rendered.
    if (this.reportsPlan.output.fields && !query) await this.eachKind((kind) => checkFields(this.reportsPlan, this.windows, kind));
    if (query) await this.writeQueried(query);
    else if (this.reportsPlan.output.outDir !== undefined) await this.writeFilePerKind(this.reportsPlan.output.outDir);
    else await this.writeToOutput();
  }

  /**
   * `reports all`: one kind that fails does not stop the others (docs/cli-contract.md,
   * Report kinds). Its error is named on stderr at once and the run goes on;
   * a key the service refuses, a usage error, Ctrl-C and bugs still stop everything.
   */
  private async eachKind(work: (kind: ReportKind) => Promise<void>): Promise<void> {
    const { reportsPlan, ctx } = this;
    const finished = new Set<ReportKind>();
    for (const kind of reportsPlan.kinds) {
      if (this.failed.some((f) => f.kind === kind) || this.notAttempted.includes(kind)) continue;
      try {
        await work(kind);
      } catch (error) {
        const failure = kindOnlyFailure(error, reportsPlan.all, ctx.services.signal.aborted);
        if (!failure) throw error;
        this.failed.push({ kind, error: failure });
        this.progress.pause();
        ctx.printer.say(kindFailureLine(kind, failure));
        if (neverReached(failure)) {
          const left = reportsPlan.kinds.filter((k) => !finished.has(k) && !this.failed.some((f) => f.kind === k));
          this.notAttempted.push(...left.filter((k) => !this.notAttempted.includes(k)));
          return;
        }
        continue;
      }
      finished.add(kind);
    }
  }

  private fileFor(dir: string, kind: ReportKind): string {
    const { range, format } = this.reportsPlan;
    return join(dir, `${kind}_${range.startDate}_${range.endDate}.${format}`);
  }

  /**
   * --query: the expression sees what `-o json` would print — one kind's records, or for
   * `all` (without --out-dir) the object keyed by kind; with --out-dir it is applied to each
   * kind's records, file by file. The JSON is collected in memory first (a query needs the
   * whole document), so a query over a very large export costs memory the streamed export
   * does not; docs/report-output.md says so.
   */
  private async writeQueried(query: CompiledQuery): Promise<void> {
    const { reportsPlan } = this;
    const { renderQueried } = await import("../../output/query.js");
    const options = { ...this.target.options, format: reportsPlan.format };
    const emit = async (path: string | undefined, value: unknown): Promise<void> => {
      const queried = query.apply(value);
      // A workbook is binary: the answer goes through the output engine (render.ts).
      const text = reportsPlan.format === "xlsx" ? undefined : await renderQueried(queried, options);
      const sink = await this.target.openOutput(path);
      try {
        if (text === undefined) {
          const { writeResult, resultOfJson } = await import("../../output/render.js");
          await writeResult(resultOfJson(queried), sink, { ...options, sheetName: "query" });
        } else await sink.write(text);
        await sink.commit();
      } catch (error) {
        await sink.abort();
        throw error;
      }
      if (path) this.note(`wrote ${showPath(path)}`);
    };
    const { outDir, out } = reportsPlan.output;
    if (outDir !== undefined) {
      await this.eachKind(async (kind) => emit(this.fileFor(outDir, kind), await this.collectKind(kind)));
      return;
    }
    if (!reportsPlan.all) {
      const [kind] = reportsPlan.kinds;
      if (kind !== undefined) await emit(out, await this.collectKind(kind));
      return;
    }
    const whole: Record<string, unknown> = {};
    await this.eachKind(async (kind) => {
      whole[kind] = await this.collectKind(kind);
    });
    await emit(out, whole);
  }

  /** One kind as the JSON value `-o json` prints (records, or --raw windows), in memory. */
  private async collectKind(kind: ReportKind): Promise<unknown> {
    const collector = textCollector(false);
    await this.kinds.write(kind, collector, {}, "json");
    return JSON.parse(collector.text) as unknown;
  }

  private wrote(path: string, count: number): void {
    this.note(`wrote ${showPath(path)} (${count} ${this.reportsPlan.raw ? "window" : "record"}${count === 1 ? "" : "s"})`);
  }

  /** --out-dir: `<kind>_<from>_<to>.<ext>` each, committed as soon as its kind is complete. */
  private async writeFilePerKind(dir: string): Promise<void> {
    await this.eachKind(async (kind) => {
      const path = this.fileFor(dir, kind);
      const sink = await this.target.openOutput(path);
      try {
        const count = await this.kinds.write(kind, sink, {});
        await sink.commit();
        this.wrote(path, count);
      } catch (error) {
        await sink.abort();
        throw error;
      }
    });
  }

  /** stdout or --out: one kind, or `all` as one JSON object keyed by kind (or a table each, or a workbook). */
  private async writeToOutput(): Promise<void> {
    const { reportsPlan } = this;
    const { out } = reportsPlan.output;
    const sink = await this.target.openOutput();
    try {
      if (!reportsPlan.all) {
        const [kind] = reportsPlan.kinds;
        if (kind === undefined) return;
        const count = await this.kinds.write(kind, sink, {});
        await sink.commit();
        if (out) this.wrote(out, count);
        return;
      }
      if (reportsPlan.format === "xlsx") await this.writeWorkbook(sink);
      else await this.writeEachKind(sink);
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
  }

  /**
   * `all` into one workbook, a sheet per kind. A kind that fails is named on stderr and in
   * the final error (exit code); the sheets of the others are kept.
   */
  private async writeWorkbook(sink: OutputSink): Promise<void> {
    const { openXlsxWorkbook } = await import("../../output/xlsx.js");
    const workbook = await openXlsxWorkbook(sink);
    try {
      await this.eachKind((kind) => this.kinds.write(kind, sink, { workbook }).then(() => {}));
      await workbook.commit();
    } catch (error) {
      workbook.abort();
      throw error;
    }
    const { out } = this.reportsPlan.output;
    if (out) this.note(`wrote ${showPath(out)} (${this.reportsPlan.kinds.length - this.failed.length} sheets)`);
  }

  /**
   * `all` as one JSON object keyed by kind, or a titled table per kind. Each kind is
   * rendered whole before it is written, so that a kind failing half-way leaves the JSON
   * document valid (without that kind) and no half table behind.
   */
  private async writeEachKind(sink: OutputSink): Promise<void> {
    const { reportsPlan } = this;
    const json = reportsPlan.format === "json";
    let first = true;
    if (json) await sink.write("{\n");
    await this.eachKind(async (kind) => {
      const buffer = textCollector(sink.toTerminal);
      await this.kinds.write(kind, buffer, json ? { jsonTrailer: "" } : {});
      await sink.write(
        json
          ? `${first ? "" : ",\n"}${jsonText(kind)}: ${buffer.text}`
          : // table: a titled table per kind, for people at a terminal.
            `${first ? "" : "\n"}${kind} ${reportsPlan.range.startDate}..${reportsPlan.range.endDate}\n${buffer.text}`,
      );
      first = false;
    });
    if (json) await sink.write("\n}\n");
  }

  /** Once a run: the table left columns out, and how to get them (one hint line that works). */
  private columnsHint(kind: ReportKind, choice: TableColumns): void {
    if (this.hintGiven) return;
    this.hintGiven = true;
    this.note(tableHint(kind, choice, this.target.options.width));
  }

  /** A line for people on stderr, above the spinner rather than through it. */
  private note(text: string): void {
    this.progress.pause();
    this.ctx.printer.info(text);
  }
}
