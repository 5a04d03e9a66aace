import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineFile, readLines } from "../../src/commands/reports-sync/line-file.js";
import { removeLoadFiles } from "../../src/commands/reports-sync/load-file.js";
import { duckDbWindows } from "../helpers/duckdb-windows.js";

// DuckDB's load files written in pieces of whole lines (docs/reports-sync.md, Figures: memory):
// its JSON reader takes each piece into a buffer of its own, so a window takes a piece's size
// in memory while it loads. The pieces here are tiny — a line each — so that a few records
// make several; the expected texts and rows are written out.

const windows = duckDbWindows("simadmin-pieces", { pieceBytes: 1 });
const { open, prepare, load, rows } = windows;

describe("LineFile in pieces", () => {
  it("a line that starts once the piece holds its bytes starts the next piece; a line written in parts stays whole", async () => {
    const path = join(windows.dir, `lines-${windows.next()}`);
    const file = new LineFile(path, "w", 10);
    file.write("aaaa\n");
    file.write("bbbb");
    file.write("\n"); // 10 bytes: the next line goes on
    file.write("cccccccccccc\n"); // one line longer than a piece stays whole
    file.write("dd\n");
    file.finish();
    expect(file.files).toEqual([path, `${path}.1`, `${path}.2`]);
    expect(await readFile(path, "utf8")).toBe("aaaa\nbbbb\n");
    expect(await readFile(`${path}.1`, "utf8")).toBe("cccccccccccc\n");
    expect(await readFile(`${path}.2`, "utf8")).toBe("dd\n");
    expect([...readLines(file.files, 4)]).toEqual(["aaaa", "bbbb", "cccccccccccc", "dd"]);
    expect([...readLines(file.files, 2)]).toEqual(["aaaa", "bbbb"]);
  });

  it("moved: every piece takes the new name, and writing goes on in the last one", async () => {
    const k = windows.next();
    const path = join(windows.dir, `lines-${k}`);
    const file = new LineFile(path, "w", 4);
    file.write("one\n");
    file.write("two\n");
    const moved = file.moveTo(`${path}.raw`);
    moved.write("x\n"); // the last piece holds 4 bytes: a new piece
    moved.finish();
    expect(moved.files).toEqual([`${path}.raw`, `${path}.raw.1`, `${path}.raw.2`]);
    expect([...readLines(moved.files, 3)]).toEqual(["one", "two", "x"]);
    expect((await readdir(windows.dir)).filter((name) => name.startsWith(`lines-${k}`)).sort()).toEqual([
      `lines-${k}.raw`,
      `lines-${k}.raw.1`,
      `lines-${k}.raw.2`,
    ]);
  });
});

const loadFiles = async (): Promise<string[]> => (await readdir(windows.dir)).filter((name) => name.startsWith("load-")).sort();

const records = (count: number, value: (i: number) => string): string[] =>
  Array.from({ length: count }, (_, i) => `{"id":"r${i + 1}","v":${value(i)}}`);

describe("a window of several pieces into DuckDB", () => {
  it("straight from raw: every record once, in order, with its raw text; its files all go", async () => {
    const store = await open();
    const texts = records(10, (i) => String(i));
    const result = await prepare(store, texts);
    expect(result.direct).toBe(true);
    expect(result.pieces).toBe(10);
    await load(store, result);
    expect(await rows("SELECT row_number AS r, id, v, CAST(raw AS VARCHAR) AS raw FROM t ORDER BY row_number")).toEqual(
      texts.map((raw, i) => ({ r: String(i + 1), id: `r${i + 1}`, v: String(i), raw })),
    );
    await removeLoadFiles(result);
    expect(await loadFiles()).toEqual([]);
  });

  it("turned to its columns file after some pieces: the columns and raw files in pieces, row for row", async () => {
    const store = await open();
    // The sixth value is a number beyond 2^53, kept as text: the window leaves the raw file for the columns file.
    const texts = records(10, (i) => (i === 5 ? "9007199254740993" : `"s${i}"`));
    const result = await prepare(store, texts);
    expect(result.direct).toBe(false);
    expect(result.rawPieces).toBe(10);
    expect(result.pieces).toBe(10);
    await load(store, result);
    expect(await rows("SELECT row_number AS r, id, v, CAST(raw AS VARCHAR) AS raw FROM t ORDER BY row_number")).toEqual(
      texts.map((raw, i) => ({ r: String(i + 1), id: `r${i + 1}`, v: i === 5 ? "9007199254740993" : `s${i}`, raw })),
    );
    await removeLoadFiles(result);
    expect(await loadFiles()).toEqual([]);
  });

  it("prepared before another window widened its column: its pieces become the raw file's, the columns file is written anew", async () => {
    const store = await open();
    const text = await prepare(store, [`{"id":"a","v":"x"}`]);
    // Prepared while the first window was not loaded yet (the command overlaps them): v has no column.
    const numbers = await prepare(
      store,
      records(6, (i) => String(i + 0.5)),
      "2026-01-31",
    );
    expect(numbers.direct).toBe(true);
    expect(numbers.pieces).toBe(6);
    await load(store, text);
    await load(store, numbers, "2026-01-31");
    expect(await rows("SELECT id, v FROM t ORDER BY window_start, row_number")).toEqual([
      { id: "a", v: "x" },
      ...Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}`, v: String(i + 0.5) })),
    ]);
    // The caller removes by the window it prepared: the raw file's pieces and the new columns file go too.
    await removeLoadFiles(text);
    await removeLoadFiles(numbers);
    expect(await loadFiles()).toEqual([]);
  });
});
