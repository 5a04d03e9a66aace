import { createHash } from "node:crypto";
import type { ProgressRow, ProgressState } from "../progress.js";
import { dayText } from "./schedule.js";

// What `progress notify` sends (docs/cli-contract.md "Reminders"): reminders grouped per
// recipient and step — one mail listing every pair of that trainee whose step is due today —
// and one digest per manager. Pure: the open pairs, the day and the steps are passed in.

/** A pair not completed, as a mail shows it. */
export interface OpenPair {
  row: ProgressRow;
  /** not-started, in-progress or overdue (never completed: those get no mail). */
  state: Exclude<ProgressState, "completed">;
  /** A durable link (docs/cli-contract.md "Durable links") when a links URL is set. */
  link?: string;
}

export interface ReminderMessage {
  kind: "reminder";
  to: string;
  step: number;
  /** In file order. */
  pairs: OpenPair[];
}

export interface DigestMessage {
  kind: "digest";
  to: string;
  /** UTC day number the digest is for: one a day per manager. */
  day: number;
  /** The manager's open pairs, overdue first, then by due date and file order. */
  pairs: OpenPair[];
}

export type NotifyMessage = ReminderMessage | DigestMessage;

/** The address a reminder goes to, compared without case (one mail for Ann@x and ann@x). */
const addressKey = (address: string): string => address.trim().toLowerCase();

/** Reminders: the open pairs with a step due today, one message per (address, step), in file order. */
export function groupReminders(due: readonly { pair: OpenPair; to: string; step: number }[]): ReminderMessage[] {
  const messages = new Map<string, ReminderMessage>();
  for (const { pair, to, step } of due) {
    const key = `${addressKey(to)}\0${step}`;
    let message = messages.get(key);
    if (!message) {
      message = { kind: "reminder", to: to.trim(), step, pairs: [] };
      messages.set(key, message);
    }
    message.pairs.push(pair);
  }
  return [...messages.values()];
}

const DAY_MS = 86_400_000;

/** Whole days past the due date on `day` (0 when not overdue or no due date). */
export function daysOverdue(dueDate: string | undefined, day: number): number {
  if (dueDate === undefined) return 0;
  const due = Math.floor(Date.parse(`${dueDate}T00:00:00Z`) / DAY_MS);
  return Math.max(0, day - due);
}

/** Digests: the open pairs by manager address, overdue first (most days first), then by due date. */
export function groupDigests(open: readonly { pair: OpenPair; manager: string }[], day: number): DigestMessage[] {
  const messages = new Map<string, DigestMessage>();
  for (const { pair, manager } of open) {
    const key = addressKey(manager);
    let message = messages.get(key);
    if (!message) {
      message = { kind: "digest", to: manager.trim(), day, pairs: [] };
      messages.set(key, message);
    }
    message.pairs.push(pair);
  }
  for (const message of messages.values()) {
    message.pairs.sort(
      (a, b) =>
        daysOverdue(b.row.dueDate, day) - daysOverdue(a.row.dueDate, day) ||
        (a.row.dueDate ?? "9999").localeCompare(b.row.dueDate ?? "9999") ||
        a.row.row - b.row.row,
    );
  }
  return [...messages.values()];
}

const hash = (parts: readonly unknown[]): string => createHash("sha256").update(JSON.stringify(parts)).digest("hex");

/**
 * The ledger key of one (pair, step): the pair's ids and due date (a pair given a new due date
 * starts a new ladder) — hashed, so the key shows no personal data; the entry's value names
 * the pair for messages.
 */
export function reminderKey(row: ProgressRow, step: number): string {
  return `r-${hash([row.userId, row.simulationId, row.dueDate ?? "", step]).slice(0, 40)}`;
}

/** The ledger key of one manager's digest of one day. */
export function digestKey(manager: string, day: number): string {
  return `d-${hash([addressKey(manager), dayText(day)]).slice(0, 40)}`;
}

/** The ledger keys a message records. */
export function messageKeys(message: NotifyMessage): string[] {
  return message.kind === "digest"
    ? [digestKey(message.to, message.day)]
    : message.pairs.map((p) => reminderKey(p.row, message.step));
}

/**
 * A Message-ID that is the same whenever the same (pairs, step) — or (manager, day) — is sent
 * for the same service and organization, so a copy re-sent after an ambiguous failure
 * (--resend-ambiguous) can be dropped by the receiving mail system (RFC 5322 §3.6.4).
 */
export function messageId(scope: { service: string; organizationId: string }, message: NotifyMessage, domain: string): string {
  const keys = messageKeys(message).sort();
  return `<${hash([scope.service, scope.organizationId, ...keys]).slice(0, 32)}.simadmin@${domain}>`;
}
