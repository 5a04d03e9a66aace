import type { NotifyMessage } from "../../domain/reminders/grouping.js";
import type { Delivery, OutgoingMail } from "./delivery.js";
import type { LedgerEntry, ReminderLedger } from "./ledger.js";

// Sends the messages of one run exactly once (docs/reminders.md "Exactly once"): each message's
// ledger keys are claimed inside its own SMTP transaction — once the server answered DATA,
// before a byte of the data (delivery.ts) — marked sent after the server's 250, and released
// when the server refused it. A message never begun is never claimed, so a run killed at any
// moment leaves ambiguous only messages the server was taking. A few messages are in flight
// at once (the pool's connections); their claims go to the store together (ledger.ts).

export interface SendItem {
  message: NotifyMessage;
  /** The ledger entry of each of the message's keys, for its claim. */
  claims: { key: string; entry: LedgerEntry }[];
  /** Left `sending` by an earlier run: sent again only with --resend-ambiguous. */
  ambiguous: boolean;
}

export type SendStatus = "sent" | "refused" | "ambiguous" | "skipped" | "not-sent";

export interface SendResult {
  message: NotifyMessage;
  status: SendStatus;
  messageId: string;
  /** The server's words, or why it was not sent. */
  detail?: string;
}

export interface SendDeps {
  ledger: ReminderLedger;
  delivery: Delivery;
  /** The message with only the pairs this run won (another run may hold some), ready to send. */
  compose: (message: NotifyMessage) => OutgoingMail;
  /** Drops the pairs whose keys were not won. */
  narrow: (message: NotifyMessage, won: ReadonlySet<string>) => NotifyMessage;
  now: () => string;
  resendAmbiguous: boolean;
  signal?: AbortSignal;
  onResult?: (result: SendResult) => void;
}

export interface SendRun {
  results: SendResult[];
  /** Why sending stopped early: the server could not be reached (the rest were not sent). */
  unreachable?: string;
}

/** The claim lost some of a message's keys to another run: the data is withheld. */
class HeldElsewhere extends Error {}

export async function sendAll(items: readonly SendItem[], deps: SendDeps): Promise<SendRun> {
  const results = new Array<SendResult | undefined>(items.length);
  let unreachable: string | undefined;
  let failure: unknown;
  const ambiguousKeys = new Set(items.filter((i) => i.ambiguous).flatMap((i) => i.claims.map((c) => c.key)));
  const takeOver = (key: string): boolean => deps.resendAmbiguous && ambiguousKeys.has(key);

  const one = async (item: SendItem): Promise<SendResult> => {
    // What the ledger already shows held (by another run since the plan) is left out before
    // the transaction; the claim inside it settles any race.
    const claims = item.claims.filter((c) => deps.ledger.claimable(c.key, takeOver));
    if (claims.length === 0) {
      return { message: item.message, status: "skipped", messageId: "", detail: "already recorded by another run" };
    }
    let message =
      claims.length === item.claims.length ? item.message : deps.narrow(item.message, new Set(claims.map((c) => c.key)));
    /** The keys this run won, once the claim was made in the first transaction. */
    let won: ReadonlySet<string> | undefined;
    for (;;) {
      const mail = deps.compose(message);
      const entries = claims.map((c) => ({ key: c.key, entry: { ...c.entry, messageId: mail.messageId } }));
      const beforeData = async (): Promise<void> => {
        if (won !== undefined) return; // a narrowed message: its keys are ours already
        won = await deps.ledger.claim(entries, takeOver);
        if (won.size < entries.length) throw new HeldElsewhere();
      };
      let outcome;
      try {
        outcome = await deps.delivery.send(mail, beforeData);
      } catch (error) {
        // A failure of ours before the message left (an outbox file that cannot be written): not sent.
        if (won !== undefined) deps.ledger.release([...won]);
        throw error;
      }
      const mine = entries.filter((e) => won?.has(e.key));
      switch (outcome.status) {
        case "withheld":
          if (!(outcome.cause instanceof HeldElsewhere)) throw outcome.cause;
          if (won!.size === 0) {
            return { message: item.message, status: "skipped", messageId: "", detail: "already recorded by another run" };
          }
          // Another run holds some of its pairs: sent again with only this run's (the keys
          // marked or released below are those won).
          message = deps.narrow(item.message, won!);
          continue;
        case "sent":
          deps.ledger.markSent(mine, deps.now());
          return { message, status: "sent", messageId: mail.messageId, detail: outcome.response };
        case "refused":
          deps.ledger.release(mine.map((c) => c.key));
          return { message, status: "refused", messageId: mail.messageId, detail: outcome.reason };
        case "unreachable":
          deps.ledger.release(mine.map((c) => c.key));
          unreachable ??= outcome.reason;
          return { message, status: "not-sent", messageId: mail.messageId, detail: outcome.reason };
        case "ambiguous":
          return { message, status: "ambiguous", messageId: mail.messageId, detail: outcome.reason };
      }
    }
  };

  const stopped = (): boolean => unreachable !== undefined || failure !== undefined || deps.signal?.aborted === true;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !stopped()) {
      const at = next++;
      try {
        const result = await one(items[at]!);
        results[at] = result;
        deps.onResult?.(result);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.delivery.concurrency, items.length)) }, worker));
  } finally {
    await deps.ledger.flush();
  }
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return {
    results: items.map(
      (item, i) =>
        results[i] ?? {
          message: item.message,
          status: "not-sent" as const,
          messageId: "",
          detail: unreachable !== undefined ? "not tried: the server could not be reached" : "not tried: the run was stopped",
        },
    ),
    ...(unreachable !== undefined ? { unreachable } : {}),
  };
}
