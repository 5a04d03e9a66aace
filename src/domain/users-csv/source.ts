// Bytes to records for users files: the generic CSV reader (domain/csv-input/reader.ts) does
// the decoding, dialect and parsing; this file only keeps the users-facing names.

import type { Options as CsvParseOptions } from "csv-parse";
import { csvParseOptions, type CsvSourceInfo, type Delimiter } from "../csv-input/reader.js";

/**
 * The csv-parse options for a users file with LF/CRLF line ends, exported so that the
 * benchmark measures bare csv-parse with exactly what the reader uses.
 * @public bench/users-validate.mjs imports it from dist/, where knip does not look.
 */
export function usersCsvParseOptions(delimiter: Delimiter): CsvParseOptions {
  return csvParseOptions({ delimiter, lineEnding: "lf" });
}

export type SourceInfo = CsvSourceInfo;
