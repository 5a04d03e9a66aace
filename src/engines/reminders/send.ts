import type { NotifyMessage } from "../../domain/reminders/grouping.js";
import type { Delivery, OutgoingMail } from "./delivery.js";
import type { LedgerEntry, ReminderLedger } from "./ledger.js";

// Sends the messages of one run exactly once (docs/reminders.md "Exactly once"): each message's
// ledger keys are claimed before its SMTP transaction, marked sent after the server's 250, and
// released when the server refused it or was never reached. A few messages are in flight at
// once (the pool's connections), each with its own claim; the pacing is the delivery's.

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

/** Claims go to the ledger in batches that grow from 1 to this many messages (docs/reminders.md). */
const MAX_BATCH = 100;

export async function sendAll(items: readonly SendItem[], deps: SendDeps): Promise<SendRun> {
  const results = new Array<SendResult | undefined>(items.length);
  let unreachable: string | undefined;
  let failure: unknown;
  const ambiguousKeys = new Set(items.filter((i) => i.ambiguous).flatMap((i) => i.claims.map((c) => c.key)));
  const takeOver = (key: string): boolean => deps.resendAmbiguous && ambiguousKeys.has(key);

  const one = async (item: SendItem, won: ReadonlySet<string>): Promise<SendResult> => {
    const mine = item.claims.filter((c) => won.has(c.key));
    if (mine.length === 0) {
      return { message: item.message, status: "skipped", messageId: "", detail: "already recorded by another run" };
    }
    const message =
      mine.length === item.claims.length ? item.message : deps.narrow(item.message, new Set(mine.map((c) => c.key)));
    const mail = deps.compose(message);
    const claims = mine.map((c) => ({ key: c.key, entry: { ...c.entry, messageId: mail.messageId } }));
    let outcome;
    try {
      outcome = await deps.delivery.send(mail);
    } catch (error) {
      // A failure of ours before the message left (an outbox file that cannot be written): not sent.
      deps.ledger.release(claims.map((c) => c.key));
      throw error;
    }
    switch (outcome.status) {
      case "sent":
        deps.ledger.markSent(claims, deps.now());
        return { message, status: "sent", messageId: mail.messageId, detail: outcome.response };
      case "refused":
        deps.ledger.release(claims.map((c) => c.key));
        return { message, status: "refused", messageId: mail.messageId, detail: outcome.reason };
      case "unreachable":
        deps.ledger.release(claims.map((c) => c.key));
        unreachable ??= outcome.reason;
        return { message, status: "not-sent", messageId: mail.messageId, detail: outcome.reason };
      case "ambiguous":
        return { message, status: "ambiguous", messageId: mail.messageId, detail: outcome.reason };
    }
  };

  const stopped = (): boolean => unreachable !== undefined || failure !== undefined || deps.signal?.aborted === true;
  // Claims go to the ledger in batches that grow from one message (a run that stops early
  // leaves little claimed and unsure) to MAX_BATCH, one write each — with the marks written
  // meanwhile. The next batch is claimed while the current one is still being sent, so the
  // connections never wait for the store.
  const ready: { item: SendItem; at: number; won: ReadonlySet<string> }[] = [];
  let claimed = 0;
  let size = 1;
  let producing: Promise<void> | undefined;
  const produce = async (): Promise<void> => {
    const from = claimed;
    const batch = items.slice(from, from + size);
    claimed += batch.length;
    size = Math.min(size * 2, MAX_BATCH);
    const won = await deps.ledger.claim(
      batch.flatMap((item) => item.claims),
      takeOver,
    );
    batch.forEach((item, i) => ready.push({ item, at: from + i, won }));
  };
  const refill = (): void => {
    if (producing || claimed >= items.length || stopped()) return;
    if (ready.length > Math.max(deps.delivery.concurrency, size / 2)) return;
    producing = produce()
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        producing = undefined;
      });
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      refill();
      const next = ready.shift();
      if (next === undefined) {
        if (producing) {
          await producing;
          continue;
        }
        return;
      }
      // Claimed but not started when the run stops: handed back, never sent.
      if (stopped()) {
        deps.ledger.release(next.item.claims.filter((c) => next.won.has(c.key)).map((c) => c.key));
        continue;
      }
      try {
        const result = await one(next.item, next.won);
        results[next.at] = result;
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
