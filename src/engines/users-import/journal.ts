import type { ManifestBatch } from "../../domain/users-csv/import-manifest.js";

// Where an import records its batches as they go (docs/import-safety.md): `users import`
// keeps them in the manifest beside its CSV (commands/users-import/side-files.ts), `users
// sync` in the state store (commands/users-sync/sync-journal.ts). Every change is written
// before the engine goes on, so a run killed at any moment leaves each batch as it was
// before or after the change — which is what lets the next run hold back a batch that may
// have been received instead of sending it twice.

export interface BatchJournal {
  /** Every batch of this import, as last written. */
  readonly batches: readonly ManifestBatch[];
  /** Batch `number` (a RangeError when there is none: a bug). */
  batch(number: number): ManifestBatch;
  /**
   * Writes the change and returns the batch as written. `spare`: the "uploading" record,
   * written after reserve() without using the room it set aside for the answer.
   */
  update(number: number, patch: Partial<ManifestBatch>, options?: { spare?: boolean }): Promise<ManifestBatch>;
  /**
   * Before an upload: set aside what recording the answer will need (disk space for a file
   * journal), so that an accepted batch can always be recorded. A failure here is thrown
   * before anything is sent.
   */
  reserve(): Promise<void>;
  /** Gives back an unused reservation (the run ends). */
  dropReservation(): Promise<void>;
}
