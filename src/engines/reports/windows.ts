import type { ApiClient } from "../../api/client.js";
import { streamReport } from "../../api/endpoints.js";
import type { ReportKind } from "../../api/schemas.js";
import type { DateRange } from "../../domain/date-windows.js";
import type { JsonRecord } from "../../domain/records.js";
import type { ResponseShape } from "../../domain/report-record-scanner.js";
import { throwIfAborted } from "../../errors.js";
import type { SecretScan } from "../../output/secret-scan.js";
import type { ReportCache } from "./cache.js";

// The report window engine (docs/architecture.md "Engines"): a kind's windows, one after the other, each answer
// streamed from the socket into its window file (cache.ts) and read back batch by batch.
// Only the shared scheduler decides when a request goes; nothing here sleeps. Used by
// `reports` (commands/reports/report-sections.ts) and meant for any command that reads report
// windows (`reports sync`): `batches()` yields each window's records, tagged with their window.
//
// A window is fetched at most once a run: read again (the --fields check looks at the first
// records before the output is written) it comes from its file.

/** One batch of one window's records (a window gives one or more batches, or none). */
export interface WindowBatch {
  window: DateRange;
  /** The window's position among the run's windows (0-based). */
  index: number;
  records: JsonRecord[];
  /**
   * The window's text read so far was proven free of the secrets redaction removes from
   * data (output/secret-scan.ts, given as `scan`): these records need no redaction walk.
   */
  secretsAbsent: boolean;
}

/** What the engine tells a progress display; every call is made once per window a run. */
export interface WindowEvents {
  window(kind: string, index: number, count: number, window: DateRange): void;
  windowDone(fetched: boolean): void;
  /** A window counted as cached was gone when it was read: it is fetched after all. */
  oneMoreFetch(): void;
}

function windowLabel(kind: string, window: DateRange): string {
  return `report ${kind} ${window.startDate}..${window.endDate}`;
}

function windowKey(kind: string, window: DateRange): string {
  return `${kind}|${window.startDate}|${window.endDate}`;
}

export class ReportWindows {
  /** Windows on disk from an earlier run, "kind|start|end", counted before the first request. */
  private readonly cached = new Set<string>();
  /** Windows this run has on disk already, with their answer's shape. */
  private readonly loaded = new Map<string, ResponseShape>();
  private events: WindowEvents | undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly cache: ReportCache,
    readonly windows: readonly DateRange[],
    private readonly signal: AbortSignal,
  ) {}

  /** Counts the windows an earlier run left (persistent cache only); returns how many. */
  async findCached(kinds: readonly ReportKind[]): Promise<number> {
    if (!this.cache.persistent) return 0;
    for (const kind of kinds) {
      for (const window of this.windows) {
        if (await this.cache.has(kind, window)) this.cached.add(windowKey(kind, window));
      }
    }
    return this.cached.size;
  }

  /** Where the window events go (the progress display, once it exists). */
  report(events: WindowEvents): void {
    this.events = events;
  }

  /**
   * A kind's records, window after window, in batches. With `raw`, each window is one
   * record: its dates and its answer untouched (held whole, one window at a time).
   */
  async *batches(
    kind: ReportKind,
    options: { raw?: boolean; scan?: () => SecretScan | undefined } = {},
  ): AsyncGenerator<WindowBatch> {
    for (const [index, window] of this.windows.entries()) {
      throwIfAborted(this.signal);
      yield* this.windowBatches(kind, window, index, options.raw === true, options.scan);
      // Without a resume cache the file has served its purpose.
      if (!this.cache.persistent) {
        await this.cache.remove(kind, window);
        this.loaded.delete(windowKey(kind, window));
      }
    }
  }

  private async *windowBatches(
    kind: ReportKind,
    window: DateRange,
    index: number,
    raw: boolean,
    newScan: (() => SecretScan | undefined) | undefined,
  ): AsyncGenerator<WindowBatch> {
    const label = windowLabel(kind, window);
    for (let attempt = 1; ; attempt++) {
      const shape = await this.load(kind, window, index);
      try {
        if (raw) {
          const response = await this.cache.whole(kind, window, shape, label);
          const records = [{ startDate: window.startDate, endDate: window.endDate, response }];
          yield { window, index, records, secretsAbsent: false };
        } else {
          // One scan per reading of the window: it sees each chunk before its records.
          const scan = newScan?.();
          for await (const records of this.cache.records(kind, window, shape, label, scan)) {
            yield { window, index, records, secretsAbsent: scan?.absent === true };
          }
        }
        return;
      } catch (error) {
        // The same command running concurrently finished first and cleared the shared
        // window file before we opened it: fetch it once more. (Only the opening of the file
        // can miss it — once open it is read to its end — so no record was handed out yet.)
        if (attempt === 1 && (error as NodeJS.ErrnoException).code === "ENOENT") {
          this.cached.delete(windowKey(kind, window));
          this.loaded.delete(windowKey(kind, window));
          continue;
        }
        throw error;
      }
    }
  }

  /** Makes sure the window's answer is on disk (from an earlier run, this run, or fetched now). */
  private async load(kind: ReportKind, window: DateRange, index: number): Promise<ResponseShape> {
    const key = windowKey(kind, window);
    const known = this.loaded.get(key);
    if (known) return known;
    this.events?.window(kind, index, this.windows.length, window);
    const label = windowLabel(kind, window);
    if (this.cached.has(key)) {
      if (await this.cache.has(kind, window)) {
        const shape = await this.cache.shapeOf(kind, window, label);
        this.events?.windowDone(false);
        this.loaded.set(key, shape);
        return shape;
      }
      // Removed since the count (another run finished, or it aged out): fetch it after all.
      this.cached.delete(key);
      this.events?.oneMoreFetch();
    }
    const shape = await streamReport(this.client, kind, window, (body) => this.cache.save(kind, window, body, label));
    this.events?.windowDone(true);
    this.loaded.set(key, shape);
    return shape;
  }
}
