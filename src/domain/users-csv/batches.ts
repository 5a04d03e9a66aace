// Valid user rows → upload batches (docs/service-spec.md §4.8: at most 750 records per file).
//
// Each batch is a fresh CSV with the canonical header, comma-delimited, LF line ends, so
// that its bytes — and therefore its SHA-256, which the import manifest records — depend
// only on the rows it holds: the same rows always give the same hash, whatever the
// original file's delimiter, line ends, column order or extra columns. That is what lets
// `--resume` recognise a batch it already sent.
//
// The service numbers the rows of an upload like a spreadsheet (service-notes.md: header =
// row 1), so line n of batch b is `batch.rows[n - 2]` in the original file.

import { createHash } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import { USER_COLUMNS, type UserRow } from "./validate.js";

export const MAX_ROWS_PER_UPLOAD = 750;

export interface UserBatch {
  /** 1-based position among the file's batches. */
  number: number;
  /** The upload: canonical header, then one line per row. */
  csv: string;
  /** SHA-256 (hex) of the UTF-8 bytes of `csv`. */
  sha256: string;
  /** Original spreadsheet row of each batch line: line n (header = 1) is rows[n - 2]. */
  rows: number[];
}

/** Renders one batch. Values are uploaded exactly as given (already trimmed by validation). */
export function buildUserBatch(users: readonly UserRow[], number: number): UserBatch {
  if (users.length === 0 || users.length > MAX_ROWS_PER_UPLOAD) {
    throw new RangeError(`a batch holds 1 to ${MAX_ROWS_PER_UPLOAD} rows, not ${users.length}`);
  }
  const csv = stringify(
    users.map((u) => USER_COLUMNS.map((c) => u[c])),
    // No formula neutralising here: this is data for the service, not for a spreadsheet.
    // A lone CR is quoted too: csv-stringify quotes only the record delimiter (LF), and an
    // unquoted CR in a name is a line end to the service — a phantom row.
    { header: true, columns: [...USER_COLUMNS], delimiter: ",", record_delimiter: "unix", quoted_match: /[\r\n]/ },
  );
  return {
    number,
    csv,
    // A string is hashed as its UTF-8 bytes.
    sha256: createHash("sha256").update(csv).digest("hex"),
    rows: users.map((u) => u.row),
  };
}

/**
 * Groups rows into batches of at most `size` in file order: 1,600 rows → 750, 750, 100.
 * Holds one batch at a time, so it can consume readValidUserRows directly.
 */
export async function* batchUserRows(
  users: AsyncIterable<UserRow> | Iterable<UserRow>,
  size: number = MAX_ROWS_PER_UPLOAD,
): AsyncGenerator<UserBatch, void, undefined> {
  if (!Number.isInteger(size) || size < 1 || size > MAX_ROWS_PER_UPLOAD) {
    throw new RangeError(`batch size must be 1..${MAX_ROWS_PER_UPLOAD}, not ${size}`);
  }
  let pending: UserRow[] = [];
  let number = 0;
  for await (const user of users) {
    pending.push(user);
    if (pending.length === size) {
      yield buildUserBatch(pending, ++number);
      pending = [];
    }
  }
  if (pending.length > 0) yield buildUserBatch(pending, ++number);
}

/** Batch sizes for `rows` valid rows, for the plan shown before uploading (--dry-run). */
export function planBatchSizes(rows: number, size: number = MAX_ROWS_PER_UPLOAD): number[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive integer, not ${size}`);
  const sizes: number[] = [];
  for (let left = rows; left > 0; left -= size) sizes.push(Math.min(size, left));
  return sizes;
}

/**
 * The original spreadsheet row of line `batchRow` of a batch (header = 1, first user = 2),
 * as the service reports it; undefined for the header or a line the batch does not have.
 */
export function originalRowOf(batch: Pick<UserBatch, "rows">, batchRow: number): number | undefined {
  // An index the array lacks (below 0, past the end, not an integer) reads as undefined.
  return batch.rows[batchRow - 2];
}
