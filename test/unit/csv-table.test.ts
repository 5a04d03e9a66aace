import { describe, expect, it } from "vitest";
import { CsvFileError } from "../../src/domain/csv-input/errors.js";
import { isBlankRow, readCsvTable } from "../../src/domain/csv-input/table.js";

// A whole table in memory (an HR roster for `users sync`, an assignments list for
// `progress`): the header is the first record with content, every later row is kept.

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? Buffer.from(part) : part;
}

describe("readCsvTable", () => {
  it("skips blank records before the header, keeps blank rows after it, with spreadsheet row numbers", async () => {
    const table = await readCsvTable(chunks("  \n\na;;b\n1;2\n\n ;\n3\n"));
    expect(table.header).toEqual({ row: 3, cells: ["a", "", "b"] });
    expect(table.rows).toEqual([
      { row: 4, cells: ["1", "2"] },
      { row: 5, cells: [""] },
      { row: 6, cells: [" ", ""] },
      { row: 7, cells: ["3"] },
    ]);
    expect(table.info).toEqual({
      encoding: "utf-8",
      bom: false,
      delimiter: ";",
      lineEnding: "lf",
      sepLine: false,
      notes: [],
      sha256: "62fda5f2244b1da187a95469c61433951b7d1e51e58730774dbedc88d1c91a38",
      bytes: 19,
    });
  });

  it("reads with the encoding it is given", async () => {
    const table = await readCsvTable(chunks("name\n", Uint8Array.of(0x52, 0x65, 0x6e, 0xe9, 0x0a)), { encoding: "windows-1252" });
    expect(table.header).toEqual({ row: 1, cells: ["name"] });
    expect(table.rows).toEqual([{ row: 2, cells: ["René"] }]);
    expect(table.info.encoding).toBe("windows-1252");
  });

  it.each([
    ["an empty file", ""],
    ["a file of blank lines", " \n\n\t\n"],
  ])("refuses %s: there is no header", async (_, text) => {
    const err = await readCsvTable(chunks(text)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CsvFileError);
    expect(err).toMatchObject({ code: "EMPTY", exitCode: 6, message: "file is empty: the first row must be the header" });
  });
});

describe("isBlankRow", () => {
  it.each([
    [[], true],
    [[""], true],
    [["", "  ", "\t"], true],
    [["", "x"], false],
    [[" x "], false],
  ])("%j → %s", (cells, blank) => {
    expect(isBlankRow(cells)).toBe(blank);
  });
});
