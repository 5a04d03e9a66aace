import { describe, expect, it } from "vitest";
import { readValidUserRows, USER_COLUMNS, UsersCsvFileError, validateUsersCsv } from "../../src/domain/users-csv/validate.js";

// Pass 2's own change detection, without the SHA-256 check (issue 27 item 3: with the hash,
// every change is caught at the end whatever the row checks do, so they went untested).
// Each change is caught at the row where it shows, and the message names that row.

const HEADER = USER_COLUMNS.join(",");

async function* source(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, "utf8");
}

function csv(...lines: string[]): string {
  return lines.join("\n") + "\n";
}

function userLine(i: number, changes: Partial<Record<(typeof USER_COLUMNS)[number], string>> = {}): string {
  const email = `user${i}@example.com`;
  const user: Record<string, string> = {
    firstName: `First${i}`,
    lastName: `Last${i}`,
    username: email,
    email,
    role: "trainee",
    teamName: "Sales",
    status: "ACTIVE",
    action: "Add",
    ...changes,
  };
  return USER_COLUMNS.map((c) => user[c]).join(",");
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
