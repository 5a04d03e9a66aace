// The rules of one users-CSV row (docs/cli-contract.md "Users CSV", docs/service-spec.md §4.8), and of the
// header that gives the cells their meaning.
//
// Decisions, each forced by one goal: what we upload is what the service will accept, and
// anything doubtful is reported rather than guessed.
// - Header names are trimmed and matched ignoring case (issue 7); the upload always uses
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

import { EmailIndex } from "./email-index.js";
import {
  type InvalidRow,
  type RowProblem,
  USER_COLUMNS,
  type UserColumn,
  type UserRow,
  UsersCsvFileError,
  WHOLE_ROW,
} from "./model.js";

/** Pragmatic address check: one @, a non-empty local part, a dotted domain, no spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it rejects
const EMAIL = /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/;
/** RFC 5321 path limit, less the angle brackets. */
const MAX_EMAIL_LENGTH = 254;
const REQUIRED = "required but empty";

/** The address rule of the users CSV, shared with `users create --email`. */
export function isValidEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

const LOWERCASE_COLUMNS = new Map<string, UserColumn>(USER_COLUMNS.map((c) => [c.toLowerCase(), c]));

export interface HeaderLayout {
  /** Output names in file order: canonical for known columns, the header text otherwise. */
  columns: string[];
  /** Position of each canonical column, in USER_COLUMNS order. */
  positions: Int32Array;
  width: number;
  warnings: string[];
}

/** Maps the header record to column positions, or explains why it cannot be used. */
export function readHeader(cells: readonly string[], row: number): HeaderLayout {
  const positions = new Int32Array(USER_COLUMNS.length).fill(-1);
  const columns: string[] = [];
  const warnings: string[] = [];
  const duplicates: string[] = [];
  cells.forEach((raw, at) => {
    const name = raw.trim();
    const canonical = LOWERCASE_COLUMNS.get(name.toLowerCase());
    if (canonical === undefined) {
      columns.push(name === "" ? `column${at + 1}` : name);
      warnings.push(
        name === ""
          ? `column ${at + 1} has no name; it is ignored`
          : `unknown column ${quote(name)} (column ${at + 1}) is ignored and not uploaded`,
      );
      return;
    }
    const k = USER_COLUMNS.indexOf(canonical);
    if (positions[k] !== -1) duplicates.push(`${canonical} (columns ${positions[k]! + 1} and ${at + 1})`);
    else positions[k] = at;
    columns.push(canonical);
  });
  if (duplicates.length > 0) {
    throw new UsersCsvFileError("DUPLICATE_COLUMN", `row ${row}: duplicate column ${duplicates.join(", ")}`, {
      row,
      columns: duplicates.map((d) => d.slice(0, d.indexOf(" "))),
      hint: "keep one column of each name (names are compared ignoring case)",
    });
  }
  const missing = USER_COLUMNS.filter((_, k) => positions[k] === -1);
  if (missing.length > 0) {
    const found = cells.map((c) => c.trim()).filter((c) => c !== "");
    throw new UsersCsvFileError(
      "MISSING_COLUMN",
      `row ${row}: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} ` +
        `(the header has ${found.length === 0 ? "no names" : found.map(quote).join(", ")})`,
      { row, columns: missing, hint: `the header needs the columns ${USER_COLUMNS.join(",")}, in any order` },
    );
  }
  return { columns, positions, width: cells.length, warnings };
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
    readonly layout: HeaderLayout,
    options: { detectDuplicates: boolean } = { detectDuplicates: true },
  ) {
    this.emails = options.detectDuplicates ? new EmailIndex() : undefined;
  }

  check(cells: readonly string[], row: number): RowVerdict {
    const { positions, width } = this.layout;
    const values = this.values;
    let blank = true;
    for (let k = 0; k < USER_COLUMNS.length; k++) {
      const v = (cells[positions[k]!] ?? "").trim();
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
    const username = values[2]!;
    const email = values[3]!;
    const role = values[4]!;
    const status = values[6]!;
    const action = values[7]!;
    this.found = undefined;
    if (values[0] === "") this.report(row, "firstName", REQUIRED);
    if (values[1] === "") this.report(row, "lastName", REQUIRED);
    if (username === "") this.report(row, "username", REQUIRED);
    else if (email !== "" && username !== email) {
      this.report(row, "username", `must equal email exactly (username ${quote(username)}, email ${quote(email)})`);
    }
    if (email === "") this.report(row, "email", REQUIRED);
    else if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
      this.report(row, "email", `not a valid email address: ${quote(email)}`);
    }
    if (role !== "trainee") {
      this.report(row, "role", role === "" ? REQUIRED : `must be "trainee" (got ${quote(role)}${caseNote(role, "trainee")})`);
    }
    if (status !== "ACTIVE" && status !== "INACTIVE") {
      this.report(
        row,
        "status",
        status === "" ? REQUIRED : `must be ACTIVE or INACTIVE (got ${quote(status)}${caseNote(status, "ACTIVE", "INACTIVE")})`,
      );
    }
    if (action !== "Add" && action !== "Update") {
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
    const { columns, width } = this.layout;
    const kept: Record<string, string> = {};
    for (let i = 0; i < columns.length; i++) kept[columns[i]!] = cells[i] ?? "";
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

/** A value quoted for a message, cut short so that one bad cell cannot flood a terminal. */
export function quote(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}
