import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ApiClient } from "../../api/client.js";
import { streamReport } from "../../api/endpoints.js";
import type { BudgetTimes } from "../../api/rate/least-time.js";
import { formatRateLimit } from "../../api/rate/limits.js";
import { REPORT_KINDS, type ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import type { PostgresOptions } from "../../db/postgres-connect.js";
import { parseIsoDate, utcDay } from "../../domain/date-windows.js";
import type { JsonRecord } from "../../domain/records.js";
import { kindTable } from "../../domain/sync-columns.js";
import { isComplete, planSyncWindows, type PlannedWindow, type SyncedWindow } from "../../domain/sync-windows.js";
import { throwIfAborted } from "../../errors.js";
import type { Progress } from "../../output/progress.js";
import { packagePath } from "../../package-root.js";
import { keyFingerprint, openSpoolDir, ReportCache, type CacheIdentity } from "../reports/cache.js";
import { defineRun } from "../types.js";
import type { SqlConnection } from "./connection.js";
import { ReportsSyncOptions } from "./options.js";
import { SyncStore } from "./store.js";

// `simadmin reports sync --db <file.duckdb|postgres://…>` (issue 24; docs/cli-contract.md, Sync).
//
// Plan first (domain/sync-windows.ts): per kind, the fixed windows missing since --since,
// the open one and the recently ended ones, from the meta table. Then, window after window
// through the shared scheduler (budgets, retries, the Redis store — nothing here sleeps):
// the answer streams to a private spool file (reports' cache.ts, checking the JSON on the
// way), and its records are read back in batches into one transaction that replaces the
// window (store.ts). Memory holds one batch, whatever the window's size. A failed or killed
// run keeps every window it finished: running it again fetches the rest.

/** Without --since, a first run reaches this far back (issue 24). */
const DEFAULT_HISTORY_DAYS = 90;
const DEFAULT_OPEN_DAYS = 2;
/** --timeout's default for report requests (docs/cli-contract.md, Global options), and so for the database. */
const DEFAULT_TIMEOUT_SECONDS = 120;

interface KindPlan {
  kind: ReportKind;
  windows: PlannedWindow[];
}

function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "0.0.0";
  }
}

export const run = defineRun(ReportsSyncOptions, async ({ options, ...ctx }) => {
  const { services, printer } = ctx;
  const today = utcDay(services.clock.now());
  const openDays = options.openDays ?? DEFAULT_OPEN_DAYS;
  const kinds = options.kinds ?? [...REPORT_KINDS];
  const times = await services.budget();
  const limits = times.limits.reports;
  // Settings and the client first: a missing key or a bad profile is said before the
  // database is touched (or created).
  const settingsOf = await services.settings();
  if (!options.dryRun) await services.api();

  const target = options.db;
  // A dry run must not create the database: a DuckDB file not there yet holds nothing.
  const db =
    options.dryRun && target.kind === "duckdb" && !existsSync(target.path)
      ? undefined
      : await open(target, options.dryRun, {
          // Connect and statement timeouts follow --timeout (docs/cli-contract.md, Warehouse rules).
          timeoutMs: (settingsOf.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
          env: services.env,
        });
  const store = db ? new SyncStore(db, services.signal) : undefined;
  try {
    const plans: KindPlan[] = [];
    // Later runs start where the database's history does (a kind added later gets as much),
    // unless --since says otherwise.
    const earliest = await store?.earliestStart();
    const since = options.since ?? (earliest !== undefined ? parseIsoDate(earliest)! : today - DEFAULT_HISTORY_DAYS);
    for (const kind of kinds) {
      const synced = store ? await store.syncedWindows(kind) : new Map<string, SyncedWindow>();
      plans.push({ kind, windows: planSyncWindows({ today, since, openDays, synced }) });
    }
    const requests = plans.reduce((n, p) => n + p.windows.length, 0);
    const least = times.leastMs("reports", requests);
    const budget = `${requests} report request${requests === 1 ? "" : "s"}, at least ${times.format(least)} at the reports budget (${formatRateLimit(limits)})`;

    if (options.dryRun) {
      return {
        kind: "records",
        records: plans.flatMap((p) =>
          p.windows.map((w) => ({
            kind: p.kind,
            table: kindTable(p.kind),
            startDate: w.startDate,
            endDate: w.endDate,
            reason: w.reason,
          })),
        ),
        knownFields: ["kind", "table", "startDate", "endDate", "reason"],
        note: `dry run: ${budget}; nothing was sent`,
      };
    }

    printer.info(`reports sync into ${db!.label}: ${budget}`);
    await store!.ensureMeta();
    const summary = await new SyncRun(ctx, store!, plans, requests, openDays, times).execute();
    return {
      kind: "records",
      records: summary,
      knownFields: ["kind", "table", "windows", "records"],
    };
  } finally {
    await db?.close();
  }
});

async function open(target: ReportsSyncOptions["db"], dryRun: boolean, connect: PostgresOptions): Promise<SqlConnection> {
  if (target.kind === "postgres") return (await import("./postgres.js")).openPostgres(target.url, connect);
  return (await import("./duckdb.js")).openDuckDb(resolve(target.path), { readOnly: dryRun });
}

class SyncRun {
  private client!: ApiClient;
  private progress!: Progress;
  private done = 0;
  private readonly startedAt: number;

  constructor(
    private readonly ctx: CommandContext,
    private readonly store: SyncStore,
    private readonly plans: KindPlan[],
    private readonly total: number,
    private readonly openDays: number,
    private readonly times: BudgetTimes,
  ) {
    this.startedAt = ctx.services.clock.now();
  }

  async execute(): Promise<Record<string, unknown>[]> {
    const { services, printer } = this.ctx;
    this.client = await services.api();
    const settings = await services.settings();
    this.progress = await printer.progress();
    const cache = await this.spool(settings.configDir, {
      baseUrl: settings.baseUrl ?? "",
      apiVersion: settings.apiVersion,
      keyFingerprint: keyFingerprint(settings.apiKey ?? ""),
    });
    const summary: Record<string, unknown>[] = [];
    try {
      for (const plan of this.plans) {
        let records = 0;
        for (const window of plan.windows) {
          throwIfAborted(services.signal);
          this.tell(plan.kind, window);
          records += await this.syncWindow(cache, plan.kind, window);
          this.done++;
        }
        summary.push({ kind: plan.kind, table: kindTable(plan.kind), windows: plan.windows.length, records });
      }
      this.progress.done(this.total > 0 ? `${this.total} report windows synced` : undefined);
    } catch (error) {
      this.progress.done();
      throw error;
    } finally {
      await cache.dispose();
    }
    if (this.total === 0) printer.info("reports sync: every window is up to date; nothing to fetch");
    return summary;
  }

  /**
   * Where each window's answer waits between the socket and the database: this run's spool
   * directory under the settings dir (`report-spool/<host>-<pid>`, 0700, like `reports`' CSV
   * spool; cache.ts), so a run killed with SIGKILL leaves nothing in the shared temp dir and
   * the next run of `reports` or `reports sync` removes what it left. The OS temp dir only
   * when the settings dir cannot be written.
   */
  private async spool(configDir: string, identity: CacheIdentity): Promise<ReportCache> {
    const now = (): number => this.ctx.services.clock.now();
    try {
      const spool = await openSpoolDir(configDir, now);
      return ReportCache.inRunDirectory(spool.dir, identity, now);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.ctx.printer.warn(`cannot use ${configDir} for the report spool (${reason}): using the temp directory`);
      return ReportCache.temporary(identity, now);
    }
  }

  private async syncWindow(cache: ReportCache, kind: ReportKind, window: PlannedWindow): Promise<number> {
    const label = `report ${kind} ${window.startDate}..${window.endDate}`;
    const range = { startDate: window.startDate, endDate: window.endDate };
    try {
      const shape = await streamReport(this.client, kind, range, (body) => cache.save(kind, range, body, label));
      const fetchedAt = new Date(this.ctx.services.clock.now());
      const blockEnd = parseIsoDate(window.startDate)! + 29;
      // The API key echoed inside report data is never written to the database, neither in
      // a column nor in `raw`: the same redaction as every export (output/redact.ts).
      const records = (): AsyncIterable<JsonRecord[]> => this.redacted(cache.records(kind, range, shape, label));
      await this.store.fitWindow(kind, records());
      return await this.store.replaceWindow(
        {
          kind,
          startDate: window.startDate,
          endDate: window.endDate,
          fetchedAt,
          complete: isComplete(blockEnd, parseIsoDate(window.endDate)!, utcDay(fetchedAt.getTime()), this.openDays),
          toolVersion: toolVersion(),
        },
        records(),
      );
    } finally {
      await cache.remove(kind, range);
    }
  }

  private async *redacted(batches: AsyncIterable<JsonRecord[]>): AsyncGenerator<JsonRecord[]> {
    const redactor = this.ctx.printer.redactor;
    for await (const batch of batches) yield redactor.redactData(batch);
  }

  /** The spinner on a terminal; otherwise a line at least every 30 s (output/progress.ts: the heartbeat every command gets). */
  private tell(kind: ReportKind, window: PlannedWindow): void {
    const now = this.ctx.services.clock.now();
    const remaining = this.total - this.done;
    // Never less than the budget allows for what is left (the first windows go at once).
    const left = this.times.timeLeftText(
      this.times.timeLeftMs("reports", { sent: this.done, startedAt: this.startedAt, now, left: remaining }),
    );
    const text = `${kind} ${window.startDate}..${window.endDate}: window ${this.done + 1} of ${this.total}${left ? `, ${left}` : ""}`;
    this.progress.update(text);
  }
}
