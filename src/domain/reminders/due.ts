import type { ProgressRow } from "../progress.js";
import { digestKey, reminderKey } from "./grouping.js";
import { stepDueOn } from "./schedule.js";

// What a run of `progress notify` has to do today, before any completion is asked: the pairs
// whose step is due and not yet in the ledger, the steps an earlier run left ambiguous, and the
// managers whose digest of today is still to send — and so which pairs need asking at all (a
// pair with nothing due and no digest waiting costs no request). Pure: rows, day and the
// ledger's keys come in.

export interface LedgerView {
  /** "sending" or "sent" for a key in the ledger, undefined when not there. */
  status(key: string): "sending" | "sent" | undefined;
}

export interface DueStep {
  row: ProgressRow;
  step: number;
  key: string;
  /** An earlier run left it `sending`: sent again only when the caller resends ambiguous steps. */
  ambiguous: boolean;
}

export interface DueToday {
  /** Steps due today not yet sent (with the ambiguous ones when resending). */
  steps: DueStep[];
  /** Steps of any day an earlier run left `sending` and that are not resent now. */
  ambiguous: { row: ProgressRow; step: number; key: string }[];
  /** Managers (digest addresses as written in the file) whose digest of today is not sent, with its key. */
  digests: Map<string, string>;
  /** Today's digests an earlier run left `sending`: named, never sent again the same day. */
  ambiguousDigests: { manager: string; key: string }[];
  /** The rows to ask completion about: due steps and every row of a digest to send. */
  toAsk: ProgressRow[];
}

export function dueToday(input: {
  rows: readonly ProgressRow[];
  today: number;
  steps: readonly number[];
  ledger: LedgerView;
  resendAmbiguous: boolean;
  /** The digest address of a row, when --digest is given and the cell is not empty. */
  managerOf?: (row: ProgressRow) => string | undefined;
}): DueToday {
  const { rows, today, steps, ledger, resendAmbiguous, managerOf } = input;
  const due: DueStep[] = [];
  const ambiguous: DueToday["ambiguous"] = [];
  const digests = new Map<string, string>();
  const ambiguousDigests: DueToday["ambiguousDigests"] = [];
  const ask = new Set<ProgressRow>();
  for (const row of rows) {
    const todayStep = stepDueOn(row.dueDate, today, steps);
    for (const step of steps) {
      const key = reminderKey(row, step);
      const status = ledger.status(key);
      if (step === todayStep && status === undefined) {
        due.push({ row, step, key, ambiguous: false });
        ask.add(row);
      } else if (status === "sending") {
        if (step === todayStep && resendAmbiguous) {
          due.push({ row, step, key, ambiguous: true });
          ask.add(row);
        } else ambiguous.push({ row, step, key });
      }
    }
    const manager = managerOf?.(row);
    if (manager !== undefined) {
      const id = manager.trim().toLowerCase();
      if (!digests.has(id)) {
        const key = digestKey(manager, today);
        const status = ledger.status(key);
        // A digest is one mail a day: an ambiguous one is not sent again the same day.
        digests.set(id, status === undefined ? key : "");
        if (status === "sending") ambiguousDigests.push({ manager: manager.trim(), key });
      }
    }
  }
  const open = new Map([...digests].filter(([, key]) => key !== ""));
  if (managerOf) for (const row of rows) if (open.has(managerOf(row)?.trim().toLowerCase() ?? "\0")) ask.add(row);
  return { steps: due, ambiguous, digests: open, ambiguousDigests, toAsk: rows.filter((r) => ask.has(r)) };
}
