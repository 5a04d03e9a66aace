import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { buildUserBatch } from "../../src/domain/users-csv/batches.js";
import type { UserRow } from "../../src/domain/users-csv/validate.js";
import { csvStringifier, CsvRowWriter } from "../../src/output/csv.js";
import { createRecordWriter } from "../../src/output/record-stream.js";

// issue 21 item 5: a lone CR is a line end to every CSV reader, so a value holding one must be
// quoted like a value holding LF — in every CSV simadmin writes. Each case writes values with
// CR, LF and CRLF inside and reads the text back with csv-parse.

const VALUES = ["a\rb", "c\nd", "e\r\nf", "plain"];

/**
 * A reader that takes CR, LF and CRLF alike for a line end, as spreadsheets do (csv-parse's
 * default guesses one delimiter from the first line end and would let an unquoted CR pass).
 */
const LINE_ENDS = { record_delimiter: ["\r\n", "\n", "\r"] };

function rows(text: string): string[][] {
  const parsed: string[][] = parse(text, LINE_ENDS);
  return parsed;
}

describe("CSV keeps CR and LF inside values", () => {
  it("CsvRowWriter (report output, bulk and users-import errors files) quotes them", async () => {
    let text = "";
    const csv = new CsvRowWriter(async (chunk) => void (text += chunk));
    await csv.row(["w", "x", "y", "z"]);
    await csv.row(VALUES);
    await csv.end();
    expect(rows(text)).toEqual([["w", "x", "y", "z"], VALUES]);
  });

  it.each([",", ";", "\t"] as const)("csvStringifier with delimiter %j quotes them", async (delimiter) => {
    const stringifier = csvStringifier({ delimiter });
    const chunks: string[] = [];
    stringifier.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
    const done = new Promise((resolve) => stringifier.on("end", resolve));
    stringifier.write(VALUES);
    stringifier.end();
    await done;
    expect(parse(chunks.join(""), { delimiter, ...LINE_ENDS })).toEqual([VALUES]);
  });

  it("the record writer's CSV (reports, bulk results) reads back to the same values", async () => {
    let text = "";
    const writer = createRecordWriter(
      { toTerminal: false, write: async (chunk) => void (text += String(chunk)) },
      { format: "csv" },
    );
    await writer.writeBatch([
      { name: "a\rb", note: { text: "c\nd" } },
      { name: "plain", note: { text: "e\r\nf" } },
    ]);
    await writer.end();
    expect(rows(text)).toEqual([
      ["name", "note.text"],
      ["a\rb", "c\nd"],
      ["plain", "e\r\nf"],
    ]);
  });

  it("a users upload batch carries a CR in a name quoted: one row, the name unchanged", () => {
    const user: UserRow = {
      firstName: "Ann\rMarie",
      lastName: "Line\nBreak",
      username: "ann@example.com",
      email: "ann@example.com",
      role: "trainee",
      teamName: "",
      status: "ACTIVE",
      action: "Add",
      row: 2,
    };
    const batch = buildUserBatch([user], 1);
    const parsed = parse<Record<string, string>>(batch.csv, { columns: true, ...LINE_ENDS });
    expect(parsed).toHaveLength(1);
    expect(parsed[0]?.firstName).toBe("Ann\rMarie");
    expect(parsed[0]?.lastName).toBe("Line\nBreak");
    expect(parsed[0]?.email).toBe("ann@example.com");
  });
});
