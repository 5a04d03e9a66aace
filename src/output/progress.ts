import type { IOStreams } from "./io.js";
import { escapeForLine } from "../text/sanitize.js";
import { formatDuration } from "../domain/durations.js";

// Long work shows progress on stderr, never on stdout (docs/cli-contract.md, "Progress").
// - On a terminal: a spinner with counts, its line cut to the terminal's width.
// - Without one (CI logs, cron mail): one plain line at least every 30 seconds while the
//   work goes on, so that a CI system does not kill a silent job (docs/cli-contract.md, "CI
//   and cron"). A run shorter than that prints nothing, so cron mail stays clean.
// - With --quiet: nothing.
// Every command that asks the printer for progress gets this, nothing else to do.

export interface Progress {
  /** Replaces the spinner text (starts the spinner on first use). */
  update(text: string): void;
  /** Stops the spinner, leaving `text` as a final line when given. */
  done(text?: string): void;
}

const silent: Progress = { update() {}, done() {} };

/** The contract's bound between two progress lines without a terminal. */
export const HEARTBEAT_BOUND_MS = 30_000;
/** A line is due this long after the previous one: a margin under the bound for a timer that fires late. */
export const HEARTBEAT_MS = 25_000;

export interface ProgressOptions {
  quiet: boolean;
  color: boolean;
  /** The injected clock's now(): heartbeats are timed by it (tests move it). */
  now?: () => number;
  /** Runs `check` every `ms` until the returned stop is called (default: an unref'd setInterval). */
  every?: (ms: number, check: () => void) => () => void;
}

export async function createProgress(io: IOStreams, options: ProgressOptions): Promise<Progress> {
  if (options.quiet) return silent;
  if (!io.stderrIsTTY) return heartbeat(io, options.now ?? Date.now, options.every ?? everyReal);
  // A terminal that reports 0 columns (a pty without a size) makes ora divide by zero and
  // flood the screen with cursor moves: no spinner there.
  const columns = (io.stderr as { columns?: number }).columns ?? 0;
  if (!columns) return silent;
  const { default: ora } = await import("ora");
  const spinner = ora({ stream: io.stderr, color: "cyan", isEnabled: true, discardStdin: false });
  // A line wider than the terminal wraps, and ora then clears only the last row of it: the
  // spinner would leave a trail. The symbol and its space take two columns, and the last
  // column is left free (some terminals wrap on it).
  const fit = (text: string): string =>
    fitWidth(fitParts(escapeForLine(text), Math.max(1, columns - 3)), Math.max(1, columns - 3));
  return {
    // Spinner lines carry taskIds and labels from the service and file names: escaped.
    update(text) {
      spinner.text = fit(text);
      if (!spinner.isSpinning) spinner.start();
    },
    done(text) {
      if (text) spinner.stopAndPersist({ symbol: options.color ? "\u001b[32m✔\u001b[39m" : "✔", text: escapeForLine(text) });
      else spinner.stop();
    },
  };
}

/**
 * A progress line of ` · `-separated parts made to fit `width` by leaving out parts before
 * the last, from the right: what it is (the first part) and the time left (the last, "about
 * 6m left") are what a narrow terminal must still show, the counts and the next wait between
 * them can go (docs/ci-and-cron.md "Heartbeats"). A line that still does not fit is cut by fitWidth.
 */
export function fitParts(text: string, width: number): string {
  const parts = text.split(" · ");
  const length = (list: readonly string[]): number => [...list.join(" · ")].length;
  while (parts.length > 2 && length(parts) > width) parts.splice(parts.length - 2, 1);
  return parts.join(" · ");
}

/** `text` cut to `width` characters (code points), ending in "…" when cut. */
export function fitWidth(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

function everyReal(ms: number, check: () => void): () => void {
  const timer = setInterval(check, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Without a terminal: the latest progress text as a plain line whenever HEARTBEAT_MS have
 * passed since the last one (or since the start), on the next update or on a timer tick,
 * whichever comes first — a long single request gets its lines from the timer.
 */
function heartbeat(io: IOStreams, now: () => number, every: NonNullable<ProgressOptions["every"]>): Progress {
  const started = now();
  let last = started;
  let text = "working";
  let stop: (() => void) | undefined;
  const check = (): void => {
    const at = now();
    if (at - last < HEARTBEAT_MS) return;
    last = at;
    // Whole seconds passed, written as every other duration ("2m 5s", domain/durations.ts).
    io.stderr.write(`${escapeForLine(text)} (${formatDuration(Math.floor((at - started) / 1000) * 1000)} so far)\n`);
  };
  stop = every(1000, check);
  return {
    update(next) {
      text = next;
      stop ??= every(1000, check);
      check();
    },
    done() {
      stop?.();
      stop = undefined;
    },
  };
}
