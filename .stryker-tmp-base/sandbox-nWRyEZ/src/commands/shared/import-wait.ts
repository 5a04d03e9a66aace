// @ts-nocheck
import type { CommandContext } from "../../context.js";
import { formatDuration } from "../../domain/durations.js";
import { isTerminalState, type ImportTaskState } from "../../domain/users-csv/task-status.js";
import { minimumPollIntervalMs, pollUntil } from "./polling.js";

// --wait of `users import` and `import-status`: polls each unfinished task until it is
// COMPLETED or FAILED, or the time is up. Spec §6: bulk import progress is observed only by
// polling bulk-import/status.
//
// Backoff: the first check after 1 s, then 2, 4, 8, 16 s, then every 30 s — imports of a
// few hundred rows finish in seconds, large ones take minutes, and nobody needs a status
// more often than twice a minute by then. Every poll goes through the shared access budget
// (the scheduler never lets it cause a 429), but a wait shares that budget with the uploads
// still to come, other runs and other scripts on the key: so the steady interval grows with
// the number of unfinished tasks, keeping the polls of one round within the same share of
// the access budget that `completion --wait` uses (polling.ts: POLL_SHARE_OF_ACCESS_BUDGET).

export const DEFAULT_IMPORT_WAIT_TIMEOUT_MS = 30 * 60_000;
export const FIRST_POLL_DELAY_MS = 1000;
export const MAX_POLL_DELAY_MS = 30_000;

/**
 * Delay before poll round `round` (0-based) with `unfinished` tasks to check, when one poll
 * may be sent every `floorMs` on average (polling.ts: minimumPollIntervalMs).
 */
export function pollDelayMs(round: number, unfinished: number, floorMs: number): number {
  const backoff = FIRST_POLL_DELAY_MS * 2 ** Math.min(round, 20);
  const steady = Math.max(MAX_POLL_DELAY_MS, Math.max(1, unfinished) * floorMs);
  return Math.min(backoff, steady);
}

export interface WaitTask {
  taskId: string;
  /** For people: "batch 2" (import) or the taskId itself (import-status). */
  label: string;
  status: ImportTaskState;
}

export interface WaitOutcome {
  /** Every task with its last known status, in the order given. */
  tasks: WaitTask[];
  /** The deadline passed with some task neither COMPLETED nor FAILED. */
  timedOut: boolean;
  polls: number;
}

export interface WaitOptions {
  timeoutMs: number;
  /** One status request; returns the task's state. */
  fetchStatus: (taskId: string) => Promise<ImportTaskState>;
  /** Called when a task's status changes (the import records it in its manifest). */
  onChange?: (task: WaitTask) => Promise<void>;
}

function describe(tasks: readonly WaitTask[]): string {
  if (tasks.length <= 4) return tasks.map((t) => `${t.label} ${t.status}`).join(", ");
  const counts = new Map<string, number>();
  for (const t of tasks) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
  return `${tasks.length} tasks: ${[...counts].map(([s, n]) => `${n} ${s}`).join(", ")}`;
}

/** Polls until every task is COMPLETED or FAILED, or `timeoutMs` has passed. */
export async function waitForTasks(
  { services, printer }: CommandContext,
  initial: readonly WaitTask[],
  options: WaitOptions,
): Promise<WaitOutcome> {
  const tasks = initial.map((t) => ({ ...t }));
  const unfinished = (): WaitTask[] => tasks.filter((t) => !isTerminalState(t.status));
  if (unfinished().length === 0) return { tasks, timedOut: false, polls: 0 };

  const floorMs = minimumPollIntervalMs((await services.rateLimits()).access);
  const progress = await printer.progress();
  const count = unfinished().length;
  if (!printer.io.stderrIsTTY) {
    // No spinner off a terminal (cron, CI): say what the silence is, then one line per change.
    printer.info(
      `waiting for ${count} import task${count === 1 ? "" : "s"} to finish, for up to ${formatDuration(options.timeoutMs)}`,
    );
  }
  const stopListening = services.onWait((event) => {
    progress.update(`${describe(tasks)} · waiting ${formatDuration(event.waitMs)} for the access rate budget`);
  });
  let polls = 0;
  try {
    const outcome = await pollUntil({
      clock: services.clock,
      signal: services.signal,
      timeoutMs: options.timeoutMs,
      delayMs: (round) => pollDelayMs(round, unfinished().length, floorMs),
      poll: async () => {
        for (const task of unfinished()) {
          progress.update(`${describe(tasks)} · checking ${task.label}…`);
          polls++;
          const status = await options.fetchStatus(task.taskId);
          if (status !== task.status) {
            task.status = status;
            if (!printer.io.stderrIsTTY)
              printer.info(`${task.label}${task.label === task.taskId ? "" : ` (${task.taskId})`}: ${status}`);
            await options.onChange?.(task);
          }
        }
        return unfinished().length === 0 ? true : undefined;
      },
      onCountdown: (next, deadline) =>
        progress.update(`${describe(tasks)} · next check in ${formatDuration(next)} · gives up in ${formatDuration(deadline)}`),
    });
    if (!outcome.done) return { tasks, timedOut: true, polls };
    progress.done(describe(tasks));
    return { tasks, timedOut: false, polls };
  } finally {
    stopListening();
    progress.done();
  }
}
