// The batch manifest of `users import` (docs/cli-contract.md "Users CSV" and "Retries"): a file
// `<file>.import.json` beside the CSV that records, for one import of one version of the
// file, every batch's rows, hash, taskId and last known status — as soon as each is known.
// It is what makes a failure halfway recoverable without duplicating a batch.
// This file is its shape (zod schemas, the types derived from them); the rules that read it
// are in manifest-start.ts (may a run start) and manifest-resume.ts (what a resumed run sends).
//
// Batch states:
//   pending    not sent (or sent and certainly not received: 429, connection refused, 401…)
//   uploading  written just before the upload is sent; found in a manifest, it means the
//              run died mid-upload — it may have been received, exactly like "ambiguous"
//   uploaded   the service answered with a taskId
//   ambiguous  the upload failed in a way that leaves open whether the service accepted it
//              (timeout, reset, 5xx, connection dropped after sending)
//   rejected   the service answered 400 "no valid row": no task exists, its rows are errors

import * as z from "zod";
import { IMPORT_TASK_STATES } from "./task-status.js";

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
  /**
   * Why the answer that gave this batch its task cannot be believed about its rows (its
   * counts disagree with its row errors, docs/import-safety.md "Answers"): `users sync`
   * then keeps the rows out of its baseline and holds the batch like an ambiguous one.
   */
  disputed: z.string().optional(),
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
   * The service the batches went to. Absent in manifests written before
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
