import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import type { JsonRecord } from "../../src/domain/records.js";
import { UsageError } from "../../src/errors.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import { renderResult, writeResult, type CommandResult } from "../../src/output/render.js";
import { isoDateValue, openXlsxWorkbook, sheetName } from "../../src/output/xlsx.js";
import { InterruptedError } from "../../src/errors.js";
import { memorySink } from "../helpers/memory-sink.js";

// The output engine (src/output/record-stream.ts): a complete result is a stream of one
// batch, so renderResult and a streamed export write the same bytes; every CSV goes through
// csv-stringify with the formula guard; xlsx is a real workbook.

async function stream(batches: JsonRecord[][], options: RecordStreamOptions): Promise<ReturnType<typeof memorySink>> {
  const sink = memorySink();
  const writer = createRecordWriter(sink, options);
  for (const batch of batches) await writer.writeBatch(batch);
  await writer.end();
  return sink;
}

async function readWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

const RECORDS: JsonRecord[] = [
  { id: "s1", title: '=HYPERLINK("x")', meta: { level: 2 }, done: true },
  { id: "s2", title: "Plain; with, both", extra: "a\tb" },
];

describe("a complete result is a stream of one batch", () => {
  it.each(["csv", "ndjson", "table"] as const)("%s: renderResult writes what one streamed batch writes", async (format) => {
    const whole = await renderResult({ kind: "records", records: RECORDS }, { format, width: 200 });
    const streamed = (await stream([RECORDS], { format, width: 200 })).text();
    expect(whole).toBe(streamed);
  });

  it("json: a complete result is pretty-printed exactly as JSON.stringify(list, null, 2)", async () => {
    expect(await renderResult({ kind: "records", records: RECORDS }, { format: "json" })).toBe(
      `${JSON.stringify(RECORDS, null, 2)}\n`,
    );
    expect(await renderResult({ kind: "records", records: [] }, { format: "json" })).toBe("[]\n");
    expect(await renderResult({ kind: "object", value: { a: { b: 1 } } }, { format: "json" })).toBe(
      `${JSON.stringify({ a: { b: 1 } }, null, 2)}\n`,
    );
  });

  it("csv of a result with no record names the command's known fields as its header", async () => {
    const result: CommandResult = { kind: "records", records: [], knownFields: ["id", "title"] };
    expect(await renderResult(result, { format: "csv" })).toBe("id,title\n");
  });

  it.each(["json", "ndjson", "csv", "table", "xlsx"] as const)(
    "%s: --fields is checked against the known fields even when no record came back",
    async (format) => {
      const result: CommandResult = { kind: "records", records: [], knownFields: ["id", "title"] };
      await expect(writeResult(result, memorySink(), { format, fields: ["nope"] })).rejects.toThrow(
        /unknown field for --fields: nope; known fields: id, title/,
      );
      await expect(writeResult(result, memorySink(), { format, fields: ["nope"] })).rejects.toBeInstanceOf(UsageError);
    },
  );
});

describe("csv through csv-stringify", () => {
  it("--delimiter ; quotes cells holding a semicolon, not those holding a comma", async () => {
    const text = (await stream([RECORDS], { format: "csv", delimiter: ";" })).text();
    expect(text.split("\n")).toEqual([
      "id;title;meta.level;done;extra",
      `s1;"'=HYPERLINK(""x"")";2;true;`,
      `s2;"Plain; with, both";;;a\tb`,
      "",
    ]);
  });

  it("--delimiter tab quotes cells holding a tab and keeps commas and semicolons bare", async () => {
    const text = (await stream([RECORDS], { format: "csv", delimiter: "\t" })).text();
    expect(text.split("\n")[2]).toBe(`s2\tPlain; with, both\t\t\t"a\tb"`);
  });

  it("writes booleans as true/false and numbers as their JSON text, negative numbers unguarded", async () => {
    const text = (await stream([[{ t: true, f: false, n: -5, x: 1.25, s: "-5" }]], { format: "csv" })).text();
    expect(text).toBe("t,f,n,x,s\ntrue,false,-5,1.25,'-5\n");
  });

  it("with --bom and --delimiter together, the mark comes first", async () => {
    expect((await stream([[{ a: 1, b: 2 }]], { format: "csv", bom: true, delimiter: ";" })).text()).toBe("\uFEFFa;b\n1;2\n");
  });
});

describe("xlsx", () => {
  const DATED: JsonRecord[] = [
    {
      id: "r1",
      date: "2026-10-01",
      at: "2026-10-01T08:30:00Z",
      score: 92.5,
      count: 7,
      module: { name: "+1 Upsell", code: "=SUM(A1)" },
      passed: true,
      odd: "2026-02-30",
    },
    { id: "r2", date: "2026-10-02", score: 0, late: "x\u0001y" },
  ];

  it("writes a workbook: bold frozen header with auto-filter, flattened columns, typed cells", async () => {
    const sink = await stream([DATED.slice(0, 1), DATED.slice(1)], { format: "xlsx", sheetName: "users" });
    const workbook = await readWorkbook(sink.bytes());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["users"]);
    const sheet = workbook.getWorksheet("users")!;
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([
      "id",
      "date",
      "at",
      "score",
      "count",
      "module.name",
      "module.code",
      "passed",
      "odd",
      "late",
    ]);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBe("A1:J1");
    expect(sheet.rowCount).toBe(3);

    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe("r1");
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.Date);
    expect((row.getCell(2).value as Date).toISOString()).toBe("2026-10-01T00:00:00.000Z");
    expect(row.getCell(2).numFmt).toBe("yyyy-mm-dd");
    expect((row.getCell(3).value as Date).toISOString()).toBe("2026-10-01T08:30:00.000Z");
    expect(row.getCell(4).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(4).value).toBe(92.5);
    expect(row.getCell(5).value).toBe(7);
    // Strings stay strings, exactly: no formula cell, and no `'` guard either.
    expect(row.getCell(6).value).toBe("+1 Upsell");
    expect(row.getCell(7).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(7).value).toBe("=SUM(A1)");
    expect(row.getCell(8).value).toBe(true);
    expect(row.getCell(9).value).toBe("2026-02-30");
    // A column first seen in a later batch: earlier rows have it empty, later ones filled.
    expect(row.getCell(10).value).toBeNull();
    expect(sheet.getRow(3).getCell(10).value).toBe("x\\u0001y");
    expect(sheet.getRow(3).getCell(4).value).toBe(0);
  });

  it("with --fields writes only those columns, in order", async () => {
    const sink = await stream([DATED], { format: "xlsx", fields: ["score", "module.name"] });
    const sheet = (await readWorkbook(sink.bytes())).worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["score", "module.name"]);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([92.5, "+1 Upsell"]);
  });

  it("a complete result through writeResult is a workbook too", async () => {
    const sink = memorySink();
    await writeResult({ kind: "records", records: [{ a: 1 }] }, sink, { format: "xlsx", sheetName: "library" });
    const workbook = await readWorkbook(sink.bytes());
    expect(workbook.worksheets[0]?.name).toBe("library");
    expect(workbook.worksheets[0]?.getRow(2).getCell(1).value).toBe(1);
  });

  it("writes each stream as a sheet of a shared workbook, which the caller completes", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    for (const [name, records] of [
      ["users", [{ id: "u1" }]],
      ["teams", [{ team: "t1" }, { team: "t2" }]],
    ] as const) {
      const writer = createRecordWriter(sink, { format: "xlsx", sheetName: name, workbook });
      await writer.writeBatch(records);
      await writer.end();
    }
    await workbook.commit();
    const read = await readWorkbook(sink.bytes());
    expect(read.worksheets.map((s) => s.name)).toEqual(["users", "teams"]);
    expect((read.getWorksheet("teams")!.getColumn(1).values as unknown[]).slice(1)).toEqual(["team", "t1", "t2"]);
  });

  it("names the sheet Sheet1 when no name is given", async () => {
    const sink = await stream([[{ a: 1 }]], { format: "xlsx" });
    expect((await readWorkbook(sink.bytes())).worksheets.map((s) => s.name)).toEqual(["Sheet1"]);
  });

  it("stops at the end once the signal is aborted (Ctrl-C), and aborts quietly before or after the sheet began", async () => {
    const controller = new AbortController();
    const interrupted = createRecordWriter(memorySink(), { format: "xlsx", fields: ["a"], signal: controller.signal });
    await interrupted.writeBatch([{ a: 1 }]);
    controller.abort();
    await expect(interrupted.end()).rejects.toBeInstanceOf(InterruptedError);

    await expect(createRecordWriter(memorySink(), { format: "xlsx" }).abort()).resolves.toBeUndefined();
    const shared = await openXlsxWorkbook(memorySink());
    const writer = createRecordWriter(memorySink(), { format: "xlsx", fields: ["a"], workbook: shared });
    await writer.writeBatch([{ a: 1 }]);
    await expect(writer.abort()).resolves.toBeUndefined();
    shared.abort();
  });

  it("reads ISO dates and timestamps as dates, and nothing else", () => {
    expect(isoDateValue("2026-10-01")?.date.toISOString()).toBe("2026-10-01T00:00:00.000Z");
    expect(isoDateValue("2026-10-01T10:00:00+02:00")?.date.toISOString()).toBe("2026-10-01T08:00:00.000Z");
    expect(isoDateValue("2026-10-01T10:00:00.123")?.date.toISOString()).toBe("2026-10-01T10:00:00.123Z");
    for (const text of ["2026-02-30", "2026-13-01", "01/10/2026", "2026-10-01x", "20261001", "2026-10-01T25:00:00Z"]) {
      expect(isoDateValue(text), text).toBeUndefined();
    }
  });

  it("keeps sheet names within Excel's rules", () => {
    expect(sheetName("training-plan-result")).toBe("training-plan-result");
    expect(sheetName("a/b:c*d?e[f]g\\h")).toBe("a_b_c_d_e_f_g_h");
    expect(sheetName("x".repeat(40))).toHaveLength(31);
    expect(sheetName("")).toBe("Sheet1");
  });
});
