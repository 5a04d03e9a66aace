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
//   batch hashes); it skips batches with a taskId and rejected ones, sends pending ones and
//   re-sends ambiguous (or uploading) ones — --resume is the user's say-so for those.
//
// Pure: no I/O; the command reads and writes the file (atomically).

import { z } from "zod";
import { ImportTaskState } from "../../api/schemas.js";
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
  status: ImportTaskState.optional(),
  statusAt: z.string().optional(),
  uploadedAt: z.string().optional(),
  validUsersCount: z.number().int().nonnegative().optional(),
  invalidUsersCount: z.number().int().nonnegative().optional(),
  /** Rows the service rejected, mapped to rows of the original file. */
  rowErrors: z.array(ManifestRowError).optional(),
  /** The last failure, for people reading the manifest. */
  error: z.string().optional(),
});
export type ManifestBatch = z.infer<typeof ManifestBatch>;

export const ImportManifest = z.object({
  manifestVersion: z.literal(MANIFEST_VERSION),
  /** The CSV's file name (not its path: the pair may be moved together). */
  file: z.string(),
  sha256: Sha256,
  bytes: z.number().int().nonnegative(),
  organizationId: z.string().min(1),
  skipInvalid: z.boolean(),
  totalRows: z.number().int().nonnegative(),
  validRows: z.number().int().nonnegative(),
  invalidRows: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  batches: z.array(ManifestBatch),
});
export type ImportManifest = z.infer<typeof ImportManifest>;

/** `staff.csv` → `staff`: the stem the side files are named after (`staff.import.json`). */
function stem(csvPath: string): string {
  return /\.csv$/i.test(csvPath) ? csvPath.slice(0, -4) : csvPath;
}

export function manifestPathFor(csvPath: string): string {
  return `${stem(csvPath)}.import.json`;
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
    const where = sameOrg ? "" : ` into organization ${JSON.stringify(existing.organizationId)}`;
    return {
      kind: "refuse",
      message: `${names.file} was already imported${where} according to ${names.manifest} (${describeSent(existing)}); nothing was sent`,
      hint: sameOrg
        ? `run \`${rerun}\` to continue that import without sending a batch twice, or remove ${names.manifest} to import the whole file again`
        : `to import it into another organization too, remove or move ${names.manifest} first`,
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

export type BatchAction = "send" | "resend-ambiguous" | "skip-uploaded" | "skip-rejected";

/** What a run does with each batch of the manifest (a fresh one is all "send"). */
export function batchAction(batch: ManifestBatch): BatchAction {
  switch (batch.state) {
    case "pending":
      return "send";
    case "uploading":
    case "ambiguous":
      return "resend-ambiguous";
    case "uploaded":
      return "skip-uploaded";
    case "rejected":
      return "skip-rejected";
  }
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
