// @ts-nocheck
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sheetCellText, sheetToCsv } from "../../src/domain/csv-input/sheet.js";
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
});
