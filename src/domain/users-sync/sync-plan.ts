// The baseline (what simadmin last synced) + the roster → the rows to send, and the guards
// that stop a run before anything is sent (docs/cli-contract.md "Sync").
//
// The service cannot list users (docs/service-spec.md §4), so "what the organization holds"
// is the baseline: every user a sync sent and the service accepted, with the values sent.
//
// Decisions:
// - Users are matched by email as a person reads it (keyOf: NFC, invisible characters left
//   out, case ignored).
// - new → Add (Update on a first run with --assume-existing: the users were imported
//   before simadmin kept a baseline); changed first/last name, team or status → Update;
//   in the baseline as ACTIVE but gone from the roster → Update with status INACTIVE and
//   the baseline's last values (the service's Update needs every column); in the baseline
//   as INACTIVE and back in the roster → Update with status ACTIVE (a returner).
// - A user whose roster row is invalid (kept out with --skip-invalid) is left as it is:
//   neither updated nor deactivated — a typo in HR's file must not fire anyone. So is a user
//   of a held batch or of a task not known to have ended (leaveAlone): neither sent nor
//   deactivated until its upload is settled.
// - Guards, in this order: an empty roster, a roster under half of the baseline's ACTIVE
//   users (a truncated export), more deactivations than --max-deactivate (default 10 % of
//   the baseline's ACTIVE users, rounded up so that a small organization may lose one).
//   An explicit --max-deactivate replaces the half-roster guard: it says how many may go.
//   Deactivations are also counted over the last 7 days, and Updates against --max-changes
//   (default 10 % of the baseline's users; a first run only with an explicit one).

import * as z from "zod";
import type { RosterUser } from "./roster.js";
import { keyOf } from "./user-key.js";

export const SyncedUser = z.object({
  email: z.string().min(1),
  firstName: z.string(),
  lastName: z.string(),
  teamName: z.string(),
  status: z.enum(["ACTIVE", "INACTIVE"]),
});
export type SyncedUser = z.infer<typeof SyncedUser>;

export const Baseline = z.object({
  version: z.literal(1),
  baseUrl: z.string(),
  organizationId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Keyed by the email in lower case. */
  users: z.record(z.string(), SyncedUser),
});
export type Baseline = z.infer<typeof Baseline>;

export type Change = "add" | "update" | "deactivate" | "reactivate";

export interface PlanRow extends SyncedUser {
  change: Change;
  action: "Add" | "Update";
  /** The roster row, or null for a user gone from the roster. */
  rosterRow: number | null;
  /** Fields that differ from the baseline ("" for a new user). */
  changed: string[];
}

export interface PlanCounts {
  add: number;
  update: number;
  deactivate: number;
  reactivate: number;
  unchanged: number;
}

export interface SyncPlan {
  rows: PlanRow[];
  counts: PlanCounts;
  /** ACTIVE users in the baseline: what the guards measure against. */
  baselineActive: number;
  firstRun: boolean;
}

/** The users keyed by keyOf (a baseline written before keys were normalized had lower case only). */
function byKey(users: Readonly<Record<string, SyncedUser>>): Record<string, SyncedUser> {
  const out: Record<string, SyncedUser> = {};
  for (const user of Object.values(users)) out[keyOf(user.email)] = user;
  return out;
}

const COMPARED = ["firstName", "lastName", "teamName", "status", "email"] as const;

export function planSync(
  roster: readonly RosterUser[],
  baseline: Baseline | undefined,
  options: { assumeExisting?: boolean; leaveAlone?: ReadonlySet<string> } = {},
): SyncPlan {
  const known = byKey(baseline?.users ?? {});
  const rows: PlanRow[] = [];
  const counts: PlanCounts = { add: 0, update: 0, deactivate: 0, reactivate: 0, unchanged: 0 };
  const seen = new Set<string>();
  for (const user of roster) {
    const key = keyOf(user.email);
    seen.add(key);
    // Held, or in a task not known to have ended: what the service holds for it is not known.
    if (options.leaveAlone?.has(key)) continue;
    const values: SyncedUser = {
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      teamName: user.teamName,
      status: user.status,
    };
    const before = known[key];
    if (before === undefined) {
      const action = baseline === undefined && options.assumeExisting ? "Update" : "Add";
      const change: Change = action === "Add" ? "add" : "update";
      counts[change]++;
      rows.push({ ...values, change, action, rosterRow: user.row, changed: [] });
      continue;
    }
    const changed = COMPARED.filter((f) => before[f] !== values[f]);
    if (changed.length === 0) {
      counts.unchanged++;
      continue;
    }
    const change: Change =
      before.status === "INACTIVE" && values.status === "ACTIVE"
        ? "reactivate"
        : before.status === "ACTIVE" && values.status === "INACTIVE"
          ? "deactivate"
          : "update";
    counts[change]++;
    rows.push({ ...values, change, action: "Update", rosterRow: user.row, changed: [...changed] });
  }
  for (const [key, before] of Object.entries(known)) {
    if (seen.has(key) || options.leaveAlone?.has(key) || before.status !== "ACTIVE") continue;
    counts.deactivate++;
    rows.push({ ...before, status: "INACTIVE", change: "deactivate", action: "Update", rosterRow: null, changed: ["status"] });
  }
  const baselineActive = Object.values(known).filter((u) => u.status === "ACTIVE").length;
  return { rows, counts, baselineActive, firstRun: baseline === undefined };
}

/** `--max-deactivate` (a percentage of the baseline's ACTIVE users) and `--max-changes` (of its users): a number, or a percentage. */
export type DeactivateLimit = { kind: "count"; value: number } | { kind: "percent"; value: number };

export const DEFAULT_MAX_DEACTIVATE: DeactivateLimit = { kind: "percent", value: 10 };
export const DEFAULT_MAX_CHANGES: DeactivateLimit = { kind: "percent", value: 10 };

export function parseDeactivateLimit(text: string): DeactivateLimit | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!m) return undefined;
  const value = Number(m[1]);
  if (m[2] === "%") return value <= 100 ? { kind: "percent", value } : undefined;
  return Number.isInteger(value) ? { kind: "count", value } : undefined;
}

export function deactivateAllowance(limit: DeactivateLimit, baselineActive: number): number {
  return limit.kind === "count" ? limit.value : Math.ceil((baselineActive * limit.value) / 100);
}

/** A guard's limit, and whether the user gave it (a default is said to be one). */
export interface GuardLimit {
  value: DeactivateLimit;
  explicit: boolean;
}

export interface GuardContext {
  roster: { users: number; invalid: number };
  deactivate: GuardLimit;
  /** --max-changes: Updates (changed values, returners), not deactivations. */
  changes: GuardLimit;
  /** Users the syncs of the last 7 days sent INACTIVE, other than this plan's. */
  recentDeactivations: number;
  /** Users in the baseline (--max-changes' percentage counts them). */
  baselineUsers: number;
}

/** Why the plan must not be sent, in one line with the numbers; undefined when it may. */
export function guardProblem(syncPlan: SyncPlan, guard: GuardContext): { message: string; hint: string } | undefined {
  const listed = guard.roster.users + guard.roster.invalid;
  if (listed === 0) {
    return {
      message: "the roster lists no users; nothing was sent",
      hint: "an empty HR export is never a reason to deactivate everyone; check the export",
    };
  }
  // listed is at least 1 here: an empty baseline never looks truncated.
  if (!guard.deactivate.explicit && listed * 2 < syncPlan.baselineActive) {
    return {
      message: `the roster lists ${listed} ${listed === 1 ? "user" : "users"}, under half of the ${syncPlan.baselineActive} active users of the last sync; it looks truncated; nothing was sent`,
      hint: `check the HR export; if so many users really left, pass --max-deactivate ${syncPlan.counts.deactivate}`,
    };
  }
  const limit = guard.deactivate;
  const allowed = deactivateAllowance(limit.value, syncPlan.baselineActive);
  const deactivate = syncPlan.counts.deactivate;
  if (deactivate > allowed) {
    const what =
      limit.value.kind === "percent" ? `${limit.value.value}% of ${syncPlan.baselineActive} active users` : "--max-deactivate";
    return {
      message: `the plan deactivates ${deactivate} users, more than the ${allowed} allowed (${what}${limit.explicit ? "" : ", the default"}); nothing was sent`,
      hint: `check the roster; if these leavers are real, pass --max-deactivate ${deactivate}`,
    };
  }
  // Over the last 7 days, measured against the active users before those deactivations, so
  // that nightly runs within the limit each cannot empty the organization in a month.
  const recent = guard.recentDeactivations;
  const weekAllowed = deactivateAllowance(limit.value, syncPlan.baselineActive + recent);
  if (deactivate > 0 && deactivate + recent > weekAllowed) {
    const what =
      limit.value.kind === "percent"
        ? `${limit.value.value}% of the ${syncPlan.baselineActive + recent} users active before them`
        : "--max-deactivate";
    return {
      message: `the plan deactivates ${deactivate} users and the syncs of the last 7 days deactivated ${recent}: ${deactivate + recent}, more than the ${weekAllowed} allowed in 7 days (${what}${limit.explicit ? "" : ", the default"}); nothing was sent`,
      hint: `check the roster; if these leavers are real, pass --max-deactivate ${deactivate + recent}`,
    };
  }
  const updates = syncPlan.counts.update + syncPlan.counts.reactivate;
  // A first run has nothing to compare with: only an explicit --max-changes applies to it.
  if (syncPlan.firstRun && !guard.changes.explicit) return undefined;
  const changesAllowed = deactivateAllowance(guard.changes.value, guard.baselineUsers);
  if (updates > changesAllowed) {
    const what =
      guard.changes.value.kind === "percent"
        ? `${guard.changes.value.value}% of ${guard.baselineUsers} users in the baseline`
        : "--max-changes";
    return {
      message: `the plan updates ${updates} users, more than the ${changesAllowed} allowed (${what}${guard.changes.explicit ? "" : ", the default"}); nothing was sent`,
      hint: `check the roster and any --map (a swapped column changes every user); if these changes are real, pass --max-changes ${updates}`,
    };
  }
  return undefined;
}

/** The baseline after the service accepted `rows`. */
export function applyToBaseline(baseline: Baseline, rows: readonly SyncedUser[], nowIso: string): Baseline {
  const users = byKey(baseline.users);
  for (const row of rows) {
    users[keyOf(row.email)] = {
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      teamName: row.teamName,
      status: row.status,
    };
  }
  return { ...baseline, users, updatedAt: nowIso };
}
