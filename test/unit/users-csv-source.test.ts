import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { usersCsvParseOptions } from "../../src/domain/users-csv/source.js";

// The options bench/users-validate.mjs hands to bare csv-parse: those of the users reader for
// a file with LF or CRLF line ends.
describe("usersCsvParseOptions", () => {
  it("splits on the delimiter given and on LF or CRLF, never on a lone CR", () => {
    expect(parse('a;b\r\n"c;d";e\r\nf;g\rh\n', usersCsvParseOptions(";"))).toEqual([
      ["a", "b"],
      ["c;d", "e"],
      ["f", "g\rh"],
    ]);
  });

  it("keeps a row with fewer cells for the row rules to report", () => {
    expect(parse("a,b,c\nd\n", usersCsvParseOptions(","))).toEqual([["a", "b", "c"], ["d"]]);
  });
});
