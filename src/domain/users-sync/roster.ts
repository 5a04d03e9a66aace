// An HR roster → the users it lists, checked by the users-CSV row rules (users-csv/rows.ts)
// (docs/cli-contract.md "Sync": "a users CSV (the reading rules above) or an .xlsx workbook",
// "--map firstName=\"First Name\" for other header names").
//
// Decisions where the contract is silent:
// - A roster need not carry `action` or `status` (the sync decides them), nor `username`
//   (it must equal the email, so it is taken from it) nor `role` (only `trainee` exists).
//   When present they are checked like any users CSV; a given `status` is what HR says
//   (INACTIVE: the user is kept but deactivated). A given `action` is ignored with a warning.
// - Header names match as in every file the tool reads (csv-input/header.ts headerKey():
//   `First Name`, `first_name` and `first-name` all mean firstName).
// - `--map field=Header` renames the column whose header is `Header` (trimmed, ignoring
//   case; else the one column equal to it by headerKey()) to `field`. A header that is not in the file is a usage error naming the headers
//   there are; a column already called `field` is then ignored (the mapping wins), with a
//   warning.
// - Blank rows are skipped; row numbers stay the sheet's.
// - Without a username column the username is the email: a row without an email is told
//   that its email is missing, not that a username it never had is empty.
//
// Pure: the table comes from output/table-file.ts.

import { type CsvTable, isBlankRow } from "../csv-input/table.js";
import { excerpt } from "../csv-input/errors.js";
import { CsvFileError } from "../csv-input/errors.js";
import { headerKey, HEADER_MATCHING, mapHeader } from "../csv-input/header.js";
import { readHeader, RowChecker } from "../users-csv/rows.js";
import { type InvalidRow, USER_COLUMNS, WHOLE_ROW } from "../users-csv/model.js";
import { INVISIBLE_CHARACTERS, keyOf } from "./user-key.js";

/** Roster columns `--map` may name. */
export const MAPPABLE_COLUMNS = ["firstName", "lastName", "email", "username", "teamName", "role", "status"] as const;
export type MappableColumn = (typeof MAPPABLE_COLUMNS)[number];

/** Columns every roster must have (after --map). */
const ROSTER_REQUIRED = ["firstName", "lastName", "email"] as const;

export interface RosterUser {
  /** Spreadsheet row in the roster. */
  row: number;
  firstName: string;
  lastName: string;
  email: string;
  teamName: string;
  status: "ACTIVE" | "INACTIVE";
}

export interface Roster {
  users: RosterUser[];
  /** Rows that break a rule, with their problems (row numbers of the roster). */
  invalid: InvalidRow[];
  /** Keys (user-key.ts) of the invalid rows that have an email: users a sync must leave alone. */
  invalidEmails: Set<string>;
  warnings: string[];
}

/** A --map that names a header the file does not have: the caller makes it a usage error. */
export class RosterMapError extends Error {}

/** `firstName=First Name` → [firstName, "First Name"]; throws RosterMapError for a bad one. */
export function parseMapping(text: string): [MappableColumn, string] {
  // No "=": the whole text is the column and the header is empty, refused below.
  const at = text.includes("=") ? text.indexOf("=") : text.length;
  const field = text.slice(0, at).trim();
  const header = text.slice(at + 1).trim();
  const canonical = MAPPABLE_COLUMNS.find((c) => headerKey(c) === headerKey(field));
  if (canonical === undefined || header === "") {
    throw new RosterMapError(
      `--map ${excerpt(text)}: expected <column>=<header in the file>, column one of ${MAPPABLE_COLUMNS.join(", ")}`,
    );
  }
  return [canonical, header];
}

/** Where `header` (a --map's right side) is: the same text ignoring case, else the one name equal by headerKey(); -1 when none. */
function findHeader(names: readonly string[], header: string): number {
  const exact = names.findIndex((n) => n.toLowerCase() === header.toLowerCase());
  if (exact >= 0) return exact;
  const key = headerKey(header);
  const near = names.flatMap((n, i) => (key !== "" && headerKey(n) === key ? [i] : []));
  return near.length === 1 ? near[0]! : -1;
}

/** Reads the roster's users. Throws CsvFileError for a header without the needed columns, RosterMapError for a --map naming no column. */
export function readRoster(table: CsvTable, mappings: readonly [MappableColumn, string][] = []): Roster {
  const warnings: string[] = [];
  const names = table.header.cells.map((c) => c.trim());
  const renamed = [...names];
  for (const [field, header] of mappings) {
    const at = findHeader(names, header);
    if (at < 0) {
      const shown = names
        .filter((n) => n !== "")
        .slice(0, 10)
        .map((n) => excerpt(n, 30));
      throw new RosterMapError(
        `--map ${field}=${excerpt(header)}: the roster has no column ${excerpt(header)} (its header: ${shown.join(", ")})`,
      );
    }
    renamed.forEach((n, i) => {
      if (i !== at && headerKey(n) === headerKey(field)) {
        renamed[i] = `${n} (replaced by --map)`;
        warnings.push(`column ${excerpt(n, 30)} is ignored: --map ${field}=${excerpt(header, 30)} takes its place`);
      }
    });
    renamed[at] = field;
  }
  // What the roster has of the users columns; the required ones must be there.
  const wanted = [...USER_COLUMNS];
  const keys = new Set(renamed.map(headerKey));
  const present = wanted.filter((c) => keys.has(headerKey(c)));
  const missing = ROSTER_REQUIRED.filter((c) => !present.includes(c));
  if (missing.length > 0) {
    const shown = names
      .filter((n) => n !== "")
      .slice(0, 8)
      .map((n) => excerpt(n, 30));
    throw new CsvFileError(
      "MISSING_COLUMN",
      `row ${table.header.row}: the roster has no column ${missing.join(", ")} (its header: ${shown.join(", ")})`,
      {
        row: table.header.row,
        columns: missing,
        hint: `name the column ${missing[0]} (${HEADER_MATCHING}) or map it with --map ${missing[0]}="<its header>"`,
      },
    );
  }
  const layout = mapHeader(renamed, table.header.row, present);
  warnings.push(...layout.warnings.map((w) => w.replace(" and not uploaded", "")));
  if (present.includes("action")) warnings.push("the roster's action column is ignored: users sync decides Add or Update itself");
  const at = (column: string): number => {
    const k = present.indexOf(column as (typeof present)[number]);
    return layout.positions[k] ?? -1;
  };
  const positions = USER_COLUMNS.map((c) => at(c));
  const checker = new RowChecker(readHeader([...USER_COLUMNS], table.header.row));
  const users: RosterUser[] = [];
  const invalid: InvalidRow[] = [];
  const invalidEmails = new Set<string>();
  let blank = 0;
  for (const { row, cells } of table.rows) {
    if (isBlankRow(cells)) {
      blank++;
      continue;
    }
    const email = (cells[positions[3]!] ?? "").trim();
    const original: Record<string, string> = {};
    renamed.forEach((name, i) => (original[name] = cells[i] ?? ""));
    if (cells.length !== layout.width) {
      invalid.push({
        row,
        cells: original,
        problems: [{ row, field: WHOLE_ROW, message: `has ${cells.length} cells, expected ${layout.width} like the header` }],
      });
      if (email !== "") invalidEmails.add(keyOf(email));
      continue;
    }
    // The row in USER_COLUMNS order, with what a roster may leave out filled in.
    const values = USER_COLUMNS.map((column, k) => {
      const p = positions[k]!;
      if (column === "action") return "Add";
      if (p >= 0) return cells[p] ?? "";
      if (column === "username") return email;
      if (column === "role") return "trainee";
      if (column === "status") return "ACTIVE";
      return "";
    });
    // One address, one user: written in NFC (what the service receives), and never with a
    // character nobody can see (it would make another user of the same address).
    values[2] = values[2]!.normalize("NFC");
    values[3] = values[3]!.normalize("NFC");
    const problems = checker.check(values, row) === "valid" ? [] : [...checker.problems];
    // A username taken from the email has no problem of its own: the email's is the one to fix.
    if (positions[2]! < 0) problems.splice(0, problems.length, ...problems.filter((p) => p.field !== "username"));
    const hidden = email.match(INVISIBLE_CHARACTERS);
    if (hidden)
      problems.push({
        row,
        field: "email",
        message: `contains an invisible character (${[...new Set(hidden)].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).join(", ")}); the address would name another user`,
      });
    // Written in NFC and without invisible characters, two ways of writing one address are
    // the same text: the users CSV's duplicate rule (case ignored) reports the second.
    if (problems.length > 0) {
      invalid.push({ row, cells: original, problems });
      if (email !== "") invalidEmails.add(keyOf(email));
      continue;
    }
    const v = checker.values;
    users.push({
      row,
      firstName: v[0]!,
      lastName: v[1]!,
      email: v[3]!,
      teamName: v[5]!,
      status: v[6] === "INACTIVE" ? "INACTIVE" : "ACTIVE",
    });
  }
  if (blank > 0) warnings.push(`${blank} blank ${blank === 1 ? "row was" : "rows were"} skipped`);
  return { users, invalid, invalidEmails, warnings };
}
