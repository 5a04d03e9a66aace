import { formatDuration } from "../../domain/durations.js";
import type { Printer } from "../../printer.js";

// A plain user token lives an hour (docs/service-spec.md §5): whoever reads one on a terminal
// is told until when it works, on stderr, so that `-o text` stays the bare value for scripts
// (TOKEN=$(simadmin token …)) and a person still sees the deadline (docs/access.md). Only
// where the value itself reaches the terminal for a person: a table or the bare text on a
// terminal stdout. In `$(…)`, a pipe, a file or a machine format (json, ndjson, csv, where
// `expiresAt` is data) the terminal's stderr gets nothing.

/** Formats a person reads; the others carry `expiresAt` as a field. */
const READ_BY_PEOPLE = new Set(["table", "text"]);

/** "valid until 2026-11-27T22:20:36Z (for 1h)", or undefined when nobody is watching. */
export function validUntilNote(printer: Printer, expiresAt: string, now: number): string | undefined {
  const { io, outputPlan } = printer;
  if (!io.stderrIsTTY || !io.stdoutIsTTY || outputPlan.out !== undefined || !READ_BY_PEOPLE.has(outputPlan.format))
    return undefined;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return undefined;
  const left = at - now;
  const until = new Date(at).toISOString().replace(/\.\d+Z$/, "Z");
  return left > 0
    ? `valid until ${until} (for ${formatDuration(left)}); run the command again for a fresh one`
    : `expired at ${until}`;
}
