import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import type { Clock } from "../clock.js";
import { isErrnoError, LocalFileError } from "../errors.js";
import { makeDirectory, writeFileAtomic } from "../output/atomic-file.js";
import { acquireWaitingLock, type LockOwner } from "../output/file-lock.js";
import { currentHolder, describeHolder, lockTimeoutError, type HolderInfo } from "./holder.js";
import type { EntryChanges, ExportedEntry, KindSummary, LockOptions, StateKind, StateLock, StateStore, Tenant } from "./store.js";

// The directory backend (docs/state.md): the default, under the settings directory.
//
//   <dir>/                       0700
//     <tenant>/                  0700, a SHA-256 of (service, organization), so that a path
//                                names no customer
//       <kind>.json              0600: { version, tenant, kind, entries: { key: { value, updatedAt } } }
//       <kind>.json.lock         held for the milliseconds of one batch (output/file-lock.ts)
//       <kind>.lock              held for a whole run by lock(): pid, host, since, purpose
//
// Every batch is a locked read-modify-write of one file, written to a temp file and renamed
// into place (output/atomic-file.ts): a run killed at any moment leaves the file as it was
// before or after the batch. A lock whose process is gone (same host) is taken over; a lock of
// another host sharing the directory is waited for, as its pid means nothing here.

const Entry = z.object({ value: z.unknown(), updatedAt: z.string() });
const KindFile = z.object({
  version: z.literal(1),
  tenant: z.object({ service: z.string(), organizationId: z.string() }),
  kind: z.string(),
  entries: z.record(z.string(), Entry),
});
type KindFile = z.infer<typeof KindFile>;

/** How long a batch may wait for another process's batch: they take milliseconds. */
const BATCH_LOCK_WAIT_MS = 30_000;
const POLL_MS = 100;
const NOTICE_MS = 1_000;

export function tenantDirName(tenant: Tenant): string {
  return createHash("sha256").update(`${tenant.service}\u0000${tenant.organizationId}`).digest("hex").slice(0, 32);
}

export class DirectoryStateStore implements StateStore {
  readonly location: string;

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
    makeDirectory(this.dir, 0o700, "create the state directory");
    makeDirectory(join(this.dir, tenantDirName(tenant)), 0o700, "create the state directory");
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
    if (!parsed.success) {
      // Never written half (atomic renames): this file was edited or made by something else.
      throw new LocalFileError(`the state file ${path} is not one simadmin wrote (not JSON of the expected shape)`, {
        path,
        hint: "restore it from a backup, or move it aside to start that state afresh",
      });
    }
    return parsed.data;
  }

  async get(tenant: Tenant, kind: StateKind, key: string): Promise<unknown> {
    const file = await this.read(this.fileOf(tenant, kind));
    return file?.entries[key]?.value;
  }

  async list(tenant: Tenant, kind: StateKind): Promise<Map<string, unknown>> {
    const file = await this.read(this.fileOf(tenant, kind));
    return new Map(Object.entries(file?.entries ?? {}).map(([key, entry]) => [key, entry.value]));
  }

  /** A locked read-modify-write of one kind's file; `change` returns false to write nothing. */
  private async transact<T>(
    tenant: Tenant,
    kind: StateKind,
    change: (entries: Record<string, z.infer<typeof Entry>>) => { write: boolean; result: T },
  ): Promise<T> {
    this.ensureTenantDir(tenant);
    const path = this.fileOf(tenant, kind);
    const lock = await acquireWaitingLock(`${path}.lock`, {
      guarded: { path, action: "write the state file" },
      command: "state store",
      now: () => this.lockClock.now(),
      sleep: (ms) => this.lockClock.sleep(ms),
      maxWaitMs: BATCH_LOCK_WAIT_MS,
    });
    try {
      const entries = { ...((await this.read(path))?.entries ?? {}) };
      const { write, result } = change(entries);
      if (write) {
        const file: KindFile = { version: 1, tenant: { ...tenant }, kind, entries };
        await writeFileAtomic(path, `${JSON.stringify(file)}\n`, 0o600);
      }
      return result;
    } finally {
      await lock.release();
    }
  }

  async put(tenant: Tenant, kind: StateKind, changes: EntryChanges): Promise<void> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    await this.transact(tenant, kind, (entries) => {
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined) delete entries[key];
        else entries[key] = { value, updatedAt };
      }
      return { write: true, result: undefined };
    });
  }

  async importEntries(
    tenant: Tenant,
    kind: StateKind,
    imported: readonly ExportedEntry[],
    options: { replace?: boolean } = {},
  ): Promise<void> {
    await this.transact(tenant, kind, (entries) => {
      if (options.replace) for (const key of Object.keys(entries)) delete entries[key];
      for (const { key, value, updatedAt } of imported) entries[key] = { value, updatedAt };
      return { write: true, result: undefined };
    });
  }

  async claim(tenant: Tenant, kind: StateKind, key: string, value: unknown): Promise<{ inserted: boolean; value: unknown }> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    return this.transact<{ inserted: boolean; value: unknown }>(tenant, kind, (entries) => {
      const existing = entries[key];
      if (existing) return { write: false, result: { inserted: false, value: existing.value } };
      entries[key] = { value, updatedAt };
      return { write: true, result: { inserted: true, value } };
    });
  }

  async claimMany(
    tenant: Tenant,
    kind: StateKind,
    claims: EntryChanges,
  ): Promise<Map<string, { inserted: boolean; value: unknown }>> {
    const updatedAt = new Date(this.clock.now()).toISOString();
    return this.transact(tenant, kind, (entries) => {
      const result = new Map<string, { inserted: boolean; value: unknown }>();
      for (const [key, value] of Object.entries(claims)) {
        if (value === null || value === undefined) continue;
        const existing = entries[key];
        if (existing) result.set(key, { inserted: false, value: existing.value });
        else {
          entries[key] = { value, updatedAt };
          result.set(key, { inserted: true, value });
        }
      }
      return { write: [...result.values()].some((r) => r.inserted), result };
    });
  }

  async lock(tenant: Tenant, kind: StateKind, options: LockOptions): Promise<StateLock> {
    this.ensureTenantDir(tenant);
    const path = join(this.dir, tenantDirName(tenant), `${kind}.lock`);
    const me = currentHolder(options.purpose, this.lockClock.now());
    const holderOf = (owner: LockOwner | undefined): string => describeHolder(owner ? ownerToHolder(owner) : undefined);
    try {
      const held = await acquireWaitingLock(path, {
        guarded: { path, action: "lock" },
        command: JSON.stringify({ purpose: me.purpose, since: me.since }),
        now: () => this.lockClock.now(),
        sleep: (ms) => this.lockClock.sleep(ms + POLL_MS, options.signal),
        maxWaitMs: options.timeoutMs,
        noticeAfterMs: NOTICE_MS,
        onWait: (owner) => options.onWait?.(holderOf(owner)),
      });
      return { release: () => held.release() };
    } catch (error) {
      if (error instanceof LocalFileError && error.code === "EBUSY") {
        const owner = await readFile(path, "utf8")
          .then((text) => JSON.parse(text) as LockOwner)
          .catch(() => undefined);
        throw lockTimeoutError(kind, holderOf(owner), options.timeoutMs, this.location);
      }
      throw error;
    }
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
        if (file) yield file;
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

  async close(): Promise<void> {}
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
