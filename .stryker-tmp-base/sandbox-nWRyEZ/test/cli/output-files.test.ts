// @ts-nocheck
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenRecord } from "../../src/domain/records.js";
import { renderResult } from "../../src/output/render.js";
import { REPORT_KINDS, generateReport } from "../../src/sandbox/reports.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// docs/cli-contract.md, Global options `-o` (xlsx), `--out` (extensions), `--delimiter`:
// through the real program, in-process, against a sandbox started here.

const RANGE = ["--from", "2025-01-01", "--to", "2025-01-03"];

async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

/** A sheet's rows as arrays (exceljs' row.values is 1-based, with a hole at 0). */
function sheetRows(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** What a report record becomes in a sheet: flattened, ISO dates as dates, empty cells as holes. */
function expectedRow(columns: string[], record: Record<string, unknown>): unknown[] {
  const flat = flattenRecord(record);
  return columns.map((column) => {
    const value = flat[column];
    if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
    return value ?? undefined;
  });
}

describe("output files", () => {
  let env: TestEnv;
  let dir: { path: string; remove(): Promise<void> };

  beforeAll(async () => {
    env = await startTestEnv(ROOMY);
    dir = await tempDir();
  });
  afterAll(async () => {
    await env.close();
    await dir.remove();
  });

  describe("--delimiter", () => {
    it("; separates CSV cells in the file, quoting only cells that hold one", async () => {
      const out = join(dir.path, "semi.csv");
      const result = await env.capture(["reports", "users", ...RANGE, "--delimiter", ";", "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      const text = await readFile(out, "utf8");
      const records = generateReport("users", "2025-01-01", "2025-01-03", 2);
      expect(text).toBe(await renderResult({ kind: "records", records }, { format: "csv", delimiter: ";" }));
      const [header, first] = text.split("\n");
      expect(header?.startsWith("recordId;date;group.id;group.name;users.total;")).toBe(true);
      expect(first?.split(";").slice(0, 4)).toEqual(Object.values(flattenRecord(records[0]!)).slice(0, 4).map(String));
    });

    it("tab separates cells on stdout, with --bom first", async () => {
      const result = await env.capture(["reports", "users", ...RANGE, "-o", "csv", "--delimiter", "tab", "--bom"]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout.startsWith("\uFEFFrecordId\tdate\tgroup.id\t")).toBe(true);
    });

    it("rejects any other delimiter with exit 2, sending nothing", async () => {
      const result = await env.capture(["reports", "users", ...RANGE, "-o", "csv", "--delimiter", "|"]);
      expect(result.exitCode).toBe(2);
      expect(result.sent).toEqual([]);
    });
  });

  describe("-o xlsx", () => {
    it("--out x.xlsx writes a workbook of the report: bold frozen header, auto-filter, typed cells", async () => {
      const out = join(dir.path, "modules.xlsx");
      const result = await env.capture(["reports", "modules-results", ...RANGE, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      const records = generateReport("modules-results", "2025-01-01", "2025-01-03", 2);
      expect(result.stderr).toContain(`wrote ${out} (${records.length} records)`);

      const workbook = await readWorkbook(out);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["modules-results"]);
      const sheet = workbook.worksheets[0]!;
      const columns = Object.keys(flattenRecord(records[0]!));
      expect(sheetRows(sheet)[0]).toEqual(columns);
      expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
      expect(sheet.autoFilter).toBe(`A1:${String.fromCharCode(64 + columns.length)}1`);
      expect(sheetRows(sheet).slice(1)).toEqual(records.map((record) => expectedRow(columns, record)));

      const row = sheet.getRow(2);
      expect(row.getCell(columns.indexOf("date") + 1).type).toBe(ExcelJS.ValueType.Date);
      expect(row.getCell(columns.indexOf("metrics.attempts") + 1).type).toBe(ExcelJS.ValueType.Number);
      // A module named "+1 Upsell Techniques" is text, exactly, with no formula guard.
      const names = records.map((record) => (record.module as { name: string }).name);
      expect(names).toContain("+1 Upsell Techniques");
      const nameCells = sheetRows(sheet)
        .slice(1)
        .map((cells) => cells[columns.indexOf("module.name")]);
      expect(nameCells).toEqual(names);
    });

    it("reports all --out month.xlsx writes one workbook with a sheet per kind", async () => {
      const out = join(dir.path, "month.xlsx");
      const result = await env.capture(["reports", "all", ...RANGE, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      const workbook = await readWorkbook(out);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([...REPORT_KINDS]);
      for (const kind of REPORT_KINDS) {
        const records = generateReport(kind, "2025-01-01", "2025-01-03", 2);
        const rows = sheetRows(workbook.getWorksheet(kind)!);
        const columns = rows[0] as string[];
        expect(rows.slice(1), kind).toEqual(records.map((record) => expectedRow(columns, record)));
      }
    });

    it("reports all --out-dir d -o xlsx writes one workbook per kind", async () => {
      const outDir = join(dir.path, "per-kind");
      const result = await env.capture(["reports", "all", ...RANGE, "--out-dir", outDir, "-o", "xlsx"]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await readdir(outDir)).sort()).toEqual(REPORT_KINDS.map((kind) => `${kind}_2025-01-01_2025-01-03.xlsx`).sort());
      const workbook = await readWorkbook(join(outDir, "teams-result_2025-01-01_2025-01-03.xlsx"));
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["teams-result"]);
      expect(sheetRows(workbook.worksheets[0]!)).toHaveLength(
        generateReport("teams-result", "2025-01-01", "2025-01-03", 2).length + 1,
      );
    });

    it("--query answers go into the workbook too (reports and other commands)", async () => {
      const out = join(dir.path, "queried.xlsx");
      const query = "[?users.total > `100`].{id: recordId, day: date, total: users.total}";
      const result = await env.capture(["reports", "users", ...RANGE, "--query", query, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      const expected = generateReport("users", "2025-01-01", "2025-01-03", 2)
        .filter((record) => (record.users as { total: number }).total > 100)
        .map((record) => [
          record.recordId,
          new Date(`${String(record.date)}T00:00:00Z`),
          (record.users as { total: number }).total,
        ]);
      expect(expected.length).toBeGreaterThan(0);
      expect(sheetRows((await readWorkbook(out)).worksheets[0]!)).toEqual([["id", "day", "total"], ...expected]);

      const lib = join(dir.path, "queried-lib.xlsx");
      const listed = await env.capture(["library", "--user", "user-demo", "--query", "[].id", "--out", lib]);
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(sheetRows((await readWorkbook(lib)).worksheets[0]!)[0]).toEqual(["value"]);
    });

    it("writes a non-report result too (library --out lib.xlsx)", async () => {
      const out = join(dir.path, "lib.xlsx");
      const result = await env.capture(["library", "--user", "user-demo", "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      const sheet = (await readWorkbook(out)).worksheets[0]!;
      expect(sheet.name).toBe("lib");
      expect(sheetRows(sheet)[0]).toContain("title");
      expect(sheet.rowCount).toBeGreaterThan(1);
    });

    it("-o xlsx to a terminal is exit 2 with nothing sent and nothing printed", async () => {
      const result = await env.capture(["reports", "users", ...RANGE, "-o", "xlsx"], { stdoutIsTTY: true });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain("error: -o xlsx writes a workbook");
      expect(result.stdout).toBe("");
      expect(result.sent).toEqual([]);
    });

    it.each([
      ["reports", ["reports", "users", ...RANGE, "-o", "xlsx"]],
      ["reports all", ["reports", "all", ...RANGE, "-o", "xlsx"]],
      ["library", ["library", "--user", "user-demo", "-o", "xlsx"]],
    ])("%s: -o xlsx to a pipe is exit 2 with nothing sent and nothing printed", async (_name, args) => {
      const result = await env.capture(args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(/^error: -o xlsx writes a workbook.*; add --out <file>\.xlsx\n$/);
      expect(result.stdout).toBe("");
      expect(result.sent).toEqual([]);
    });
  });

  describe("--out extensions", () => {
    it.each([
      ["reports", ["reports", "users", ...RANGE]],
      ["library", ["library", "--user", "user-demo"]],
      ["token", ["token", "--user", "user-demo"]],
    ])("%s: an extension that names no format is exit 2, nothing sent, no file", async (_name, args) => {
      const out = join(dir.path, "report.pdf");
      const result = await env.capture([...args, "--out", out]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`error: --out ${out}: the extension .pdf names no output format;`);
      expect(result.sent).toEqual([]);
      expect(existsSync(out)).toBe(false);
      expect((await readdir(dir.path)).filter((name) => name.includes("report.pdf"))).toEqual([]);
    });

    it("any extension is fine when -o says the format", async () => {
      const out = join(dir.path, "report.data");
      const result = await env.capture(["reports", "users", ...RANGE, "-o", "csv", "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await readFile(out, "utf8")).startsWith("recordId,date,")).toBe(true);
    });

    it.each([
      [".ndjson", (text: string) => text.trimEnd().split("\n").length > 1 && text.startsWith('{"recordId"')],
      [".jsonl", (text: string) => text.startsWith('{"recordId"')],
      [".json", (text: string) => Array.isArray(JSON.parse(text))],
      [".CSV", (text: string) => text.startsWith("recordId,date,")],
    ])("%s picks its format", async (extension, looksRight) => {
      const out = join(dir.path, `pick${extension}`);
      const result = await env.capture(["reports", "users", ...RANGE, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(looksRight(await readFile(out, "utf8"))).toBe(true);
    });
  });
});
