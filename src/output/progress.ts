import type { IOStreams } from "./io.js";
import { escapeForLine } from "../text/sanitize.js";

// Long work shows a spinner with counts on stderr — only when stderr is a terminal and
// --quiet is off, so cron mail and CI logs stay clean (docs/cli-contract.md, "Progress").

export interface Progress {
  /** Replaces the spinner text (starts the spinner on first use). */
  update(text: string): void;
  /** Stops the spinner, leaving `text` as a final line when given. */
  done(text?: string): void;
}

const silent: Progress = { update() {}, done() {} };

export async function createProgress(io: IOStreams, options: { quiet: boolean; color: boolean }): Promise<Progress> {
  if (options.quiet || !io.stderrIsTTY) return silent;
  // A terminal that reports 0 columns (a pty without a size) makes ora divide by zero and
  // flood the screen with cursor moves: no spinner there.
  if (!((io.stderr as { columns?: number }).columns ?? 0)) return silent;
  const { default: ora } = await import("ora");
  const spinner = ora({ stream: io.stderr, color: "cyan", isEnabled: true, discardStdin: false });
  return {
    // Spinner lines carry taskIds and labels from the service and file names: escaped.
    update(text) {
      spinner.text = escapeForLine(text);
      if (!spinner.isSpinning) spinner.start();
    },
    done(text) {
      if (text) spinner.stopAndPersist({ symbol: options.color ? "\u001b[32m✔\u001b[39m" : "✔", text: escapeForLine(text) });
      else spinner.stop();
    },
  };
}
