import { formatDuration } from "../../domain/durations.js";
import type { Printer } from "../../printer.js";

// A plain user token lives an hour (docs/service-spec.md §5): whoever reads one on a terminal
// is told until when it works, on stderr, so that `-o text` stays the bare value for scripts
// (TOKEN=$(simadmin token …)) and a person still sees the deadline (docs/access.md).

/** "valid until 2026-11-27T22:20:36Z (for 1h)", or undefined when nobody is watching. */
export function validUntilNote(printer: Printer, expiresAt: string, now: number): string | undefined {
  if (!printer.io.stderrIsTTY) return undefined;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return undefined;
  const left = at - now;
  const until = new Date(at).toISOString().replace(/\.\d+Z$/, "Z");
  return left > 0
    ? `valid until ${until} (for ${formatDuration(left)}); run the command again for a fresh one`
    : `expired at ${until}`;
}
