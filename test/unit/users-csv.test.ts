import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { csv, HEADER, userLine } from "../helpers/users-csv-lines.js";
import { INVALID_KINDS, userCells } from "../../fixtures/users/generate.mjs";
import { EmailIndex } from "../../src/domain/users-csv/email-index.js";
import { findInvalidUtf8 } from "../../src/domain/csv-input/utf8.js";
import {
  isValidEmailAddress,
  type InvalidRow,
  readValidUserRows,
  UsersCsvFileError,
  validateUsersCsv,
  type ValidationSummary,
} from "../../src/domain/users-csv/validate.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/users/", import.meta.url));

/** The file's bytes as a stream of chunks of `size` bytes (small sizes split characters). */
async function* chunked(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function fixture(name: string): Buffer {
  return readFileSync(FIXTURES + name);
}

function source(text: string | Uint8Array, size?: number): AsyncGenerator<Uint8Array> {
  return chunked(typeof text === "string" ? Buffer.from(text, "utf8") : text, size);
}

function problemPairs(summary: ValidationSummary): Array<[number, string]> {
  return summary.invalidRows.flatMap((r) => r.problems.map((p): [number, string] => [p.row, p.field]));
}

async function fileError(promise: Promise<unknown>): Promise<UsersCsvFileError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsersCsvFileError);
  return err as UsersCsvFileError;
}

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

interface Expected {
  problems?: Array<[number, string]>;
  fileError?: string;
  row?: number;
  validRows?: number;
  adds?: number;
  updates?: number;
  inactive?: number;
  delimiter?: string;
  warnings?: number;
}
const expected = JSON.parse(readFileSync(FIXTURES + "expected.json", "utf8")) as Record<string, Expected>;
const corpus = Object.entries(expected).filter(([name]) => name.endsWith(".csv"));

describe("validateUsersCsv over the fixture corpus (fixtures/users/expected.json)", () => {
  it.each(corpus.filter(([, e]) => e.problems !== undefined))(
    "%s reports exactly the expected rows and fields",
    async (name, e) => {
      const summary = await validateUsersCsv(chunked(fixture(name)));
      expect(problemPairs(summary)).toEqual(e.problems);
      const rows = [...new Set(e.problems!.map(([row]) => row))];
      expect(summary.invalidRowNumbers).toEqual(rows);
      expect(summary.invalidRowCount).toBe(rows.length);
      expect(summary.validRows).toBe(summary.totalRows - rows.length);
    },
  );

  it.each(corpus.filter(([, e]) => e.fileError !== undefined))(
    "%s is rejected as a whole with the expected code and row",
    async (name, e) => {
      const err = await fileError(validateUsersCsv(chunked(fixture(name))));
      expect(err.code).toBe(e.fileError);
      expect(err.row).toBe(e.row);
      expect(err.exitCode).toBe(6);
    },
  );

  it.each(corpus.filter(([name]) => name.startsWith("good-")))("%s validates clean", async (name, e) => {
    const summary = await validateUsersCsv(chunked(fixture(name)));
    expect(summary.invalidRows).toEqual([]);
    expect(summary.invalidRowCount).toBe(0);
    expect(summary).toMatchObject({
      validRows: e.validRows,
      totalRows: e.validRows,
      adds: e.adds,
      updates: e.updates,
      inactive: e.inactive,
      delimiter: e.delimiter,
    });
    expect(summary.warnings).toHaveLength(e.warnings ?? 0);
  });

  it("covers every fixture file in the directory", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".csv"));
    expect(files.sort()).toEqual(corpus.map(([name]) => name).sort());
  });
});

describe("file-level errors", () => {
  it("names the missing column and what the header had", async () => {
    const err = await fileError(validateUsersCsv(chunked(fixture("bad-missing-column.csv"))));
    expect(err.message).toContain("missing column status");
    expect(err.columns).toEqual(["status"]);
  });

  it("names every missing column at once", async () => {
    const err = await fileError(validateUsersCsv(source(csv("firstName,lastName,email", "a,b,c@example.com"))));
    expect(err.columns).toEqual(["username", "role", "teamName", "status", "action"]);
  });

  it("rejects a column given twice, even in another case", async () => {
    const err = await fileError(validateUsersCsv(chunked(fixture("bad-duplicate-column.csv"))));
    expect(err.code).toBe("DUPLICATE_COLUMN");
    expect(err.columns).toEqual(["email"]);
    expect(err.message).toContain("columns 4 and 9");
  });

  it.each([
    ["a zero-byte file", ""],
    ["a BOM alone", "\uFEFF"],
    ["blank lines only", "\n\r\n  \n"],
  ])("says 'file is empty' for %s", async (_, text) => {
    const err = await fileError(validateUsersCsv(source(text)));
    expect(err.code).toBe("EMPTY");
    expect(err.message).toBe("file is empty");
  });

  it.each([
    ["a header without newline", HEADER],
    ["a header and blank rows", csv(HEADER, "", ",,,,,,,")],
  ])("says 'no user rows' for %s", async (_, text) => {
    const err = await fileError(validateUsersCsv(source(text)));
    expect(err.code).toBe("NO_ROWS");
    expect(err.message).toMatch(/^no user rows/);
  });

  it("locates invalid UTF-8 by byte offset and row", async () => {
    const bytes = fixture("bad-invalid-utf8.csv");
    const offset = bytes.indexOf(0xe9); // "José" saved as Latin-1
    for (const size of [1, 7, 64 * 1024]) {
      const err = await fileError(validateUsersCsv(chunked(bytes, size)));
      expect(err).toMatchObject({ code: "ENCODING", row: 3, byteOffset: offset });
      expect(err.message).toContain(`byte offset ${offset}`);
    }
  });

  it("finds invalid UTF-8 in the header as row 1", async () => {
    const bytes = Buffer.concat([Buffer.from("first"), Buffer.from([0xff]), Buffer.from(`Name${HEADER.slice(9)}\n`)]);
    const err = await fileError(validateUsersCsv(chunked(bytes)));
    expect(err).toMatchObject({ code: "ENCODING", row: 1, byteOffset: 5 });
  });

  it("rejects a file cut off in the middle of a character", async () => {
    const bytes = Buffer.from(csv(HEADER, userLine(1, { firstName: "José" })), "utf8");
    const cut = bytes.subarray(0, bytes.indexOf(Buffer.from("é")) + 1);
    const err = await fileError(validateUsersCsv(chunked(cut, 3)));
    expect(err).toMatchObject({ code: "ENCODING", row: 2, byteOffset: cut.length - 1 });
  });

  it.each([
    ["an unclosed quote", csv(HEADER, userLine(1), `"Ada,${userLine(2).slice(7)}`, userLine(3)), 3],
    ["a quote inside an unquoted cell", csv(HEADER, userLine(1), userLine(2, { lastName: 'O"Brien' })), 3],
    ["text after a closing quote", csv(HEADER, userLine(1, { lastName: '"Smith"x' })), 2],
  ])("rejects %s as malformed CSV at its row", async (_, text, row) => {
    const err = await fileError(validateUsersCsv(source(text)));
    expect(err).toMatchObject({ code: "MALFORMED", row });
  });
});

describe("encodings, delimiters and line ends", () => {
  it("reads BOM, semicolons and CRLF, keeping multi-byte names and quoted semicolons", async () => {
    const bytes = fixture("good-semicolon-crlf-bom.csv");
    for (const size of [1, 5, 64 * 1024]) {
      const summary = await validateUsersCsv(chunked(bytes, size));
      expect(summary).toMatchObject({ delimiter: ";", validRows: 3, invalidRowCount: 0 });
      const rows = await collect(readValidUserRows(chunked(bytes, size), summary));
      expect(rows.map((r) => [r.row, r.firstName, r.lastName, r.teamName])).toEqual([
        [2, "José", "Muñoz", "Ventas; Norte"],
        [3, "Zoë", "Šťastná", ""],
        [4, "First3", "Last3", "Sales"],
      ]);
      // No stray carriage return in the last column.
      expect(rows.map((r) => r.action)).toEqual(["Add", "Add", "Update"]);
    }
  });

  it("accepts LF and CRLF mixed in one file", async () => {
    const text = `${HEADER}\r\n${userLine(1)}\n${userLine(2)}\r\n${userLine(3, { role: "x" })}\n`;
    const summary = await validateUsersCsv(source(text));
    expect(summary.validRows).toBe(2);
    expect(problemPairs(summary)).toEqual([[4, "role"]]);
  });

  it("detects ';' from the header and then keeps commas in cells", async () => {
    const text = csv(HEADER.replaceAll(",", ";"), "Ada;Lovelace;a@example.com;a@example.com;trainee;A, B, C;ACTIVE;Add");
    const summary = await validateUsersCsv(source(text));
    expect(summary.delimiter).toBe(";");
    const [row] = await collect(readValidUserRows(source(text), summary));
    expect(row?.teamName).toBe("A, B, C");
  });

  it("reads a file without a final newline", async () => {
    const summary = await validateUsersCsv(source(`${HEADER}\n${userLine(1)}`));
    expect(summary.validRows).toBe(1);
  });
});

describe("quoting and row numbering", () => {
  it("unquotes RFC 4180 cells: delimiter, doubled quotes, line break", async () => {
    const bytes = fixture("good-quoted.csv");
    const summary = await validateUsersCsv(chunked(bytes));
    const rows = await collect(readValidUserRows(chunked(bytes), summary));
    expect(rows.map((r) => [r.row, r.lastName, r.teamName])).toEqual([
      [2, "Lovelace, Countess", 'Analytical "Engine" Team'],
      [3, "Hopper", "Navy\nReserve"],
      [4, "Turing", ""],
    ]);
  });

  it("counts a record with a quoted line break as one row, like a spreadsheet", async () => {
    const text = csv(HEADER, userLine(1, { teamName: '"two\nlines"' }), userLine(2, { status: "gone" }));
    const summary = await validateUsersCsv(source(text));
    // The invalid record starts on line 4 of the file but is row 3 of the sheet.
    expect(problemPairs(summary)).toEqual([[3, "status"]]);
  });

  it("keeps the numbers of blank rows but skips them, with a warning", async () => {
    const text = csv(HEADER, userLine(1), "", ",,,,,,,", userLine(2, { role: "admin" }), "");
    const summary = await validateUsersCsv(source(text));
    expect(summary).toMatchObject({ totalRows: 2, validRows: 1, blankRows: 3 });
    expect(problemPairs(summary)).toEqual([[5, "role"]]);
    expect(summary.warnings).toEqual(["3 blank rows were skipped (the first is row 3)"]);
  });

  it("skips blank lines before the header, still counting them", async () => {
    const summary = await validateUsersCsv(source(csv("", HEADER, userLine(1, { action: "add" }))));
    expect(problemPairs(summary)).toEqual([[3, "action"]]);
  });
});

describe("header", () => {
  it("matches names ignoring case and surrounding spaces, in any order, and ignores unknown columns", async () => {
    const bytes = fixture("good-header-case-extra-column.csv");
    const summary = await validateUsersCsv(chunked(bytes));
    expect(summary.columns).toEqual([
      "email",
      "firstName",
      "lastName",
      "username",
      "role",
      "teamName",
      "status",
      "action",
      "Notes",
    ]);
    expect(summary.warnings).toEqual(['unknown column "Notes" (column 9) is ignored and not uploaded']);
    const rows = await collect(readValidUserRows(chunked(bytes), summary));
    expect(rows[0]).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
      username: "ada@example.com",
      email: "ada@example.com",
      role: "trainee",
      teamName: "Engineering",
      status: "ACTIVE",
      action: "Add",
      row: 2,
    });
    expect(rows[0]).not.toHaveProperty("Notes");
  });

  it("ignores an unnamed column left by a trailing delimiter", async () => {
    const summary = await validateUsersCsv(source(csv(`${HEADER},`, `${userLine(1)},`)));
    expect(summary).toMatchObject({ validRows: 1, warnings: ["column 9 has no name; it is ignored"] });
  });
});

describe("row rules", () => {
  it.each([
    ["firstName", { firstName: "" }, "required but empty"],
    ["lastName", { lastName: "  " }, "required but empty"],
    ["username", { username: "" }, "required but empty"],
    ["role", { role: "" }, "required but empty"],
    ["role", { role: "Trainee" }, 'must be "trainee" (got "Trainee"; values are case-sensitive)'],
    ["role", { role: "admin" }, 'must be "trainee" (got "admin")'],
    ["status", { status: "active" }, 'must be ACTIVE or INACTIVE (got "active"; values are case-sensitive)'],
    ["status", { status: "" }, "required but empty"],
    ["action", { action: "update" }, 'must be Add or Update (got "update"; values are case-sensitive)'],
    ["action", { action: "Delete" }, 'must be Add or Update (got "Delete")'],
    ["username", { username: "USER1@example.com" }, "must equal email exactly"],
    ["action", { action: "" }, "required but empty"],
    ["action", { action: "add" }, 'must be Add or Update (got "add"; values are case-sensitive)'],
    ["status", { status: "inactive" }, 'must be ACTIVE or INACTIVE (got "inactive"; values are case-sensitive)'],
    ["email", { username: "ann@example", email: "ann@example" }, 'not a valid email address: "ann@example"'],
  ] as const)("reports %s for %o", async (field, change, message) => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, change))));
    expect(summary.invalidRows).toHaveLength(1);
    expect(summary.invalidRows[0]?.problems).toEqual([{ row: 2, field, message: expect.stringContaining(message) as string }]);
  });

  it("does not require teamName", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { teamName: "" }))));
    expect(summary.validRows).toBe(1);
  });

  it("reports an empty email once, not also as a mismatch", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { email: "" }))));
    expect(problemPairs(summary)).toEqual([[2, "email"]]);
  });

  it.each([
    "plainaddress",
    "two@@example.com",
    "a@b@example.com",
    "@example.com",
    "user@",
    "user@localhost",
    "user@example.",
    "user@.example.com",
    "user@exa..mple.com",
    "us er@example.com",
    "user@exam ple.com",
    `${"a".repeat(250)}@example.com`,
  ])("rejects the address %j", async (address) => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { username: address, email: address }))));
    expect(problemPairs(summary)).toEqual([[2, "email"]]);
  });

  it.each(["a@example.com", "first.last+tag@sub.example.co.uk", "o'brien@example.com", "jürgen@müller.example.com"])(
    "accepts the address %j",
    async (address) => {
      const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { username: address, email: address }))));
      expect(summary.validRows).toBe(1);
    },
  );

  it("trims cells for the checks and uploads the trimmed values", async () => {
    const text = csv(HEADER, userLine(1, { username: " user1@example.com", email: "user1@example.com\t", role: " trainee " }));
    const summary = await validateUsersCsv(source(text));
    expect(summary.validRows).toBe(1);
    const [row] = await collect(readValidUserRows(source(text), summary));
    expect(row).toMatchObject({ username: "user1@example.com", email: "user1@example.com", role: "trainee" });
  });

  it("reports several problems of one row, each with its field", async () => {
    const summary = await validateUsersCsv(
      source(csv(HEADER, userLine(1, { firstName: "", role: "boss", status: "", action: "Remove" }))),
    );
    expect(problemPairs(summary)).toEqual([
      [2, "firstName"],
      [2, "role"],
      [2, "status"],
      [2, "action"],
    ]);
  });

  it("names the first row of a duplicate email, compared ignoring case", async () => {
    const summary = await validateUsersCsv(
      source(csv(HEADER, userLine(1), userLine(2), userLine(3, { username: "User1@EXAMPLE.com", email: "User1@EXAMPLE.com" }))),
    );
    expect(summary.invalidRows[0]?.problems).toEqual([
      { row: 4, field: "email", message: expect.stringContaining("duplicate of row 2") as string },
    ]);
  });

  it("counts an invalid row's email for duplicates too", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { role: "x" }), userLine(1))));
    expect(problemPairs(summary)).toEqual([
      [2, "role"],
      [3, "email"],
    ]);
  });

  it("reports a wrong number of cells once, for the whole row", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, `${userLine(1)},extra`, "a,b")));
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [{ row: 2, field: "(row)", message: "has 9 cells, expected 8 like the header" }],
      [{ row: 3, field: "(row)", message: "has 2 cells, expected 8 like the header" }],
    ]);
    expect(summary.invalidRows[0]?.extraCells).toEqual(["extra"]);
    expect(summary.invalidRows[1]?.cells).toMatchObject({ firstName: "a", lastName: "b", email: "" });
  });

  it("says cell, not cells, for a row of one", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1), "lonely")));
    expect(summary.invalidRowNumbers).toEqual([3]);
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [{ row: 3, field: "(row)", message: "has 1 cell, expected 8 like the header" }],
    ]);
  });

  // rows.ts looks for control characters with a quick scan of every cell before the exact
  // search: the scan must not miss a character the search would find, at either end of its
  // ranges (C0 at the first position, DEL, the C1 controls up to U+009F).
  it.each([
    ["U+0007 (BEL) as the first character", "\u0007Ann", "U+0007", 1],
    ["U+007F (DEL)", "An\u007fn", "U+007F", 3],
    ["U+0085 (NEL, a C1 control)", "Ann\u0085", "U+0085", 4],
    ["U+009F, the last C1 control", "A\u009fnn", "U+009F", 2],
  ])("reports %s in a name, with its position", async (_, firstName, code, position) => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { firstName }))));
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [
        {
          row: 2,
          field: "firstName",
          message: `contains the control character ${code} at position ${position}; remove it (or check --encoding)`,
        },
      ],
    ]);
  });

  it("accepts tab inside a cell and U+00A0, the first character after the C1 controls", async () => {
    const summary = await validateUsersCsv(
      source(csv(HEADER, userLine(1, { firstName: "Ann\u00a0Marie", lastName: '"Le\tBlanc"' }))),
    );
    expect(summary.invalidRows).toEqual([]);
    expect(summary.validRows).toBe(1);
  });

  it("reports a long name with a control character once, for the character", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { lastName: `\u0001${"b".repeat(300)}` }))));
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [
        {
          row: 2,
          field: "lastName",
          message: "contains the control character U+0001 at position 1; remove it (or check --encoding)",
        },
      ],
    ]);
  });

  it.each([
    ["username", { username: "user1@exa\u0003mple.com" }, 10],
    ["email", { email: "user1@exa\u0003mple.com" }, 10],
    ["role", { role: "trai\u0003nee" }, 5],
    ["status", { status: "ACT\u0003IVE" }, 4],
  ] as const)("reports a control character in %s alone, not also the column's own rule", async (field, change, position) => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, change))));
    expect(summary.invalidRows.flatMap((r) => r.problems)).toEqual([
      {
        row: 2,
        field,
        message: `contains the control character U+0003 at position ${position}; remove it (or check --encoding)`,
      },
    ]);
  });

  it("reads a row of blank user cells with something after them as a wrong number of cells, not a blank line", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1), " , ,,,,,,,x")));
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [{ row: 3, field: "(row)", message: "has 9 cells, expected 8 like the header" }],
    ]);
  });

  it("accepts an email of 254 characters and checks rows with no email for required only, never as duplicates", async () => {
    const email = `${"a".repeat(64)}@${"b".repeat(185)}.com`;
    const summary = await validateUsersCsv(
      source(csv(HEADER, userLine(1, { username: email, email }), userLine(2, { email: "" }), userLine(3, { email: "" }))),
    );
    expect(summary.validRows).toBe(1);
    expect(summary.invalidRows.flatMap((r) => r.problems)).toEqual([
      { row: 3, field: "email", message: "required but empty" },
      { row: 4, field: "email", message: "required but empty" },
    ]);
  });

  it("checks every column for control characters, the last (action) too", async () => {
    const summary = await validateUsersCsv(source(csv(HEADER, userLine(1, { action: "Add\u0002" }))));
    expect(summary.invalidRows.map((r) => r.problems)).toEqual([
      [
        {
          row: 2,
          field: "action",
          message: "contains the control character U+0002 at position 4; remove it (or check --encoding)",
        },
      ],
    ]);
  });

  it("keeps an invalid row's original, untrimmed cells under canonical and unknown column names", async () => {
    const text = csv(
      `EMAIL,${HEADER.replace(",email", "")},Notes`,
      `a@example.com,Ada, Lovelace ,a@example.com,admin,,ACTIVE,Add,n1`,
    );
    const summary = await validateUsersCsv(source(text));
    expect(summary.invalidRows[0]).toEqual<InvalidRow>({
      row: 2,
      cells: {
        email: "a@example.com",
        firstName: "Ada",
        lastName: " Lovelace ",
        username: "a@example.com",
        role: "admin",
        teamName: "",
        status: "ACTIVE",
        action: "Add",
        Notes: "n1",
      },
      problems: [{ row: 2, field: "role", message: 'must be "trainee" (got "admin")' }],
    });
  });
});

describe("summary and invalid rows", () => {
  const text = csv(HEADER, ...Array.from({ length: 10 }, (_, i) => userLine(i + 1, i % 2 === 0 ? { role: "x" } : {})));

  it("keeps at most maxInvalidRowsKept rows with cells but counts and numbers all of them", async () => {
    const summary = await validateUsersCsv(source(text), { maxInvalidRowsKept: 2 });
    expect(summary.invalidRows.map((r) => r.row)).toEqual([2, 4]);
    expect(summary.invalidRowNumbers).toEqual([2, 4, 6, 8, 10]);
    expect(summary).toMatchObject({ invalidRowCount: 5, problemCount: 5, validRows: 5, totalRows: 10 });
  });

  it("hands every invalid row to onInvalidRow, in order", async () => {
    const seen: number[] = [];
    await validateUsersCsv(source(text, 50), { maxInvalidRowsKept: 0, onInvalidRow: (r) => seen.push(r.row) });
    expect(seen).toEqual([2, 4, 6, 8, 10]);
  });
});

describe("pass 2: reading the rows again", () => {
  it("yields the valid rows in order, skipping those pass 1 found invalid", async () => {
    const bytes = fixture("bad-several-rows-and-rules.csv");
    const summary = await validateUsersCsv(chunked(bytes));
    const rows = await collect(readValidUserRows(chunked(bytes), summary));
    expect(rows.map((r) => r.row)).toEqual([2, 5]);
  });

  it("skips a row pass 1 found to be a duplicate without detecting duplicates again", async () => {
    const bytes = fixture("bad-duplicate-email.csv");
    const summary = await validateUsersCsv(chunked(bytes, 10));
    const rows = await collect(readValidUserRows(chunked(bytes, 10), summary));
    expect(rows.map((r) => r.row)).toEqual([2, 3]);
  });

  it("stops with CHANGED at the end when the bytes differ from pass 1's", async () => {
    const before = csv(HEADER, userLine(1), userLine(2));
    const summary = await validateUsersCsv(source(before));
    const now = csv(HEADER, userLine(1), userLine(2, { firstName: "Renamed" }));
    const err = await fileError(collect(readValidUserRows(source(now), summary)));
    expect(err.code).toBe("CHANGED");
    // Without the hash, a harmless edit of a valid row passes: every yielded row is re-checked.
    const rows = await collect(readValidUserRows(source(now), { ...summary, sha256: undefined }));
    expect(rows.map((r) => r.firstName)).toEqual(["First1", "Renamed"]);
  });

  it("reports the file's SHA-256 in the summary", async () => {
    const bytes = fixture("good-small.csv");
    const summary = await validateUsersCsv(chunked(bytes, 100));
    expect(summary.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(summary.bytes).toBe(bytes.length);
  });

  it.each([
    ["a row became invalid", csv(HEADER, userLine(1), userLine(2, { role: "x" }))],
    ["a row became valid", csv(HEADER, userLine(1), userLine(2), userLine(3))],
    ["rows were added", csv(HEADER, userLine(1), userLine(2, { role: "x" }), userLine(3), userLine(4))],
    ["a skipped row was removed", csv(HEADER, userLine(1), userLine(3))],
  ])("stops with CHANGED when %s since validation", async (_, now) => {
    const before = csv(HEADER, userLine(1), userLine(2, { role: "x" }), userLine(3));
    const summary = await validateUsersCsv(source(before));
    const err = await fileError(collect(readValidUserRows(source(now), summary)));
    expect(err.code).toBe("CHANGED");
  });

  it("stops reading the source when the consumer stops early", async () => {
    let pulled = 0;
    const bytes = Buffer.from(csv(HEADER, ...Array.from({ length: 5000 }, (_, i) => userLine(i + 1))));
    async function* counting(): AsyncGenerator<Uint8Array> {
      for await (const chunk of chunked(bytes, 1024)) {
        pulled++;
        yield chunk;
      }
    }
    for await (const row of readValidUserRows(counting(), { invalidRowNumbers: [], validRows: 5000 })) {
      if (row.row === 10) break;
    }
    expect(pulled).toBeLessThan(5);
  });
});

describe("duplicate detection at scale", () => {
  it("finds exactly the generated duplicates among 200,000 rows, and no false ones", async () => {
    const rows = 200_000;
    const every = 97;
    const lines = [HEADER];
    const expectedProblems: Array<[number, string]> = [];
    for (let i = 1; i <= rows; i++) {
      const { cells, kind } = userCells(i, every);
      lines.push(cells.join(","));
      if (kind !== undefined) {
        const field = INVALID_KINDS.find((k) => k.kind === kind)!.field;
        expectedProblems.push([i + 1, field]);
      }
    }
    const bytes = Buffer.from(lines.join("\n") + "\n");
    const summary = await validateUsersCsv(chunked(bytes), { maxInvalidRowsKept: rows });
    expect(problemPairs(summary)).toEqual(expectedProblems);
    const duplicates = summary.invalidRows.filter((r) => r.problems[0]?.message.startsWith("duplicate of row 2"));
    expect(duplicates.length).toBe(expectedProblems.filter(([, f], n) => f === "email" && n % 7 === 6).length);
    expect(summary.validRows).toBe(rows - expectedProblems.length);
  });
});

describe("EmailIndex", () => {
  it("returns the first row for a repeated address, ignoring case", () => {
    const index = new EmailIndex();
    expect(index.add("Ada@Example.com", 2)).toBe(0);
    expect(index.add("bob@example.com", 3)).toBe(0);
    expect(index.add("ada@example.COM", 9)).toBe(2);
    expect(index.add("ada@example.co", 10)).toBe(0);
  });

  it("stays exact through table growth: 300,000 distinct addresses, then each again", () => {
    const index = new EmailIndex();
    for (let i = 0; i < 300_000; i++) {
      if (index.add(`u${i}@example.com`, i + 2) !== 0) throw new Error(`false duplicate u${i}`);
    }
    expect(index.size).toBe(300_000);
    for (let i = 0; i < 300_000; i++) {
      if (index.add(`U${i}@EXAMPLE.COM`, 1_000_000) !== i + 2) throw new Error(`lost u${i}`);
    }
  });

  it("handles non-ASCII and over-long addresses exactly", () => {
    const index = new EmailIndex();
    expect(index.add("JÜRGEN@müller.example.com", 2)).toBe(0);
    expect(index.add("jürgen@MÜLLER.example.com", 3)).toBe(2);
    const long = `${"x".repeat(300)}@example.com`;
    expect(index.add(long, 4)).toBe(0);
    expect(index.add(long.toUpperCase(), 5)).toBe(4);
    // KELVIN SIGN lowercases to an ASCII "k".
    expect(index.add("kim@example.com", 6)).toBe(0);
    expect(index.add("\u212Aim@example.com", 7)).toBe(6);
  });
});

describe("findInvalidUtf8", () => {
  it.each([
    ["ASCII", [0x61, 0x62], -1],
    ["a 2-byte character", [0xc3, 0xa9], -1],
    ["a 4-byte character", [0xf0, 0x9f, 0x98, 0x80], -1],
    ["a lone continuation byte", [0x61, 0x80], 1],
    ["an overlong slash", [0xc0, 0xaf], 0],
    ["an overlong 3-byte form", [0xe0, 0x80, 0xaf], 0],
    ["a UTF-16 surrogate", [0x61, 0xed, 0xa0, 0x80], 1],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a truncated sequence", [0x61, 0xe2, 0x82], 1],
    ["Latin-1 é", [0x4a, 0x6f, 0x73, 0xe9, 0x0a], 3],
  ])("agrees with isUtf8 on %s", (_, bytes, at) => {
    const buf = Uint8Array.from(bytes);
    expect(findInvalidUtf8(buf)).toBe(at);
    expect(isUtf8(buf)).toBe(at === -1);
  });
});

describe("isValidEmailAddress (shared with users create --email)", () => {
  const at254 = `${"a".repeat(64)}@${"b".repeat(185)}.com`;

  it("accepts an address of 254 characters and refuses one of 255", () => {
    expect(at254).toHaveLength(254);
    expect(isValidEmailAddress(at254)).toBe(true);
    expect(isValidEmailAddress(`a${at254}`)).toBe(false);
  });

  it.each([
    ["ann@example.com", true],
    ["ann@example", false],
    ["ann example@example.com", false],
    ["@example.com", false],
  ])("%s: %s", (email, valid) => {
    expect(isValidEmailAddress(email)).toBe(valid);
  });
});

describe("a corrected <file>.errors.csv imported again", () => {
  it("ignores its row and errors columns and undoes the formula guard of every cell", async () => {
    const summary = await validateUsersCsv(
      source(
        csv(
          `${HEADER},row,errors`,
          `${userLine(1, { lastName: "'-Smith" })},7,"lastName: was wrong"`,
          `${userLine(2, { firstName: "'=Ann", role: "admin" })},9,"role: must be trainee"`,
        ),
      ),
    );
    expect(summary.validRows).toBe(1);
    expect(summary.invalidRows).toHaveLength(1);
    const [invalid] = summary.invalidRows;
    expect(invalid?.problems).toEqual([{ row: 3, field: "role", message: 'must be "trainee" (got "admin")' }]);
    // The original cells under the user's columns only: the errors file's row and errors are
    // not carried into the next errors file, and nothing counts as an extra cell.
    expect(invalid?.cells).toEqual({
      firstName: "=Ann",
      lastName: "Last2",
      username: "user2@example.com",
      email: "user2@example.com",
      role: "admin",
      teamName: "Sales",
      status: "ACTIVE",
      action: "Add",
    });
    expect(invalid?.extraCells).toBeUndefined();
    const text = csv(`${HEADER},row,errors`, `${userLine(1, { lastName: "'-Smith" })},7,x`);
    const rows = await collect(readValidUserRows(source(text), await validateUsersCsv(source(text))));
    expect(rows.map((r) => r.lastName)).toEqual(["-Smith"]);
  });

  it("is an ordinary file when row and errors are not its last two columns", async () => {
    const text = csv(`${HEADER},errors,row`, `${userLine(1, { lastName: "'-Smith" })},x,7`);
    const summary = await validateUsersCsv(source(text));
    expect(summary.validRows).toBe(1);
    const rows = await collect(readValidUserRows(source(text), summary));
    expect(rows.map((r) => r.lastName)).toEqual(["'-Smith"]);
  });
});
