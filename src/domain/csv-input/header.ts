// The header record → where each wanted column is. Shared by the users CSV and the bulk
// `--from-csv` files (docs/cli-contract.md "Users CSV", "Bulk operations").
//
// - Names are matched by headerKey(): case, spaces (non-breaking ones included), `_` and `-`
//   do not count, so `First Name`, `first_name` and `first-name` all mean firstName, in every
//   file the tool reads (docs/users-csv.md "Header names"); callers use the canonical spelling.
// - A wanted column named twice is a file error: which one would count?
// - Unknown columns are ignored with ONE warning line however many there are (a header
//   that is really a whole file on one line has thousands), naming the first few; so are
//   columns with an empty name (trailing delimiters).
// - Messages quote header names cut short (excerpt()), never the whole header.

import { CsvFileError, excerpt } from "./errors.js";

export interface HeaderLayout {
  /** Names in file order: canonical for wanted columns, the header text (or `columnN`) otherwise. */
  columns: string[];
  /** Position of each wanted column, in the order given; every one is present. */
  positions: Int32Array;
  /** Cells in the header. */
  width: number;
  /** At most one line about unknown columns and one about unnamed ones. */
  warnings: string[];
}

/** Unknown names a warning or error names before "and N more". */
const NAMES_SHOWN = 3;
const NAME_CHARS = 30;

/**
 * A header name as compared: case, white space, `_` and `-` ignored ("First Name",
 * "first_name", "FIRST-NAME" → "firstname"). The one rule for every header the tool reads.
 */
export function headerKey(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

/** How header names are compared, for hints. */
export const HEADER_MATCHING = "case, spaces, _ and - do not matter";

/** Maps `cells` (the header, spreadsheet row `row`) to the `wanted` columns, or throws CsvFileError. */
export function mapHeader(cells: readonly string[], row: number, wanted: readonly string[]): HeaderLayout {
  const byKey = new Map(wanted.map((c, k) => [headerKey(c), k]));
  const positions = new Int32Array(wanted.length).fill(-1);
  const columns: string[] = [];
  const unknown: string[] = [];
  let unknownCount = 0;
  const unnamed: number[] = [];
  const duplicates: string[] = [];
  cells.forEach((raw, at) => {
    const name = raw.trim();
    const k = name === "" ? undefined : byKey.get(headerKey(name));
    if (k === undefined) {
      columns.push(name === "" ? `column${at + 1}` : name);
      if (name === "") unnamed.push(at + 1);
      else if (unknownCount++ < NAMES_SHOWN) unknown.push(`${excerpt(name, NAME_CHARS)} (column ${at + 1})`);
      return;
    }
    const canonical = wanted[k]!;
    if (positions[k] !== -1) duplicates.push(`${canonical} (columns ${positions[k]! + 1} and ${at + 1})`);
    else positions[k] = at;
    columns.push(canonical);
  });
  if (duplicates.length > 0) {
    throw new CsvFileError("DUPLICATE_COLUMN", `row ${row}: duplicate column ${duplicates.join(", ")}`, {
      row,
      columns: duplicates.map((d) => d.slice(0, d.indexOf(" "))),
      hint: `keep one column of each name (${HEADER_MATCHING})`,
    });
  }
  const missing = wanted.filter((_, k) => positions[k] === -1);
  if (missing.length > 0) {
    const found = cells.map((c) => c.trim()).filter((c) => c !== "");
    const shown = found.slice(0, 8).map((c) => excerpt(c, NAME_CHARS));
    const more = found.length > shown.length ? ` and ${found.length - shown.length} more` : "";
    throw new CsvFileError(
      "MISSING_COLUMN",
      `row ${row}: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} ` +
        `(the header has ${found.length === 0 ? "no names" : shown.join(", ") + more})`,
      { row, columns: missing, hint: `the header needs the columns ${wanted.join(",")}, in any order (${HEADER_MATCHING})` },
    );
  }
  const warnings: string[] = [];
  if (unknownCount > 1) {
    const more = unknownCount > unknown.length ? ` and ${unknownCount - unknown.length} more` : "";
    warnings.push(`${unknownCount} unknown columns are ignored and not uploaded: ${unknown.join(", ")}${more}`);
  } else if (unknownCount === 1) warnings.push(`unknown column ${unknown[0]} is ignored and not uploaded`);
  if (unnamed.length > 1) {
    const list = unnamed.slice(0, NAMES_SHOWN).join(", ") + (unnamed.length > NAMES_SHOWN ? ", …" : "");
    warnings.push(`${unnamed.length} columns have no name (columns ${list}); they are ignored`);
  } else if (unnamed.length === 1) warnings.push(`column ${unnamed[0]} has no name; it is ignored`);
  return { columns, positions, width: cells.length, warnings };
}

/**
 * Where a cell holds a character no name or id can contain: C0 controls other than tab,
 * line feed and carriage return (NUL first of all), DEL and the C1 controls (which is what
 * a wrong --encoding leaves behind). -1 when there is none.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
export function findControlCharacter(value: string): number {
  const m = CONTROL.exec(value);
  return m === null ? -1 : m.index;
}

/** "U+0000" for the character at `at`. */
export function codePointName(value: string, at: number): string {
  return `U+${value.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0")}`;
}
