import type { ManifestBatch } from "../../domain/users-csv/import-manifest.js";
import type { SyncRun } from "../../domain/users-sync/records.js";
import type { BatchJournal } from "../../engines/users-import/journal.js";
import type { SyncState } from "./sync-state.js";

// The import engine's journal for a sync (engines/users-import/journal.ts): the run's
// batches live in the `run` entry of the state store, and each change the engine makes is
// one atomic put of that entry — on PostgreSQL a transaction, in a directory an atomic
// rename — so a sync killed at any moment leaves each batch as before or after its change.

export class SyncJournal implements BatchJournal {
  constructor(
    private readonly state: SyncState,
    public run: SyncRun,
  ) {}

  get batches(): readonly ManifestBatch[] {
    return this.run.batches;
  }

  batch(number: number): ManifestBatch {
    const batch = this.run.batches.find((b) => b.number === number);
    if (!batch) throw new RangeError(`the sync's run has no batch ${number}`);
    return batch;
  }

  async update(number: number, patch: Partial<ManifestBatch>): Promise<ManifestBatch> {
    const next: SyncRun = {
      ...this.run,
      batches: this.run.batches.map((b) => (b.number === number ? { ...b, ...patch } : b)),
    };
    await this.state.put({ run: next });
    this.run = next;
    return this.batch(number);
  }

  // A store write needs no room set aside: a failed write is an error before (state
  // "uploading") or after (the answer) the upload, which the engine handles either way.
  async reserve(): Promise<void> {}
  async dropReservation(): Promise<void> {}
}
