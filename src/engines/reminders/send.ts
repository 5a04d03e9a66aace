import type { NotifyMessage } from "../../domain/reminders/messages.js";
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

export async function sendAll(items: readonly SendItem[], deps: SendDeps): Promise<SendRun> {
  const results = new Array<SendResult | undefined>(items.length);
  let next = 0;
  let unreachable: string | undefined;
  let failure: unknown;

  const one = async (item: SendItem): Promise<SendResult> => {
    const won = await deps.ledger.claim(item.claims, item.ambiguous && deps.resendAmbiguous ? () => true : undefined);
    if (won.size === 0) {
      return { message: item.message, status: "skipped", messageId: "", detail: "already claimed by another run" };
    }
    const message = won.size === item.claims.length ? item.message : deps.narrow(item.message, won);
    const mail = deps.compose(message);
    const claims = item.claims
      .filter((c) => won.has(c.key))
      .map((c) => ({ key: c.key, entry: { ...c.entry, messageId: mail.messageId } }));
    let outcome;
    try {
      outcome = await deps.delivery.send(mail);
    } catch (error) {
      // A failure of ours before the message left (an outbox file that cannot be written): not sent.
      await deps.ledger.release(claims.map((c) => c.key));
      throw error;
    }
    switch (outcome.status) {
      case "sent":
        await deps.ledger.markSent(claims, deps.now());
        return { message, status: "sent", messageId: mail.messageId, detail: outcome.response };
      case "refused":
        await deps.ledger.release(claims.map((c) => c.key));
        return { message, status: "refused", messageId: mail.messageId, detail: outcome.reason };
      case "unreachable":
        await deps.ledger.release(claims.map((c) => c.key));
        unreachable ??= outcome.reason;
        return { message, status: "not-sent", messageId: mail.messageId, detail: outcome.reason };
      case "ambiguous":
        return { message, status: "ambiguous", messageId: mail.messageId, detail: outcome.reason };
    }
  };

  const worker = async (): Promise<void> => {
    while (next < items.length && unreachable === undefined && failure === undefined && !deps.signal?.aborted) {
      const index = next++;
      const item = items[index]!;
      try {
        const result = await one(item);
        results[index] = result;
        deps.onResult?.(result);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.delivery.concurrency, items.length)) }, worker));
  if (failure !== undefined) throw failure;
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
