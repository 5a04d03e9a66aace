import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { detectDialect } from "../../src/domain/csv-input/dialect.js";
import { decodeWindows1252, encodingOption, resolveEncoding, sniffEncoding } from "../../src/domain/csv-input/encoding.js";
import { mapHeader } from "../../src/domain/csv-input/header.js";
import { CsvFileError, type CsvReadOptions, type CsvRecord, CsvRecordReader } from "../../src/domain/csv-input/reader.js";
import { readValidUserRows, USER_COLUMNS, UsersCsvFileError, validateUsersCsv } from "../../src/domain/users-csv/validate.js";

// The generic CSV reader (bytes → text → dialect → records) and the users rules on top of
// it, over the files spreadsheets write: encodings, BOMs, delimiters, line ends, sep=.

const SPREADSHEET = fileURLToPath(new URL("../../fixtures/users/spreadsheet/", import.meta.url));
const HEADER = USER_COLUMNS.join(",");

async function* chunked(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function records(bytes: Uint8Array, size?: number, options?: CsvReadOptions): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const r of new CsvRecordReader(chunked(bytes, size), options)) out.push(r);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<CsvFileError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CsvFileError);
  return err as CsvFileError;
}

const utf16le = (text: string, bom = true): Buffer =>
  Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, "utf16le")]);
const utf16be = (text: string): Buffer => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, "utf16le").swap16()]);

function userLine(i: number, first = `First${i}`, last = `Last${i}`, d = ","): string {
  const email = `user${i}@example.com`;
  return [first, last, email, email, "trainee", "Sales", "ACTIVE", "Add"].join(d);
}

describe("windows-1252", () => {
  it("decodes 0x80–0x9F as the Windows characters, not C1 controls (Node 20's TextDecoder does not)", () => {
    const high = Array.from({ length: 32 }, (_, i) => 0x80 + i);
    expect(decodeWindows1252(Uint8Array.from(high))).toBe("€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ");
    expect(decodeWindows1252(Uint8Array.of(0x41, 0xe9, 0xff, 0xa0))).toBe("Aéÿ\u00a0");
  });

  it("resolves --encoding labels to WHATWG names, and refuses unknown ones", () => {
    expect(resolveEncoding("latin1")).toBe("windows-1252");
    expect(resolveEncoding(" Windows-1252 ")).toBe("windows-1252");
    expect(resolveEncoding("UTF-16")).toBe("utf-16le");
    expect(resolveEncoding("macintosh")).toBe("macintosh");
    expect(resolveEncoding("klingon")).toBeUndefined();
    expect(resolveEncoding("")).toBeUndefined();
  });

  it("--encoding: absent stays undefined, a known label resolves, an unknown one is exit 2", () => {
    expect(encodingOption(undefined)).toBeUndefined();
    expect(encodingOption("latin1")).toBe("windows-1252");
    expect(() => encodingOption("klingon")).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe("sniffEncoding", () => {
  it.each([
    ["UTF-8 BOM", [0xef, 0xbb, 0xbf, 0x66], undefined, { encoding: "utf-8", bomBytes: 3, how: "bom" }],
    ["UTF-16LE BOM", [0xff, 0xfe, 0x66, 0x00], undefined, { encoding: "utf-16le", bomBytes: 2, how: "bom" }],
    ["UTF-16BE BOM", [0xfe, 0xff, 0x00, 0x66], undefined, { encoding: "utf-16be", bomBytes: 2, how: "bom" }],
    ["a BOM over --encoding", [0xff, 0xfe, 0x66, 0x00], "windows-1252", { encoding: "utf-16le", how: "bom" }],
    ["--encoding without BOM", [0x66, 0x69, 0x72, 0x73], "windows-1252", { encoding: "windows-1252", how: "option" }],
    ["UTF-16LE text without BOM", [0x66, 0x00, 0x69, 0x00], undefined, { encoding: "utf-16le", bomBytes: 0, how: "nul-pattern" }],
    ["UTF-16BE text without BOM", [0x00, 0x66, 0x00, 0x69], undefined, { encoding: "utf-16be", how: "nul-pattern" }],
    ["plain ASCII", [0x66, 0x69, 0x72, 0x73], undefined, { encoding: "utf-8", bomBytes: 0, how: "default" }],
  ])("%s", (_, bytes, option, want) => {
    expect(sniffEncoding(Uint8Array.from(bytes), option, false)).toMatchObject({ kind: "encoding", ...want });
  });

  it("waits for 4 bytes, and refuses UTF-32", () => {
    expect(sniffEncoding(Uint8Array.of(0xff, 0xfe), undefined, false)).toEqual({ kind: "need-more" });
    expect(sniffEncoding(Uint8Array.of(0xff, 0xfe, 0, 0), undefined, false)).toEqual({ kind: "unsupported", name: "UTF-32LE" });
  });
});

describe("detectDialect", () => {
  it.each([
    ["commas, LF", "a,b;c\nx", { delimiter: ",", lineEnding: "lf", sepLine: false, skip: 0 }],
    ["semicolons, CRLF", "a;b;c,d\r\nx", { delimiter: ";", lineEnding: "crlf" }],
    ["tabs, CR", "a\tb\tc;d\rx", { delimiter: "\t", lineEnding: "cr" }],
    ["delimiters inside quotes ignored", '"a;b;c",d\nx', { delimiter: "," }],
    ["blank lines before the header", "\r\r\na;b\r\nx", { delimiter: ";", lineEnding: "crlf" }],
    ["Excel's sep=; line", "sep=;\r\na,b,c\r\n", { delimiter: ";", sepLine: true, skip: 7, lineEnding: "crlf" }],
    ["sep= and a tab", "sep=\t\na,b\n", { delimiter: "\t", sepLine: true, skip: 6 }],
    ["sep=\\t spelled out", "sep=\\t\na\tb\n", { delimiter: "\t", skip: 7 }],
    ["a quoted sep line", '"sep=,"\na;b\n', { delimiter: ",", skip: 8 }],
  ])("%s", (_, head, want) => {
    expect(detectDialect(head, false)).toMatchObject(want);
  });

  it("asks for more text until the header line (and a CR's possible LF) is complete", () => {
    expect(detectDialect("firstName,lastName", false)).toBeUndefined();
    expect(detectDialect("a;b\r", false)).toBeUndefined();
    expect(detectDialect("sep=", false)).toBeUndefined();
    expect(detectDialect("a;b\r", true)).toMatchObject({ delimiter: ";", lineEnding: "cr" });
  });

  it("refuses a sep= line naming another delimiter, quoting it", () => {
    expect(() => detectDialect("sep=|\na|b\n", false)).toThrow(/names the delimiter "\|"/);
  });
});

describe("CsvRecordReader", () => {
  const text = `sep=;\r\nh1;h2\r\n"Zoë";"a ""q"";\r\nb"\r\n\r\nRené;😀\r\n`;
  const want = [
    // Lines: the sep= line is line 1 but no row; row 2's quoted line break moves the rest down one.
    { row: 1, line: 2, cells: ["h1", "h2"] },
    { row: 2, line: 3, cells: ["Zoë", 'a "q";\r\nb'] },
    { row: 3, line: 5, cells: [""] },
    { row: 4, line: 6, cells: ["René", "😀"] },
  ];

  it.each([1, 2, 3, 5, 64 * 1024])("reads UTF-8, UTF-16LE and UTF-16BE alike in chunks of %i bytes", async (size) => {
    expect(await records(Buffer.from(text, "utf8"), size)).toEqual(want);
    expect(await records(utf16le(text), size)).toEqual(want);
    expect(await records(utf16be(text), size)).toEqual(want);
  });

  it("reports what it found out about the file", async () => {
    const reader = new CsvRecordReader(chunked(utf16le(text), 3));
    for await (const _ of reader);
    expect(reader.info).toMatchObject({
      encoding: "utf-16le",
      bom: true,
      delimiter: ";",
      lineEnding: "crlf",
      sepLine: true,
      notes: [],
    });
    expect(reader.info.bytes).toBe(utf16le(text).length);
    expect(reader.info.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("splits CR-only files into rows (old Mac Excel)", async () => {
    const rows = await records(Buffer.from("a,b\rc,d\r\re,f\r"), 1);
    expect(rows).toEqual([
      { row: 1, line: 1, cells: ["a", "b"] },
      { row: 2, line: 2, cells: ["c", "d"] },
      { row: 3, line: 3, cells: [""] },
      { row: 4, line: 4, cells: ["e", "f"] },
    ]);
  });

  it("keeps a lone CR inside a cell of an LF file (it is not a record break there)", async () => {
    const rows = await records(Buffer.from("a,b\nc\rd,e\nf,g\n"));
    expect(rows.map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["c\rd", "e"],
      ["f", "g"],
    ]);
    // …nor a line break for an editor: the next row is on line 3.
    expect(rows.map((r) => r.line)).toEqual([1, 2, 3]);
  });

  it("reads UTF-16 without a BOM by its NUL pattern, with a note", async () => {
    const reader = new CsvRecordReader(chunked(utf16le("a,b\nZoë,x\n", false)));
    const rows: CsvRecord[] = [];
    for await (const r of reader) rows.push(r);
    expect(rows.map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["Zoë", "x"],
    ]);
    expect(reader.info.notes).toEqual(["the file has no byte-order mark but looks like UTF-16LE; it was read as UTF-16LE"]);
  });

  it("lets a BOM win over --encoding, with a note", async () => {
    const reader = new CsvRecordReader(chunked(Buffer.from("\uFEFFa,b\nZoë,x\n")), { encoding: "windows-1252" });
    const rows: CsvRecord[] = [];
    for await (const r of reader) rows.push(r);
    expect(rows[1]?.cells).toEqual(["Zoë", "x"]);
    expect(reader.info.encoding).toBe("utf-8");
    expect(reader.info.notes?.[0]).toMatch(/UTF-8 byte-order mark, so it was read as UTF-8, not as windows-1252/);
  });

  it("decodes windows-1252 with --encoding, smart quotes and € included", async () => {
    const bytes = Uint8Array.of(...Buffer.from("a,b\nO"), 0x92, ...Buffer.from("Brien,"), 0x80, 0x0a);
    expect((await records(bytes, 1, { encoding: "windows-1252" }))[1]?.cells).toEqual(["O’Brien", "€"]);
  });

  it("names the exact byte offset and row of a lone surrogate in UTF-16", async () => {
    const good = utf16le("h1,h2\nab,cd\n");
    const bytes = Buffer.concat([good, Buffer.from("xy", "utf16le"), Buffer.from([0x00, 0xdc]), Buffer.from(",z\n", "utf16le")]);
    for (const size of [1, 3, 64 * 1024]) {
      const err = await failure(records(bytes, size));
      expect(err).toMatchObject({ code: "ENCODING", row: 3, byteOffset: good.length + 4 });
      expect(err.message).toBe(
        `row 3: the file is not valid UTF-16LE: a lone low surrogate 0xDC00 at byte offset ${good.length + 4}, after "xy"`,
      );
    }
  });

  it("says which byte is not UTF-8, what it would be in windows-1252, and suggests --encoding", async () => {
    const bytes = Uint8Array.of(...Buffer.from("h1,h2\nRen"), 0xe9, ...Buffer.from(",x\n"));
    const err = await failure(records(bytes, 4));
    expect(err).toMatchObject({ code: "ENCODING", row: 2, byteOffset: 9 });
    expect(err.message).toBe('row 2: the file is not valid UTF-8: byte 0xE9 ("é" in windows-1252) at byte offset 9, after "Ren"');
    expect(err.hint).toContain("--encoding windows-1252");
  });

  it("refuses UTF-32 by its BOM", async () => {
    const err = await failure(records(Uint8Array.of(0xff, 0xfe, 0, 0, 0x61, 0, 0, 0)));
    expect(err.code).toBe("ENCODING");
    expect(err.message).toContain("UTF-32LE");
  });

  it("never quotes more than a short excerpt of the file in an error", async () => {
    const secret = "Ana,Secret-Surname,ana@example.com,".repeat(50);
    const bytes = Uint8Array.of(...Buffer.from(`h1,h2\n${secret}`), 0xff);
    const err = await failure(records(bytes));
    expect(err.message.length).toBeLessThan(200);
    expect(err.message.split("Secret-Surname").length - 1).toBeLessThanOrEqual(1);
  });
});

describe("mapHeader", () => {
  it("trims names, matches them ignoring case and gives one warning line for thousands of unknown columns", () => {
    const cells = [" B ", "a\u00a0", ...Array.from({ length: 5000 }, (_, i) => `extra${i}`), "", ""];
    const layout = mapHeader(cells, 1, ["a", "b"]);
    expect([...layout.positions]).toEqual([1, 0]);
    expect(layout.warnings).toEqual([
      '5000 unknown columns are ignored and not uploaded: "extra0" (column 3), "extra1" (column 4), "extra2" (column 5) and 4997 more',
      "2 columns have no name (columns 5003, 5004); they are ignored",
    ]);
  });

  it("lists at most a few header names, cut short, when columns are missing", () => {
    const cells = Array.from({ length: 2000 }, (_, i) => `Personal data ${i} `.repeat(10));
    const err = (() => {
      try {
        mapHeader(cells, 1, ["userId", "simulationId"]);
      } catch (e) {
        return e as CsvFileError;
      }
      throw new Error("no error");
    })();
    expect(err.code).toBe("MISSING_COLUMN");
    expect(err.columns).toEqual(["userId", "simulationId"]);
    expect(err.message).toContain("and 1992 more");
    expect(err.message.length).toBeLessThan(500);
  });
});

describe("users CSV: files written by a spreadsheet (fixtures/users/spreadsheet)", () => {
  const expected = JSON.parse(readFileSync(SPREADSHEET + "expected.json", "utf8")) as {
    users: [string, string, string][];
    files: Record<string, { args: string[]; encoding: string; delimiter: string }>;
  };

  it.each(Object.entries(expected.files))("%s: every name exactly as typed in the workbook", async (name, want) => {
    const bytes = readFileSync(SPREADSHEET + name);
    const encodingArg = want.args.indexOf("--encoding");
    const encoding = encodingArg >= 0 ? resolveEncoding(want.args[encodingArg + 1]!) : undefined;
    for (const size of [1, 7, 64 * 1024]) {
      const summary = await validateUsersCsv(chunked(bytes, size), { encoding });
      expect(summary).toMatchObject({ encoding: want.encoding, validRows: 5, invalidRowCount: 0, warnings: [] });
      expect(summary.delimiter === "\t" ? "tab" : summary.delimiter).toBe(want.delimiter);
      const rows = [];
      for await (const r of readValidUserRows(chunked(bytes, size), summary)) rows.push([r.firstName, r.lastName, r.teamName]);
      expect(rows).toEqual(expected.users);
    }
  });

  it("the windows-1252 file without --encoding: an encoding error at its first accented name", async () => {
    const err = await failure(validateUsersCsv(chunked(readFileSync(SPREADSHEET + "lo-windows-1252-comma.csv"))));
    expect(err).toBeInstanceOf(UsersCsvFileError);
    expect(err).toMatchObject({ code: "ENCODING", row: 2 });
    expect(err.message).toContain('byte 0xEB ("ë" in windows-1252)');
  });
});

describe("users CSV: cell rules", () => {
  const csv = (...lines: string[]): Buffer => Buffer.from(lines.join("\n") + "\n");

  it("rejects NUL and other control characters, naming the row and the column", async () => {
    const summary = await validateUsersCsv(
      chunked(
        csv(
          HEADER,
          userLine(1),
          userLine(2, "Zo\u0000ë"),
          userLine(3, "Ann", "Le\u0007e"),
          userLine(4, "Ok", '"Tab\tand\nbreak"'),
        ),
      ),
    );
    expect(summary.invalidRows.flatMap((r) => r.problems)).toEqual([
      {
        row: 3,
        field: "firstName",
        message: "contains the control character U+0000 at position 3; remove it (or check --encoding)",
      },
      {
        row: 4,
        field: "lastName",
        message: "contains the control character U+0007 at position 3; remove it (or check --encoding)",
      },
    ]);
    expect(summary.validRows).toBe(2);
  });

  it("reports a control character in the address once per column, not also as an invalid address", async () => {
    const summary = await validateUsersCsv(chunked(csv(HEADER, userLine(1).replaceAll("user1@", "us\u0001er1@"))));
    expect(summary.invalidRows[0]?.problems.map((p) => p.field)).toEqual(["username", "email"]);
  });

  it("rejects names longer than 256 characters, counting characters rather than UTF-16 units", async () => {
    const emoji = "😀".repeat(256);
    const summary = await validateUsersCsv(
      chunked(
        csv(
          HEADER,
          userLine(1, "a".repeat(256), emoji),
          userLine(2, "a".repeat(257)),
          userLine(3).replace("Sales", "T".repeat(300)),
        ),
      ),
    );
    expect(summary.invalidRows.flatMap((r) => r.problems)).toEqual([
      { row: 3, field: "firstName", message: "is 257 characters long; at most 256 are accepted" },
      { row: 4, field: "teamName", message: "is 300 characters long; at most 256 are accepted" },
    ]);
  });

  it("reads a CR-only file with personal data row by row, and a broken one never echoes it whole", async () => {
    const good = [HEADER, ...Array.from({ length: 30 }, (_, i) => userLine(i + 1, "Ana", "Secret"))].join("\r");
    const summary = await validateUsersCsv(chunked(Buffer.from(good)));
    expect(summary.validRows).toBe(30);
    const broken = good.replace("email", "mail");
    const err = await failure(validateUsersCsv(chunked(Buffer.from(broken))));
    expect(err.code).toBe("MISSING_COLUMN");
    expect(err.message).not.toContain("Secret");
  });

  it("reads tab-separated UTF-16 with header names padded by spaces", async () => {
    const text = [USER_COLUMNS.map((c) => ` ${c} `).join("\t"), userLine(1, "Zoë", "Müller", "\t")].join("\r\n");
    const summary = await validateUsersCsv(chunked(utf16le(text), 3));
    expect(summary).toMatchObject({ encoding: "utf-16le", delimiter: "\t", validRows: 1 });
  });
});
