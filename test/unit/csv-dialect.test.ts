import { describe, expect, it } from "vitest";
import { csvParseOptions, detectDialect } from "../../src/domain/csv-input/dialect.js";
import { CsvFileError } from "../../src/domain/csv-input/errors.js";

// Delimiter, line ending and Excel's sep= line, decided from the start of the text
// (docs/cli-contract.md "Users CSV"): the edges of detectDialect beyond csv-input.test.ts.

describe("detectDialect: the header line", () => {
  it.each([
    [
      "an LF at the end of the text so far ends it",
      "a;b\n",
      false,
      { delimiter: ";", lineEnding: "lf", sepLine: false, skip: 0 },
    ],
    [
      "the whole text at the end of the file, without a line break",
      "a;b",
      true,
      { delimiter: ";", lineEnding: "lf", sepLine: false, skip: 0 },
    ],
    ["an empty file", "", true, { delimiter: ",", lineEnding: "lf", sepLine: false, skip: 0 }],
    ["a CR at the end of the file", "a\tb\r", true, { delimiter: "\t", lineEnding: "cr", sepLine: false, skip: 0 }],
    // The tabs of a blank line are not counted: the header starts after it.
    [
      "blank lines of spaces and tabs before it (CRLF)",
      " \t\t\t \r\n\r\na;b\r\nx",
      false,
      { delimiter: ";", lineEnding: "crlf" },
    ],
    ["a line of spaces is blank", "   \na;b\nx", false, { delimiter: ";", lineEnding: "lf" }],
    ["a line of tabs is blank", "\t\t\na;b\nx", false, { delimiter: ";", lineEnding: "lf" }],
    // Not even the blank line's last tab: here it would outnumber the semicolons.
    ["a blank line of tabs, then a tie of a semicolon and a tab", "\t\t\na;b\tc\nx", false, { delimiter: ";", lineEnding: "lf" }],
    ["a blank line of tabs before a CR header", "\t\t\ra;b\rx", false, { delimiter: ";", lineEnding: "cr" }],
    ["a quoted line break does not end it", '"a\nb";c;d\nx', false, { delimiter: ";", lineEnding: "lf" }],
    ["a quoted header name alone", '"a"\nx', false, { delimiter: ",", lineEnding: "lf" }],
    ["an unclosed quote runs to the end of the file", '"a\nb;c', true, { delimiter: ",", lineEnding: "lf" }],
  ])("%s", (_, head, atEnd, want) => {
    expect(detectDialect(head, atEnd)).toMatchObject(want);
  });

  it("waits while the header line has no end yet: no line break, an open quote, a CR that may start a CRLF", () => {
    expect(detectDialect("a;b", false)).toBeUndefined();
    expect(detectDialect("se", false)).toBeUndefined();
    expect(detectDialect('"se', false)).toBeUndefined();
    expect(detectDialect('"a\nb;c', false)).toBeUndefined();
    expect(detectDialect("  \n\t\n", false)).toBeUndefined();
    expect(detectDialect("\r\n\r", false)).toBeUndefined();
  });
});

describe("detectDialect: counting delimiters", () => {
  it.each([
    ["a comma ties with a semicolon: comma", "a,b;c\n", ","],
    ["a comma ties with a tab: comma", "a,b\tc\n", ","],
    ["a semicolon ties with a tab: semicolon", "a;b;c\td\te,f\n", ";"],
    ["more tabs than semicolons", "a\tb\tc;d,e\n", "\t"],
    ["more semicolons than commas", "a;b;c,d\n", ";"],
    ["semicolons inside quotes are not counted", '"a;b;c"\td\n', "\t"],
    ["tabs inside quotes are not counted", '"a\tb\tc";d\n', ";"],
    ["after a quoted name, counting goes on", '"a",b,c;d\n', ","],
    ["no delimiter at all: comma", "name\n", ","],
  ])("%s", (_, head, delimiter) => {
    expect(detectDialect(head, false)?.delimiter).toBe(delimiter);
  });
});

describe("detectDialect: Excel's sep= line", () => {
  it.each([
    ["any case", "SEP=;\r\na,b\r\n", { delimiter: ";", lineEnding: "crlf", sepLine: true, skip: 7 }],
    ["spaces after it", "sep=; \na,b\n", { delimiter: ";", lineEnding: "lf", sepLine: true, skip: 7 }],
    ["ended by a lone CR", "sep=;\ra,b\rx", { delimiter: ";", lineEnding: "cr", sepLine: true, skip: 6 }],
    ["quoted, naming a tab spelled out", '"sep=\\t"\na,b\n', { delimiter: "\t", sepLine: true, skip: 9 }],
    ["the whole file", "sep=;", { delimiter: ";", lineEnding: "lf", sepLine: true, skip: 5 }],
  ])("%s", (_, head, want) => {
    expect(detectDialect(head, head === "sep=;")).toMatchObject(want);
  });

  it("waits for its line break (or a CR's possible LF) before judging it", () => {
    expect(detectDialect("sep=;", false)).toBeUndefined();
    expect(detectDialect("sep=|", false)).toBeUndefined();
    expect(detectDialect("sep=|\r", false)).toBeUndefined();
    expect(detectDialect("sep=;\r\n", false)).toBeUndefined();
    expect(detectDialect(`sep=|${" ".repeat(58)}`, false)).toBeUndefined();
  });

  it("refuses one naming another delimiter, once its line is complete or 64 characters long", () => {
    for (const [head, atEnd] of [
      ["sep=|", true],
      ["sep=|\na|b\n", false],
      ["sep=|\rx", false],
      [`sep=|${" ".repeat(59)}`, false],
    ] as const) {
      let caught: unknown;
      try {
        detectDialect(head, atEnd);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(CsvFileError);
      expect(caught).toMatchObject({
        code: "MALFORMED",
        message: 'the first line "sep=|" names the delimiter "|"',
        hint: "use sep=, or sep=; or sep= followed by a tab, or remove that line",
      });
    }
  });
});

describe("csvParseOptions", () => {
  it("splits on CR too only in a file whose header ends with a lone CR", () => {
    expect(csvParseOptions({ delimiter: ";", lineEnding: "cr" })).toEqual({
      delimiter: ";",
      relax_column_count: true,
      record_delimiter: ["\r\n", "\r", "\n"],
      max_record_size: 1048576,
    });
    expect(csvParseOptions({ delimiter: "\t", lineEnding: "crlf" })).toEqual({
      delimiter: "\t",
      relax_column_count: true,
      record_delimiter: ["\r\n", "\n"],
      max_record_size: 1048576,
    });
  });
});
