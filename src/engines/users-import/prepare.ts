import { batchUserRows } from "../../domain/users-csv/batches.js";
import { type ManifestBatch, pendingBatch } from "../../domain/users-csv/import-manifest.js";
import type { UserRow } from "../../domain/users-csv/validate.js";
import type { SourceBatch } from "./run.js";

// Before the first upload: every batch built and its hash recorded (docs/import-safety.md),
// so that a source that changes before or during the uploads is caught batch by batch
// (runImport compares each batch with the journal's before sending it).

/** The journal's records of the batches `rows` make: all pending, hashes recorded. */
export async function prepareImport(rows: AsyncIterable<UserRow> | Iterable<UserRow>): Promise<ManifestBatch[]> {
  const planned: ManifestBatch[] = [];
  for await (const batch of batchUserRows(rows)) planned.push(pendingBatch(batch));
  return planned;
}

/**
 * The batches of `rows` with their users, for runImport: batchUserRows keeps only the row
 * numbers, and a command shows the rows the service rejects with their values. A batch is
 * yielded right after its last row was read, so exactly its rows are waiting in `seen`.
 */
export async function* sourceBatches(rows: AsyncIterable<UserRow> | Iterable<UserRow>): AsyncGenerator<SourceBatch> {
  const seen: UserRow[] = [];
  async function* tee(): AsyncGenerator<UserRow> {
    for await (const user of rows) {
      seen.push(user);
      yield user;
    }
  }
  for await (const batch of batchUserRows(tee())) yield { batch, users: seen.splice(0, batch.rows.length) };
}
