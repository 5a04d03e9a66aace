import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ApiClient } from "../../api/client.js";
import { streamReport } from "../../api/endpoints.js";
import type { BudgetTimes } from "../../api/rate/least-time.js";
import { formatRateLimit } from "../../api/rate/limits.js";
import { REPORT_KINDS, type ReportKind } from "../../api/schemas.js";
import type { CommandContext } from "../../context.js";
import type { PostgresOptions } from "../../db/postgres-connect.js";
import { parseIsoDate, utcDay } from "../../domain/date-windows.js";
import { LayoutBook } from "../../domain/record-layout.js";
import { kindTable } from "../../domain/sync-columns.js";
import { tenantService } from "../../domain/tenant.js";
import { isComplete, planSyncWindows, type PlannedWindow, type SyncedWindow } from "../../domain/sync-windows.js";
import type { ResponseShape } from "../../domain/report-record-scanner.js";
import { throwIfAborted } from "../../errors.js";
import type { Progress } from "../../output/progress.js";
import { packageVersion } from "../../package-root.js";
import { keyFingerprint, openSpoolDir, ReportCache, type CacheIdentity } from "../../engines/reports/cache.js";
import { defineRun } from "../types.js";
import type { LockWait, SqlConnection } from "./connection.js";
import { writeDbtSources } from "./dbt-sources.js";
import { removeLoadFiles, WindowLoadWriter, type LoadFormat, type LoadLimits, type WindowLoadResult } from "./load-file.js";
import { ReportsSyncOptions } from "./options.js";
import { settlesWithin } from "./settles-within.js";
import { SyncStore, type Tenant } from "./store.js";
import { showPath } from "../../messages.js";

// `simadmin reports sync --db <file.duckdb|postgres://…>` (docs/cli-contract.md, Sync and
// Warehouse rules; docs/reports-sync.md).
//
// Take the database's lock, check whose data it holds, then plan (domain/sync-windows.ts):
// per kind, the fixed windows missing since --since, the open one and the recently ended
// ones, from the meta table (a DuckDB file not there yet has none: it is made while the first
// window is fetched). Then, window after window through the shared scheduler
// (budgets, retries, the Redis store — nothing here sleeps): the answer streams to a
// private spool file (reports' cache.ts), one pass over its records writes the load file
// the database reads by itself (load-file.ts), and one transaction replaces the window
// (store.ts). Window n+1 is fetched and prepared while window n loads. Memory holds one
// batch of records, whatever the window's size. A failed or killed run keeps every window
// it finished: running it again fetches the rest.

/** Without --since, a first run reaches this far back. */
const DEFAULT_HISTORY_DAYS = 90;
const DEFAULT_OPEN_DAYS = 2;
/** --timeout's default for report requests (docs/cli-contract.md, Global options), and so for the database. */
const DEFAULT_TIMEOUT_SECONDS = 120;
/** --lock-timeout's default (docs/cli-contract.md, State: the same wait as the state store's). */
/**
 * A record with more fields than `maxFieldsPerRecord`, or one that would take a table past
 * `maxFields` columns, is kept in raw only (docs/reports-sync.md, "A record that cannot be
 * stored as columns"). PostgreSQL allows 1,600 columns. DuckDB takes a block of 256 KB per
 * column of the table while it inserts rows, within the 128 MB it may use (duckdb.ts), beside
 * its JSON reader's 32 MB: a table of 400 columns ran out of memory on its first record.
 */
const LIMITS: Record<LoadFormat, LoadLimits> = {
  copy: { maxFieldsPerRecord: 1000, maxFields: 1200 },
  ndjson: { maxFieldsPerRecord: 250, maxFields: 250 },
};
/** How long the next window's answer may keep the loop waiting before the loaded windows are committed. */
const IDLE_COMMIT_MS = 1000;

interface KindPlan {
  kind: ReportKind;
  windows: PlannedWindow[];
}

/** The fields of a --dry-run's windows and of a sync's summary: --fields is checked against them before the database is touched. */
const SYNC_DRY_RUN_FIELDS = ["kind", "table", "startDate", "endDate", "reason"] as const;
const SYNC_SUMMARY_FIELDS = ["kind", "table", "windows", "records"] as const;

export const run = defineRun(
  ReportsSyncOptions,
  async ({ options, ...ctx }) => {
    const { services, printer } = ctx;
    const today = utcDay(services.clock.now());
    const openDays = options.openDays ?? DEFAULT_OPEN_DAYS;
    const kinds = options.kinds ?? [...REPORT_KINDS];
    const times = await services.budget();
    const limits = times.limits.reports;
    // Settings and the client first: a missing key or a bad profile is said before the
    // database is touched (or created).
    const settings = await services.settings();
    if (!options.dryRun) await services.api();

    const target = options.db;
    const lock: LockWait = {
      // The global --lock-timeout (default 60 s), as for the state store's locks.
      timeoutMs: settings.lockTimeoutMs,
      onWait: (text) => printer.info(text),
      signal: services.signal,
    };
    const tenant: Tenant = {
      // The same service name as the state store's tenants (domain/tenant.ts): `sandbox` under --sandbox.
      baseUrl: tenantService(settings.baseUrl, services.globals.sandbox === true),
      organization: settings.org ?? "",
      keyFingerprint: keyFingerprint(settings.apiKey ?? "").slice(0, 32),
      apiVersion: settings.apiVersion,
    };
    let db: SqlConnection | undefined;
    let store: SyncStore | undefined;
    /** Opens the database, takes its lock and checks whose data it holds. */
    const connect = async (): Promise<SyncStore> => {
      db = await open(target, options.dryRun, lock, {
        // Connect and statement timeouts follow --timeout (docs/cli-contract.md, Warehouse rules).
        timeoutMs: (settings.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
        env: services.env,
      });
      store = new SyncStore(db, (text) => printer.warn(text));
      if (!options.dryRun) {
        await db.lock(lock);
        await store.ensureMeta();
        await store.checkTenant(tenant, options.force);
      }
      return store;
    };
    // A DuckDB file not there yet holds nothing: a dry run does not create it, and a sync
    // plans without it and makes it while its first request is under way (DuckDB's library
    // loading, the file made, its meta tables: docs/reports-sync.md, Figures) — after what
    // can be checked without DuckDB (its directory can be written).
    const fresh = target.kind === "duckdb" && !existsSync(target.path);
    if (fresh && !options.dryRun) await (await import("./duckdb.js")).checkDuckDbPath(resolve(target.path));
    try {
      if (!fresh) await connect();
      const plans: KindPlan[] = [];
      // Later runs start where the database's history does (a kind added later gets as much),
      // unless --since says otherwise.
      const earliest = await store?.earliestStart();
      const since = options.since ?? (earliest !== undefined ? parseIsoDate(earliest)! : today - DEFAULT_HISTORY_DAYS);
      for (const kind of kinds) {
        // Without a meta table (a database no sync has written yet, read by --dry-run) nothing is synced.
        const synced =
          store && earliest !== undefined ? await store.syncedWindows(kindTable(kind)) : new Map<string, SyncedWindow>();
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
          knownFields: [...SYNC_DRY_RUN_FIELDS],
          note: `dry run: ${budget}; nothing was sent`,
        };
      }

      // Not open yet: a DuckDB file's label is its path (duckdb.ts).
      const label = db?.label ?? (target.kind === "duckdb" ? resolve(target.path) : "");
      printer.info(`reports sync into ${label}: ${budget}`);
      const opened = store;
      const summary = await new SyncRun(
        ctx,
        opened ? () => Promise.resolve(opened) : connect,
        plans,
        requests,
        openDays,
        times,
        tenant,
        target.kind === "duckdb",
      ).execute();
      if (options.dbtSources !== undefined) {
        const path = resolve(options.dbtSources);
        await writeDbtSources(path, store!, kinds.map(kindTable));
        printer.info(`wrote ${showPath(path)}`);
      }
      return {
        kind: "records",
        records: summary,
        knownFields: [...SYNC_SUMMARY_FIELDS],
      };
    } finally {
      await db?.close();
    }
  },
  { fields: [...SYNC_DRY_RUN_FIELDS, ...SYNC_SUMMARY_FIELDS] },
);

async function open(
  target: ReportsSyncOptions["db"],
  dryRun: boolean,
  lock: LockWait,
  connect: PostgresOptions,
): Promise<SqlConnection> {
  if (target.kind === "postgres") return (await import("./postgres.js")).openPostgres(target.url, connect);
  return (await import("./duckdb.js")).openDuckDb(resolve(target.path), { readOnly: dryRun, lock });
}

interface Fetched {
  shape: ResponseShape;
  fetchedAt: Date;
}

interface Prepared {
  kind: ReportKind;
  window: PlannedWindow;
  fetchedAt: Date;
  load: WindowLoadResult;
}

class SyncRun {
  private client!: ApiClient;
  private store!: SyncStore;
  private progress!: Progress;
  private done = 0;
  private readonly startedAt: number;
  private readonly books = new Map<ReportKind, LayoutBook>();

  constructor(
    private readonly ctx: CommandContext,
    /** The store, opened now if it was not before (a DuckDB file not there yet): called once the first request is under way. */
    private readonly connect: () => Promise<SyncStore>,
    private readonly plans: KindPlan[],
    private readonly total: number,
    private readonly openDays: number,
    private readonly times: BudgetTimes,
    private readonly tenant: Tenant,
    /** DuckDB: answers are read as bytes, and records copied into the load file as they came (recordBytes). */
    private readonly bytes: boolean,
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
    const counts = new Map<ReportKind, number>();
    const queue = this.plans.flatMap((kindPlan) => kindPlan.windows.map((window) => ({ kind: kindPlan.kind, window })));
    // Window n loads (the database's threads, or the server) while window n+1 is prepared and
    // window n+2 fetched: the rate-limit waits, the JSON work and the database's overlap.
    let loading: Promise<void> | undefined;
    const fetch = (at: number): Promise<Fetched> | undefined => {
      const item = queue[at];
      if (!item) return undefined;
      const fetching = this.fetch(cache, item.kind, item.window);
      fetching.catch(() => undefined);
      return fetching;
    };
    let next = fetch(0);
    try {
      this.store = await this.connect();
      for (let at = 0; at < queue.length; at++) {
        throwIfAborted(services.signal);
        const { kind, window } = queue[at]!;
        this.tell(kind, window, at);
        if (loading && !(await settlesWithin(next!, IDLE_COMMIT_MS))) {
          // Waiting for the service (its rate limit, a retry): what is loaded is committed
          // now, so no finished window waits on the network (store.ts: windows loaded back
          // to back share a transaction).
          await loading;
          loading = undefined;
          await this.store.commitPending();
        }
        const fetched = await next!;
        next = fetch(at + 1);
        const prepared = await this.prepare(cache, kind, window, fetched);
        await loading;
        loading = this.load(prepared).then((rows) => {
          counts.set(kind, (counts.get(kind) ?? 0) + rows);
          this.done++;
        });
        // A failure of the load is seen at the next await; keep it from being unhandled meanwhile.
        loading.catch(() => undefined);
      }
      await loading;
      await this.store.commitPending();
      // Never none: the window holding today is fetched on every run (domain/sync-windows.ts).
      this.progress.done(`${this.total} report windows synced`);
    } catch (error) {
      this.progress.done();
      await loading?.catch(() => undefined);
      await next?.catch(() => undefined);
      // The windows loaded before the failure (a request, an interrupt) are whole: keep them.
      // (None when the database could not be opened: a DuckDB file opened while the first request ran.)
      await (this.store as SyncStore | undefined)?.commitPending().catch(() => undefined);
      throw error;
    } finally {
      await cache.dispose();
    }
    return this.plans.map((kindPlan) => ({
      kind: kindPlan.kind,
      table: kindTable(kindPlan.kind),
      windows: kindPlan.windows.length,
      records: counts.get(kindPlan.kind) ?? 0,
    }));
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
      this.ctx.printer.warn(`cannot use ${showPath(configDir)} for the report spool (${reason}): using the temp directory`);
      return ReportCache.temporary(identity, now);
    }
  }

  /** Fetches a window's answer into the spool. */
  private async fetch(cache: ReportCache, kind: ReportKind, window: PlannedWindow): Promise<Fetched> {
    const label = `report ${kind} ${window.startDate}..${window.endDate}`;
    const range = { startDate: window.startDate, endDate: window.endDate };
    // DuckDB: the records laid out like ones read before are read by their layout as the answer
    // arrives, in the scan that checks it (docs/reports-sync.md, "How a window is loaded").
    const elements = this.bytes ? this.book(kind) : undefined;
    const shape = await streamReport(this.client, kind, range, (body) =>
      cache.save(kind, range, body, label, { bytes: this.bytes, elements }),
    );
    return { shape, fetchedAt: new Date(this.ctx.services.clock.now()) };
  }

  /** One pass over a fetched window's records writes the load file; the spool file goes. */
  private async prepare(cache: ReportCache, kind: ReportKind, window: PlannedWindow, fetched: Fetched): Promise<Prepared> {
    const label = `report ${kind} ${window.startDate}..${window.endDate}`;
    const range = { startDate: window.startDate, endDate: window.endDate };
    const table = kindTable(kind);
    const { shape, fetchedAt } = fetched;
    try {
      const state = await this.store.table(table);
      const redactor = this.ctx.printer.redactor;
      // The API key echoed inside report data is never written to the database, neither in
      // a column nor in `raw`: the same redaction as every export (output/redact.ts).
      const writer = new WindowLoadWriter(
        join(cache.dir, `${table}-${window.startDate}.load`),
        this.store.db.format,
        state.registry,
        LIMITS[this.store.db.format],
        {
          mayHold: (text) => redactor.mayHoldSecret(text),
          mayHoldBytes: (bytes) => redactor.mayHoldSecretBytes(bytes),
          redact: (value) => redactor.redactData(value),
        },
        { start: window.startDate, end: window.endDate, fetchedAt: fetchedAt.toISOString() },
        this.book(kind),
      );
      try {
        if (this.bytes) {
          // DuckDB: most records are copied into its load file as the service sent their bytes (load-file.ts).
          for await (const block of cache.recordBlocks(kind, range, shape, label)) {
            throwIfAborted(this.ctx.services.signal);
            writer.addBlock(block);
          }
        } else {
          for await (const batch of cache.recordTexts(kind, range, shape, label)) {
            throwIfAborted(this.ctx.services.signal);
            for (const text of batch) writer.add(text);
          }
        }
      } catch (error) {
        writer.abandon();
        throw error;
      }
      const load = writer.finish();
      if (load.rawOnly.records > 0)
        this.ctx.printer.warn(
          `${table} ${window.startDate}..${window.endDate}: ${load.rawOnly.records} record${load.rawOnly.records === 1 ? "" : "s"} kept whole in raw only, too many fields for columns (${[...load.rawOnly.fields].join(", ")})`,
        );
      return { kind, window, fetchedAt, load };
    } finally {
      await cache.remove(kind, range);
    }
  }

  /** The layouts of a kind's records, shared by its windows (domain/record-layout.ts). */
  private book(kind: ReportKind): LayoutBook {
    let book = this.books.get(kind);
    if (book === undefined) this.books.set(kind, (book = new LayoutBook()));
    return book;
  }

  private async load(prepared: Prepared): Promise<number> {
    const { kind, window, fetchedAt, load } = prepared;
    const blockEnd = parseIsoDate(window.startDate)! + 29;
    try {
      return await this.store.replaceWindow(
        {
          table: kindTable(kind),
          startDate: window.startDate,
          endDate: window.endDate,
          fetchedAt,
          complete: isComplete(blockEnd, parseIsoDate(window.endDate)!, utcDay(fetchedAt.getTime()), this.openDays),
          toolVersion: packageVersion(),
        },
        load,
        this.tenant,
      );
    } finally {
      // DuckDB's raw file too, also when the load file became one (a window turned to its
      // columns file at load), and the pieces of each (load-file.ts).
      await removeLoadFiles(load);
    }
  }

  /** The spinner on a terminal; otherwise a line at least every 30 s (output/progress.ts: the heartbeat every command gets). */
  private tell(kind: ReportKind, window: PlannedWindow, at: number): void {
    const now = this.ctx.services.clock.now();
    const remaining = this.total - this.done;
    // Never less than the budget allows for what is left (the first windows go at once).
    const left = this.times.timeLeftText(
      this.times.timeLeftMs("reports", { sent: this.done, startedAt: this.startedAt, now, left: remaining }),
    );
    // Its place in the run, not the windows loaded so far + 1: loads run behind the fetches.
    const text = `${kind} ${window.startDate}..${window.endDate}: window ${at + 1} of ${this.total}${left ? `, ${left}` : ""}`;
    this.progress.update(text);
  }
}
