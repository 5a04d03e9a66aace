// The batch manifest of `users import` (docs/cli-contract.md "Users CSV" and "Retries"): a file
// `<file>.import.json` beside the CSV that records, for one import of one version of the
// file, every batch's rows, hash, taskId and last known status — as soon as each is known.
// It is what makes a failure halfway recoverable without duplicating a batch (issue 7).
//
// Batch states:
//   pending    not sent (or sent and certainly not received: 429, connection refused, 401…)
//   uploading  written just before the upload is sent; found in a manifest, it means the
//              run died mid-upload — it may have been received, exactly like "ambiguous"
//   uploaded   the service answered with a taskId
//   ambiguous  the upload failed in a way that leaves open whether the service accepted it
//              (timeout, reset, 5xx, connection dropped after sending)
//   rejected   the service answered 400 "no valid row": no task exists, its rows are errors
//
// Rules (decided here; the command's other decisions are in commands/users-import/users-import.ts):
// - Without --resume, a manifest that shows anything may have been sent for this same file
//   refuses the run (exit 2): running the same import twice is the accident to prevent.
//   A manifest where nothing was sent is simply replaced.
// - A manifest of another version of the file (other SHA-256) is replaced when its import
//   was finished (every batch uploaded or rejected) — the monthly HR export written over
//   last month's — and refuses the run when it was not: half an import is pending there
//   and only the user can say whether to finish or abandon it (delete the manifest).
// - --resume needs the manifest of this very file (same SHA-256, same organization, same
//   batch hashes); it skips batches with a taskId and rejected ones and sends pending ones.
//   An ambiguous (or uploading) batch is NOT sent again by a plain --resume (issue 22 item
//   1): the service has no idempotency key, so nothing can tell whether it holds a task for
//   it; the run names it with how to check and ends with exit 8 ("the service's answer is
//   unknown"). Only `--resume --resend-ambiguous` sends it again (docs/cli-contract.md "Retries").
//
// Pure: no I/O; the command reads and writes the file (atomically).

import * as z from "zod";
import { IMPORT_TASK_STATES } from "./task-status.js";
import type { UserBatch } from "./batches.js";

export const MANIFEST_VERSION = 1;
export const BATCH_STATES = ["pending", "uploading", "uploaded", "ambiguous", "rejected"] as const;
export type BatchState = (typeof BATCH_STATES)[number];

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 in hex");

export const ManifestRowError = z.object({
  /** Row of the original file (undefined → null when the service named a row the batch lacks). */
  row: z.number().int().nullable(),
  batchRow: z.number().int().nullable(),
  field: z.string().nullable(),
  messages: z.array(z.string()),
});
export type ManifestRowError = z.infer<typeof ManifestRowError>;

export const ManifestBatch = z.object({
  number: z.number().int().positive(),
  /** How many user rows the batch holds. */
  rows: z.number().int().positive(),
  /** Spreadsheet rows of its first and last user in the original file. */
  firstRow: z.number().int().positive(),
  lastRow: z.number().int().positive(),
  /** SHA-256 of the uploaded CSV bytes (batches.ts): the same rows always hash the same. */
  sha256: Sha256,
  state: z.enum(BATCH_STATES),
  /** How many times the batch was sent (a re-sent ambiguous batch counts twice). */
  sends: z.number().int().nonnegative().default(0),
  taskId: z.string().min(1).optional(),
  status: z.enum(IMPORT_TASK_STATES).optional(),
  statusAt: z.string().optional(),
  uploadedAt: z.string().optional(),
  validUsersCount: z.number().int().nonnegative().optional(),
  invalidUsersCount: z.number().int().nonnegative().optional(),
  /** Rows the service rejected, mapped to rows of the original file. */
  rowErrors: z.array(ManifestRowError).optional(),
  /** The last failure, for people reading the manifest. */
  error: z.string().optional(),
  /**
   * A held (possibly received) batch the user checked and declared imported with
   * `--resume --mark-imported <batch>`: recorded "uploaded" without a taskId.
   */
  settled: z.object({ by: z.enum(["--mark-imported", "--accepted-task"]), at: z.string(), note: z.string() }).optional(),
  /**
   * Earlier sends of this batch, oldest first, kept when it is sent again (a FAILED task
   * under --retry-failed, an ambiguous upload under --resume): no taskId is ever lost.
   */
  history: z
    .array(
      z.object({
        state: z.enum(BATCH_STATES),
        taskId: z.string().optional(),
        status: z.enum(IMPORT_TASK_STATES).optional(),
        uploadedAt: z.string().optional(),
        error: z.string().optional(),
        replacedAt: z.string(),
      }),
    )
    .optional(),
});
export type ManifestBatch = z.infer<typeof ManifestBatch>;

/** One import of the file into one service and organization. */
export const ImportSection = z.object({
  manifestVersion: z.literal(MANIFEST_VERSION),
  /** The CSV's file name (not its path: the pair may be moved together). */
  file: z.string(),
  sha256: Sha256,
  bytes: z.number().int().nonnegative(),
  /**
   * The service the batches went to (issue 12 item 12). Absent in manifests written before
   * it was recorded: such a section is taken as this run's when the organization matches.
   */
  baseUrl: z.string().optional(),
  apiVersion: z.number().int().optional(),
  organizationId: z.string().min(1),
  skipInvalid: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  validRows: z.number().int().nonnegative(),
  invalidRows: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  batches: z.array(ManifestBatch),
});
export type ImportSection = z.infer<typeof ImportSection>;

/**
 * The file: the latest import at the top level (what older versions read), imports of the
 * same file into other services or organizations under `otherImports`, kept untouched.
 */
export const ImportManifest = ImportSection.extend({ otherImports: z.array(ImportSection).optional() });
export type ImportManifest = z.infer<typeof ImportManifest>;

/** Whose import a section records: base URL (no trailing slash), API version, organization. */
export interface ImportTarget {
  baseUrl: string;
  apiVersion: number;
  organizationId: string;
}

export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

export function isSectionFor(section: ImportSection, target: ImportTarget): boolean {
  if (section.organizationId !== target.organizationId) return false;
  if (section.baseUrl === undefined) return true; // written before the service was recorded
  return (
    normalizeBaseUrl(section.baseUrl) === normalizeBaseUrl(target.baseUrl) && (section.apiVersion ?? 2) === target.apiVersion
  );
}

/** This run's section of a manifest file (if any) and every other one, kept as they are. */
export function splitManifest(
  file: ImportManifest | undefined,
  target: ImportTarget,
): { mine: ImportManifest | undefined; others: ImportSection[] } {
  if (file === undefined) return { mine: undefined, others: [] };
  const { otherImports, ...top } = file;
  const all: ImportSection[] = [top, ...(otherImports ?? [])];
  const mine = all.find((s) => isSectionFor(s, target));
  return { mine, others: all.filter((s) => s !== mine) };
}

/** The file to write: this run's section on top, the others kept. */
export function joinManifest(mine: ImportManifest, others: readonly ImportSection[]): ImportManifest {
  const { otherImports: _ignored, ...top } = mine;
  return others.length > 0 ? { ...top, otherImports: [...others] } : top;
}

/** "org-demo at https://api.example.com (API v2)" for messages. */
export function describeTarget(section: Pick<ImportSection, "organizationId" | "baseUrl" | "apiVersion">): string {
  return `organization ${section.organizationId}${section.baseUrl ? ` at ${section.baseUrl} (API v${section.apiVersion ?? 2})` : ""}`;
}

/** `staff.csv` → `staff`: the stem the side files are named after (`staff.import.json`). */
function stem(csvPath: string): string {
  return /\.csv$/i.test(csvPath) ? csvPath.slice(0, -4) : csvPath;
}

export function manifestPathFor(csvPath: string): string {
  return `${stem(csvPath)}.import.json`;
}

/** The lock that keeps two runs from importing the same file at once (output/file-lock.ts). */
export function lockPathFor(csvPath: string): string {
  return `${stem(csvPath)}.import.lock`;
}

export function errorsPathFor(csvPath: string): string {
  return `${stem(csvPath)}.errors.csv`;
}

export type ParsedManifest = { ok: true; manifest: ImportManifest } | { ok: false; problem: string };

export function parseManifest(text: string): ParsedManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON (${(error as Error).message})` };
  }
  const parsed = ImportManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: issue ? `${issue.path.join(".") || "document"}: ${issue.message}` : "not a manifest" };
  }
  return { ok: true, manifest: parsed.data };
}

export function serializeManifest(manifest: ImportManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A batch as the manifest records it before it is sent. */
export function pendingBatch(batch: Pick<UserBatch, "number" | "rows" | "sha256">): ManifestBatch {
  const first = batch.rows[0];
  const last = batch.rows[batch.rows.length - 1];
  if (first === undefined || last === undefined) throw new RangeError(`batch ${batch.number} has no rows`);
  return {
    number: batch.number,
    rows: batch.rows.length,
    firstRow: first,
    lastRow: last,
    sha256: batch.sha256,
    state: "pending",
    sends: 0,
  };
}

export interface ManifestSource {
  file: string;
  sha256: string;
  bytes: number;
  baseUrl: string;
  apiVersion: number;
  organizationId: string;
  skipInvalid: boolean;
  totalRows: number;
  validRows: number;
  invalidRows: number;
}

export function newManifest(source: ManifestSource, batches: ManifestBatch[], nowIso: string): ImportManifest {
  return { manifestVersion: MANIFEST_VERSION, ...source, createdAt: nowIso, updatedAt: nowIso, batches };
}

/** A copy with batch `number` changed. */
export function updateBatch(
  manifest: ImportManifest,
  number: number,
  patch: Partial<ManifestBatch>,
  nowIso: string,
): ImportManifest {
  let found = false;
  const batches = manifest.batches.map((b) => {
    if (b.number !== number) return b;
    found = true;
    return { ...b, ...patch };
  });
  if (!found) throw new RangeError(`the manifest has no batch ${number}`);
  return { ...manifest, batches, updatedAt: nowIso };
}

/** Whether the service may have received this batch (it has, or may have, a task). */
export function mayHaveBeenSent(batch: ManifestBatch): boolean {
  return batch.state !== "pending";
}

/** Nothing left to send without the user's say-so, and nothing in doubt. */
export function isFinished(manifest: ImportManifest): boolean {
  return manifest.batches.every((b) => b.state === "uploaded" || b.state === "rejected");
}

export type StartDecision =
  | { kind: "fresh" }
  /** A manifest exists but may be replaced; `note` says why, for stderr. */
  | { kind: "replace"; note: string }
  | { kind: "resume"; manifest: ImportManifest }
  /** Exit 2, nothing sent. */
  | { kind: "refuse"; message: string; hint: string };

function describeSent(manifest: ImportManifest): string {
  const counts = countStates(manifest);
  const parts: string[] = [];
  if (counts.uploaded) parts.push(`${counts.uploaded} uploaded`);
  if (counts.ambiguous + counts.uploading) parts.push(`${counts.ambiguous + counts.uploading} possibly received`);
  if (counts.rejected) parts.push(`${counts.rejected} rejected`);
  if (counts.pending) parts.push(`${counts.pending} not sent`);
  return `${manifest.batches.length} batch${manifest.batches.length === 1 ? "" : "es"}: ${parts.join(", ")}`;
}

export function countStates(manifest: ImportManifest): Record<BatchState, number> {
  const counts: Record<BatchState, number> = { pending: 0, uploading: 0, uploaded: 0, ambiguous: 0, rejected: 0 };
  for (const b of manifest.batches) counts[b.state]++;
  return counts;
}

/**
 * What to do with an existing manifest (or none) for the file as it is now. `names` are
 * for messages: the CSV's and the manifest's display names.
 */
export function decideStart(
  existing: ImportManifest | undefined,
  current: { sha256: string; organizationId: string },
  resume: boolean,
  names: { file: string; manifest: string; command: string },
): StartDecision {
  const rerun = `${names.command} --resume`;
  if (existing === undefined) {
    if (!resume) return { kind: "fresh" };
    return {
      kind: "refuse",
      message: `--resume: there is no manifest ${names.manifest} to resume from`,
      hint: `run without --resume to start the import of ${names.file}`,
    };
  }
  const sameFile = existing.sha256 === current.sha256;
  const sameOrg = existing.organizationId === current.organizationId;
  const anythingSent = existing.batches.some(mayHaveBeenSent);
  if (resume) {
    if (!sameFile) {
      return {
        kind: "refuse",
        message: `--resume: ${names.file} is not the file recorded in ${names.manifest} (its content changed since that import: SHA-256 ${current.sha256.slice(0, 12)}… instead of ${existing.sha256.slice(0, 12)}…)`,
        hint: `restore the file that was imported and resume, or remove ${names.manifest} to import the changed file as a new import (rows imported already would be sent again)`,
      };
    }
    if (!sameOrg) {
      return {
        kind: "refuse",
        message: `--resume: ${names.manifest} records an import into organization ${JSON.stringify(existing.organizationId)}, not ${JSON.stringify(current.organizationId)}`,
        hint: `resume with --org ${existing.organizationId}`,
      };
    }
    return { kind: "resume", manifest: existing };
  }
  if (!anythingSent) {
    return { kind: "replace", note: `${names.manifest} recorded no upload; starting afresh` };
  }
  if (sameFile) {
    const again = existing.batches.some((b) => b.status === "FAILED");
    const held = existing.batches.some(isAmbiguous);
    return {
      kind: "refuse",
      message: `${names.file} was already imported into ${describeTarget(existing)} according to ${names.manifest} (${describeSent(existing)}); nothing was sent`,
      hint:
        `run \`${rerun}\` to continue that import without sending a batch twice` +
        (again ? `, or \`${names.command} --retry-failed\` to also send its FAILED batches again` : "") +
        (held ? `; a possibly-received batch is sent again only with \`${rerun} --resend-ambiguous\`` : "") +
        `; remove ${names.manifest} only to import the whole file again`,
    };
  }
  if (isFinished(existing)) {
    return {
      kind: "replace",
      note: `replacing ${names.manifest}: it recorded a finished import of an earlier version of ${names.file}`,
    };
  }
  return {
    kind: "refuse",
    message: `${names.manifest} records an unfinished import of an earlier version of ${names.file} (${describeSent(existing)}), and the file has changed since; nothing was sent`,
    hint: `restore that version and run \`${rerun}\` to finish it, or remove ${names.manifest} to abandon it and import the file as it is now`,
  };
}

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

/** Whether the service may hold a task for this batch that the manifest does not know. */
export function isAmbiguous(batch: Pick<ManifestBatch, "state">): boolean {
  return batch.state === "ambiguous" || batch.state === "uploading";
}

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

/** The row range of a batch for people: "rows 2–751". */
export function rowRange(batch: Pick<ManifestBatch, "firstRow" | "lastRow">): string {
  return batch.firstRow === batch.lastRow ? `row ${batch.firstRow}` : `rows ${batch.firstRow}–${batch.lastRow}`;
}

/** One output record per batch (the command's data after an upload run). */
export function batchRecord(batch: ManifestBatch): Record<string, unknown> {
  return {
    batch: batch.number,
    rows: batch.rows,
    firstRow: batch.firstRow,
    lastRow: batch.lastRow,
    state: batch.state,
    taskId: batch.taskId ?? null,
    status: batch.status ?? null,
    rejectedRows: batch.state === "rejected" ? batch.rows : (batch.rowErrors?.length ?? 0),
  };
}
