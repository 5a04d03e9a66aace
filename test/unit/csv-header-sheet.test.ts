import { describe, expect, it } from "vitest";
import { CsvFileError, excerpt, excerptEnd } from "../../src/domain/csv-input/errors.js";
import { codePointName, findControlCharacter, type HeaderLayout, mapHeader } from "../../src/domain/csv-input/header.js";
import { sheetCellText, sheetToCsv } from "../../src/domain/csv-input/sheet.js";

// The pieces around the CSV reader: the file error and its excerpts, the header mapping with
// its warnings and errors (docs/cli-contract.md "Users CSV", "Bulk operations"), and the
// spreadsheet cells turned into CSV text ("Sync": an .xlsx workbook's first sheet).

function thrown(fn: () => unknown): CsvFileError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CsvFileError);
    return e as CsvFileError;
  }
  throw new Error("nothing was thrown");
}

const plain = (layout: HeaderLayout): object => ({ ...layout, positions: [...layout.positions] });

describe("CsvFileError", () => {
  it("is exit 6 with its details, and without details has none", () => {
    const cause = new Error("csv-parse said so");
    const full = new CsvFileError("MALFORMED", "row 3: bad", { row: 3, byteOffset: 17, columns: ["a"], hint: "fix it", cause });
    expect(full).toMatchObject({ exitCode: 6, code: "MALFORMED", message: "row 3: bad", row: 3, byteOffset: 17, hint: "fix it" });
    expect(full.columns).toEqual(["a"]);
    expect(full.cause).toBe(cause);
    const bare = new CsvFileError("EMPTY", "file is empty");
    expect(bare).toMatchObject({ exitCode: 6, code: "EMPTY", row: undefined, byteOffset: undefined, hint: undefined });
    expect(bare.columns).toEqual([]);
    expect(bare.cause).toBeUndefined();
  });
});

describe("excerpt / excerptEnd", () => {
  it("quote text up to 60 characters whole, and cut longer text to 60 with an ellipsis", () => {
    const sixty = "a".repeat(59) + "z";
    expect(excerpt(sixty)).toBe(`"${sixty}"`);
    expect(excerptEnd(sixty)).toBe(`"${sixty}"`);
    expect(excerpt(sixty + "!")).toBe(`"${"a".repeat(59)}…"`);
    expect(excerptEnd("!" + sixty)).toBe(`"…${"a".repeat(58)}z"`);
  });

  it("take a shorter limit, and escape line breaks and control characters", () => {
    expect(excerpt("abcdef", 4)).toBe('"abc…"');
    expect(excerptEnd("abcdef", 4)).toBe('"…def"');
    expect(excerpt("abcd", 4)).toBe('"abcd"');
    expect(excerptEnd("abcd", 4)).toBe('"abcd"');
    expect(excerpt("a\nb\u0000")).toBe('"a\\nb\\u0000"');
  });
});

describe("mapHeader", () => {
  it("gives every column its name in file order: canonical, as written, or by its place", () => {
    expect(plain(mapHeader(["USERID", " note ", "", "SimulationId"], 1, ["simulationId", "userId"]))).toEqual({
      columns: ["userId", "note", "column3", "simulationId"],
      positions: [3, 0],
      width: 4,
      warnings: ['unknown column "note" (column 2) is ignored and not uploaded', "column 3 has no name; it is ignored"],
    });
  });

  it("a header of exactly the wanted columns has no warning", () => {
    expect(plain(mapHeader(["a", "b"], 2, ["b", "a"]))).toEqual({
      columns: ["a", "b"],
      positions: [1, 0],
      width: 2,
      warnings: [],
    });
  });

  it.each([
    [["x", "y"], '2 unknown columns are ignored and not uploaded: "x" (column 2), "y" (column 3)'],
    [["x", "y", "z"], '3 unknown columns are ignored and not uploaded: "x" (column 2), "y" (column 3), "z" (column 4)'],
    [
      ["x", "y", "z", "w"],
      '4 unknown columns are ignored and not uploaded: "x" (column 2), "y" (column 3), "z" (column 4) and 1 more',
    ],
    [["x".repeat(31)], `unknown column "${"x".repeat(29)}…" (column 2) is ignored and not uploaded`],
  ])("unknown columns %j: one line", (extra, warning) => {
    expect(mapHeader(["a", ...extra], 1, ["a"]).warnings).toEqual([warning]);
  });

  it.each([
    [["", " "], "2 columns have no name (columns 2, 3); they are ignored"],
    [["", "", ""], "3 columns have no name (columns 2, 3, 4); they are ignored"],
    [["", "", "", ""], "4 columns have no name (columns 2, 3, 4, …); they are ignored"],
  ])("unnamed columns %j: one line", (extra, warning) => {
    expect(mapHeader(["a", ...extra], 1, ["a"]).warnings).toEqual([warning]);
  });

  it("refuses a wanted column named twice, naming both places of each", () => {
    const err = thrown(() => mapHeader(["userId", "x", "USERID ", "userid", "b", "B"], 4, ["userId", "b"]));
    expect(err).toMatchObject({
      code: "DUPLICATE_COLUMN",
      row: 4,
      message: "row 4: duplicate column userId (columns 1 and 3), userId (columns 1 and 4), b (columns 5 and 6)",
      hint: "keep one column of each name (case, spaces, _ and - do not matter)",
    });
    expect(err.columns).toEqual(["userId", "userId", "b"]);
  });

  it("refuses a header missing a wanted column, quoting the names it has", () => {
    const err = thrown(() => mapHeader(["a", " x ", ""], 2, ["a", "b"]));
    expect(err).toMatchObject({
      code: "MISSING_COLUMN",
      row: 2,
      message: 'row 2: missing column b (the header has "a", "x")',
      hint: "the header needs the columns a,b, in any order (case, spaces, _ and - do not matter)",
    });
    expect(err.columns).toEqual(["b"]);
  });

  it("names several missing columns, a header without names, and at most 8 names", () => {
    expect(thrown(() => mapHeader(["", " "], 1, ["a", "b"])).message).toBe(
      "row 1: missing columns a, b (the header has no names)",
    );
    const eight = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
    expect(thrown(() => mapHeader(eight, 1, ["a"])).message).toBe(
      'row 1: missing column a (the header has "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8")',
    );
    expect(thrown(() => mapHeader([...eight, "c9"], 1, ["a"])).message).toBe(
      'row 1: missing column a (the header has "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8" and 1 more)',
    );
  });
});

describe("findControlCharacter / codePointName", () => {
  it("finds the first control character, and none in text with tabs and line breaks", () => {
    expect(findControlCharacter("ab\u0000c\u0001")).toBe(2);
    expect(findControlCharacter("a\tb\nc\r\n")).toBe(-1);
    expect(findControlCharacter("")).toBe(-1);
  });

  it("names a character as U+ and four upper-case hex digits", () => {
    expect(codePointName("a\u0000", 1)).toBe("U+0000");
    expect(codePointName("\u007f", 0)).toBe("U+007F");
    expect(codePointName("€", 0)).toBe("U+20AC");
  });
});

describe("sheetCellText", () => {
  it.each([
    [undefined, ""],
    [0, "0"],
    [12345678.5, "12345678.5"],
    [10n, "10"],
    [false, "FALSE"],
    [new Date("2026-03-01T10:20:30.000Z"), "2026-03-01T10:20:30Z"],
    [new Date("2026-03-01T10:20:30.250Z"), "2026-03-01T10:20:30.250Z"],
    [{ richText: [{ text: "a" }, {}, { text: 1 }] }, "a1"],
    [{ formula: "1/0", result: { error: "#DIV/0!" } }, "#DIV/0!"],
    [{ formula: "A1", result: undefined, text: "shown" }, ""],
    [{ error: "#N/A" }, "#N/A"],
    [{ hyperlink: "https://x.example" }, ""],
    [Symbol("s"), ""],
  ])("turns %s into %j", (value, text) => {
    expect(sheetCellText(value)).toBe(text);
  });
});

describe("sheetToCsv", () => {
  it("drops trailing empty cells, pads to the first non-empty row's width, keeps longer rows and blank leading rows", () => {
    const csv = sheetToCsv([
      { number: 2, values: [null, "  ", ""] },
      { number: 3, values: ["a", "b", "", " "] },
      { number: 4, values: ["1", "2", "3"] },
      { number: 5, values: ["x"] },
    ]);
    expect(csv).toBe("\n\na,b\n1,2,3\nx,\n");
  });

  it("quotes what a CSV needs quoted", () => {
    expect(sheetToCsv([{ number: 1, values: ['say "hi"', "a\nb", "c;d"] }])).toBe('"say ""hi""","a\nb",c;d\n');
  });

  it("writes nothing for no rows", () => {
    expect(sheetToCsv([])).toBe("");
  });
});
