// The state store (docs/cli-contract.md "State"): where workflow state lives so that every
// machine and CI runner pointed at the same store sees the same thing — the `users sync`
// baseline and its import bookkeeping, the `progress` completion cache, the link key and
// revocations (docs/cli-contract.md "Durable links"), the reminder ledger ("Reminders").
// Terraform's state backends are the model: one interface, a local backend (a directory,
// the default, under the settings directory) and a shared one (PostgreSQL, schema
// `simadmin_state`). This file is the interface only; the backends live beside it
// (directory-store.ts, postgres-store.ts) and open-store.ts picks one from `--state`;
// docs/state.md says what each keeps where.
//
// The unit is an *entry*: a JSON value under a key, inside a kind, inside a tenant (one
// service base URL + organization). Every change is one atomic batch: a run killed at any
// moment leaves each batch wholly applied or not at all. Values are never logged or shown
// (`state show` prints kinds, tenants, counts and ages only); user tokens are never stored.
// The layer sits beside settings/: it may import text/, domain/, output/ and settings/
// helpers, never commands or the context.

/** One service and organization. `service` is the normalized base URL, or "sandbox". */
export interface Tenant {
  readonly service: string;
  readonly organizationId: string;
}

/** What is kept. Each kind belongs to one workflow; new kinds are added here. */
export type StateKind =
  | "users-sync" // baseline users, the last plan, batches and tasks in flight, recent deactivations
  | "progress-cache" // pairs seen completed
  | "links" // the link key (a secret) and revocations
  | "reminders"; // the reminder ledger: (pair, step) → sending | sent

/** A change to one entry: a new JSON value, or null to delete it. */
export type EntryChanges = Readonly<Record<string, unknown>>;

export interface LockOptions {
  /** Give up after this many milliseconds (--lock-timeout, default 60 s): exit 2 naming the holder. */
  timeoutMs: number;
  /** Called once, after about 1 s of waiting, with a description of who holds the lock. */
  onWait?: (holder: string) => void;
  signal?: AbortSignal;
  /** What takes the lock, for the line another run waiting for it prints: "simadmin users sync". */
  purpose?: string;
}

/** Held until released: no other run (on any machine sharing the store) takes the same lock. */
export interface StateLock {
  release(): Promise<void>;
}

export interface KindSummary {
  tenant: Tenant;
  kind: StateKind;
  entries: number;
  /** ISO time of the oldest and newest change, when there are entries. */
  oldest?: string;
  newest?: string;
}

/** One entry as `state push` copies it: its change time goes along. */
export interface ExportedEntry {
  key: string;
  value: unknown;
  /** ISO time of its last change. */
  updatedAt: string;
}

/** @public the backends implement it (directory-store.ts, postgres-store.ts) */
export interface StateStore {
  /** Where the store is, for messages: a path, or a postgres URL with its password redacted. */
  readonly location: string;

  /** One entry's value, or undefined. */
  get(tenant: Tenant, kind: StateKind, key: string): Promise<unknown>;
  /** Every entry of a kind (key → value). */
  list(tenant: Tenant, kind: StateKind): Promise<Map<string, unknown>>;
  /** Apply changes atomically (all or none); null deletes a key. */
  put(tenant: Tenant, kind: StateKind, changes: EntryChanges): Promise<void>;
  /**
   * Insert `value` under `key` unless an entry exists; returns the value now stored (the
   * given one when it was inserted). Atomic across machines: the ledger's "sending" claim and
   * the link key's first creation use it, so two runs never both win.
   */
  claim(tenant: Tenant, kind: StateKind, key: string, value: unknown): Promise<{ inserted: boolean; value: unknown }>;
  /**
   * claim() for many keys in one atomic batch (one transaction, one file write): for each key,
   * whether this call inserted it and the value now stored. The reminder ledger claims its
   * messages' *sending* entries with it, so a batch of claims costs one write, not one per key.
   */
  claimMany(tenant: Tenant, kind: StateKind, entries: EntryChanges): Promise<Map<string, { inserted: boolean; value: unknown }>>;
  /** An exclusive lock per tenant and kind, held for a whole run (PostgreSQL: an advisory lock). */
  lock(tenant: Tenant, kind: StateKind, options: LockOptions): Promise<StateLock>;

  /** For `state show`: counts and ages, never values. */
  summary(): Promise<KindSummary[]>;
  /** For `state push`: every entry of every tenant and kind, with its change time. */
  exportAll(): AsyncIterable<ExportedEntry & { tenant: Tenant; kind: StateKind }>;
  /**
   * For `state push`: entries written as they were (change times kept), atomically per call;
   * `replace` removes the kind's other entries of that tenant in the same batch.
   */
  importEntries(
    tenant: Tenant,
    kind: StateKind,
    entries: readonly ExportedEntry[],
    options?: { replace?: boolean },
  ): Promise<void>;

  close(): Promise<void>;
}
