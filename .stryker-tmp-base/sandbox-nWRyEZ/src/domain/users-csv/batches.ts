// @ts-nocheck
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
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
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
  if (stryMutAct_9fa48("4267")) {
    {}
  } else {
    stryCov_9fa48("4267");
    if (stryMutAct_9fa48("4270") ? users.length === 0 && users.length > MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4269") ? false : stryMutAct_9fa48("4268") ? true : (stryCov_9fa48("4268", "4269", "4270"), (stryMutAct_9fa48("4272") ? users.length !== 0 : stryMutAct_9fa48("4271") ? false : (stryCov_9fa48("4271", "4272"), users.length === 0)) || (stryMutAct_9fa48("4275") ? users.length <= MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4274") ? users.length >= MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4273") ? false : (stryCov_9fa48("4273", "4274", "4275"), users.length > MAX_ROWS_PER_UPLOAD)))) {
      if (stryMutAct_9fa48("4276")) {
        {}
      } else {
        stryCov_9fa48("4276");
        throw new RangeError(stryMutAct_9fa48("4277") ? `` : (stryCov_9fa48("4277"), `a batch holds 1 to ${MAX_ROWS_PER_UPLOAD} rows, not ${users.length}`));
      }
    }
    const csv = stringify(users.map(stryMutAct_9fa48("4278") ? () => undefined : (stryCov_9fa48("4278"), u => USER_COLUMNS.map(stryMutAct_9fa48("4279") ? () => undefined : (stryCov_9fa48("4279"), c => u[c])))), // No formula neutralising here: this is data for the service, not for a spreadsheet.
    // A lone CR is quoted too: csv-stringify quotes only the record delimiter (LF), and an
    // unquoted CR in a name is a line end to the service — a phantom row (issue 21 item 5).
    stryMutAct_9fa48("4280") ? {} : (stryCov_9fa48("4280"), {
      header: stryMutAct_9fa48("4281") ? false : (stryCov_9fa48("4281"), true),
      columns: stryMutAct_9fa48("4282") ? [] : (stryCov_9fa48("4282"), [...USER_COLUMNS]),
      delimiter: stryMutAct_9fa48("4283") ? "" : (stryCov_9fa48("4283"), ","),
      record_delimiter: stryMutAct_9fa48("4284") ? "" : (stryCov_9fa48("4284"), "unix"),
      quoted_match: stryMutAct_9fa48("4285") ? /[^\r\n]/ : (stryCov_9fa48("4285"), /[\r\n]/)
    }));
    return stryMutAct_9fa48("4286") ? {} : (stryCov_9fa48("4286"), {
      number,
      csv,
      sha256: createHash(stryMutAct_9fa48("4287") ? "" : (stryCov_9fa48("4287"), "sha256")).update(csv, stryMutAct_9fa48("4288") ? "" : (stryCov_9fa48("4288"), "utf8")).digest(stryMutAct_9fa48("4289") ? "" : (stryCov_9fa48("4289"), "hex")),
      rows: users.map(stryMutAct_9fa48("4290") ? () => undefined : (stryCov_9fa48("4290"), u => u.row))
    });
  }
}

/**
 * Groups rows into batches of at most `size` in file order: 1,600 rows → 750, 750, 100.
 * Holds one batch at a time, so it can consume readValidUserRows directly.
 */
export async function* batchUserRows(users: AsyncIterable<UserRow> | Iterable<UserRow>, size: number = MAX_ROWS_PER_UPLOAD): AsyncGenerator<UserBatch, void, undefined> {
  if (stryMutAct_9fa48("4291")) {
    {}
  } else {
    stryCov_9fa48("4291");
    if (stryMutAct_9fa48("4294") ? (!Number.isInteger(size) || size < 1) && size > MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4293") ? false : stryMutAct_9fa48("4292") ? true : (stryCov_9fa48("4292", "4293", "4294"), (stryMutAct_9fa48("4296") ? !Number.isInteger(size) && size < 1 : stryMutAct_9fa48("4295") ? false : (stryCov_9fa48("4295", "4296"), (stryMutAct_9fa48("4297") ? Number.isInteger(size) : (stryCov_9fa48("4297"), !Number.isInteger(size))) || (stryMutAct_9fa48("4300") ? size >= 1 : stryMutAct_9fa48("4299") ? size <= 1 : stryMutAct_9fa48("4298") ? false : (stryCov_9fa48("4298", "4299", "4300"), size < 1)))) || (stryMutAct_9fa48("4303") ? size <= MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4302") ? size >= MAX_ROWS_PER_UPLOAD : stryMutAct_9fa48("4301") ? false : (stryCov_9fa48("4301", "4302", "4303"), size > MAX_ROWS_PER_UPLOAD)))) {
      if (stryMutAct_9fa48("4304")) {
        {}
      } else {
        stryCov_9fa48("4304");
        throw new RangeError(stryMutAct_9fa48("4305") ? `` : (stryCov_9fa48("4305"), `batch size must be 1..${MAX_ROWS_PER_UPLOAD}, not ${size}`));
      }
    }
    let pending: UserRow[] = stryMutAct_9fa48("4306") ? ["Stryker was here"] : (stryCov_9fa48("4306"), []);
    let number = 0;
    for await (const user of users) {
      if (stryMutAct_9fa48("4307")) {
        {}
      } else {
        stryCov_9fa48("4307");
        pending.push(user);
        if (stryMutAct_9fa48("4310") ? pending.length !== size : stryMutAct_9fa48("4309") ? false : stryMutAct_9fa48("4308") ? true : (stryCov_9fa48("4308", "4309", "4310"), pending.length === size)) {
          if (stryMutAct_9fa48("4311")) {
            {}
          } else {
            stryCov_9fa48("4311");
            yield buildUserBatch(pending, stryMutAct_9fa48("4312") ? --number : (stryCov_9fa48("4312"), ++number));
            pending = stryMutAct_9fa48("4313") ? ["Stryker was here"] : (stryCov_9fa48("4313"), []);
          }
        }
      }
    }
    if (stryMutAct_9fa48("4317") ? pending.length <= 0 : stryMutAct_9fa48("4316") ? pending.length >= 0 : stryMutAct_9fa48("4315") ? false : stryMutAct_9fa48("4314") ? true : (stryCov_9fa48("4314", "4315", "4316", "4317"), pending.length > 0)) yield buildUserBatch(pending, stryMutAct_9fa48("4318") ? --number : (stryCov_9fa48("4318"), ++number));
  }
}

/** Batch sizes for `rows` valid rows, for the plan shown before uploading (--dry-run). */
export function planBatchSizes(rows: number, size: number = MAX_ROWS_PER_UPLOAD): number[] {
  if (stryMutAct_9fa48("4319")) {
    {}
  } else {
    stryCov_9fa48("4319");
    if (stryMutAct_9fa48("4322") ? !Number.isInteger(size) && size < 1 : stryMutAct_9fa48("4321") ? false : stryMutAct_9fa48("4320") ? true : (stryCov_9fa48("4320", "4321", "4322"), (stryMutAct_9fa48("4323") ? Number.isInteger(size) : (stryCov_9fa48("4323"), !Number.isInteger(size))) || (stryMutAct_9fa48("4326") ? size >= 1 : stryMutAct_9fa48("4325") ? size <= 1 : stryMutAct_9fa48("4324") ? false : (stryCov_9fa48("4324", "4325", "4326"), size < 1)))) throw new RangeError(stryMutAct_9fa48("4327") ? `` : (stryCov_9fa48("4327"), `batch size must be a positive integer, not ${size}`));
    const sizes: number[] = stryMutAct_9fa48("4328") ? ["Stryker was here"] : (stryCov_9fa48("4328"), []);
    for (let left = rows; stryMutAct_9fa48("4331") ? left <= 0 : stryMutAct_9fa48("4330") ? left >= 0 : stryMutAct_9fa48("4329") ? false : (stryCov_9fa48("4329", "4330", "4331"), left > 0); stryMutAct_9fa48("4332") ? left += size : (stryCov_9fa48("4332"), left -= size)) sizes.push(stryMutAct_9fa48("4333") ? Math.max(size, left) : (stryCov_9fa48("4333"), Math.min(size, left)));
    return sizes;
  }
}

/**
 * The original spreadsheet row of line `batchRow` of a batch (header = 1, first user = 2),
 * as the service reports it; undefined for the header or a line the batch does not have.
 */
export function originalRowOf(batch: Pick<UserBatch, "rows">, batchRow: number): number | undefined {
  if (stryMutAct_9fa48("4334")) {
    {}
  } else {
    stryCov_9fa48("4334");
    if (stryMutAct_9fa48("4337") ? !Number.isInteger(batchRow) && batchRow < 2 : stryMutAct_9fa48("4336") ? false : stryMutAct_9fa48("4335") ? true : (stryCov_9fa48("4335", "4336", "4337"), (stryMutAct_9fa48("4338") ? Number.isInteger(batchRow) : (stryCov_9fa48("4338"), !Number.isInteger(batchRow))) || (stryMutAct_9fa48("4341") ? batchRow >= 2 : stryMutAct_9fa48("4340") ? batchRow <= 2 : stryMutAct_9fa48("4339") ? false : (stryCov_9fa48("4339", "4340", "4341"), batchRow < 2)))) return undefined;
    return batch.rows[stryMutAct_9fa48("4342") ? batchRow + 2 : (stryCov_9fa48("4342"), batchRow - 2)];
  }
}