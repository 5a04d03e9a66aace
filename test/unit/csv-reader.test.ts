import { describe, expect, it } from "vitest";
import {
  CsvFileError,
  type CsvReadOptions,
  type CsvRecord,
  CsvRecordReader,
  type CsvSourceInfo,
  displayName,
  streamCsvRecords,
} from "../../src/domain/csv-input/reader.js";

// The streamed CSV reader's edges beyond csv-input.test.ts: which row an encoding error is
// in and what precedes it, parse errors by row, line numbers in CR files, notes, and how a
// caller stops a run (docs/cli-contract.md "Users CSV": errors name the row and quote at most
// a short excerpt).

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

async function* chunked(data: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

async function read(
  data: Uint8Array,
  size?: number,
  options?: CsvReadOptions,
): Promise<{ records: CsvRecord[]; info: Partial<CsvSourceInfo> }> {
  const reader = new CsvRecordReader(chunked(data, size), options);
  const records: CsvRecord[] = [];
  for await (const r of reader) records.push(r);
  return { records, info: reader.info };
}

async function failure(data: Uint8Array, size?: number, options?: CsvReadOptions): Promise<CsvFileError> {
  const err = await read(data, size, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CsvFileError);
  return err as CsvFileError;
}

const UTF8_HINT =
  'run again with --encoding windows-1252 if Excel saved it as "CSV (Comma delimited)", or save it as "CSV UTF-8"';

describe("an encoding error: its row, offset and what precedes it", () => {
  it.each([
    ["at the very start", bytes([0xff], "a,b\n"), 1, 0, ""],
    ["just after a line break", bytes("h1,h2\nab,cd\n", [0xff]), 3, 12, ""],
    ["after spaces only: nothing to quote", bytes("h\n   ", [0xff]), 2, 5, ""],
    ["inside the header line", bytes("Ren", [0xff], ",x\n"), 1, 3, ', after "Ren"'],
    // The text before it cannot be parsed (an open quote): the error is in the next row.
    ["after an unclosed quote", bytes('h\n"abc', [0xff]), 2, 6, ', after "\\"abc"'],
    ["after a long line: its last 30 characters", bytes(`h\n${"x".repeat(40)}`, [0xff]), 2, 42, `, after "…${"x".repeat(29)}"`],
    ["after a UTF-8 BOM, which counts in the offset", bytes([0xef, 0xbb, 0xbf], "a\nb", [0xff]), 2, 6, ', after "b"'],
  ])("%s", async (_, data, row, offset, after) => {
    const err = await failure(data);
    expect(err).toMatchObject({ code: "ENCODING", exitCode: 6, row, byteOffset: offset, hint: UTF8_HINT });
    expect(err.message).toBe(
      `row ${row}: the file is not valid UTF-8: byte 0xFF ("ÿ" in windows-1252) at byte offset ${offset}${after}`,
    );
  });

  it("quotes the end of a long line from a later chunk too", async () => {
    async function* two(): AsyncGenerator<Uint8Array> {
      yield bytes("h\nab");
      yield bytes("x".repeat(40), [0xff]);
    }
    const err = await (async () => {
      for await (const _ of new CsvRecordReader(two()));
    })().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe(
      `row 2: the file is not valid UTF-8: byte 0xFF ("ÿ" in windows-1252) at byte offset 44, after "…${"x".repeat(29)}"`,
    );
  });

  it("names a character cut off by the end of the file, without a windows-1252 guess", async () => {
    const err = await failure(bytes("a\nb", [0xe2, 0x82]), 2);
    expect(err).toMatchObject({ code: "ENCODING", row: 2, byteOffset: 3, hint: UTF8_HINT });
    expect(err.message).toBe(
      'row 2: the file is not valid UTF-8: a character cut off by the end of the file at byte offset 3, after "b"',
    );
  });

  it("in another encoding, names the chunk where the bad byte is and suggests checking --encoding", async () => {
    const err = await failure(bytes("a,b\nx", [0xd2], "\n"), 4, { encoding: "windows-1253" });
    expect(err).toMatchObject({
      code: "ENCODING",
      row: 2,
      byteOffset: 4,
      hint: "check the --encoding name, or save the file as UTF-8",
    });
    expect(err.message).toBe(
      "row 2: the file is not valid windows-1253: a byte sequence that is not valid at or after byte offset 4",
    );
    const cut = await failure(bytes("a\nb", [0x82]), undefined, { encoding: "shift_jis" });
    expect(cut.message).toBe(
      'row 2: the file is not valid shift_jis: a character cut off by the end of the file at or after byte offset 4, after "b"',
    );
  });

  it("a partial record cut by the error never reaches the sink", async () => {
    const seen: string[][] = [];
    const control = { failure: (): Error | undefined => undefined, info: {} };
    const run = async (): Promise<void> => {
      for await (const _ of streamCsvRecords(chunked(bytes("h1,h2\nab,cd\nef", [0xff])), (cells) => seen.push(cells), control));
    };
    await expect(run()).rejects.toMatchObject({ code: "ENCODING", row: 3, byteOffset: 14 });
    expect(seen).toEqual([
      ["h1", "h2"],
      ["ab", "cd"],
    ]);
  });
});

describe("a file that is not valid CSV", () => {
  it.each([
    ["a quoted cell never closed", 'a,b\n1,2\n"x,y\n', 3, "a quoted cell is never closed", "CSV_QUOTE_NOT_CLOSED"],
    [
      "text after a closing quote",
      'a,b\n"x"y,z\n',
      2,
      'a closing quote is followed by other text; double a quote inside a quoted cell ("")',
      "CSV_INVALID_CLOSING_QUOTE",
    ],
    [
      "a quote inside an unquoted cell",
      'a,b\n1,2\n3,4\nx"y,z\n',
      4,
      "a quote appears inside an unquoted cell; quote the whole cell and double the quote",
      "INVALID_OPENING_QUOTE",
    ],
  ])("%s: the row and the reason", async (_, text, row, reason, code) => {
    for (const size of [1, 64 * 1024]) {
      const err = await failure(Buffer.from(text), size);
      expect(err).toMatchObject({
        code: "MALFORMED",
        exitCode: 6,
        row,
        message: `row ${row}: the file is not valid CSV: ${reason}`,
      });
      expect(err.cause).toMatchObject({ code });
    }
  });

  it("rows of different widths are records, not an error", async () => {
    const { records } = await read(Buffer.from("a,b\n1\n1,2,3\n"));
    expect(records.map((r) => r.cells)).toEqual([["a", "b"], ["1"], ["1", "2", "3"]]);
  });
});

describe("records", () => {
  it("a header without a line break is the whole file", async () => {
    const { records, info } = await read(Buffer.from("a;b"));
    expect(records).toEqual([{ row: 1, line: 1, cells: ["a", "b"] }]);
    expect(info.delimiter).toBe(";");
  });

  it("counts lines in a CR file: a quoted CR, CRLF or LF is one line each", async () => {
    const { records } = await read(Buffer.from('a,b\r"x\ry",z\r"p\r\nq",r\r"m\nn",o\rs,t\r'), 4);
    expect(records).toEqual([
      { row: 1, line: 1, cells: ["a", "b"] },
      { row: 2, line: 2, cells: ["x\ry", "z"] },
      { row: 3, line: 4, cells: ["p\r\nq", "r"] },
      { row: 4, line: 6, cells: ["m\nn", "o"] },
      { row: 5, line: 8, cells: ["s", "t"] },
    ]);
  });

  it("counts lines in an LF file: only LF breaks a line, a quoted CR is a character", async () => {
    const { records } = await read(Buffer.from('a,b\n"x\ry",z\n"p\r\nq","r\n\ns"\nt,u\n'));
    expect(records.map((r) => [r.row, r.line])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      // Row 3's cells hold three LFs (the CRLF counts once).
      [4, 7],
    ]);
  });

  it("reads a large file handed over in one chunk", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${i},x`);
    const { records } = await read(Buffer.from(`n,v\n${lines.join("\n")}\n`));
    expect(records.length).toBe(5001);
    expect(records[5000]).toEqual({ row: 5001, line: 5001, cells: ["4999", "x"] });
  });
});

describe("what the reader found out", () => {
  it("sets every field, the digest and the size of the file", async () => {
    const { info } = await read(Buffer.from("a;b\r\n1;2\r\n"), 3);
    expect(info).toEqual({
      encoding: "utf-8",
      bom: false,
      delimiter: ";",
      lineEnding: "crlf",
      sepLine: false,
      notes: [],
      sha256: "484a1d625c5f5dc56776fde01368e094fe6046f17aa525ba7b8718e13f610ce7",
      bytes: 10,
    });
  });

  it("notes a BOM that overrides --encoding, and not one that agrees with it", async () => {
    const bom = bytes([0xef, 0xbb, 0xbf], "a,b\n");
    expect((await read(bom, 2, { encoding: "windows-1252" })).info.notes).toEqual([
      "the file starts with a UTF-8 byte-order mark, so it was read as UTF-8, not as windows-1252 (--encoding)",
    ]);
    expect((await read(bom, 2, { encoding: "utf-8" })).info).toMatchObject({ notes: [], bom: true, encoding: "utf-8" });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n", "utf16le")]);
    expect((await read(le, 64, { encoding: "macintosh" })).info.notes).toEqual([
      "the file starts with a UTF-16LE byte-order mark, so it was read as UTF-16LE, not as macintosh (--encoding)",
    ]);
  });

  it("notes UTF-16BE found by its NUL pattern", async () => {
    const { records, info } = await read(Buffer.from("a,b\nx,y\n", "utf16le").swap16(), 1);
    expect(records.map((r) => r.cells)).toEqual([
      ["a", "b"],
      ["x", "y"],
    ]);
    expect(info).toMatchObject({ encoding: "utf-16be", bom: false });
    expect(info.notes).toEqual(["the file has no byte-order mark but looks like UTF-16BE; it was read as UTF-16BE"]);
  });

  it("refuses UTF-32 at byte 0, saying what to do", async () => {
    const err = await failure(Uint8Array.of(0, 0, 0xfe, 0xff, 0, 0, 0, 0x61));
    expect(err).toMatchObject({
      code: "ENCODING",
      byteOffset: 0,
      message: "the file is UTF-32BE (its byte-order mark says so), which cannot be read",
      hint: 'save it as UTF-8 (in Excel: "CSV UTF-8")',
    });
  });

  it("names encodings the way messages do", () => {
    expect(displayName("utf-8")).toBe("UTF-8");
    expect(displayName("utf-16le")).toBe("UTF-16LE");
    expect(displayName("windows-1252")).toBe("windows-1252");
    expect(displayName("macintosh")).toBe("macintosh");
  });
});

describe("stopping a run", () => {
  it("CsvRecordReader.fail: the iteration throws that error before the next record", async () => {
    const reader = new CsvRecordReader(chunked(Buffer.from("h\n1\n2\n3\n")));
    const stop = new Error("row 2 is wrong");
    const seen: number[] = [];
    const run = async (): Promise<void> => {
      for await (const r of reader) {
        seen.push(r.row);
        if (r.row === 2) reader.fail(stop);
      }
    };
    await expect(run()).rejects.toBe(stop);
    expect(seen).toEqual([1, 2]);
  });

  it("a sink's failure stops the stream after the chunk in which it was recorded", async () => {
    let stop: Error | undefined;
    const seen: number[] = [];
    const control = { failure: (): Error | undefined => stop, info: {} };
    const sink = (_: string[], row: number): void => {
      seen.push(row);
      if (row === 3) stop = new Error("enough");
    };
    const run = async (): Promise<void> => {
      for await (const _ of streamCsvRecords(chunked(Buffer.from("h\n1\n2\n3\n4\n"), 4), sink, control));
    };
    await expect(run()).rejects.toThrow("enough");
    // Chunks of 4 bytes: rows 3 and 4 arrive in the same chunk ("2\n3\n"), row 5 is never read.
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
