// The rules of one users-CSV row (docs/cli-contract.md "Users CSV", docs/service-spec.md §4.8), and of the
// header that gives the cells their meaning.
//
// Decisions, each forced by one goal: what we upload is what the service will accept, and
// anything doubtful is reported rather than guessed.
// - Header names are trimmed and matched ignoring case; the upload always uses
//   the canonical spelling. A column named twice is a file error: which one would count?
// - Unknown extra columns are ignored with a warning, so an HR export with more columns
//   imports as-is; they are never uploaded. A column with an empty name (a trailing
//   delimiter) is ignored the same way.
// - Cell values are trimmed before checking, and the trimmed value is what gets uploaded:
//   surrounding spaces are export noise, and "a@x.com " vs "a@x.com" would otherwise fail
//   the service's exact username = email rule for no visible reason.
// - role, status and action must match exactly (`trainee`, `ACTIVE`/`INACTIVE`,
//   `Add`/`Update`): the service names exact values, and forgiving case here could only
//   mean uploading a value we changed behind the user's back. The message says so.
// - username must equal email exactly (case included), as the service demands.
// - Duplicate emails are found ignoring case (see email-index.ts); the later
//   row is the error and names the first. Every row with a non-empty email takes part,
//   valid or not: "one row per email in a file" is about the file.
// - A row whose cells are all empty (a blank line, or ";;;;;;;" from a spreadsheet) is no
//   user: it keeps its row number but is skipped, with one warning for all of them.
// - A row with the wrong number of cells gets that single problem: its cells may be
//   shifted, so checking them by column would only add noise.
// - A cell holding NUL or another control character (C0 but tab and line breaks, DEL, C1:
//   what a binary file or a wrong --encoding leaves) is that column's one problem, named
//   with its code point: such a value would arrive at the service garbled or invisible.
//   Only the eight known columns are checked; ignored columns are never uploaded.
// - firstName, lastName and teamName longer than 256 characters are rejected here, where
//   the row number is known, rather than by the service mid-import.

import { excerpt } from "../csv-input/errors.js";
import { codePointName, findControlCharacter, type HeaderLayout, mapHeader } from "../csv-input/header.js";
import { unguardCsvCell } from "../../text/sanitize.js";
import { EmailIndex } from "./email-index.js";
import { type InvalidRow, type RowProblem, USER_COLUMNS, type UserColumn, type UserRow, WHOLE_ROW } from "./model.js";

/** Pragmatic address check: one @, a non-empty local part, a dotted domain, no spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it rejects
const EMAIL = /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/;
/** RFC 5321 path limit, less the angle brackets. */
const MAX_EMAIL_LENGTH = 254;
const REQUIRED = "required but empty";
/** Longest firstName, lastName or teamName accepted, in characters (code points). */
export const MAX_NAME_LENGTH = 256;
/** USER_COLUMNS positions of the name columns. */
const NAME_COLUMNS = [0, 1, 5];

/** The address rule of the users CSV, shared with `users create --email`. */
export function isValidEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

/**
 * A users-CSV header. `errorsFile`: the file is a `<file>.errors.csv` we wrote (its header
 * ends with `row` and `errors`): those two columns are ignored and the formula guard is
 * undone on every cell, so a corrected errors file imports the original values exactly
 * (docs/cli-contract.md "Users CSV").
 */
export interface UsersHeaderLayout extends HeaderLayout {
  errorsFile: boolean;
}
export type { HeaderLayout } from "../csv-input/header.js";

/** Columns our errors file adds after the user's own. */
const ERRORS_FILE_COLUMNS = ["row", "errors"];

/** Maps the header record to column positions, or explains why it cannot be used (see csv-input/header.ts). */
export function readHeader(cells: readonly string[], row: number): UsersHeaderLayout {
  const tail = cells.slice(-ERRORS_FILE_COLUMNS.length).map((c) => c.trim());
  const errorsFile = cells.length > ERRORS_FILE_COLUMNS.length && tail.every((name, i) => name === ERRORS_FILE_COLUMNS[i]);
  if (!errorsFile) return { ...mapHeader(cells, row, USER_COLUMNS), errorsFile };
  const layout = mapHeader(cells.slice(0, -ERRORS_FILE_COLUMNS.length), row, USER_COLUMNS);
  return { ...layout, columns: [...layout.columns, ...ERRORS_FILE_COLUMNS], width: cells.length, errorsFile };
}

export type RowVerdict = "blank" | "valid" | "invalid";

/**
 * Checks data rows one at a time, in file order (duplicate detection depends on it).
 * Valid rows allocate nothing, which keeps pass 1 close to bare parsing speed.
 */
export class RowChecker {
  /** Absent when the caller already knows the duplicates (pass 2). */
  private readonly emails: EmailIndex | undefined;
  /** Problems of the last row judged invalid. */
  problems: RowProblem[] = [];
  /** Trimmed values of the last row judged valid, in USER_COLUMNS order. */
  readonly values: string[] = new Array<string>(USER_COLUMNS.length).fill("");

  constructor(
    readonly layout: UsersHeaderLayout,
    options: { detectDuplicates: boolean } = { detectDuplicates: true },
  ) {
    this.emails = options.detectDuplicates ? new EmailIndex() : undefined;
  }

  check(cells: readonly string[], row: number): RowVerdict {
    const { positions, width, errorsFile } = this.layout;
    const values = this.values;
    let blank = true;
    for (let k = 0; k < USER_COLUMNS.length; k++) {
      const cell = cells[positions[k]!] ?? "";
      const v = (errorsFile ? unguardCsvCell(cell) : cell).trim();
      values[k] = v;
      if (v !== "") blank = false;
    }
    if (blank && cells.every((c) => c.trim() === "")) return "blank";

    if (cells.length !== width) {
      this.problems = [
        {
          row,
          field: WHOLE_ROW,
          message: `has ${cells.length} cell${cells.length === 1 ? "" : "s"}, expected ${width} like the header`,
        },
      ];
      return "invalid";
    }

    // Indexes follow USER_COLUMNS: firstName, lastName, username, email, role, teamName, status, action.
    this.found = undefined;
    // A column with a control character gets that problem alone (bit k set: column k is done).
    let done = 0;
    const controls = hasControlCharacter(values);
    for (let k = 0; controls && k < USER_COLUMNS.length; k++) {
      const at = findControlCharacter(values[k]!);
      if (at < 0) continue;
      done |= 1 << k;
      this.report(
        row,
        USER_COLUMNS[k]!,
        `contains the control character ${codePointName(values[k]!, at)} at position ${at + 1}; remove it (or check --encoding)`,
      );
    }
    for (let n = 0; n < NAME_COLUMNS.length; n++) {
      const k = NAME_COLUMNS[n]!;
      const v = values[k]!;
      if (v.length > MAX_NAME_LENGTH && (done & (1 << k)) === 0 && codePoints(v) > MAX_NAME_LENGTH) {
        done |= 1 << k;
        this.report(row, USER_COLUMNS[k]!, `is ${codePoints(v)} characters long; at most ${MAX_NAME_LENGTH} are accepted`);
      }
    }
    // Columns already reported above are not checked again (bit k set: column k is done).
    const username = values[2]!;
    const email = values[3]!;
    const role = values[4]!;
    const status = values[6]!;
    const action = values[7]!;
    if ((done & 1) === 0 && values[0] === "") this.report(row, "firstName", REQUIRED);
    if ((done & 2) === 0 && values[1] === "") this.report(row, "lastName", REQUIRED);
    if ((done & 4) === 0) {
      if (username === "") this.report(row, "username", REQUIRED);
      else if ((done & 8) === 0 && email !== "" && username !== email) {
        this.report(row, "username", `must equal email exactly (username ${quote(username)}, email ${quote(email)})`);
      }
    }
    if ((done & 8) === 0) {
      if (email === "") this.report(row, "email", REQUIRED);
      else if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
        this.report(row, "email", `not a valid email address: ${quote(email)}`);
      }
    }
    if ((done & 16) === 0 && role !== "trainee") {
      this.report(row, "role", role === "" ? REQUIRED : `must be "trainee" (got ${quote(role)}${caseNote(role, "trainee")})`);
    }
    if ((done & 64) === 0 && status !== "ACTIVE" && status !== "INACTIVE") {
      this.report(
        row,
        "status",
        status === "" ? REQUIRED : `must be ACTIVE or INACTIVE (got ${quote(status)}${caseNote(status, "ACTIVE", "INACTIVE")})`,
      );
    }
    if ((done & 128) === 0 && action !== "Add" && action !== "Update") {
      this.report(
        row,
        "action",
        action === "" ? REQUIRED : `must be Add or Update (got ${quote(action)}${caseNote(action, "Add", "Update")})`,
      );
    }
    if (email !== "" && this.emails !== undefined) {
      const first = this.emails.add(email, row);
      if (first !== 0)
        this.report(row, "email", `duplicate of row ${first}: each email may appear once (compared ignoring case)`);
    }

    if (this.found === undefined) return "valid";
    this.problems = this.found;
    return "invalid";
  }

  private found: RowProblem[] | undefined;

  private report(row: number, field: UserColumn, message: string): void {
    (this.found ??= []).push({ row, field, message });
  }

  /** The last valid row as a UserRow. */
  userRow(row: number): UserRow {
    const v = this.values;
    return {
      firstName: v[0]!,
      lastName: v[1]!,
      username: v[2]!,
      email: v[3]!,
      role: v[4]!,
      teamName: v[5]!,
      status: v[6]!,
      action: v[7]!,
      row,
    };
  }

  /** The last invalid row with its original cells. */
  invalidRow(cells: readonly string[], row: number): InvalidRow {
    const { columns, width, errorsFile } = this.layout;
    const kept: Record<string, string> = {};
    // An errors file's own `row` and `errors` are not carried into the next errors file.
    const count = errorsFile ? columns.length - ERRORS_FILE_COLUMNS.length : columns.length;
    for (let i = 0; i < count; i++) kept[columns[i]!] = errorsFile ? unguardCsvCell(cells[i] ?? "") : (cells[i] ?? "");
    const invalid: InvalidRow = { row, cells: kept, problems: this.problems };
    if (cells.length > width) invalid.extraCells = cells.slice(width);
    return invalid;
  }
}

/** Points out that only the case is wrong, the commonest slip with these values. */
function caseNote(value: string, ...allowed: string[]): string {
  const lower = value.toLowerCase();
  return allowed.some((a) => a.toLowerCase() === lower) ? "; values are case-sensitive" : "";
}

/** A value quoted for a message, cut short (60 characters) so that one bad cell cannot flood a terminal. */
export function quote(value: string): string {
  return excerpt(value);
}

/**
 * Whether any value holds a control character (see findControlCharacter): a plain loop,
 * because it runs on every cell of every row and a regex per cell costs several times more.
 */
function hasControlCharacter(values: readonly string[]): boolean {
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f) continue;
      if (c < 0x20 ? c !== 0x09 && c !== 0x0a && c !== 0x0d : c <= 0x9f) return true;
    }
  }
  return false;
}

function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}
