// A manifest's batch records (manifest-schema.ts): built before anything is sent, changed one
// batch at a time as answers come, and read back — for the decisions of manifest-start.ts and
// manifest-resume.ts and for the command's output.

import type { UserBatch } from "./batches.js";
import { type BatchState, type ImportManifest, MANIFEST_VERSION, type ManifestBatch } from "./manifest-schema.js";

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

export function countStates(manifest: ImportManifest): Record<BatchState, number> {
  const counts: Record<BatchState, number> = { pending: 0, uploading: 0, uploaded: 0, ambiguous: 0, rejected: 0 };
  for (const b of manifest.batches) counts[b.state]++;
  return counts;
}

/** Whether the service may hold a task for this batch that the manifest does not know. */
export function isAmbiguous(batch: Pick<ManifestBatch, "state">): boolean {
  return batch.state === "ambiguous" || batch.state === "uploading";
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
