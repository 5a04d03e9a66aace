// What a --resume (or --retry-failed) run of `users import` does with the batches of its
// manifest (docs/cli-contract.md "Retries"; whether it may start at all is manifest-start.ts):
// - --resume needs the manifest of this very file (same SHA-256, same organization, same
//   batch hashes); it skips batches with a taskId and rejected ones and sends pending ones.
//   An ambiguous (or uploading) batch is NOT sent again by a plain --resume:
//   the service has no idempotency key, so nothing can tell whether it holds a task for
//   it; the run names it with how to check and ends with exit 8 ("the service's answer is
//   unknown"). Only `--resume --resend-ambiguous` sends it again (docs/cli-contract.md "Retries").
//
// Pure: no I/O.

import type { ImportManifest, ManifestBatch } from "./manifest-schema.js";
import { isAmbiguous } from "./manifest-batches.js";

/**
 * Before a --resume or --retry-failed run sends anything: batches to send again keep what
 * their earlier send left in `history` (taskIds included). FAILED tasks (only with
 * --retry-failed) become pending; ambiguous ones stay ambiguous (re-sent with a warning only
 * under --resend-ambiguous, which is also when their earlier send goes to `history`).
 */
export function prepareResend(
  manifest: ImportManifest,
  retryFailed: boolean,
  nowIso: string,
  resendAmbiguous = false,
): ImportManifest {
  const batches = manifest.batches.map((b): ManifestBatch => {
    const failed = retryFailed && b.state === "uploaded" && b.status === "FAILED";
    const ambiguous = resendAmbiguous && isAmbiguous(b);
    if (!failed && !ambiguous) return b;
    const entry = {
      state: b.state,
      ...(b.taskId === undefined ? {} : { taskId: b.taskId }),
      ...(b.status === undefined ? {} : { status: b.status }),
      ...(b.uploadedAt === undefined ? {} : { uploadedAt: b.uploadedAt }),
      ...(b.error === undefined ? {} : { error: b.error }),
      replacedAt: nowIso,
    };
    const history = [...(b.history ?? []), entry];
    if (!failed) return { ...b, history };
    return {
      number: b.number,
      rows: b.rows,
      firstRow: b.firstRow,
      lastRow: b.lastRow,
      sha256: b.sha256,
      state: "pending",
      sends: b.sends,
      history,
    };
  });
  return { ...manifest, batches, updatedAt: nowIso };
}

/** How many batches a --retry-failed run would send again. */
export function countResends(manifest: ImportManifest, retryFailed: boolean): { failed: number; ambiguous: number } {
  let failed = 0;
  let ambiguous = 0;
  for (const b of manifest.batches) {
    if (retryFailed && b.state === "uploaded" && b.status === "FAILED") failed++;
    if (isAmbiguous(b)) ambiguous++;
  }
  return { failed, ambiguous };
}

/**
 * Under --resume the batches computed from the file must be the manifest's: same count,
 * same hashes in the same order. Returns a problem, or undefined when they match.
 */
export function checkSameBatches(
  manifest: ImportManifest,
  computed: readonly Pick<ManifestBatch, "number" | "sha256">[],
): string | undefined {
  if (manifest.batches.length !== computed.length) {
    return `the file now makes ${computed.length} batches, the manifest records ${manifest.batches.length}`;
  }
  for (const [i, batch] of computed.entries()) {
    const recorded = manifest.batches[i];
    if (!recorded || recorded.number !== batch.number || recorded.sha256 !== batch.sha256) {
      return `batch ${batch.number} differs from the one recorded`;
    }
  }
  return undefined;
}

export type BatchAction = "send" | "resend-ambiguous" | "hold-ambiguous" | "skip-uploaded" | "skip-rejected";

/**
 * What a run does with each batch of the manifest (a fresh one is all "send"). An ambiguous
 * batch is held back (named, exit 8) unless the user passed --resend-ambiguous.
 */
export function batchAction(batch: ManifestBatch, resendAmbiguous = false): BatchAction {
  switch (batch.state) {
    case "pending":
      return "send";
    case "uploading":
    case "ambiguous":
      return resendAmbiguous ? "resend-ambiguous" : "hold-ambiguous";
    case "uploaded":
      return "skip-uploaded";
    case "rejected":
      return "skip-rejected";
  }
}

/**
 * `--resume --mark-imported 2,3`: the user checked that the service imported these held
 * batches, so they are recorded "uploaded" — with no taskId, since none is known — and never
 * sent again; their earlier send stays in `history`. Only a held batch (ambiguous or
 * uploading) can be marked: a pending one was never received, an uploaded one has its task.
 * Returns the manifest, or the problem for a usage error.
 */
export function markImported(
  manifest: ImportManifest,
  numbers: readonly number[],
  nowIso: string,
  /** --accepted-task 2=<taskId>: the task the service gave the batch (printed when the manifest could not record it). */
  tasks: ReadonlyMap<number, string> = new Map(),
): { ok: true; manifest: ImportManifest } | { ok: false; problem: string } {
  const all = [...new Set([...numbers, ...tasks.keys()])];
  if (numbers.some((n) => tasks.has(n)))
    return { ok: false, problem: "a batch is given both to --mark-imported and to --accepted-task" };
  for (const number of all) {
    const batch = manifest.batches.find((b) => b.number === number);
    if (batch === undefined)
      return { ok: false, problem: `there is no batch ${number} (the manifest records ${manifest.batches.length})` };
    if (!isAmbiguous(batch)) {
      const why =
        batch.state === "pending"
          ? "it was never received by the service (a plain --resume sends it)"
          : batch.state === "rejected"
            ? "the service rejected it"
            : `it is recorded as uploaded${batch.taskId ? ` (task ${batch.taskId})` : ""}`;
      return { ok: false, problem: `batch ${number} is not held back as possibly received: ${why}` };
    }
  }
  const marked = new Set(all);
  const batches = manifest.batches.map((b): ManifestBatch => {
    if (!marked.has(b.number)) return b;
    const taskId = tasks.get(b.number);
    const entry = {
      state: b.state,
      ...(b.uploadedAt === undefined ? {} : { uploadedAt: b.uploadedAt }),
      ...(b.error === undefined ? {} : { error: b.error }),
      replacedAt: nowIso,
    };
    const { error: _error, ...rest } = b;
    if (taskId !== undefined)
      return {
        ...rest,
        state: "uploaded",
        taskId,
        history: [...(b.history ?? []), entry],
        settled: { by: "--accepted-task", at: nowIso, note: "the task the service gave this batch, recorded by the user" },
      };
    return {
      ...rest,
      state: "uploaded",
      history: [...(b.history ?? []), entry],
      settled: {
        by: "--mark-imported",
        at: nowIso,
        note: "the user checked that the service imported this batch; no task id is known",
      },
    };
  });
  return { ok: true, manifest: { ...manifest, batches, updatedAt: nowIso } };
}

/** "2,3" → [2, 3]: the batch numbers of --mark-imported; undefined when not such a list. */
export function parseBatchNumbers(text: string): number[] | undefined {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.some((p) => !/^[1-9]\d{0,6}$/.test(p))) return undefined;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** "2=task-1,3=task-2" → {2 → task-1, 3 → task-2}; undefined when not such a list. */
export function parseAcceptedTasks(text: string): Map<number, string> | undefined {
  const tasks = new Map<number, string>();
  for (const part of text.split(",")) {
    const match = /^\s*([1-9]\d{0,6})=(\S+?)\s*$/.exec(part);
    if (!match?.[1] || !match[2] || tasks.has(Number(match[1]))) return undefined;
    tasks.set(Number(match[1]), match[2]);
  }
  return tasks;
}
