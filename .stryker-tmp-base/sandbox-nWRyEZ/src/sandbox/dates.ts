// @ts-nocheck
// Calendar dates as the service takes them: `YYYY-MM-DD`, UTC, real days only.

const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds at UTC midnight of a real calendar date, or undefined ("2026-02-30" is not one). */
export function parseIsoDate(text: string): number | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return ms;
}

export function formatIsoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole days from start to end (0 when equal). */
export function daysBetween(startMs: number, endMs: number): number {
  return Math.round((endMs - startMs) / DAY_MS);
}

/** Every date from start to end, both included. */
export function* eachDay(startMs: number, endMs: number): Generator<string> {
  for (let t = startMs; t <= endMs; t += DAY_MS) yield formatIsoDate(t);
}

export { DAY_MS };
