import { formatIsoDate, MAX_WINDOW_DAYS, parseIsoDate } from "./date-windows.js";

// `reports sync` windows (docs/cli-contract.md, Sync): which report windows a run fetches.
// Pure: today, the flags and what the database says it holds are passed in.
//
// A synced window is always the same request: windows are 30-day blocks counted from
// 1970-01-01 (day 0), so 2026-10-08..2026-11-06 is a window whatever day the sync runs or
// starts from. A window that contains today is requested up to today only (there is no data
// for days to come, and the service may refuse them) and is fetched again until it is
// complete. Windows are identified by their first day; the database keeps what was asked.

/** What the database holds about one window of one kind (its meta row). */
export interface SyncedWindow {
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day requested, YYYY-MM-DD (before today's end for a window still open then). */
  end: string;
  /** Day number (UTC) of the fetch. */
  fetchedDay: number;
  complete: boolean;
}

export type FetchReason = "missing" | "open" | "recent";

export interface PlannedWindow {
  startDate: string;
  /** The day the request ends: the block's last day, or today for the open block. */
  endDate: string;
  reason: FetchReason;
}

/** The first day of the block that holds `day`. */
export function blockStart(day: number): number {
  return Math.floor(day / MAX_WINDOW_DAYS) * MAX_WINDOW_DAYS;
}

/**
 * A window is complete — never fetched again — once it was fetched whole, at least
 * `openDays` days after its last day: reports lag behind activity (docs/service-notes.md:
 * about 15 minutes) and a day's last records may arrive the day after.
 */
export function isComplete(blockEnd: number, requestedEnd: number, fetchedDay: number, openDays: number): boolean {
  return requestedEnd === blockEnd && fetchedDay - blockEnd >= openDays;
}

export interface SyncPlanInput {
  today: number;
  /** First day wanted (day number); the block holding it is fetched whole. */
  since: number;
  openDays: number;
  /** Meta rows of this kind, by window start. */
  synced: ReadonlyMap<string, SyncedWindow>;
}

/** The windows to fetch for one kind, oldest first. */
export function planSyncWindows(input: SyncPlanInput): PlannedWindow[] {
  const { today, since, openDays, synced } = input;
  const planned: PlannedWindow[] = [];
  for (let start = blockStart(Math.min(since, today)); start <= today; start += MAX_WINDOW_DAYS) {
    const blockEnd = start + MAX_WINDOW_DAYS - 1;
    const endDate = formatIsoDate(Math.min(blockEnd, today));
    const startDate = formatIsoDate(start);
    const held = synced.get(startDate);
    let reason: FetchReason | undefined;
    if (held === undefined) reason = "missing";
    else if (blockEnd >= today) reason = "open";
    else if (!held.complete) {
      const requestedEnd = parseIsoDate(held.end) ?? start;
      reason = isComplete(blockEnd, requestedEnd, held.fetchedDay, openDays) ? undefined : "recent";
    }
    if (reason !== undefined) planned.push({ startDate, endDate, reason });
  }
  return planned;
}
