import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import { appendFile, open, readdir, readFile, rm, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import type { Clock } from "../clock.js";
import { isErrnoError, LocalFileError } from "../errors.js";
import { makeDirectory, writeFileAtomic } from "../output/atomic-file.js";
import { acquireWaitingLock, type FileLock, type LockOwner } from "../output/file-lock.js";
import { currentHolder, describeHolder, lockTimeoutError, type HolderInfo } from "./holder.js";
import type { EntryChanges, ExportedEntry, KindSummary, LockOptions, StateKind, StateLock, StateStore, Tenant } from "./store.js";

// The directory backend (docs/state.md): the default, under the settings directory.
//
//   <dir>/                       0700
//     <tenant>/                  0700, a SHA-256 of (service, organization), so that a path
//                                names no customer
//       <kind>.json              0600: { version, tenant, kind, entries: { key: { value, updatedAt } } }
//       <kind>.journal           0600: the batches since the file was last written whole, one
//                                JSON line each: { t: updatedAt, s: { key: value }, d: [key] }
//       <kind>.json.lock         held for the milliseconds of one batch (output/file-lock.ts)
//       <kind>.lock              held for a whole run by lock(): pid, host, since, purpose
//
// A batch is appended to the journal as one line, under the batch lock; the file is written
// whole (to a temp file renamed into place, output/atomic-file.ts) when it does not exist yet,
// when the journal has grown past the file, and when the store is closed at the end of a run
// — and then the journal is removed. So a batch costs one short append, not a rewrite of every
// entry of the kind (the reminder ledger claims each message in its own SMTP transaction,
// docs/reminders.md). A reader folds the journal's complete lines over the file; a line cut
// short by a killed run has no newline and is ignored (then cut off by the next writer), so a
// run killed at any moment leaves each batch applied or not at all. Folding again a journal the
// file already holds gives the same entries (each line sets or deletes whole values), so a run
// killed between writing the file and removing the journal loses nothing. Like the renames,
// an append is not fsync'd: this survives a killed process, not a power cut (PostgreSQL does).
// A lock whose process is gone (same host) is taken over; a lock of another host sharing the
// directory is waited for, as its pid means nothing here.

const Entry = z.object({ value: z.unknown(), updatedAt: z.string() });
const KindFile = z.object({
  version: z.literal(1),
  tenant: z.object({ service: z.string(), organizationId: z.string() }),
  kind: z.string(),
  entries: z.record(z.string(), Entry),
});
type KindFile = z.infer<typeof KindFile>;
type Entries = Record<string, z.infer<typeof Entry>>;

/** One journal line: the entries set and deleted by one batch, at one time. */
const JournalLine = z.object({ t: z.string(), s: z.record(z.string(), z.unknown()), d: z.array(z.string()) });

/** What one batch does: entries to set, keys to delete, or (replace) the whole kind anew. */
interface Change<T> {
  set?: Entries;
  del?: string[];
  replace?: boolean;
  result: T;
}

/** A kind as this process last read it, and where in its files that was. */
interface Loaded {
  tenant: Tenant;
  kind: string;
  entries: Entries;
  /** The file's identity when read (a rewrite renames a new file into place). */
  base: string;
  /** The journal's identity and how far its complete lines were read. */
  journal: string;
  offset: number;
  /** Bytes after `offset` with no newline: a batch cut short. */
  partial: boolean;
}

/** The journal is folded into the file once it is this big and bigger than the file. */
const COMPACT_BYTES = 1 << 20;

/** How long a batch may wait for another process's batch: they take milliseconds. */
const BATCH_LOCK_WAIT_MS = 30_000;
const POLL_MS = 100;
const NOTICE_MS = 1_000;

export function tenantDirName(tenant: Tenant): string {
  return createHash("sha256").update(`${tenant.service}\u0000${tenant.organizationId}`).digest("hex").slice(0, 32);
}

export class DirectoryStateStore implements StateStore {
  readonly location: string;
  /** By file: each kind as this process last read or wrote it. */
  private readonly loaded = new Map<string, Loaded>();
  /** Files this store appended to or wrote: written whole at close(). */
  private readonly written = new Set<string>();
  /** Tenant directories made (or found) by this store. */
  private readonly made = new Set<string>();
  /** By file: this process's batches, one after the other. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** By file: its batch lock, held while this process holds the kind's run lock. */
  private readonly leases = new Map<string, { lock: FileLock; current: boolean; journal?: number }>();

  constructor(
    private readonly dir: string,
    private readonly clock: Clock,
    /** Real time for waits on other processes (tests of lock timeouts pass a fake). */
    private readonly lockClock: Clock = clock,
  ) {
    this.location = dir;
  }

  private fileOf(tenant: Tenant, kind: StateKind): string {
    return join(this.dir, tenantDirName(tenant), `${kind}.json`);
  }

  private ensureTenantDir(tenant: Tenant): void {
    const dir = join(this.dir, tenantDirName(tenant));
    if (this.made.has(dir)) return;
    makeDirectory(this.dir, 0o700, "create the state directory");
    makeDirectory(dir, 0o700, "create the state directory");
    this.made.add(dir);
  }

  private async read(path: string): Promise<KindFile | undefined> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return undefined;
      throw LocalFileError.fromSystem(error, path, "read the state file");
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = KindFile.safeParse(json);
    if (!parsed.success) throw notOurs(path);
    return parsed.data;
  }

  /** "ino:mtime:size" of a file, or "" when it does not exist. */
  private async identity(path: string, what: string): Promise<{ id: string; size: number }> {
    try {
      const s = await stat(path, { bigint: true });
      return { id: `${s.ino}:${s.mtimeNs}:${s.size}`, size: Number(s.size) };
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return { id: "", size: 0 };
      throw LocalFileError.fromSystem(error, path, what);
    }
  }

  /**
   * The kind's entries: the file with the journal's complete lines folded over it. What this
   * process read before is kept, and only the journal's new lines are read, while the file is
   * the same one; a file written whole meanwhile (another process compacted) is read again.
   */
  private async load(tenant: Tenant, kind: StateKind): Promise<Loaded> {
    const path = this.fileOf(tenant, kind);
    const journalPath = journalOf(path);
    const base = await this.identity(path, "read the state file");
    const journal = await this.identity(journalPath, "read the state journal");
    let loaded = this.loaded.get(path);
    const journalId = journal.id.split(":")[0] ?? "";
    if (loaded === undefined || loaded.base !== base.id || loaded.journal !== journalId || journal.size < loaded.offset) {
      const file = base.id === "" ? undefined : await this.read(path);
      loaded = {
        tenant: file?.tenant ?? { ...tenant },
        kind: file?.kind ?? kind,
        entries: { ...(file?.entries ?? {}) },
        base: base.id,
        journal: journalId,
        offset: 0,
        partial: false,
      };
      this.loaded.set(path, loaded);
    }
    if (journal.size > loaded.offset) await this.foldJournal(journalPath, loaded, journal.size);
    else loaded.partial = false;
    return loaded;
  }

  private async foldJournal(path: string, loaded: Loaded, size: number): Promise<void> {
    let handle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return;
      throw LocalFileError.fromSystem(error, path, "read the state journal");
    }
    try {
      const bytes = Buffer.alloc(size - loaded.offset);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, loaded.offset);
      if (bytesRead === 0) return;
      const end = bytes.lastIndexOf(0x0a, bytesRead - 1);
      loaded.partial = end + 1 < bytesRead;
      if (end < 0) return;
      for (const text of bytes.toString("utf8", 0, end).split("\n")) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const line = JournalLine.safeParse(json);
        if (!line.success) throw notOurs(path);
        for (const [key, value] of Object.entries(line.data.s)) loaded.entries[key] = { value, updatedAt: line.data.t };
        for (const key of line.data.d) delete loaded.entries[key];
      }
      loaded.offset += end + 1;
    } catch (error) {
      if (error instanceof LocalFileError) throw error;
      throw LocalFileError.fromSystem(error, path, "read the state journal");
    } finally {
      await handle.close();
    }
  }

  /**
   * Entries read without the batch lock: a file written whole between reading it and reading
   * the journal (whose lines it then holds, and a new journal follows) is read again.
   */
  private async snapshot(tenant: Tenant, kind: StateKind): Promise<Loaded> {
    const path = this.fileOf(tenant, kind);
    for (let attempt = 0; ; attempt++) {
      const loaded = await this.load(tenant, kind);
      if (attempt >= 10 || (await this.identity(path, "read the state file")).id === loaded.base) return loaded;
    }
  }

  async get(tenant: Tenant, kind: StateKind, key: string): Promise<unknown> {
    return (await this.snapshot(tenant, kind)).entries[key]?.value;
  }

  async list(tenant: Tenant, kind: StateKind): Promise<Map<string, unknown>> {
    const { entries } = await this.snapshot(tenant, kind);
    return new Map(Object.entries(entries).map(([key, entry]) => [key, entry.value]));
  }

  /** Runs `work` after this process's earlier batches of the same file (in the order asked). */
  private serial<T>(path: string, work: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(path) ?? Promise.resolve()).then(work);
    this.queues.set(
      path,
      next.catch(() => undefined),
    );
    return next;
  }

  private acquireBatchLock(path: string): Promise<FileLock> {
    return acquireWaitingLock(`${path}.lock`, {
      guarded: { path, action: "write the state file" },
      command: "state store",
      now: () => this.lockClock.now(),
      sleep: (ms) => this.lockClock.sleep(ms),
      maxWaitMs: BATCH_LOCK_WAIT_MS,
    });
  }

  /**
   * Holds the batch lock of one kind's file for `work` — already held when this process holds
   * the kind's run lock (lock()); a process's batches of one file go one after the other.
   */
  private async locked<T>(tenant: Tenant, kind: StateKind, work: (path: string) => Promise<T>): Promise<T> {
    this.ensureTenantDir(tenant);
    const path = this.fileOf(tenant, kind);
    return this.serial(path, async () => {
      if (this.leases.has(path)) return work(path);
      const lock = await this.acquireBatchLock(path);
      try {
        return await work(path);
      } finally {
        await lock.release();
      }
    });
  }

  /** A locked batch: `change` sees the entries and says what to set and delete. */
  private async transact<T>(tenant: Tenant, kind: StateKind, change: (entries: Readonly<Entries>) => Change<T>): Promise<T> {
    return this.locked(tenant, kind, async (path) => {
      // Under the run's lease nobody else writes this file: what this process holds is current
      // once read after taking it.
      const leased = this.leases.get(path);
      const loaded = leased?.current && this.loaded.has(path) ? this.loaded.get(path)! : await this.load(tenant, kind);
      if (leased) leased.current = true;
      const { set = {}, del = [], replace = false, result } = change(loaded.entries);
      if (replace) for (const key of Object.keys(loaded.entries)) delete loaded.entries[key];
      if (!replace && Object.keys(set).length === 0 && del.length === 0) return result;
      if (replace || loaded.base === "" || (loaded.offset > COMPACT_BYTES && loaded.offset > Number(loaded.base.split(":")[2]))) {
        Object.assign(loaded.entries, set);
        for (const key of del) delete loaded.entries[key];
        await this.writeWhole(tenant, kind, path, loaded);
      } else {
        await this.append(path, loaded, set, del);
      }
      this.written.add(path);
      return result;
    });
  }

  /** One batch as one journal line (a line cut short by a killed run cut off first). */
  private async append(path: string, loaded: Loaded, set: Entries, del: string[]): Promise<void> {
    const journalPath = journalOf(path);
    const values: Record<string, unknown> = {};
    let at = "";
    for (const [key, entry] of Object.entries(set)) {
      values[key] = entry.value;
      at = entry.updatedAt;
    }
    const line = Buffer.from(`${JSON.stringify({ t: at || new Date(this.clock.now()).toISOString(), s: values, d: del })}\n`);
    try {
      if (loaded.partial) {
        await truncate(journalPath, loaded.offset);
        loaded.partial = false;
      }
      const lease = this.leases.get(path);
      if (lease) {
        // Under the run's lease the journal stays open: one write() per batch, made before
        // this returns (a claim must be on disk before its message's data goes).
        lease.journal ??= openSync(journalPath, "a", 0o600);
        writeSync(lease.journal, line);
      } else {
        await appendFile(journalPath, line, { mode: 0o600 });
      }
    } catch (error) {
      throw LocalFileError.fromSystem(error, journalPath, "write the state journal");
    }
    if (loaded.journal === "")
      loaded.journal = (await this.identity(journalPath, "read the state journal")).id.split(":")[0] ?? "";
    loaded.offset += line.length;
    for (const [key, entry] of Object.entries(set)) loaded.entries[key] = entry;
    for (const key of del) delete loaded.entries[key];
  }

  private closeJournal(path: string): void {
    const lease = this.leases.get(path);
    if (lease?.journal === undefined) return;
    closeSync(lease.journal);
    lease.journal = undefined;
  }

  /** The kind's file written whole (journal folded in), then the journal removed. */
  private async writeWhole(tenant: Tenant, kind: StateKind, path: string, loaded: Loaded): Promise<void> {
    const file: KindFile = { version: 1, tenant: { ...tenant }, kind, entries: loaded.entries };
    await writeFileAtomic(path, `${JSON.stringify(file)}\n`, 0o600);
    this.closeJournal(path);
    try {
      await rm(journalOf(path), { force: true });
    } catch (error) {
      throw LocalFileError.fromSystem(error, journalOf(path), "remove the state journal");
    }
    loaded.base = (await this.identity(path, "read the state file")).id;
    loaded.journal = "";
    loaded.offset = 0;
    loaded.partial = false;
  }

  async put(tenant: Tenant, kind: StateKind, changes: EntryChanges): Promise<void> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    const set: Entries = {};
    const del: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === undefined) del.push(key);
      else set[key] = { value, updatedAt };
    }
    await this.transact(tenant, kind, () => ({ set, del, result: undefined }));
  }

  async importEntries(
    tenant: Tenant,
    kind: StateKind,
    imported: readonly ExportedEntry[],
    options: { replace?: boolean } = {},
  ): Promise<void> {
    const set: Entries = {};
    for (const { key, value, updatedAt } of imported) set[key] = { value, updatedAt };
    // Written whole: an import is rare, and its change times differ entry by entry.
    await this.transact(tenant, kind, (entries) => ({
      set: { ...(options.replace ? {} : entries), ...set },
      replace: true,
      result: undefined,
    }));
  }

  async claim(tenant: Tenant, kind: StateKind, key: string, value: unknown): Promise<{ inserted: boolean; value: unknown }> {
    return (await this.claimMany(tenant, kind, { [key]: value })).get(key) ?? { inserted: false, value: undefined };
  }

  async claimMany(
    tenant: Tenant,
    kind: StateKind,
    claims: EntryChanges,
  ): Promise<Map<string, { inserted: boolean; value: unknown }>> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    return this.transact(tenant, kind, (entries) => {
      const result = new Map<string, { inserted: boolean; value: unknown }>();
      const set: Entries = {};
      for (const [key, value] of Object.entries(claims)) {
        if (value === null || value === undefined) continue;
        const existing = entries[key] ?? set[key];
        if (existing) result.set(key, { inserted: false, value: existing.value });
        else {
          set[key] = { value, updatedAt };
          result.set(key, { inserted: true, value });
        }
      }
      return { set, result };
    });
  }

  async lock(tenant: Tenant, kind: StateKind, options: LockOptions): Promise<StateLock> {
    this.ensureTenantDir(tenant);
    const path = join(this.dir, tenantDirName(tenant), `${kind}.lock`);
    const me = currentHolder(options.purpose, this.lockClock.now());
    const holderOf = (owner: LockOwner | undefined): string => describeHolder(owner ? ownerToHolder(owner) : undefined);
    let held: FileLock;
    try {
      held = await acquireWaitingLock(path, {
        guarded: { path, action: "lock" },
        command: JSON.stringify({ purpose: me.purpose, since: me.since }),
        now: () => this.lockClock.now(),
        sleep: (ms) => this.lockClock.sleep(ms + POLL_MS, options.signal),
        maxWaitMs: options.timeoutMs,
        noticeAfterMs: NOTICE_MS,
        onWait: (owner) => options.onWait?.(holderOf(owner)),
      });
    } catch (error) {
      if (error instanceof LocalFileError && error.code === "EBUSY") {
        const owner = await readFile(path, "utf8")
          .then((text) => JSON.parse(text) as LockOwner)
          .catch(() => undefined);
        throw lockTimeoutError(kind, holderOf(owner), options.timeoutMs, this.location);
      }
      throw error;
    }
    // The kind's batch lock too, for the run's length: its batches are then appended without
    // taking and letting go of a lock file each time (two link()s, two unlink()s and a read),
    // which cost more than the append itself — a claim per message (docs/reminders.md).
    // Another process's change to this kind waits for the run (docs/state.md).
    const file = this.fileOf(tenant, kind);
    try {
      await this.serial(file, async () => {
        this.leases.set(file, { lock: await this.acquireBatchLock(file), current: false });
      });
    } catch (error) {
      await held.release();
      throw error;
    }
    return {
      release: async () => {
        await this.serial(file, async () => {
          const lease = this.leases.get(file);
          this.closeJournal(file);
          this.leases.delete(file);
          await lease?.lock.release();
        });
        await held.release();
      },
    };
  }

  private async *kindFiles(): AsyncIterable<KindFile> {
    let tenants: string[];
    try {
      tenants = (await readdir(this.dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch (error) {
      if (isErrnoError(error) && error.code === "ENOENT") return;
      throw LocalFileError.fromSystem(error, this.dir, "read the state directory");
    }
    for (const tenant of tenants.sort()) {
      const names = await readdir(join(this.dir, tenant)).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
        const file = await this.read(join(this.dir, tenant, name));
        if (!file) continue;
        // The kind as it stands: its journal folded over the file.
        const { entries } = await this.snapshot(file.tenant, file.kind as StateKind);
        yield { ...file, entries };
      }
    }
  }

  async summary(): Promise<KindSummary[]> {
    const out: KindSummary[] = [];
    for await (const file of this.kindFiles()) {
      const times = Object.values(file.entries)
        .map((e) => e.updatedAt)
        .sort();
      if (times.length === 0) continue;
      out.push({
        tenant: file.tenant,
        kind: file.kind as StateKind,
        entries: times.length,
        oldest: times[0],
        newest: times.at(-1),
      });
    }
    return out;
  }

  async *exportAll(): AsyncIterable<ExportedEntry & { tenant: Tenant; kind: StateKind }> {
    for await (const file of this.kindFiles()) {
      for (const [key, entry] of Object.entries(file.entries)) {
        yield { tenant: file.tenant, kind: file.kind as StateKind, key, value: entry.value, updatedAt: entry.updatedAt };
      }
    }
  }

  /** Each kind this store wrote is written whole, its journal folded in (the end of a run). */
  async close(): Promise<void> {
    const written = [...this.written];
    this.written.clear();
    for (const path of written) {
      const loaded = this.loaded.get(path);
      if (loaded === undefined) continue;
      await this.locked(loaded.tenant, loaded.kind as StateKind, async () => {
        const now = await this.load(loaded.tenant, loaded.kind as StateKind);
        if (now.journal !== "" || now.partial) await this.writeWhole(now.tenant, now.kind as StateKind, path, now);
      });
    }
  }
}

function journalOf(path: string): string {
  return path.replace(/\.json$/, ".journal");
}

function notOurs(path: string): LocalFileError {
  // Never written half (atomic renames, whole lines): edited or made by something else.
  return new LocalFileError(`the state file ${path} is not one simadmin wrote (not JSON of the expected shape)`, {
    path,
    hint: "restore it from a backup, or move it aside to start that state afresh",
  });
}

function ownerToHolder(owner: LockOwner): HolderInfo {
  let purpose = "another simadmin run";
  let since = owner.startedAt;
  try {
    const parsed = JSON.parse(owner.command) as { purpose?: unknown; since?: unknown };
    if (typeof parsed.purpose === "string") purpose = parsed.purpose;
    if (typeof parsed.since === "string") since = parsed.since;
  } catch {
    // An older or hand-made lock: its pid and host still say who.
  }
  return { pid: owner.pid, host: owner.host, since, purpose };
}
