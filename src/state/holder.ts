import { hostname } from "node:os";
import { UsageError } from "../errors.js";
import { formatDuration } from "../domain/durations.js";

// Who holds a state lock, in words both backends use (docs/state.md "Locks"): the line after
// a second of waiting and the exit-2 message at --lock-timeout name it, so that the user can
// tell a colleague's run from a stuck one.

export interface HolderInfo {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  /** What holds it: "simadmin users sync", … */
  purpose: string;
}

export function currentHolder(purpose: string | undefined, now: number): HolderInfo {
  return { pid: process.pid, host: hostname(), since: new Date(now).toISOString(), purpose: purpose ?? "simadmin" };
}

/** "simadmin users sync (pid 4242 on ci-7, since 2026-11-27T20:01:02.000Z)" */
export function describeHolder(holder: HolderInfo | undefined): string {
  if (!holder) return "another simadmin run";
  return `${holder.purpose} (pid ${holder.pid} on ${holder.host}, since ${holder.since})`;
}

/** The exit-2 error at --lock-timeout. */
export function lockTimeoutError(what: string, holder: string, timeoutMs: number, location: string): UsageError {
  return new UsageError(`the ${what} state in ${location} is locked by ${holder}; gave up after ${formatDuration(timeoutMs)}`, {
    hint: "wait for that run to finish and try again, or give it longer with --lock-timeout <duration> (e.g. 10m)",
  });
}
