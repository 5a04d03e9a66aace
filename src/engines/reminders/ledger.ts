import type { StateStore, Tenant } from "../../state/store.js";

// The reminder ledger (docs/cli-contract.md "Reminders", docs/reminders.md "Exactly once"): one
// entry per (pair, step) and per (manager, day) in the state store (docs/state.md), kind
// `reminders`, so every machine sharing the store shares it.
//
//   no entry   → not sent: this run may send it
//   sending    → claimed just before the SMTP transaction; a run killed or cut off after that
//                point cannot know whether the server took the message: the step is
//                *ambiguous*, named, not sent again unless --resend-ambiguous
//   sent       → the server answered 250 (or the .eml was written to --outbox): never again
//
// A recipient the server refused, or a message never handed over (the server unreachable), has
// its claim removed: the next run tries again.
//
// A claim is the store's insert-if-absent (claimMany: one atomic batch for many keys), so of two
// runs — on one machine or on several sharing PostgreSQL — only one ever wins a key, even if
// their run locks failed them. The run also holds the store's lock of the kind `reminders` while
// it sends (services.lockState), so a second run waits and then sees what the first recorded.
// A message's claim is made inside its SMTP transaction (send.ts), so claims come one message at
// a time; those of the connections that reach that point together go to the store in one
// write (a claim waits at most for the write before it). Marks and releases are not urgent —
// a sent mark lost with a killed run leaves the step ambiguous, never sent twice — and go in
// the background, at most MARK_DELAY_MS later, several in one write.

export type LedgerStatus = "sending" | "sent";

/** What an entry holds: enough to name the message it belongs to, never a link or a token. */
export interface LedgerEntry {
  status: LedgerStatus;
  /** ISO time of the claim or of the 250. */
  at: string;
  to: string;
  /** "reminder" entries: the pair and step; "digest": the day. */
  kind: "reminder" | "digest";
  userId?: string;
  simulationId?: string;
  dueDate?: string;
  step?: number;
  day?: string;
  messageId: string;
  /** Which run claimed it (host and pid), for the ambiguous message. */
  claimedBy: string;
}

type LedgerStore = Pick<StateStore, "list" | "put" | "claimMany">;

interface ClaimRequest {
  claims: readonly { key: string; entry: LedgerEntry }[];
  takeOver: (key: string) => boolean;
  resolve: (won: Set<string>) => void;
  reject: (error: unknown) => void;
}

/** How long a mark may wait to be written with others (a killed run leaves these unsure). */
const MARK_DELAY_MS = 250;

export function isLedgerEntry(value: unknown): value is LedgerEntry {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.status === "sending" || v.status === "sent") && typeof v.to === "string" && typeof v.messageId === "string";
}

export class ReminderLedger {
  /** Marks and releases not yet written: written in the background, one write for all waiting. */
  private pending: Record<string, LedgerEntry | null> = {};
  /** Every write, in order: claims and marks never overtake one another. */
  private writing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private failure: unknown;
  /** Claims waiting for the next write. */
  private claims: ClaimRequest[] = [];

  private constructor(
    private readonly store: LedgerStore,
    private readonly tenant: Tenant,
    /** Every entry as last read or written by this run. */
    readonly entries: Map<string, LedgerEntry>,
  ) {}

  static async open(store: LedgerStore, tenant: Tenant): Promise<ReminderLedger> {
    const ledger = new ReminderLedger(store, tenant, new Map());
    await ledger.reload();
    return ledger;
  }

  /** Reads the ledger again (after taking the lock: another run may have written meanwhile). */
  async reload(): Promise<void> {
    this.entries.clear();
    for (const [key, value] of await this.store.list(this.tenant, "reminders"))
      if (isLedgerEntry(value)) this.entries.set(key, value);
  }

  /** Queues `work` after the writes before it: claims and marks never overtake one another. */
  private step(work: () => Promise<void>): Promise<void> {
    const next = this.writing.then(work);
    this.writing = next.catch((error: unknown) => {
      this.failure ??= error;
    });
    return next;
  }

  /** Queues a write of the marks and releases waiting. */
  private write(): Promise<void> {
    return this.step(async () => {
      const changes = this.pending;
      this.pending = {};
      if (Object.keys(changes).length > 0) await this.store.put(this.tenant, "reminders", changes);
    });
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure instanceof Error ? this.failure : new Error(String(this.failure));
  }

  /** Whether this run may claim `key`: not in the ledger, or left sending and to be taken over. */
  claimable(key: string, takeOver: (key: string) => boolean): boolean {
    const held = this.entries.get(key);
    return held === undefined || (held.status === "sending" && takeOver(key));
  }

  /**
   * Claims the keys not in the ledger with the store's insert-if-absent; with `takeOver`, a key
   * held `sending` by an earlier run (to be sent again: --resend-ambiguous) is overwritten
   * instead, which only the lock holder may do. Claims made while a write is under way are
   * written together next. Returns the keys won. Call only while holding the lock of the kind
   * `reminders`.
   */
  claim(claims: readonly { key: string; entry: LedgerEntry }[], takeOver: (key: string) => boolean): Promise<Set<string>> {
    this.throwIfFailed();
    return new Promise((resolve, reject) => {
      this.claims.push({ claims, takeOver, resolve, reject });
      // Each claim queues a write of every claim waiting when it runs: the first takes them
      // all, those queued behind it find none left (and write nothing).
      void this.step(() => this.claimTogether(this.claims.splice(0))).catch(() => undefined); // each claim's own promise carries the failure
    });
  }

  private async claimTogether(requests: readonly ClaimRequest[]): Promise<void> {
    const fresh: Record<string, LedgerEntry> = {};
    const taken: Record<string, LedgerEntry> = {};
    for (const { claims, takeOver } of requests) {
      for (const { key, entry } of claims) {
        const held = this.entries.get(key);
        if (held === undefined) fresh[key] = entry;
        else if (held.status === "sending" && takeOver(key)) taken[key] = entry;
      }
    }
    const won = new Set<string>();
    try {
      if (Object.keys(taken).length > 0) {
        await this.store.put(this.tenant, "reminders", taken);
        for (const [key, entry] of Object.entries(taken)) {
          won.add(key);
          this.entries.set(key, entry);
        }
      }
      if (Object.keys(fresh).length > 0) {
        for (const [key, { inserted, value }] of await this.store.claimMany(this.tenant, "reminders", fresh)) {
          if (inserted) {
            won.add(key);
            this.entries.set(key, fresh[key]!);
          } else if (isLedgerEntry(value)) {
            // Recorded by another run meanwhile: its entry, not ours.
            this.entries.set(key, value);
          }
        }
      }
    } catch (error) {
      for (const request of requests) request.reject(error);
      throw error;
    }
    for (const request of requests) request.resolve(new Set(request.claims.map((c) => c.key).filter((k) => won.has(k))));
  }

  /**
   * Written MARK_DELAY_MS after the first of them, in one write with whatever else is waiting
   * by then (or sooner, by flush; a claim does not carry them): a directory store parses and
   * rewrites its whole file on each write, so marks written one by one would keep the CPU from
   * the SMTP connections.
   */
  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const timer = setTimeout(() => {
      this.flushScheduled = false;
      void this.write().catch(() => undefined);
    }, MARK_DELAY_MS);
    timer.unref();
  }

  /** The server took the message: each key is sent. */
  markSent(claims: readonly { key: string; entry: LedgerEntry }[], at: string): void {
    for (const { key, entry } of claims) {
      const sent: LedgerEntry = { ...entry, status: "sent", at };
      this.pending[key] = sent;
      this.entries.set(key, sent);
    }
    this.schedule();
  }

  /** The message was not taken (refused, never handed over): the next run tries again. */
  release(keys: readonly string[]): void {
    for (const key of keys) {
      this.pending[key] = null;
      this.entries.delete(key);
    }
    this.schedule();
  }

  /** Writes everything still waiting; a write that failed is thrown here. */
  async flush(): Promise<void> {
    await this.write();
    await this.writing;
    this.throwIfFailed();
  }
}
