import type { StateStore, Tenant } from "../../state/store.js";

// The reminder ledger (docs/cli-contract.md "Reminders", docs/reminders.md "Exactly once"): one
// entry per (pair, step) and per (manager, day) in the state store, kind `reminders`.
//
//   no entry   → not sent: this run may send it
//   sending    → claimed (StateStore.claim, atomic across machines) just before the SMTP
//                transaction; a run killed or cut off after that point cannot know whether the
//                server took the message: the step is *ambiguous*, named, not sent again unless
//                --resend-ambiguous
//   sent       → the server answered 250 (or the .eml was written to --outbox): never again
//
// A recipient the server refused, or a message never handed over (the server unreachable), has
// its claim removed: the next run tries again.

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

type LedgerStore = Pick<StateStore, "list" | "put" | "claim">;

export function isLedgerEntry(value: unknown): value is LedgerEntry {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.status === "sending" || v.status === "sent") && typeof v.to === "string" && typeof v.messageId === "string";
}

export class ReminderLedger {
  private constructor(
    private readonly store: LedgerStore,
    private readonly tenant: Tenant,
    /** Every entry as read at the start of the run. */
    readonly entries: Map<string, LedgerEntry>,
  ) {}

  static async open(store: LedgerStore, tenant: Tenant): Promise<ReminderLedger> {
    const entries = new Map<string, LedgerEntry>();
    for (const [key, value] of await store.list(tenant, "reminders")) if (isLedgerEntry(value)) entries.set(key, value);
    return new ReminderLedger(store, tenant, entries);
  }

  /**
   * Claims each key for this run; returns the keys won. A key another run holds (sending or
   * sent) is lost. With `takeOver`, an entry still `sending` (ambiguous) whose claim is
   * `takeOver`'s is overwritten: the caller decided to send it again.
   */
  async claim(
    claims: readonly { key: string; entry: LedgerEntry }[],
    takeOver?: (held: LedgerEntry) => boolean,
  ): Promise<Set<string>> {
    const won = new Set<string>();
    for (const { key, entry } of claims) {
      const answer = await this.store.claim(this.tenant, "reminders", key, entry);
      if (answer.inserted) won.add(key);
      else if (takeOver && isLedgerEntry(answer.value) && answer.value.status === "sending" && takeOver(answer.value)) {
        await this.store.put(this.tenant, "reminders", { [key]: entry });
        won.add(key);
      }
    }
    return won;
  }

  /** The server took the message: each key is sent, in one atomic change. */
  async markSent(claims: readonly { key: string; entry: LedgerEntry }[], at: string): Promise<void> {
    const changes: Record<string, LedgerEntry> = {};
    for (const { key, entry } of claims) changes[key] = { ...entry, status: "sent", at };
    await this.store.put(this.tenant, "reminders", changes);
  }

  /** The message was not taken (refused, never handed over): the next run tries again. */
  async release(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.store.put(this.tenant, "reminders", Object.fromEntries(keys.map((k) => [k, null])));
  }
}
