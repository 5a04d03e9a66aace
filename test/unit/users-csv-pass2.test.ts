import { describe, expect, it } from "vitest";
import { csv, HEADER, userLine } from "../helpers/users-csv-lines.js";
import { readValidUserRows, UsersCsvFileError, validateUsersCsv } from "../../src/domain/users-csv/validate.js";

// Pass 2's own change detection, without the SHA-256 check (issue 27 item 3: with the hash,
// every change is caught at the end whatever the row checks do, so they went untested).
// Each change is caught at the row where it shows, and the message names that row. Also pass
// 1's bookkeeping of invalid and blank rows, and its file errors.

async function* source(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf8");
}

async function pass2(before: string, now: string): Promise<{ rows: number[]; error: UsersCsvFileError | undefined }> {
  const summary = await validateUsersCsv(source(before));
  const rows: number[] = [];
  try {
    for await (const row of readValidUserRows(source(now), { ...summary, sha256: undefined })) rows.push(row.row);
  } catch (error) {
    if (!(error instanceof UsersCsvFileError)) throw error;
    return { rows, error };
  }
  return { rows, error: undefined };
}

// Pass 1 saw: row 2 valid, row 3 invalid (role), row 4 valid.
const BEFORE = csv(HEADER, userLine(1), userLine(2, { role: "x" }), userLine(3));

describe("pass 2 without the SHA-256 check", () => {
  it("the same file yields the valid rows, skipping the invalid one", async () => {
    expect(await pass2(BEFORE, BEFORE)).toEqual({ rows: [2, 4], error: undefined });
  });

  it.each([
    ["a valid row became invalid", csv(HEADER, userLine(1), userLine(2, { role: "x" }), userLine(3, { role: "y" })), 4],
    ["the skipped row is gone (rows moved up)", csv(HEADER, userLine(1), userLine(3)), undefined],
    ["a row was added at the end", csv(HEADER, userLine(1), userLine(2, { role: "x" }), userLine(3), userLine(4)), 5],
  ])("%s: CHANGED, naming the row", async (_name, now, row) => {
    const { error } = await pass2(BEFORE, now);
    expect(error?.code).toBe("CHANGED");
    expect(error?.row).toBe(row);
    expect(error?.message).toBe(`the file changed after it was validated${row === undefined ? "" : ` (row ${row} differs)`}`);
    expect(error?.hint).toBe("run the import again so that the file is validated as it is now");
  });

  it("the skipped row became valid: still skipped, not re-checked (only the hash notices)", async () => {
    expect(await pass2(BEFORE, csv(HEADER, userLine(1), userLine(2), userLine(3)))).toEqual({ rows: [2, 4], error: undefined });
  });

  it("a row removed at the end: CHANGED when the file ends, after the rows that still match", async () => {
    const { rows, error } = await pass2(BEFORE, csv(HEADER, userLine(1), userLine(2, { role: "x" })));
    expect(rows).toEqual([2]);
    expect(error?.code).toBe("CHANGED");
    expect(error?.row).toBeUndefined();
  });

  it("a skipped row now blank: CHANGED at the row it was", async () => {
    const now = csv(HEADER, userLine(1), "", userLine(3));
    const { error } = await pass2(BEFORE, now);
    expect(error?.code).toBe("CHANGED");
    expect(error?.row).toBe(3);
  });
});

describe("pass 2 with the SHA-256 check", () => {
  // A same-size edit of a valid row keeps every row valid and every count equal: only the
  // hash can tell (a check by size or modification time would not).
  const before = csv(HEADER, userLine(1), userLine(2));
  const now = csv(HEADER, userLine(1), userLine(2, { firstName: "Frist2" }));

  it("a same-size edit of a valid row: the rows come out, then CHANGED when the file ends", async () => {
    const summary = await validateUsersCsv(source(before));
    expect(summary.bytes).toBe(Buffer.byteLength(now));
    const names: string[] = [];
    let error: unknown;
    try {
      for await (const user of readValidUserRows(source(now), summary)) names.push(user.firstName);
    } catch (caught) {
      error = caught;
    }
    expect(names).toEqual(["First1", "Frist2"]);
    expect(error).toBeInstanceOf(UsersCsvFileError);
    expect(error).toMatchObject({ code: "CHANGED", message: "the file changed after it was validated", row: undefined });
  });

  it("the same bytes again pass", async () => {
    const summary = await validateUsersCsv(source(before));
    const names: string[] = [];
    for await (const user of readValidUserRows(source(before), summary)) names.push(user.firstName);
    expect(names).toEqual(["First1", "First2"]);
  });
});

describe("pass 1: invalid rows kept, handed over and counted", () => {
  const file = csv(HEADER, userLine(1, { role: "x" }), userLine(2), userLine(3, { email: "bad" }), userLine(4, { role: "y" }));

  it("keeps at most maxInvalidRowsKept rows, counts them all, hands every one to onInvalidRow in order", async () => {
    const handed: number[] = [];
    const summary = await validateUsersCsv(source(file), {
      maxInvalidRowsKept: 1,
      onInvalidRow: (row) => handed.push(row.row),
    });
    expect(summary.invalidRows.map((r) => r.row)).toEqual([2]);
    expect(summary.invalidRowNumbers).toEqual([2, 4, 5]);
    expect(summary.invalidRowCount).toBe(3);
    expect(handed).toEqual([2, 4, 5]);
    expect(summary.validRows).toBe(1);
    expect(summary.totalRows).toBe(4);
  });

  it("keeps none with maxInvalidRowsKept 0, still counting them", async () => {
    const summary = await validateUsersCsv(source(file), { maxInvalidRowsKept: 0 });
    expect(summary.invalidRows).toEqual([]);
    expect(summary.invalidRowCount).toBe(3);
  });

  it("the first file error wins, and a file of blank lines only is empty", async () => {
    await expect(validateUsersCsv(source("\n\n"))).rejects.toMatchObject({
      code: "EMPTY",
      message: "file is empty",
      hint: "the first row must be the header firstName,lastName,username,email,role,teamName,status,action",
    });
    await expect(validateUsersCsv(source(csv(HEADER, "")))).rejects.toMatchObject({
      code: "NO_ROWS",
      message: "no user rows: the file has a header but no users",
    });
  });

  it("blank lines before the header are skipped; blank rows later are counted and named", async () => {
    const summary = await validateUsersCsv(source(csv("", HEADER, userLine(1), "", userLine(2), "")));
    expect(summary.validRows).toBe(2);
    expect(summary.blankRows).toBe(2);
    expect(summary.warnings).toContain("2 blank rows were skipped (the first is row 4)");
    const one = await validateUsersCsv(source(csv(HEADER, userLine(1), "", userLine(2))));
    expect(one.warnings).toContain("row 3 is blank and was skipped");
  });
});

describe("pass 2 without the SHA-256 check: the skip list to its end", () => {
  it("the last row, invalid, removed: CHANGED when the file ends", async () => {
    const before = csv(HEADER, userLine(1), userLine(2), userLine(3, { role: "x" }));
    const { rows, error } = await pass2(before, csv(HEADER, userLine(1), userLine(2)));
    expect(rows).toEqual([2, 3]);
    expect(error?.code).toBe("CHANGED");
    expect(error?.message).toBe("the file changed after it was validated");
  });
});

describe("pass 1: what the reader says, and when it stops", () => {
  it("the reader's note comes first among the warnings", async () => {
    const text = csv(HEADER, userLine(1), "", userLine(3));
    const summary = await validateUsersCsv(source16(text));
    expect(summary.encoding).toBe("utf-16le");
    expect(summary.warnings).toEqual([
      "the file has no byte-order mark but looks like UTF-16LE; it was read as UTF-16LE",
      "row 3 is blank and was skipped",
    ]);
  });

  it("a file error in the header stops reading after that chunk", async () => {
    let pulled = 0;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (const text of ["firstName,lastName\nA,B\n", `${userLine(2)}\n`, `${userLine(3)}\n`]) {
        pulled++;
        yield Buffer.from(text, "utf8");
      }
    }
    await expect(validateUsersCsv(chunks())).rejects.toMatchObject({ code: "MISSING_COLUMN", row: 1 });
    expect(pulled).toBe(1);
  });
});

async function* source16(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf16le");
}
