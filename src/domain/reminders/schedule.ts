import { parseDueDate } from "../progress.js";

// The reminder ladder of `progress notify` (docs/cli-contract.md "Reminders", docs/reminders.md):
// a step is a number of days relative to a pair's due date — 7 a week before, 0 on the day,
// -3 three days after — and a step is due on exactly that UTC day (the same day `progress`
// calls a pair overdue by). A day the run does not happen is not made up later: the wording
// of each step ("due in 7 days") is true only on its day. Pure: the day is passed in.

export const DEFAULT_SCHEDULE: readonly number[] = [7, 1, 0, -3, -7];

const DAY_MS = 86_400_000;

/** The UTC day number (days since 1970-01-01) of an instant. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** `YYYY-MM-DD` of a UTC day number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * `--schedule 7,1,0,-3,-7` → the steps, most days before first; each a whole number from
 * -365 to 365, each once. A problem is returned as text (the option schema words the error).
 */
export function parseSchedule(text: string): { steps: number[] } | { problem: string } {
  const parts = text.split(",").map((p) => p.trim());
  const steps: number[] = [];
  for (const part of parts) {
    if (!/^[+-]?\d{1,3}$/.test(part)) return { problem: `'${part}' is not a whole number of days` };
    const n = Number(part);
    if (n < -365 || n > 365) return { problem: `${n} is more than a year from the due date` };
    if (steps.includes(n)) return { problem: `${n} is given twice` };
    steps.push(n === 0 ? 0 : n); // -0 and +0 are the due day
  }
  if (steps.length === 0) return { problem: "no steps" };
  return { steps: steps.sort((a, b) => b - a) };
}

/** The step of `steps` due on `today` for a pair due on `dueDate`, or undefined (no due date, no step today). */
export function stepDueOn(dueDate: string | undefined, today: number, steps: readonly number[]): number | undefined {
  if (dueDate === undefined) return undefined;
  const due = parseDueDate(dueDate);
  if (due === undefined) return undefined;
  const daysBefore = utcDay(due) - today;
  return steps.includes(daysBefore) ? daysBefore : undefined;
}

/** How a step reads: "7 days before the due date", "on the due date", "3 days overdue". */
export function describeStep(step: number): string {
  if (step === 0) return "on the due date";
  const days = Math.abs(step);
  const unit = days === 1 ? "day" : "days";
  return step > 0 ? `${days} ${unit} before the due date` : `${days} ${unit} overdue`;
}

/** The step as records name it: "+7", "0", "-3". */
export function stepName(step: number): string {
  return step > 0 ? `+${step}` : String(step);
}
