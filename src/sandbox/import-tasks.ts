import type { ImportRow } from "./users-csv.js";

// Bulk-import tasks (docs/service-spec.md §4.8–4.9). A task advances by reading the clock (no
// timers): SCHEDULED for one step, STARTED for the next, then COMPLETED or FAILED, so tests
// move time instead of sleeping.

export type TaskStatus = "SCHEDULED" | "STARTED" | "COMPLETED" | "FAILED";

export interface TaskSummary {
  taskId: string;
  organizationId: string;
  status: TaskStatus;
  fileName: string | undefined;
  createdAt: string;
  /** Valid rows uploaded in this task (the ones it imports). */
  rowsUploaded: number;
  rows: ImportRow[];
}

export interface ImportTask {
  taskId: string;
  organizationId: string;
  fileName: string | undefined;
  createdAtMs: number;
  rows: ImportRow[];
  /** Set once the task has finished and its rows were applied (or not, when FAILED). */
  final?: "COMPLETED" | "FAILED";
}

/** The documented FAILED rule: a task fails when any of its rows has an email at this domain. */
export const FAILING_EMAIL_DOMAIN = "fail.example.com";

function statusAt(task: ImportTask, now: number, stepMs: number): TaskStatus {
  if (task.final) return task.final;
  return now - task.createdAtMs < stepMs ? "SCHEDULED" : "STARTED";
}

export function summarizeTask(task: ImportTask, now: number, stepMs: number): TaskSummary {
  return {
    taskId: task.taskId,
    organizationId: task.organizationId,
    status: statusAt(task, now, stepMs),
    fileName: task.fileName,
    createdAt: new Date(task.createdAtMs).toISOString(),
    rowsUploaded: task.rows.length,
    rows: task.rows,
  };
}

/**
 * Marks final, in creation order, every task that has spent two steps (SCHEDULED, STARTED),
 * and returns the ones that COMPLETED now: the caller applies their rows.
 */
export function settleTasks(tasks: readonly ImportTask[], now: number, stepMs: number): ImportTask[] {
  const completed: ImportTask[] = [];
  for (const task of tasks) {
    if (task.final || now - task.createdAtMs < 2 * stepMs) continue;
    const fails = task.rows.some((r) => r.email.toLowerCase().endsWith(`@${FAILING_EMAIL_DOMAIN}`));
    task.final = fails ? "FAILED" : "COMPLETED";
    if (!fails) completed.push(task);
  }
  return completed;
}
