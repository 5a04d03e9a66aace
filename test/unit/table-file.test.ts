import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sheetCellText, sheetToCsv } from "../../src/domain/csv-input/sheet.js";
import { CsvFileError } from "../../src/domain/csv-input/errors.js";
import { LocalFileError } from "../../src/errors.js";
import { isWorkbookFile, readTableFile } from "../../src/output/table-file.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-table-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("sheetCellText", () => {
  it.each([
    [null, ""],
    ["Ana", "Ana"],
    [42, "42"],
    [true, "TRUE"],
    [new Date("2026-03-01T00:00:00Z"), "2026-03-01"],
    [{ richText: [{ text: "Zoë " }, { text: "Ng" }] }, "Zoë Ng"],
    [{ text: "ana@example.com", hyperlink: "mailto:ana@example.com" }, "ana@example.com"],
    [{ formula: "A1&B1", result: "AnaDiaz" }, "AnaDiaz"],
  ])("turns %j into %j", (value, text) => {
    expect(sheetCellText(value)).toBe(text);
  });
});

describe("sheetToCsv", () => {
  it("keeps missing sheet rows as blank records and pads short rows to the header's width", () => {
    const csv = sheetToCsv([
      { number: 1, values: ["a", "b", "c"] },
      { number: 3, values: ["1", "x,y"] },
    ]);
    expect(csv).toBe('a,b,c\n\n1,"x,y",\n');
  });
});

describe("readTableFile", () => {
  it("reads a workbook's first sheet with the sheet's own row numbers, whatever the file is called", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Staff");
    sheet.getCell("A1").value = "First Name";
    sheet.getCell("B1").value = "E-mail";
    sheet.getCell("A2").value = "Ana";
    sheet.getCell("B2").value = { text: "ana@example.com", hyperlink: "mailto:ana@example.com" };
    sheet.getCell("A4").value = "Bo";
    sheet.getCell("B4").value = "bo@example.com";
    workbook.addWorksheet("Other").getCell("A1").value = "ignored";
    const path = join(dir, "staff.csv");
    await workbook.xlsx.writeFile(path);
    expect(await isWorkbookFile(path)).toBe(true);
    const table = await readTableFile(path);
    expect(table.header).toEqual({ row: 1, cells: ["First Name", "E-mail"] });
    expect(table.rows.filter((r) => r.cells.some((c) => c !== ""))).toEqual([
      { row: 2, cells: ["Ana", "ana@example.com"] },
      { row: 4, cells: ["Bo", "bo@example.com"] },
    ]);
  });

  it("reads a CSV by the users-CSV rules (here: UTF-8 BOM, semicolons)", async () => {
    const path = join(dir, "plain.csv");
    await writeFile(path, "\uFEFFa;b\r\n1;2\r\n");
    expect(await isWorkbookFile(path)).toBe(false);
    const table = await readTableFile(path);
    expect(table.header.cells).toEqual(["a", "b"]);
    expect(table.rows).toEqual([{ row: 2, cells: ["1", "2"] }]);
    expect(table.info.delimiter).toBe(";");
  });

  it("takes a file shorter than the zip signature, or starting otherwise, for a CSV", async () => {
    const short = join(dir, "short.csv");
    await writeFile(short, "PK\u0003");
    expect(await isWorkbookFile(short)).toBe(false);
    const other = join(dir, "other.csv");
    await writeFile(other, "PK\u0003\u0005rest");
    expect(await isWorkbookFile(other)).toBe(false);
    const empty = join(dir, "empty.csv");
    await writeFile(empty, "");
    expect(await isWorkbookFile(empty)).toBe(false);
  });

  it("names the path of a file it cannot open, with exit 11", async () => {
    const missing = join(dir, "missing.csv");
    const error = await readTableFile(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toBe(`cannot read ${missing}: no such file or directory (ENOENT)`);
    expect((error as LocalFileError).exitCode).toBe(11);
    await expect(isWorkbookFile(missing)).rejects.toThrow(`cannot read ${missing}: no such file or directory (ENOENT)`);
  });

  it("names the path of a directory given for a file, with exit 11", async () => {
    const error = await readTableFile(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).code).toBe("EISDIR");
    expect((error as LocalFileError).path).toBe(dir);
  });

  it("says a file that starts like a workbook but is not one cannot be read as .xlsx, and how to fix it", async () => {
    const path = join(dir, "broken.xlsx");
    await writeFile(path, "PK\u0003\u0004 this is not a zip");
    const error = await readTableFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvFileError);
    expect((error as CsvFileError).code).toBe("MALFORMED");
    expect((error as CsvFileError).message).toMatch(
      new RegExp(`^${path.replace(/[.]/g, "\\.")} looks like a workbook but cannot be read as \\.xlsx: .+`),
    );
    expect((error as CsvFileError).hint).toBe("save it again as an Excel workbook (.xlsx) or as CSV UTF-8");
    expect((error as CsvFileError).exitCode).toBe(6);
  });

  it("says a workbook without a sheet is empty", async () => {
    const path = join(dir, "nosheet.xlsx");
    await new ExcelJS.Workbook().xlsx.writeFile(path);
    const error = await readTableFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvFileError);
    expect((error as CsvFileError).code).toBe("EMPTY");
    expect((error as CsvFileError).message).toBe(`${path}: the workbook has no sheet`);
  });
});
