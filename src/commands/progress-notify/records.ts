import type { JsonRecord } from "../../domain/records.js";
import type { NotifyMessage } from "../../domain/reminders/grouping.js";
import type { SendStatus } from "../../engines/reminders/send.js";
import type { LedgerEntry } from "../../engines/reminders/ledger.js";

// The answer of `progress notify` (docs/cli-contract.md "Reminders"): one record per message —
// its recipient, kind, step, pairs and what became of it — in every format; the steps an
// earlier run left ambiguous are records too, so that a script sees them.

export type RecordStatus = SendStatus | "planned" | "held";

export const NOTIFY_COLUMNS = ["recipient", "kind", "step", "pairs", "status", "sent", "messageId", "detail"];
export const TABLE_COLUMNS = ["recipient", "kind", "step", "pairs", "status"];

const pairText = (message: NotifyMessage): string => message.pairs.map((p) => `${p.row.userId}/${p.row.simulationId}`).join(" ");

export function messageRecord(message: NotifyMessage, status: RecordStatus, messageId: string, detail = ""): JsonRecord {
  return {
    recipient: message.to,
    kind: message.kind,
    // A number (days before the due date, negative after): "-3" as text would meet the CSV formula guard.
    step: message.kind === "digest" ? null : message.step,
    pairs: pairText(message),
    status,
    sent: status === "sent",
    messageId,
    detail,
  };
}

// A step is ambiguous because its ledger entry is `sending`: the entry is always there to name it.
export function ambiguousRecord(entry: LedgerEntry, userId: string, simulationId: string, step: number): JsonRecord {
  return {
    recipient: entry.to,
    kind: "reminder",
    step,
    pairs: `${userId}/${simulationId}`,
    status: "ambiguous",
    sent: false,
    messageId: entry.messageId,
    detail: `left unsure by ${entry.claimedBy} at ${entry.at}: not sent again (check the mailbox, then --resend-ambiguous on its day)`,
  };
}

export function ambiguousDigestRecord(entry: LedgerEntry): JsonRecord {
  return {
    recipient: entry.to,
    kind: "digest",
    step: null,
    pairs: "",
    status: "ambiguous",
    sent: false,
    messageId: entry.messageId,
    detail: `left unsure by ${entry.claimedBy} at ${entry.at}: a digest is not sent again the same day (check the mailbox)`,
  };
}
