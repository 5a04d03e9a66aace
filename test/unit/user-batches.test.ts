import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import {
  batchUserRows,
  buildUserBatch,
  MAX_ROWS_PER_UPLOAD,
  originalRowOf,
  planBatchSizes,
  type UserBatch,
} from "../../src/domain/users-csv/batches.js";
import { readValidUserRows, USER_COLUMNS, type UserRow, validateUsersCsv } from "../../src/domain/users-csv/validate.js";

const HEADER = USER_COLUMNS.join(",");

function user(i: number, changes: Partial<UserRow> = {}): UserRow {
  const email = `user${i}@example.com`;
  return {
    firstName: `First${i}`,
    lastName: `Last${i}`,
    username: email,
    email,
    role: "trainee",
    teamName: "",
    status: "ACTIVE",
    action: "Add",
    row: i + 1,
    ...changes,
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A generated file of `rows` data rows where every 50th row is invalid, as bytes. */
function generatedFile(rows: number, options: { delimiter?: string; eol?: string } = {}): Buffer {
  const { delimiter = ",", eol = "\n" } = options;
  const lines = [USER_COLUMNS.join(delimiter)];
  for (let i = 1; i <= rows; i++) lines.push(userCells(i, 50).cells.join(delimiter));
  return Buffer.from(lines.join(eol) + eol);
}

async function batchesOf(file: Buffer): Promise<UserBatch[]> {
  const summary = await validateUsersCsv(once(file));
  return collect(batchUserRows(readValidUserRows(once(file), summary)));
}

describe("batchUserRows", () => {
  it("splits 1,600 valid rows into 750, 750 and 100, in file order", async () => {
    const batches = await collect(batchUserRows(Array.from({ length: 1600 }, (_, i) => user(i + 1))));
    expect(batches.map((b) => b.rows.length)).toEqual([750, 750, 100]);
    expect(batches.map((b) => b.number)).toEqual([1, 2, 3]);
    expect(batches.map((b) => b.csv.split("\n").length - 2)).toEqual([750, 750, 100]);
    expect(batches[1]?.rows[0]).toBe(752);
    expect(batches.flatMap((b) => b.rows)).toEqual(Array.from({ length: 1600 }, (_, i) => i + 2));
  });

  it("maps a service row number in a batch back to the original spreadsheet row, past skipped invalid rows", async () => {
    // 1,632 data rows with every 50th invalid: 1,600 valid rows.
    const file = generatedFile(1632);
    const batches = await batchesOf(file);
    expect(batches.map((b) => b.rows.length)).toEqual([750, 750, 100]);
    const [first, second, third] = batches as [UserBatch, UserBatch, UserBatch];
    // Batch 1: its first 49 lines are rows 2..50, then row 51 (data row 50) was invalid.
    expect(originalRowOf(first, 2)).toBe(2);
    expect(originalRowOf(first, 50)).toBe(50);
    expect(originalRowOf(first, 51)).toBe(52);
    // Each batch line holds exactly the original row it maps to.
    const lines = file.toString("utf8").split("\n");
    for (const batch of batches) {
      const batchLines = batch.csv.split("\n");
      for (const n of [2, 5, 300, batch.rows.length + 1]) {
        const original = originalRowOf(batch, n)!;
        expect(batchLines[n - 1]).toBe(lines[original - 1]);
      }
    }
    // The 750th valid row is data row 765 (765 - 15 invalid), spreadsheet row 766.
    expect(originalRowOf(first, 751)).toBe(766);
    expect(originalRowOf(second, 2)).toBe(767);
    expect(originalRowOf(third, 101)).toBe(1633);
  });

  it("accepts only sizes 1..750, naming the size refused", async () => {
    await expect(collect(batchUserRows([user(1)], 751))).rejects.toThrow(new RangeError("batch size must be 1..750, not 751"));
    await expect(collect(batchUserRows([user(1)], 0))).rejects.toThrow(new RangeError("batch size must be 1..750, not 0"));
    await expect(collect(batchUserRows([user(1)], 1.5))).rejects.toThrow(new RangeError("batch size must be 1..750, not 1.5"));
  });

  it("size 1: one batch per row", async () => {
    const batches = await collect(batchUserRows([user(1), user(2)], 1));
    expect(batches.map((b) => [b.number, b.rows])).toEqual([
      [1, [2]],
      [2, [3]],
    ]);
  });

  it("yields nothing for no rows", async () => {
    expect(await collect(batchUserRows([]))).toEqual([]);
  });
});

describe("buildUserBatch", () => {
  it("writes the canonical header, comma-delimited, LF line ends, RFC 4180 quoting", () => {
    const batch = buildUserBatch(
      [user(1, { lastName: "Lovelace, Countess", teamName: 'The "Engine"' }), user(2, { teamName: "Navy\nReserve" })],
      1,
    );
    expect(batch.csv).toBe(
      [
        HEADER,
        'First1,"Lovelace, Countess",user1@example.com,user1@example.com,trainee,"The ""Engine""",ACTIVE,Add',
        'First2,Last2,user2@example.com,user2@example.com,trainee,"Navy\nReserve",ACTIVE,Add',
        "",
      ].join("\n"),
    );
    expect(batch.csv).not.toContain("\r");
  });

  it("uploads values exactly, without formula neutralising", () => {
    const batch = buildUserBatch([user(1, { firstName: "=Ada", lastName: "-Lovelace" })], 1);
    expect(batch.csv.split("\n")[1]).toMatch(/^=Ada,-Lovelace,/);
  });

  it("hashes the CSV bytes with SHA-256", () => {
    const batch = buildUserBatch([user(1)], 1);
    expect(batch.sha256).toBe(createHash("sha256").update(batch.csv).digest("hex"));
    expect(batch.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives the same rows the same hash, and other rows another", () => {
    const a = buildUserBatch([user(1), user(2)], 1);
    expect(buildUserBatch([user(1), user(2)], 7).sha256).toBe(a.sha256);
    expect(buildUserBatch([user(2), user(1)], 1).sha256).not.toBe(a.sha256);
    expect(buildUserBatch([user(1), user(2, { status: "INACTIVE" })], 1).sha256).not.toBe(a.sha256);
  });

  it("gives the same hashes whatever the source file's delimiter and line ends", async () => {
    const comma = await batchesOf(generatedFile(800));
    const semicolonCrlf = await batchesOf(generatedFile(800, { delimiter: ";", eol: "\r\n" }));
    expect(semicolonCrlf.map((b) => b.sha256)).toEqual(comma.map((b) => b.sha256));
    expect(new Set(comma.map((b) => b.sha256)).size).toBe(comma.length);
  });

  it.each([0, MAX_ROWS_PER_UPLOAD + 1])("refuses a batch of %i rows", (n) => {
    expect(() =>
      buildUserBatch(
        Array.from({ length: n }, (_, i) => user(i + 1)),
        1,
      ),
    ).toThrow(new RangeError(`a batch holds 1 to 750 rows, not ${n}`));
  });
});

describe("originalRowOf", () => {
  const batch = buildUserBatch([user(1, { row: 10 }), user(2, { row: 12 })], 1);

  it.each([
    [2, 10],
    [3, 12],
  ])("maps batch row %i to original row %i", (batchRow, original) => {
    expect(originalRowOf(batch, batchRow)).toBe(original);
  });

  it.each([1, 0, 4, 2.5, -1])("has no original row for batch row %d", (batchRow) => {
    expect(originalRowOf(batch, batchRow)).toBeUndefined();
  });
});

describe("planBatchSizes", () => {
  it.each([
    [0, []],
    [1, [1]],
    [750, [750]],
    [751, [750, 1]],
    [1600, [750, 750, 100]],
  ])("plans %i rows as %j", (rows, sizes) => {
    expect(planBatchSizes(rows)).toEqual(sizes);
  });

  it("with another size, 1 included", () => {
    expect(planBatchSizes(3, 1)).toEqual([1, 1, 1]);
    expect(planBatchSizes(5, 2)).toEqual([2, 2, 1]);
  });

  it.each([0, -1, 1.5])("refuses size %d", (size) => {
    expect(() => planBatchSizes(5, size)).toThrow(new RangeError(`batch size must be a positive integer, not ${size}`));
  });
});
