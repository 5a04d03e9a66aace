import { checkReportFields, reportTableColumns } from "../../domain/report-columns.js";
import { access, constants, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ApiClient } from "../../api/client.js";
import { streamReport } from "../../api/endpoints.js";
import type { RateLimit } from "../../api/rate-limits.js";
import { REPORT_KINDS, ReportKind } from "../../api/schemas.js";
import type { WaitEvent } from "../../api/scheduler.js";
import type { Clock } from "../../clock.js";
import type { CommandContext } from "../../context.js";
import type { OutputSink } from "../../printer.js";
import { resolveRange, splitIntoWindows, utcDay, type DateRange, type ResolvedRange } from "../../domain/date-windows.js";
import { AuthError, CliError, InterruptedError, LocalFileError, throwIfAborted, UsageError } from "../../errors.js";
import { makeDirectory } from "../../output/atomic-file.js";
import { escapeForLine } from "../../output/sanitize.js";
import type { Progress } from "../../output/progress.js";
import {
  createRecordWriter,
  jsonText,
  type ChunkSink,
  type RecordFormat,
  type RecordWriter,
} from "../../output/record-stream.js";
import type { XlsxWorkbook } from "../../output/xlsx.js";
import { defineRun } from "../types.js";
import { ReportsOptions } from "./options.js";
import { keyFingerprint, openSpoolDir, ReportCache, type CacheIdentity } from "./cache.js";
import type { ResponseShape } from "../../domain/report-record-scanner.js";
import type { CompiledQuery } from "../../output/query.js";
import { timeLeftText } from "../shared/time-left.js";

// `simadmin reports <kind>|all` (issue 5, docs/cli-contract.md "Dates", "Records of unknown shape").
//
// A range of any length is split into windows of at most 30 days (domain/date-windows.ts),
// requested one after the other through the shared scheduler — which alone decides when a
// request may go (budgets, retries); nothing here sleeps. Each window's answer streams from
// the socket into a private window file (cache.ts) and its records are read back one
// by one into a streaming writer (output/record-stream.ts): memory holds neither a window
// nor the output, whatever the range.
//
// Unattended runs (cron): the output file is written atomically, one per kind with
// --out-dir; the window files stay until the whole run succeeds, so a run that fails at
// window 9 of 13 is finished by running the same command again — it says "resuming" and
// fetches only what is missing.

const FILE_FORMATS = ["json", "ndjson", "csv", "xlsx"] as const;

interface ReportsPlan {
  kinds: ReportKind[];
  all: boolean;
  range: ResolvedRange;
  windows: DateRange[];
  format: RecordFormat | "text";
  raw: boolean;
  fields: string[] | undefined;
  outDir: string | undefined;
}

/** Local file failures that every kind's file would meet alike (full disk, quota, read-only). */
const DISK_WIDE_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS"]);

/**
 * Which failure decides `reports all`'s exit code when several kinds fail (issue 15 item 3):
 * the one most likely to need a person first — a bug, the key, the permission, a local file,
 * the service down, the rate limit — then the ones that concern a single kind.
 */
const SEVERITY = [1, 3, 4, 11, 8, 7, 9, 10, 5, 6];

function severity(code: number): number {
  const rank = SEVERITY.indexOf(code);
  return rank < 0 ? SEVERITY.length : rank;
}

/** `reports all` with kinds missing: the most severe exit code met, said at the end. */
class MissingKindsError extends CliError {
  constructor(
    readonly exitCode: number,
    message: string,
    hint: string,
  ) {
    super(message, { hint });
  }
}

export const run = defineRun(ReportsOptions, async ({ options, args, ...ctx }) => {
  const plan = await planReports(ctx, options, args);
  const reportsRun = new ReportsRun(ctx, plan);
  await reportsRun.execute();
  return { kind: "none" };
});

/** Every check that can fail without the service happens here, before anything is sent. */
async function planReports(ctx: CommandContext, options: ReportsOptions, args: string[]): Promise<ReportsPlan> {
  const kindArg = args[0] ?? "";
  const all = kindArg === "all";
  const kind = ReportKind.safeParse(kindArg);
  if (!all && !kind.success) {
    throw new UsageError(`unknown report kind ${JSON.stringify(kindArg)}; known kinds: ${REPORT_KINDS.join(", ")}, all`);
  }

  const range = resolveRange(options, utcDay(ctx.services.clock.now()));
  const windows = splitIntoWindows(range);

  const out = ctx.printer.out;
  if (out !== undefined && options.outDir !== undefined) {
    throw new UsageError("give --out <file> or --out-dir <dir>, not both");
  }
  // (The runner told the printer about --out-dir before checking the format: see command.ts.)

  const settings = await ctx.services.settings();
  let format = await ctx.printer.format();
  // One workbook holds a sheet per kind (docs/cli-contract.md, report kinds); other files hold one kind.
  if (out !== undefined && all && format !== "xlsx") {
    throw new UsageError("`reports all` writes one file per kind: use --out-dir <dir> instead of --out", {
      hint: "or --out <file>.xlsx for one workbook with a sheet per kind",
    });
  }
  // Files in --out-dir get a file format: json unless -o (or the profile) says otherwise,
  // as for --out — never the terminal's table.
  if (options.outDir !== undefined && ctx.printer.outputFlag === undefined && settings.output === undefined) format = "json";
  const query = await ctx.printer.query();
  // Only after --out-dir's json default: the runner checked the format before it (text is refused there too).
  if (format === "text" && !query) {
    throw new UsageError(`\`reports\` has no single value to print as text (${await ctx.printer.formatOrigin()})`, {
      hint: "use -o table, json, csv or ndjson",
    });
  }
  if (options.outDir !== undefined && !(FILE_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(
      `--out-dir writes files: use -o csv, json, ndjson or xlsx, not ${format} (${await ctx.printer.formatOrigin()})`,
    );
  }
  if (all && options.outDir === undefined && !query && (format === "csv" || format === "ndjson")) {
    throw new UsageError(
      `\`reports all\` as ${format} (${await ctx.printer.formatOrigin()}) writes one file per kind: add --out-dir <dir>`,
      {
        hint: "or use -o json for one JSON object keyed by kind on stdout",
      },
    );
  }

  const raw = options.raw === true;
  const fields = ctx.printer.fields();
  if (raw && format !== "json" && format !== "ndjson") {
    throw new UsageError(
      `--raw prints each window's response untouched: use -o json or -o ndjson, not ${format} (${await ctx.printer.formatOrigin()})`,
    );
  }
  if (raw && fields) throw new UsageError("--raw prints responses untouched: it cannot be combined with --fields");
  const kinds: ReportKind[] = all ? [...REPORT_KINDS] : [kind.data as ReportKind];
  // Known columns: a wrong name is exit 2 before any request, whatever the format (issue 15 item 4).
  for (const k of kinds) checkReportFields(k, settings.apiVersion, fields);

  if (options.outDir !== undefined) await prepareOutDir(options.outDir);

  return {
    kinds,
    all,
    range,
    windows,
    format,
    raw,
    fields,
    outDir: options.outDir,
  };
}

/**
 * Created when missing (cron jobs write into dated directories); must be a writable
 * directory — found before anything is sent, exit 11 naming it (docs/cli-contract.md, "Bad input").
 */
async function prepareOutDir(dir: string): Promise<void> {
  // makeDirectory names EROFS/EACCES where a recursive mkdir says ENOENT (issue 22 item 3).
  makeDirectory(dir, 0o777, "create the --out-dir directory");
  try {
    if (!(await stat(dir)).isDirectory()) {
      throw new LocalFileError(`cannot write into --out-dir ${dir}: not a directory (ENOTDIR)`, { path: dir, code: "ENOTDIR" });
    }
    await access(dir, constants.W_OK);
  } catch (error) {
    throw LocalFileError.fromSystem(error, dir, "write into --out-dir");
  }
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "ENOENT") return "no such directory";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOTDIR" || code === "EEXIST") return "not a directory";
  return error instanceof Error ? error.message : String(error);
}

class ReportsRun {
  private client!: ApiClient;
  private cache!: ReportCache;
  private progress!: ReportProgress;
  /** Windows taken from the cache, "kind|start|end", decided before the first request. */
  private readonly cached = new Set<string>();
  private readonly total: number;
  /** `reports all`: kinds that failed, each already named on stderr; the run goes on without them. */
  private readonly failed: { kind: ReportKind; error: CliError }[] = [];
  /** Where the CSV writer spools rows (under the settings directory; cache.ts). */
  private spoolDir: string | undefined;

  constructor(
    private readonly ctx: CommandContext,
    private readonly plan: ReportsPlan,
  ) {
    this.total = plan.kinds.length * plan.windows.length;
  }

  async execute(): Promise<void> {
    const { ctx, plan } = this;
    this.client = await ctx.services.api();
    const settings = await ctx.services.settings();
    if (plan.range.note) ctx.printer.info(plan.range.note);

    this.cache = await this.openCache(settings.configDir, {
      baseUrl: settings.baseUrl ?? "",
      apiVersion: settings.apiVersion,
      keyFingerprint: keyFingerprint(settings.apiKey ?? ""),
    });
    if (this.cache.persistent && plan.format === "csv" && !plan.fields) {
      try {
        const spool = await openSpoolDir(settings.configDir, () => ctx.services.clock.now());
        this.spoolDir = spool.dir;
        ctx.services.addCleanup(() => spool.remove());
      } catch {
        // The cache directory was just created there; should this fail, the OS temp dir serves.
      }
    }
    if (this.cache.persistent) {
      for (const kind of plan.kinds) {
        for (const window of plan.windows) {
          if (await this.cache.has(kind, window)) this.cached.add(windowKey(kind, window));
        }
      }
    }
    if (this.cached.size > 0) ctx.printer.info(`resuming: ${this.cached.size} of ${this.total} windows from cache`);

    const live = !ctx.printer.quiet && ctx.printer.io.stderrIsTTY;
    this.progress = new ReportProgress(
      await ctx.printer.progress(),
      ctx.services.clock,
      this.total - this.cached.size,
      this.total,
      live,
      // Parsed once, with the client's scheduler (services.rateLimits()).
      (await ctx.services.rateLimits()).reports,
    );
    const stopListening = ctx.services.onWait((event) => {
      if (event.group === "reports") this.progress.waiting(event);
    });
    try {
      const query = await ctx.printer.query();
      if (query) await this.writeQueried(query);
      else if (plan.outDir !== undefined) await this.writeFilePerKind(plan.outDir);
      else await this.writeToOutput();
    } catch (error) {
      this.progress.stop();
      // A throw-away directory cannot serve a resume: it goes. The real cache stays.
      if (!this.cache.persistent) await this.cache.dispose();
      throw error;
    } finally {
      stopListening();
    }
    if (this.failed.length > 0) {
      this.progress.stop();
      // The kinds that were written need no resume; the failed ones keep their windows.
      await this.clearCache(plan.kinds.filter((kind) => !this.failed.some((f) => f.kind === kind)));
      throw this.missingKinds();
    }
    this.progress.stop(this.total > 1 ? `${this.total} report windows done` : undefined);
    await this.clearCache(plan.kinds);
  }

  /**
   * `reports all`: one kind that fails does not stop the others (docs/cli-contract.md,
   * Report kinds; issue 15 item 3). Its error is named on stderr at once and the run goes on;
   * a key the service refuses, Ctrl-C and bugs still stop everything.
   */
  private async eachKind(work: (kind: ReportKind) => Promise<void>): Promise<void> {
    const { plan, ctx } = this;
    for (const kind of plan.kinds) {
      try {
        await work(kind);
      } catch (error) {
        const fatal =
          !plan.all ||
          !(error instanceof CliError) ||
          error instanceof InterruptedError ||
          error instanceof AuthError ||
          error instanceof UsageError ||
          // A full or read-only disk fails every kind the same way: stop spending requests.
          (error instanceof LocalFileError && error.code !== undefined && DISK_WIDE_CODES.has(error.code)) ||
          ctx.services.signal.aborted;
        if (fatal) throw error;
        this.failed.push({ kind, error });
        this.progress.pause();
        ctx.printer.io.stderr.write(
          `${ctx.printer.redactor.apply(escapeForLine(`error: ${kind}: ${error.message}${error.hint ? `; ${error.hint}` : ""}`))}\n`,
        );
      }
    }
  }

  private missingKinds(): MissingKindsError {
    const { plan } = this;
    const worst = this.failed.reduce((a, b) => (severity(b.error.exitCode) < severity(a.error.exitCode) ? b : a));
    const names = this.failed.map((f) => f.kind).join(", ");
    const written = plan.kinds.length - this.failed.length;
    return new MissingKindsError(
      worst.error.exitCode,
      `reports all: ${this.failed.length} of ${plan.kinds.length} kinds missing (${names}); the other ${written} ${written === 1 ? "was" : "were"} written`,
      "run the same command again to fetch the missing kinds (finished windows come from the cache)",
    );
  }

  /** A cache dir that cannot be created is no reason to fail the export: warn, use a temp dir. */
  private async openCache(configDir: string, identity: CacheIdentity): Promise<ReportCache> {
    const now = (): number => this.ctx.services.clock.now();
    try {
      return await ReportCache.open(join(configDir, "report-cache"), identity, now);
    } catch (error) {
      this.ctx.printer.warn(`resume cache unavailable in ${configDir} (${describeFsError(error)}): a failed run will start over`);
      return ReportCache.temporary(identity, now);
    }
  }

  private async clearCache(kinds: readonly ReportKind[]): Promise<void> {
    for (const kind of kinds) for (const window of this.plan.windows) await this.cache.remove(kind, window);
    await this.cache.dispose();
  }

  /**
   * --query: the expression sees what `-o json` would print — one kind's records, or for
   * `all` (without --out-dir) the object keyed by kind; with --out-dir it is applied to each
   * kind's records, file by file. The JSON is collected in memory first (a query needs the
   * whole document), so a query over a very large export costs memory the streamed export
   * does not; the README says so.
   */
  private async writeQueried(query: CompiledQuery): Promise<void> {
    const { plan, ctx } = this;
    const { renderQueried } = await import("../../output/query.js");
    const options = { ...(await ctx.printer.renderOptions()), format: plan.format, fields: plan.fields };
    const emit = async (path: string | undefined, value: unknown): Promise<void> => {
      const queried = query.apply(value);
      // A workbook is binary: the answer goes through the output engine (render.ts).
      const text = plan.format === "xlsx" ? undefined : await renderQueried(queried, options);
      const sink = await this.open(path);
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
      if (path) this.note(`wrote ${path}`);
    };
    if (plan.outDir !== undefined) {
      const dir = plan.outDir;
      await this.eachKind(async (kind) => {
        await emit(
          join(dir, `${kind}_${plan.range.startDate}_${plan.range.endDate}.${plan.format}`),
          await this.collectKind(kind),
        );
      });
      return;
    }
    if (!plan.all) {
      const [kind] = plan.kinds;
      if (kind !== undefined) await emit(ctx.printer.out, await this.collectKind(kind));
      return;
    }
    const whole: Record<string, unknown> = {};
    await this.eachKind(async (kind) => {
      whole[kind] = await this.collectKind(kind);
    });
    await emit(ctx.printer.out, whole);
  }

  /** One kind as the JSON value `-o json` prints (records, or --raw windows), in memory. */
  private async collectKind(kind: ReportKind): Promise<unknown> {
    let text = "";
    await this.writeKind(
      kind,
      {
        toTerminal: false,
        write: async (chunk) => void (text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
      },
      {},
      "json",
    );
    return JSON.parse(text) as unknown;
  }

  /** --out-dir: `<kind>_<from>_<to>.<ext>` each, committed as soon as its kind is complete. */
  private async writeFilePerKind(dir: string): Promise<void> {
    const { plan } = this;
    await this.eachKind(async (kind) => {
      const path = join(dir, `${kind}_${plan.range.startDate}_${plan.range.endDate}.${plan.format}`);
      const sink = await this.open(path);
      try {
        const count = await this.writeKind(kind, sink, {});
        await sink.commit();
        this.note(`wrote ${path} (${count} ${plan.raw ? "window" : "record"}${count === 1 ? "" : "s"})`);
      } catch (error) {
        await sink.abort();
        throw error;
      }
    });
  }

  /** stdout or --out: one kind, or `all` as one JSON object keyed by kind (or a table each). */
  private async writeToOutput(): Promise<void> {
    const { plan, ctx } = this;
    const sink = await this.open(ctx.printer.out);
    try {
      if (!plan.all) {
        const [kind] = plan.kinds;
        if (kind === undefined) return;
        const count = await this.writeKind(kind, sink, {});
        await sink.commit();
        if (ctx.printer.out)
          this.note(`wrote ${ctx.printer.out} (${count} ${plan.raw ? "window" : "record"}${count === 1 ? "" : "s"})`);
        return;
      }
      if (plan.format === "xlsx") {
        // One workbook, a sheet per kind. A kind that fails is named on stderr and in the
        // final error (exit code); the sheets of the others are kept.
        const { openXlsxWorkbook } = await import("../../output/xlsx.js");
        const workbook = await openXlsxWorkbook(sink);
        try {
          await this.eachKind(async (kind) => {
            await this.writeKind(kind, sink, { workbook });
          });
          await workbook.commit();
        } catch (error) {
          workbook.abort();
          throw error;
        }
        if (ctx.printer.out) this.note(`wrote ${ctx.printer.out} (${plan.kinds.length - this.failed.length} sheets)`);
        await sink.commit();
        return;
      }
      // Each kind is rendered whole before it is written, so that a kind failing half-way
      // leaves the JSON document valid (without that kind) and no half table behind.
      const json = plan.format === "json";
      let first = true;
      if (json) await sink.write("{\n");
      await this.eachKind(async (kind) => {
        let text = "";
        const buffer: ChunkSink = {
          toTerminal: sink.toTerminal,
          write: async (chunk) => void (text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")),
        };
        await this.writeKind(kind, buffer, json ? { jsonTrailer: "" } : {});
        await sink.write(
          json
            ? `${first ? "" : ",\n"}${jsonText(kind)}: ${text}`
            : // table: a titled table per kind, for people at a terminal.
              `${first ? "" : "\n"}${kind} ${plan.range.startDate}..${plan.range.endDate}\n${text}`,
        );
        first = false;
      });
      if (json) await sink.write("\n}\n");
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
  }

  private hintGiven = false;

  /** Once a run: the table left columns out, and how to get them (issue 15 item 2). */
  private columnsHint(kind: ReportKind, shown: string[], every: string[]): void {
    if (this.hintGiven) return;
    this.hintGiven = true;
    const width = this.ctx.printer.io.columns;
    const hidden = every.filter((column) => !shown.includes(column));
    this.note(
      `${kind}: ${shown.length} of ${every.length} columns shown${width ? ` to fit ${width} columns` : ""}; add others with --fields (e.g. --fields ${[...shown, ...hidden.slice(0, 1)].join(",")}), or get them all with -o csv or -o json`,
    );
  }

  /** A line for people on stderr, above the spinner rather than through it. */
  private note(text: string): void {
    this.progress.pause();
    this.ctx.printer.info(text);
  }

  /** Opening the file before the first request: a bad path costs no request (exit 11, output/atomic-file.ts). */
  private open(path: string | undefined): Promise<OutputSink> {
    return this.ctx.printer.openOutput(path);
  }

  /** One kind, window after window, into a record writer; returns the records written. */
  private async writeKind(
    kind: ReportKind,
    sink: ChunkSink,
    extra: { jsonTrailer?: string; workbook?: XlsxWorkbook },
    asJson?: "json",
  ): Promise<number> {
    const { plan, ctx } = this;
    const render = await ctx.printer.renderOptions();
    // plan.format is "text" only with --query, which always collects JSON (asJson).
    const format = asJson ?? (plan.format as RecordFormat);
    const writer: RecordWriter = createRecordWriter(sink, {
      format,
      // --fields applies after the query, to its answer.
      fields: asJson ? undefined : plan.fields,
      bom: render.bom,
      delimiter: render.delimiter,
      color: render.color,
      width: render.width,
      jsonTrailer: extra.jsonTrailer,
      sheetName: kind,
      workbook: extra.workbook,
      // Raw responses can be tens of megabytes: written member by member, never as one string.
      jsonSplitDepth: plan.raw ? 4 : 0,
      spoolDir: this.spoolDir,
      signal: ctx.services.signal,
      // A table shows the kind's most telling columns that fit the terminal (issue 15 item 2).
      tableColumns: reportTableColumns(kind),
      onColumnsHidden: (shown, every) => this.columnsHint(kind, shown, every),
    });
    try {
      for (const [index, window] of plan.windows.entries()) {
        throwIfAborted(ctx.services.signal);
        const label = windowLabel(kind, window);
        for (let attempt = 1; ; attempt++) {
          const shape = await this.loadWindow(kind, window, index);
          try {
            if (plan.raw) {
              // --raw holds one window's answer at a time (it is printed as one value).
              const response = await this.cache.whole(kind, window, shape, label);
              await writer.writeBatch([{ startDate: window.startDate, endDate: window.endDate, response }]);
            } else {
              for await (const batch of this.cache.records(kind, window, shape, label)) await writer.writeBatch(batch);
            }
            break;
          } catch (error) {
            // The same command running concurrently finished first and cleared the shared
            // window file before we opened it (nothing was read yet): fetch it once more.
            if (attempt === 1 && (error as NodeJS.ErrnoException).code === "ENOENT") {
              this.cached.delete(windowKey(kind, window));
              continue;
            }
            throw error;
          }
        }
        // Without a resume cache the file has served its purpose.
        if (!this.cache.persistent) await this.cache.remove(kind, window);
      }
      await writer.end();
      // An empty report must not look like a broken file (issue 15 item 3): say so. With
      // --fields a CSV still has its header.
      if (writer.count === 0 && !plan.raw) {
        const empty = format === "csv" && !plan.fields ? "; the CSV is empty (--fields <columns> gives it a header)" : "";
        this.note(`no records in ${kind} for ${plan.range.startDate}..${plan.range.endDate}${empty}`);
      }
      return writer.count;
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  /** Makes sure the window's answer is on disk (from an earlier run, or fetched now). */
  private async loadWindow(kind: ReportKind, window: DateRange, index: number): Promise<ResponseShape> {
    this.progress.window(kind, index, this.plan.windows.length, window);
    const label = windowLabel(kind, window);
    if (this.cached.has(windowKey(kind, window))) {
      if (await this.cache.has(kind, window)) {
        const shape = await this.cache.shapeOf(kind, window, label);
        this.progress.windowDone(false);
        return shape;
      }
      // Removed since the count (another run finished, or it aged out): fetch it after all.
      this.cached.delete(windowKey(kind, window));
      this.progress.oneMoreFetch();
    }
    const shape = await streamReport(this.client, kind, window, (body) => this.cache.save(kind, window, body, label));
    this.progress.windowDone(true);
    return shape;
  }
}

function windowLabel(kind: string, window: DateRange): string {
  return `report ${kind} ${window.startDate}..${window.endDate}`;
}

function windowKey(kind: string, window: DateRange): string {
  return `${kind}|${window.startDate}|${window.endDate}`;
}

/**
 * The spinner line: kind, window i of n, overall count, the scheduler's next wait counting
 * down, and an estimate of the time left. The estimate is the larger of the pace so far and
 * what the reports budget allows for the requests still to send (the first ten requests go
 * at once, so the pace alone would promise far too much).
 */
class ReportProgress {
  private done = 0;
  private fetched = 0;
  private fetchTimeMs = 0;
  private windowStartedAt = 0;
  private waitUntil: number | undefined;
  private waitReason: WaitEvent["reason"] = "budget";
  private current = "";
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly spinner: Progress,
    private readonly clock: Clock,
    private toFetch: number,
    private readonly total: number,
    live: boolean,
    private readonly budget: RateLimit,
  ) {
    // Only a live spinner needs the countdown refreshed; under cron nothing is drawn.
    if (live) {
      this.timer = setInterval(() => this.render(), 1000);
      this.timer.unref();
    }
  }

  window(kind: string, index: number, count: number, window: DateRange): void {
    this.current = `${kind} · window ${index + 1} of ${count} (${window.startDate}..${window.endDate})`;
    this.windowStartedAt = this.clock.now();
    this.waitUntil = undefined;
    this.render();
  }

  /** Clears the spinner's line so that a line can be written; the next update() redraws it. */
  pause(): void {
    this.spinner.done();
  }

  oneMoreFetch(): void {
    this.toFetch++;
  }

  waiting(event: WaitEvent): void {
    this.waitUntil = this.clock.now() + event.waitMs;
    this.waitReason = event.reason;
    this.render();
  }

  windowDone(fetched: boolean): void {
    this.done++;
    if (fetched) {
      this.fetched++;
      this.fetchTimeMs += this.clock.now() - this.windowStartedAt;
    }
    this.waitUntil = undefined;
  }

  private render(): void {
    const now = this.clock.now();
    const parts = [this.current, `${this.done} of ${this.total} done`];
    if (this.waitUntil !== undefined && this.waitUntil > now) {
      const seconds = Math.ceil((this.waitUntil - now) / 1000);
      parts.push(this.waitReason === "budget" ? `next report request in ${seconds} s` : `retrying in ${seconds} s`);
    }
    const eta = Math.max(this.etaMs() ?? 0, (this.waitUntil ?? 0) - now);
    const timeLeft = timeLeftText(eta);
    if (timeLeft) parts.push(timeLeft);
    this.spinner.update(parts.join(" · "));
  }

  private etaMs(): number | undefined {
    const left = Math.max(0, this.toFetch - this.fetched);
    if (left === 0) return undefined;
    const pace = this.fetched > 0 ? (this.fetchTimeMs / this.fetched) * left : 0;
    const budget = Math.floor((left - 1) / this.budget.limit) * this.budget.windowMs;
    const estimate = Math.max(pace, budget);
    return estimate > 0 ? estimate : undefined;
  }

  stop(text?: string): void {
    if (this.timer) clearInterval(this.timer);
    this.spinner.done(text);
  }
}
