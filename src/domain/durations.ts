import { UsageError } from "../errors.js";

// Durations for --interval and --wait-timeout: one or more <integer><unit> parts, largest
// unit first, each unit at most once — `90s`, `5m`, `2h`, `1h30m`, `250ms`. A bare number is
// refused rather than guessed: "30" could mean seconds or minutes, and a wrong guess turns a
// 30-minute wait into a 30-second one.

const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
type Unit = keyof typeof UNIT_MS;
const UNIT_ORDER: readonly Unit[] = ["h", "m", "s", "ms"];

// `ms` before `m`/`s` so that "250ms" is not read as 250 minutes followed by garbage.
const PART = /(\d+)(ms|h|m|s)/gy;

export const DURATION_EXAMPLES = "e.g. 30s, 5m, 2h or 1h30m";

/** Milliseconds in `text`; UsageError naming `flag` when it is not a duration. */
export function parseDuration(text: string, flag: string): number {
  const input = text.trim().toLowerCase();
  const bad = (why = ""): UsageError =>
    new UsageError(`${flag}: ${JSON.stringify(text)} is not a duration${why}; use ${DURATION_EXAMPLES}`);
  if (input === "") throw bad();
  if (/^\d+$/.test(input)) throw bad(" (a unit is needed)");
  PART.lastIndex = 0;
  let total = 0;
  let position = 0;
  let lastUnitIndex = -1;
  for (let match = PART.exec(input); match; match = PART.exec(input)) {
    // Both groups always take part in a match.
    const [whole, digits, unit] = match as unknown as [string, string, Unit];
    const unitIndex = UNIT_ORDER.indexOf(unit);
    if (unitIndex <= lastUnitIndex) throw bad(" (units go from largest to smallest, each once)");
    lastUnitIndex = unitIndex;
    total += Number(digits) * UNIT_MS[unit];
    position += whole.length;
  }
  if (position !== input.length) throw bad();
  if (!Number.isSafeInteger(total)) throw bad(" (too long)");
  return total;
}

/** A positive duration: zero would mean "poll without pause" or "give up at once". */
export function parsePositiveDuration(text: string, flag: string): number {
  const ms = parseDuration(text, flag);
  if (ms <= 0) throw new UsageError(`${flag}: must be longer than zero; use ${DURATION_EXAMPLES}`);
  return ms;
}

/** "1h 5m", "11m 42s", "45s", "250ms": for people (tables, spinners, messages). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return String(ms);
  if (ms < 1000) return ms === 0 ? "0s" : `${Math.round(ms)}ms`;
  let seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts: string[] = [];
  if (hours) parts.push(`${hours}h`);
  if (minutes) parts.push(`${minutes}m`);
  // Seconds are noise next to hours ("2h 0m 3s"), but not next to minutes ("11m 42s").
  if (seconds && !hours) parts.push(`${seconds}s`);
  // Never empty: from 1000 ms on, there is at least an hour or a second.
  return parts.join(" ");
}

/** A completion record's `completionTime` (seconds, docs/service-spec.md §2) for people; null stays empty. */
export function formatSeconds(seconds: number | null | undefined): string | null {
  // Number.isFinite is false for null and undefined as well (it does not convert).
  if (!Number.isFinite(seconds)) return null;
  return formatDuration((seconds as number) * 1000);
}
