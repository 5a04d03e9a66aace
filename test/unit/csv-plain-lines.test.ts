import { describe, expect, it } from "vitest";
import { type CsvReadOptions, streamCsvRecords } from "../../src/domain/csv-input/reader.js";
import { PLAIN_LINE_LIMIT } from "../../src/domain/csv-input/plain-lines.js";

// The reader's fast path for lines without quotes (domain/csv-input/plain-lines.ts) must read
// every file exactly as csv-parse alone does: the same records, rows, lines and errors, at
// any chunk size, in UTF-8 (bytes) and in the encodings that arrive as text.

interface Outcome {
  records: { row: number; line: number; cells: string[] }[];
  info: unknown;
  error?: string;
}

async function* chunked(data: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

async function read(data: Uint8Array, size: number, options: CsvReadOptions): Promise<Outcome> {
  const records: Outcome["records"] = [];
  const control = { failure: (): Error | undefined => undefined, info: {} };
  const outcome: Outcome = { records, info: control.info };
  try {
    const sink = (cells: string[], row: number, line: number): number => records.push({ row, line, cells });
    for await (const _ of streamCsvRecords(chunked(data, size), sink, control, options));
  } catch (error) {
    outcome.error = String(error);
  }
  return outcome;
}

/** Both readers on the same bytes. */
async function compare(data: Uint8Array, size: number, options: CsvReadOptions = {}): Promise<void> {
  const fast = await read(data, size, options);
  const reference = await read(data, size, { ...options, plainLines: false });
  expect(fast.error).toEqual(reference.error);
  if (reference.error === undefined) {
    expect(fast.records).toEqual(reference.records);
    expect(fast.info).toEqual(reference.info);
  } else {
    // Before an error, csv-parse may still hold back a record whose line ended: the fast path
    // has handed it over already. What was handed over is the same up to there.
    expect(fast.records.slice(0, reference.records.length)).toEqual(reference.records);
  }
}

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Mostly plain text, with now and then what makes a line not plain: quotes, a stray CR.
const PIECES = ["ab", "x", "é", "😀", " ", ",", ",", ";", "\t", "\n", "\n", "\r\n", "\r\n", "", '"', '""', "\r", "\u0085"];

function text(next: () => number, delimiter: string): string {
  let out = `first${delimiter}second${delimiter}third\n`;
  const n = Math.floor(next() * 60);
  for (let i = 0; i < n; i++) {
    // Quotes and stray CRs are rarer than the rest, so that many texts hold none at all.
    const k = Math.floor(next() * PIECES.length);
    const piece = PIECES[k]!;
    out += (piece === '"' || piece === '""' || piece === "\r") && next() < 0.7 ? "y" : piece;
  }
  return out;
}

/** Rows of cells, each quoted or not, some with what a quoted cell may hold (delimiters, quotes, line breaks). */
function quotedText(next: () => number, delimiter: string): string {
  const contents = ["ab", "", " x ", `a${delimiter}b`, 'a""b', "a\nb", "a\r\nb", "é😀", "\r"];
  let out = "";
  const rows = 1 + Math.floor(next() * 8);
  for (let r = 0; r < rows; r++) {
    const cells = [];
    const width = 1 + Math.floor(next() * 4);
    for (let c = 0; c < width; c++) {
      const content = contents[Math.floor(next() * contents.length)]!;
      // Unquoted, quoted, or (rarely) quoted badly: text after the closing quote, no closing quote.
      const how = next();
      cells.push(how < 0.4 ? content : how < 0.9 ? `"${content}"` : how < 0.95 ? `"${content}"x` : `"${content}`);
    }
    out += cells.join(delimiter) + (next() < 0.5 ? "\n" : "\r\n");
  }
  return out;
}

describe("the fast path for simple lines", () => {
  it("reads generated UTF-8 files as csv-parse does, at any chunk size", async () => {
    const next = random(38);
    for (let i = 0; i < 120; i++) {
      const delimiter = [",", ";", "\t"][i % 3]!;
      const data = Buffer.from(text(next, delimiter), "utf8");
      for (const size of [i % 2 === 0 ? 1 : 5, 64 * 1024]) await compare(data, size);
    }
  });

  it("reads generated files with quoted cells as csv-parse does, in UTF-8 and UTF-16LE", async () => {
    const next = random(4180);
    for (let i = 0; i < 150; i++) {
      const delimiter = [",", ";", "\t"][i % 3]!;
      const t = quotedText(next, delimiter);
      for (const size of [i % 2 === 0 ? 1 : 7, 64 * 1024]) await compare(Buffer.from(t, "utf8"), size);
      if (i % 5 === 0) await compare(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")]), 64 * 1024);
    }
  });

  it("reads the same texts in UTF-16LE and windows-1252 (decoded to text) as csv-parse does", async () => {
    const next = random(1252);
    for (let i = 0; i < 40; i++) {
      const t = text(next, ",");
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")]);
      for (const size of [3, 64 * 1024]) await compare(utf16, size);
      // windows-1252 has no emoji; é and U+0085 (… in windows-1252) exist there.
      const latin = Buffer.from(t.replaceAll("😀", "ø"), "latin1");
      for (const size of [3, 64 * 1024]) await compare(latin, size, { encoding: "windows-1252" });
    }
  });

  it("names the same row for an invalid byte after plain lines, mid-line or at a line start", async () => {
    for (const before of ["h,i\na,b\nc,", "h,i\na,b\n", "h,i\r\na,b\r\n", "h,i\na,b\n\n", 'h,i\n"a",b\nc']) {
      const data = Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from("d\ne,f\n")]);
      for (const size of [1, 4, 64 * 1024]) await compare(data, size);
    }
  });

  it("goes on with the simple lines after a record csv-parse reads alone, handing each over as its line ends", async () => {
    // csv-parse holds back the last record of a piece until it sees what follows; the fast
    // path hands over every record whose line has ended. So what the sink has seen when the
    // second chunk is asked for tells which of them read the lines after the doubled quote
    // and the quoted line break.
    const seenAtChunk: number[][] = [];
    const seen: number[] = [];
    async function* chunks(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('h,i\n"say ""hi""",x\n"two\nlines",y\nd,e\n');
      seenAtChunk.push([...seen]);
      yield Buffer.from("f,g\n");
    }
    const control = { failure: (): Error | undefined => undefined, info: {} };
    const lines: number[] = [];
    const sink = (_: string[], row: number, line: number): void => {
      seen.push(row);
      lines.push(line);
    };
    for await (const _ of streamCsvRecords(chunks(), sink, control));
    expect(seenAtChunk).toEqual([[1, 2, 3, 4]]);
    expect(lines).toEqual([1, 2, 3, 5, 6]);
  });

  it("leaves lines longer than its limit to csv-parse, whose record limit still holds", async () => {
    const long = "x".repeat(PLAIN_LINE_LIMIT + 1);
    await compare(Buffer.from(`h,i\na,b\n${long},y\nc,d\n`), 64 * 1024);
    await compare(Buffer.from(`h,i\na,b\n${"y".repeat(PLAIN_LINE_LIMIT * 17)}\nc,d\n`), 64 * 1024);
  });

  it("reads a last line without a line break, and files with CR line ends, as csv-parse does", async () => {
    for (const t of ["h,i\na,b", "h,i\na,b\n\n", "h,i\r\na,b\r", "h,i\ra,b\rc,d\r", "h,i\n\n\n", "h,i\na\rb\n"]) {
      for (const size of [1, 64 * 1024]) await compare(Buffer.from(t), size);
    }
  });
});
