import ExcelJS from "exceljs";
import { inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { backlogOf, drain, isoDateValue, openXlsxWorkbook, sheetName } from "../../src/output/xlsx.js";

// `-o xlsx` (docs/cli-contract.md, Global options `-o`), driven directly: the workbook's bytes
// read back with exceljs. The engine's end-to-end xlsx cases: test/unit/output-engine.test.ts.

function memorySink() {
  const chunks: Buffer[] = [];
  return {
    async write(chunk: Uint8Array) {
      chunks.push(Buffer.from(chunk));
    },
    bytes: () => Buffer.concat(chunks),
  };
}

async function read(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** Lets pending callbacks and short timers run (no bound on anything: only the order matters). */
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

describe("openXlsxWorkbook", () => {
  it("sizes columns from the header names (10 to 60 wide) and filters over them", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const sheet = workbook.addSheet("widths");
    await sheet.header(["id", "a column name of 25 chars", "y".repeat(70)]);
    await sheet.row(["a", "b", "c"]);
    await sheet.end();
    await workbook.commit();
    const ws = (await read(sink.bytes())).getWorksheet("widths")!;
    expect([1, 2, 3].map((i) => ws.getColumn(i).width)).toEqual([10, 27, 60]);
    expect(ws.autoFilter).toBe("A1:C1");
    expect(ws.getRow(1).getCell(2).font?.bold).toBe(true);
    expect(ws.getRow(1).getCell(2).value).toBe("a column name of 25 chars");
  });

  it("writes several sheets one after the other, a sheet without columns has no filter", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const empty = workbook.addSheet("empty");
    await empty.header([]);
    await empty.end();
    const second = workbook.addSheet("a/b");
    await second.header(["n"]);
    await second.row([1]);
    await second.end();
    await workbook.commit();
    const book = await read(sink.bytes());
    expect(book.worksheets.map((s) => s.name)).toEqual(["empty", "a_b"]);
    expect(book.getWorksheet("empty")!.autoFilter).toBeUndefined();
    expect(book.getWorksheet("empty")!.getRow(1).values).toEqual([]);
    expect(book.getWorksheet("a_b")!.autoFilter).toBe("A1:A1");
    expect(book.getWorksheet("a_b")!.getRow(2).getCell(1).value).toBe(1);
  });

  it("types each cell: numbers, non-finite numbers as text, booleans, dates, timestamps, escaped control characters", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const sheet = workbook.addSheet("cells");
    await sheet.header(["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
    const longest = "2026-10-01T10:00:00.123456789+02:00"; // 35 characters: the longest timestamp
    await sheet.row([Infinity, NaN, false, null, undefined, "2026-10-01", longest, "a\u001fb\u007fc\ufffe", 0, ""]);
    await sheet.end();
    await workbook.commit();
    const row = (await read(sink.bytes())).getWorksheet("cells")!.getRow(2);
    expect(row.getCell(1).value).toBe("Infinity");
    expect(row.getCell(2).value).toBe("NaN");
    expect(row.getCell(3).value).toBe(false);
    expect(row.getCell(4).value).toBeNull();
    expect(row.getCell(5).value).toBeNull();
    expect((row.getCell(6).value as Date).toISOString()).toBe("2026-10-01T00:00:00.000Z");
    expect(row.getCell(6).numFmt).toBe("yyyy-mm-dd");
    expect((row.getCell(7).value as Date).toISOString()).toBe("2026-10-01T08:00:00.123Z");
    expect(row.getCell(7).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(row.getCell(8).value).toBe("a\\u001fb\\u007fc\\ufffe");
    expect(row.getCell(9).value).toBe(0);
    expect(row.getCell(1).numFmt).toBeUndefined();
    expect(row.getCell(3).numFmt).toBeUndefined();
  });

  it("empty cells stay empty, the first one included; a row shorter than the header leaves the rest empty", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const sheet = workbook.addSheet("gaps");
    await sheet.header(["a", "b", "c"]);
    await sheet.row([null, "b"]);
    await sheet.row([]);
    await sheet.row([undefined, undefined, 3]);
    await sheet.end();
    await workbook.commit();
    const ws = (await read(sink.bytes())).getWorksheet("gaps")!;
    expect(ws.getRow(2).values).toEqual([undefined, undefined, "b"]);
    expect(ws.getRow(3).values).toEqual([]);
    expect(ws.getRow(4).values).toEqual([undefined, undefined, undefined, 3]);
  });

  it("once the sink fails, nothing more is handed to it and that first failure is the error", async () => {
    const writes: number[] = [];
    const workbook = await openXlsxWorkbook({
      async write(chunk) {
        writes.push(chunk.length);
        if (writes.length === 1) throw new Error("cannot write /x.xlsx: input/output error (EIO)");
      },
    });
    const sheet = workbook.addSheet("s");
    await sheet.header(["a"]);
    const error = await (async () => {
      for (let i = 0; i < 2000; i++) await sheet.row([`row ${i} ${"y".repeat(100)}`]);
      await sheet.end();
      await workbook.commit();
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("cannot write /x.xlsx: input/output error (EIO)");
    workbook.abort();
    await turns(5);
    expect(writes).toHaveLength(1);
  });

  it("after abort every step fails and nothing more reaches the sink", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const sheet = workbook.addSheet("s");
    await sheet.header(["a"]);
    workbook.abort();
    await expect(sheet.row([1])).rejects.toThrow("xlsx output aborted");
    await expect(sheet.end()).rejects.toThrow("xlsx output aborted");
    await expect(workbook.commit()).rejects.toThrow("xlsx output aborted");
  });

  it("commit after abort fails at once, even while the sink still holds a write it never finishes", async () => {
    const writes: number[] = [];
    const workbook = await openXlsxWorkbook({
      write(chunk) {
        writes.push(chunk.length);
        return new Promise<never>(() => undefined);
      },
    });
    const sheet = workbook.addSheet("s");
    await sheet.header(["a"]);
    for (let i = 0; i < 600; i++) await sheet.row([`row ${i} ${"y".repeat(100)}`]);
    await turns(5);
    expect(writes.length).toBeGreaterThan(0);
    workbook.abort();
    let outcome = "pending";
    workbook.commit().then(
      () => (outcome = "committed"),
      (e: unknown) => (outcome = (e as Error).message),
    );
    await turns(20);
    expect(outcome).toBe("xlsx output aborted");
  });

  it("a sink that throws something other than an Error fails the workbook with a named error", async () => {
    const workbook = await openXlsxWorkbook({
      async write() {
        throw "disk gone"; // eslint-disable-line @typescript-eslint/only-throw-error -- a non-Error on purpose
      },
    });
    const sheet = workbook.addSheet("s");
    await sheet.header(["a"]);
    await sheet.row(["x"]);
    await sheet.end();
    await expect(workbook.commit()).rejects.toThrow("xlsx output failed: disk gone");
  });

  it("rows wait while the sheet's backlog is over 4 MiB, and go on once the sink takes it", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const workbook = await openXlsxWorkbook({ write: () => gate });
    const sheet = workbook.addSheet("s");
    await sheet.header(["text"]);
    const text = "x".repeat(10_000);
    // Only every 500th row looks at the backlog; 500 rows of 10 kB are 5 MB of XML, which the
    // stalled sink lets pile up (how much of it sits in zlib, not counted, varies a little).
    let waitedAt = 0;
    let waiting: Promise<void> | undefined;
    for (let i = 1; i <= 2000 && waiting === undefined; i++) {
      if (i % 500 !== 0) {
        await sheet.row([text]);
        continue;
      }
      let settled = false;
      const next = sheet.row([text]).finally(() => (settled = true));
      next.catch(() => undefined);
      await turns(5);
      if (!settled) [waitedAt, waiting] = [i, next];
    }
    expect([500, 1000]).toContain(waitedAt);
    release();
    await expect(waiting).resolves.toBeUndefined();
    workbook.abort();
  });

  it("a row waiting for the backlog fails with the sink's failure when the held write fails", async () => {
    let fail: (error: Error) => void = () => undefined;
    const held = new Promise<void>((_, reject) => (fail = reject));
    const workbook = await openXlsxWorkbook({ write: () => held });
    const sheet = workbook.addSheet("s");
    await sheet.header(["text"]);
    // 500 rows of 20 kB: about 10 MB of XML at the 500th row, far over 4 MiB, so the row
    // waits, and the failure comes long before the dropped backlog could fall under the bound.
    for (let i = 1; i < 500; i++) await sheet.row(["x".repeat(20_000)]);
    let outcome = "pending";
    const waiting = sheet.row(["x".repeat(20_000)]).then(
      () => (outcome = "written"),
      (e: unknown) => (outcome = (e as Error).message),
    );
    await turns(5);
    expect(outcome).toBe("pending");
    fail(new Error("cannot write /x.xlsx: no space left on device (ENOSPC)"));
    await waiting;
    expect(outcome).toBe("cannot write /x.xlsx: no space left on device (ENOSPC)");
    workbook.abort();
  });

  it("rows under 4 MiB of backlog do not wait, even with a sink that never takes anything", async () => {
    const workbook = await openXlsxWorkbook({ write: () => new Promise<never>(() => undefined) });
    const sheet = workbook.addSheet("s");
    await sheet.header(["text"]);
    for (let i = 1; i <= 1000; i++) await sheet.row(["x".repeat(1000)]);
    workbook.abort();
  });
});

describe("backlogOf", () => {
  it("adds exceljs' buffers, the zip entry's buffered bytes both sides, and the zip's output", () => {
    const stream = {
      buffers: [{ length: 100 }, { length: 20 }],
      pipes: [
        { _writableState: { length: 3000 }, _readableState: { length: 40000 } },
        { _writableState: { length: 500000 }, _readableState: { length: 6000000 } },
      ],
    };
    expect(backlogOf(stream, { readableLength: 7 })).toBe(6_543_127);
  });

  it("counts what is there when exceljs' internals lack a part, and never throws", () => {
    expect(backlogOf(undefined, { readableLength: 7 })).toBe(7);
    expect(backlogOf({}, { readableLength: 0 })).toBe(0);
    expect(backlogOf({ buffers: [{ length: 5 }], pipes: [{}] }, { readableLength: 0 })).toBe(5);
    expect(backlogOf({ pipes: [{ _readableState: {} }, { _writableState: { length: 9 } }] }, { readableLength: 0 })).toBe(9);
    expect(backlogOf({ pipes: [{ _writableState: {}, _readableState: { length: 11 } }] }, { readableLength: 1 })).toBe(12);
  });
});

describe("drain", () => {
  const MiB4 = 4 * 1024 * 1024;
  const noFailure = (): Error | undefined => undefined;

  it("does not wait at exactly 4 MiB of backlog: the backlog is looked at once", async () => {
    const seen: number[] = [];
    await drain(() => {
      seen.push(seen.length);
      return seen.length === 1 ? MiB4 : 0;
    }, noFailure);
    expect(seen).toEqual([0]);
  });

  it("waits while the backlog is over 4 MiB and returns once it is not", async () => {
    const backlogs = [MiB4 + 1, MiB4 + 1, 10, 0];
    let looks = 0;
    await drain(() => backlogs[looks++]!, noFailure);
    expect(looks).toBe(3);
  });

  it("while waiting, a failure of the output is thrown (nothing would drain any more)", async () => {
    const backlogs = [MiB4 + 1, MiB4 + 1, 0];
    let looks = 0;
    const output: { failure?: Error } = {};
    const waiting = drain(
      () => backlogs[looks++]!,
      () => output.failure,
    );
    // Fails after drain's first look: it is waiting by then.
    output.failure = new Error("cannot write /x.xlsx: no space left on device (ENOSPC)");
    await expect(waiting).rejects.toThrow("cannot write /x.xlsx: no space left on device (ENOSPC)");
    expect(looks).toBe(2);
  });
});

describe("isoDateValue", () => {
  it.each([
    ["2026-10-01 10:00", "2026-10-01T10:00:00.000Z"],
    ["2026-10-01T10:00:00+0200", "2026-10-01T08:00:00.000Z"],
    ["2026-10-01T10:00:00-01:30", "2026-10-01T11:30:00.000Z"],
    ["2026-10-01T10:00:00Z", "2026-10-01T10:00:00.000Z"],
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
  ])("%s is %s", (text, iso) => {
    expect(isoDateValue(text)?.date.toISOString()).toBe(iso);
  });

  it.each([
    "2026-02-30T10:00:00Z",
    "2025-02-29",
    "2026-04-31",
    "2026-00-10",
    "2026-10-00",
    " 2026-10-01",
    "2026-10-01T10:00:00+2",
  ])("%s is not a date", (text) => {
    expect(isoDateValue(text)).toBeUndefined();
  });

  it("a timestamp without an offset is UTC whatever the machine's time zone", () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York"; // Node applies a new TZ at once
    try {
      expect(isoDateValue("2026-10-01 10:00")?.date.toISOString()).toBe("2026-10-01T10:00:00.000Z");
      expect(isoDateValue("2026-10-01T10:00:00.5")?.date.toISOString()).toBe("2026-10-01T10:00:00.500Z");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("a date has the date format, a timestamp the timestamp format", () => {
    expect(isoDateValue("2026-10-01")?.numFmt).toBe("yyyy-mm-dd");
    expect(isoDateValue("2026-10-01T10:00")?.numFmt).toBe("yyyy-mm-dd hh:mm:ss");
  });
});

describe("sheetName", () => {
  it("trims what is left after the cut at 31 characters", () => {
    expect(sheetName(`${"x".repeat(30)} y`)).toBe("x".repeat(30));
    expect(sheetName("  users  ")).toBe("users");
    expect(sheetName("   ")).toBe("Sheet1");
    expect(sheetName("x".repeat(31))).toBe("x".repeat(31));
  });
});

/** A file of a zip archive, found through its central directory (exceljs' entries carry their sizes only there). */
function unzipEntry(zip: Buffer, name: string): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString("utf8", at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString("utf8");
    }
    at += 46 + nameLength + extra;
  }
  throw new Error(`no ${name} in the archive`);
}

describe("strings keep their white space and line ends in the sheet's XML", () => {
  it("leading and trailing spaces, a leading tab and a CR are written so that readers keep them", async () => {
    const sink = memorySink();
    const workbook = await openXlsxWorkbook(sink);
    const sheet = workbook.addSheet("s");
    await sheet.header(["a", "b", "c", "d", "e", "f"]);
    await sheet.row(["  two spaces  ", "\tTab", "\rCR", "a\r\nb", "plain", " _x000D_ typed"]);
    await sheet.end();
    await workbook.commit();
    const xml = unzipEntry(sink.bytes(), "xl/worksheets/sheet1.xml");
    const cell = (ref: string): string => new RegExp(`<c r="${ref}"[^>]*>([\\s\\S]*?)</c>`).exec(xml)?.[1] ?? "";
    expect(cell("A2")).toBe('<is><r><t xml:space="preserve">  two spaces  </t></r></is>');
    expect(cell("B2")).toBe('<is><r><t xml:space="preserve">\tTab</t></r></is>');
    // A raw CR would reach readers as LF (XML normalises line ends): OOXML's escape instead.
    expect(cell("C2")).toMatch(/^<is><r><t( xml:space="preserve")?>_x000D_CR<\/t><\/r><\/is>$/);
    expect(cell("D2")).toMatch(/^<is><r><t( xml:space="preserve")?>a_x000D_\nb<\/t><\/r><\/is>$/);
    expect(cell("E2")).toBe("<v>plain</v>");
    expect(cell("F2")).toBe('<is><r><t xml:space="preserve"> _x005F_x000D_ typed</t></r></is>');
    expect(xml).not.toContain("\r");
  });
});
