import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { flattenRecord, type Cell, type JsonRecord } from "../../src/domain/records.js";
import { csvStringifier } from "../../src/output/csv.js";
import { RowPadder } from "../../src/output/csv-rows.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import { tempDir } from "../helpers/cli.js";
import { memorySink } from "../helpers/memory-sink.js";

// csv rows that wait for the header wait as their CSV text (src/output/csv-rows.ts) and are
// padded at the end where later records brought more columns. The document must be the one
// csv-stringify writes for the header and every row padded to it, whatever the cells hold
// (quotes, line breaks, delimiters, multi-byte letters) and wherever the spool's chunks cut.

async function exportCsv(
  batches: JsonRecord[][],
  options: Omit<RecordStreamOptions, "format">,
  toTerminal = false,
): Promise<Buffer> {
  const sink = memorySink(toTerminal);
  const writer = createRecordWriter(sink, { format: "csv", ...options });
  for (const batch of batches) await writer.writeBatch(batch);
  await writer.end();
  return sink.bytes();
}

/** What csv-stringify's stream writes for the header and every record's row at the final width. */
async function expected(records: JsonRecord[], options: { delimiter?: "," | ";" | "\t"; bom?: boolean } = {}): Promise<Buffer> {
  const columns: string[] = [];
  const flat = records.map((record) => flattenRecord(record));
  for (const row of flat) for (const key in row) if (!columns.includes(key)) columns.push(key);
  const stringifier = csvStringifier(options);
  const chunks: Buffer[] = [];
  stringifier.on("data", (chunk: Buffer | string) => chunks.push(Buffer.from(chunk)));
  const done = new Promise((resolve) => stringifier.on("end", resolve));
  if (columns.length > 0) stringifier.write(columns);
  for (const row of flat) stringifier.write(columns.map((column): Cell | undefined => row[column]));
  stringifier.end();
  await done;
  return Buffer.concat(chunks);
}

const NASTY = ['say "hi"', "two\nlines", "a\rb", "x,y;z\tw", "::warning", "a ##[group]", "Région été", "=1+2", "", '"', '""\n"'];

/** Records whose columns appear one after another (the header grows while rows wait), `count` of them. */
function growingRecords(count: number): JsonRecord[] {
  return Array.from({ length: count }, (_, i) => {
    const record: JsonRecord = { id: i, text: `${NASTY[i % NASTY.length]} ${"t".repeat(i % 90)}` };
    if (i % 7 === 3) record["note"] = NASTY[(i * 3) % NASTY.length];
    if (i >= 500) record["late"] = { deep: NASTY[i % NASTY.length], n: i / 3 };
    if (i === count - 1) record["last"] = true;
    if (i % 250 === 17) return {};
    return record;
  });
}

describe("csv rows waiting for the header", () => {
  it("pads rows written before later columns appeared, quoted cells and all", async () => {
    const records = [{ a: 1 }, { a: 2, b: 'x"y' }, {}, { c: "l1\nl2", a: 3 }];
    const text = (await exportCsv([records], {})).toString("utf8");
    expect(text).toBe('a,b,c\n1,,\n2,"x""y",\n,,\n3,,"l1\nl2"\n');
  });

  it("writes what csv-stringify writes for the padded rows, from memory and from a spool file", async () => {
    const dir = await tempDir();
    try {
      for (const count of [40, 1_500]) {
        for (const options of [{}, { delimiter: ";" as const, bom: true }, { delimiter: "\t" as const }]) {
          const records = growingRecords(count);
          const batches = [records.slice(0, 256), records.slice(256, 700), records.slice(700)];
          const got = await exportCsv(batches, { ...options, spoolDir: dir.path });
          expect(got.equals(await expected(records, options)), `${count} records, ${JSON.stringify(options)}`).toBe(true);
          expect(await readdir(dir.path)).toEqual([]);
        }
      }
    } finally {
      await dir.remove();
    }
  });

  it("escapes control characters for a terminal as every other line does", async () => {
    const records = growingRecords(1_000);
    const text = (await exportCsv([records], {}, true)).toString("utf8");
    expect(text).not.toContain("\r");
    expect(text.split("\n")[0]).toBe("id,text,note,late.deep,late.n,last");
  });

  it("writes only the BOM for no record and no column, as csv-stringify does", async () => {
    expect((await exportCsv([], { bom: true })).toString("utf8")).toBe("\uFEFF");
    expect((await exportCsv([[{}]], { bom: true })).toString("utf8")).toBe("\uFEFF\n");
  });
});

describe("RowPadder", () => {
  const spooled = Buffer.from('1\n"a\n""b"\n\n"x"",\n"\n5,6\n7,8,9\n', "utf8");
  const runs = [
    { width: 1, count: 4 },
    { width: 2, count: 1 },
  ];
  const whole = '1,,\n"a\n""b",,\n,,\n"x"",\n",,\n5,6,\n7,8,9\n';

  it("pads each row of the narrower runs, finding row ends outside quotes only", () => {
    expect(new RowPadder(runs, 3, ",").feed(spooled).toString("utf8")).toBe(whole);
  });

  it("gives a row of no cell (an empty line) one delimiter fewer than its missing cells", () => {
    expect(new RowPadder([{ width: 0, count: 1 }], 3, ";").feed(Buffer.from("\n1;2;3\n")).toString("utf8")).toBe(";;\n1;2;3\n");
  });

  it("gives the same text wherever the chunks cut it (inside quotes, between a quote pair, before a line end)", () => {
    for (let size = 1; size <= 9; size++) {
      const padder = new RowPadder(runs, 3, ",");
      const out: Buffer[] = [];
      for (let at = 0; at < spooled.length; at += size) out.push(padder.feed(spooled.subarray(at, at + size)));
      expect(Buffer.concat(out).toString("utf8"), `chunks of ${size}`).toBe(whole);
    }
  });
});
