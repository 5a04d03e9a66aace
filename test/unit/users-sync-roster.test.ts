import { describe, expect, it } from "vitest";
import { CsvFileError } from "../../src/domain/csv-input/errors.js";
import type { CsvTable } from "../../src/domain/csv-input/table.js";
import { parseMapping, readRoster, RosterMapError } from "../../src/domain/users-sync/roster.js";

// `users sync` rosters (docs/cli-contract.md "Sync"; issue 23), the rules of
// src/domain/users-sync/roster.ts one by one (issue 27 item 3: survivors of `npm run mutate`).
// Expectations are written out.

function table(header: string[], ...rows: string[][]): CsvTable {
  return { header: { row: 1, cells: header }, rows: rows.map((cells, i) => ({ row: i + 2, cells })), info: {} };
}

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

const COLUMNS_HINT = "column one of firstName, lastName, email, username, teamName, role, status";

describe("parseMapping", () => {
  it.each<[string, [string, string]]>([
    ["firstName=First Name", ["firstName", "First Name"]],
    [" FIRSTNAME = Given ", ["firstName", "Given"]],
    ["teamname=Dept", ["teamName", "Dept"]],
    ["email=Mail=Work", ["email", "Mail=Work"]],
    ["status=Active?", ["status", "Active?"]],
  ])("reads %j", (text, mapping) => {
    expect(parseMapping(text)).toEqual(mapping);
  });

  it.each([
    ["firstName", '--map "firstName"'],
    ["nickname=Nick", '--map "nickname=Nick"'],
    ["firstName=", '--map "firstName="'],
    ["firstName=  ", '--map "firstName=  "'],
    ["=First", '--map "=First"'],
    ["action=Do", '--map "action=Do"'],
    // Without "=", no column is cut out of the text ("emailx" is not "email" + "x").
    ["emailx", '--map "emailx"'],
  ])("refuses %j with the columns it may name", (text, start) => {
    const error = thrown(() => parseMapping(text));
    expect(error).toBeInstanceOf(RosterMapError);
    expect(error.message).toBe(`${start}: expected <column>=<header in the file>, ${COLUMNS_HINT}`);
  });
});

describe("readRoster", () => {
  it("needs only firstName, lastName and email: username is the email, role trainee, status ACTIVE, no team", () => {
    const roster = readRoster(table(["firstName", "lastName", "email"], ["Ana", "Diaz", "Ana@Example.com"]));
    expect(roster).toEqual({
      users: [{ row: 2, firstName: "Ana", lastName: "Diaz", email: "Ana@Example.com", teamName: "", status: "ACTIVE" }],
      invalid: [],
      invalidEmails: new Set(),
      warnings: [],
    });
  });

  it("reads teamName and status when given, header names ignoring case and blanks", () => {
    const roster = readRoster(
      table(
        [" FirstName ", "LASTNAME", "Email", "teamname", "Status", "role", "username"],
        ["Ana", "Diaz", "ana@example.com", "Sales", "INACTIVE", "trainee", "ana@example.com"],
        ["Bo", "Li", "bo@example.com", "Ops", "ACTIVE", "trainee", "bo@example.com"],
      ),
    );
    expect(roster.users).toEqual([
      { row: 2, firstName: "Ana", lastName: "Diaz", email: "ana@example.com", teamName: "Sales", status: "INACTIVE" },
      { row: 3, firstName: "Bo", lastName: "Li", email: "bo@example.com", teamName: "Ops", status: "ACTIVE" },
    ]);
    expect(roster.warnings).toEqual([]);
  });

  it("checks given columns like a users CSV: a role other than trainee, a username other than the email", () => {
    const roster = readRoster(
      table(
        ["firstName", "lastName", "email", "role", "username"],
        ["Ana", "Diaz", "ana@example.com", "admin", "ana@example.com"],
        ["Bo", "Li", "BO@example.com", "trainee", "bo@other.com"],
      ),
    );
    expect(roster.users).toEqual([]);
    expect(roster.invalid.map((r) => r.problems.map((p) => p.field))).toEqual([["role"], ["username"]]);
    expect([...roster.invalidEmails]).toEqual(["ana@example.com", "bo@example.com"]);
  });

  it("ignores a given action column, with a warning, whatever it says", () => {
    const roster = readRoster(table(["firstName", "lastName", "email", "action"], ["Ana", "Diaz", "ana@example.com", "Delete"]));
    expect(roster.users.map((u) => u.email)).toEqual(["ana@example.com"]);
    expect(roster.warnings).toEqual(["the roster's action column is ignored: users sync decides Add or Update itself"]);
  });

  it("warns about an unknown column without saying it is not uploaded", () => {
    const roster = readRoster(table(["firstName", "lastName", "email", "Dept"], ["Ana", "Diaz", "ana@example.com", "x"]));
    expect(roster.warnings).toEqual(['unknown column "Dept" (column 4) is ignored']);
  });

  it("keeps a row of the wrong width out, with the cells it had, and leaves its user alone", () => {
    const roster = readRoster(
      table(
        ["firstName", "lastName", "email"],
        ["Ana", "Diaz", " Ana@Example.com ", "extra"],
        ["Bo", "Li"],
        ["Cy", "Wu", "cy@example.com"],
      ),
    );
    expect(roster.invalid).toEqual([
      {
        row: 2,
        cells: { firstName: "Ana", lastName: "Diaz", email: " Ana@Example.com " },
        problems: [{ row: 2, field: "(row)", message: "has 4 cells, expected 3 like the header" }],
      },
      {
        row: 3,
        cells: { firstName: "Bo", lastName: "Li", email: "" },
        problems: [{ row: 3, field: "(row)", message: "has 2 cells, expected 3 like the header" }],
      },
    ]);
    expect([...roster.invalidEmails]).toEqual(["ana@example.com"]);
    expect(roster.users.map((u) => u.row)).toEqual([4]);
  });

  it("an invalid row without an email leaves no one alone, and is told its email is missing (no username column)", () => {
    const roster = readRoster(table(["firstName", "lastName", "email"], ["Ana", "Diaz", " "]));
    expect(roster.invalid.map((r) => r.problems)).toEqual([[{ row: 2, field: "email", message: "required but empty" }]]);
    expect(roster.invalidEmails.size).toBe(0);
  });

  it.each([
    [1, "1 blank row was skipped"],
    [2, "2 blank rows were skipped"],
  ])("skips %i blank rows and says so", (blanks, warning) => {
    const rows = [["Ana", "Diaz", "ana@example.com"], ...Array.from({ length: blanks }, () => ["", " ", ""])];
    const roster = readRoster(table(["firstName", "lastName", "email"], ...rows));
    expect(roster.users.map((u) => u.row)).toEqual([2]);
    expect(roster.warnings).toEqual([warning]);
  });

  it("a --map replaces a column already called like the field, with a warning", () => {
    const roster = readRoster(table(["Given", "firstName", "lastName", "email"], ["Ana", "old", "Diaz", "ana@example.com"]), [
      parseMapping("firstName=given"),
    ]);
    expect(roster.users).toEqual([
      { row: 2, firstName: "Ana", lastName: "Diaz", email: "ana@example.com", teamName: "", status: "ACTIVE" },
    ]);
    expect(roster.warnings).toEqual([
      'column "firstName" is ignored: --map firstName="given" takes its place',
      'unknown column "firstName (replaced by --map)" (column 2) is ignored',
    ]);
  });

  it("a --map naming no header of the file names the headers there are (at most 10, blanks left out)", () => {
    const header = ["", ...Array.from({ length: 11 }, (_, i) => `h${i + 1}`)];
    const error = thrown(() => readRoster(table(header), [parseMapping("email=Mail")]));
    expect(error).toBeInstanceOf(RosterMapError);
    expect(error.message).toBe(
      '--map email="Mail": the roster has no column "Mail" (its header: "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9", "h10")',
    );
  });

  it("a roster without a required column is refused with the columns it lacks and a --map hint", () => {
    const header = ["", "First", ...Array.from({ length: 8 }, (_, i) => `c${i + 1}`)];
    const error = thrown(() => readRoster(table(header, ["a"])));
    expect(error).toBeInstanceOf(CsvFileError);
    expect(error).toMatchObject({
      code: "MISSING_COLUMN",
      row: 1,
      columns: ["firstName", "lastName", "email"],
      hint: 'name the column firstName (case, spaces, _ and - do not matter) or map it with --map firstName="<its header>"',
      message:
        'row 1: the roster has no column firstName, lastName, email (its header: "First", "c1", "c2", "c3", "c4", "c5", "c6", "c7")',
    });
  });

  it("names a long header shortened to 30 characters", () => {
    const long = "A".repeat(40);
    const error = thrown(() => readRoster(table(["firstName", "lastName", long])));
    expect(error.message).toBe(
      `row 1: the roster has no column email (its header: "firstName", "lastName", "${"A".repeat(29)}…")`,
    );
  });
});

describe("readRoster: a --map onto a header named like the field (issue 27 item 3)", () => {
  it("--map email=EMAIL on a column EMAIL takes it without a warning", () => {
    const roster = readRoster(table(["firstName", "lastName", "EMAIL"], ["Ana", "Diaz", "ana@example.com"]), [
      parseMapping("email=EMAIL"),
    ]);
    expect(roster.users).toEqual([
      { row: 2, firstName: "Ana", lastName: "Diaz", email: "ana@example.com", teamName: "", status: "ACTIVE" },
    ]);
    expect(roster.warnings).toEqual([]);
  });
});
