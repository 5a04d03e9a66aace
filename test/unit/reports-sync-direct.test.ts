import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { duckDbWindows } from "../helpers/duckdb-windows.js";

// A DuckDB window whose values its columns take as sent is loaded straight from the raw
// file (docs/reports-sync.md, "How a window is loaded"); anything else turns the window to
// the columns file. Either way the warehouse rules hold (docs/cli-contract.md, Warehouse
// rules): these windows are read back by SQL, every expected value written out by hand.

const { open, prepare, load, rows } = duckDbWindows("simadmin-direct");

describe("a window loaded straight from raw", () => {
  it("plain records: no columns file, nested fields, dates, timestamps, whole and fractional numbers, booleans, nulls, a field new in the second window", async () => {
    const store = await open();
    const first = await prepare(store, [
      `{"id":"r1","user":{"id":"u1","name":"Ann"},"day":"2026-01-02","at":"2026-01-02T10:00:00Z","n":1.0,"score":2.5,"ok":true,"note":null}`,
      `{"id":"r2","user":{"id":"u2","name":"Bob \\"B\\": x"},"day":"2026-01-03","at":"2026-01-03 11:30","n":1e2,"score":3,"ok":false}`,
    ]);
    expect(first.direct).toBe(true);
    // The load file is the records themselves, one a line.
    expect((await readFile(first.file, "utf8")).split("\n")[0]).toBe(
      `{"id":"r1","user":{"id":"u1","name":"Ann"},"day":"2026-01-02","at":"2026-01-02T10:00:00Z","n":1.0,"score":2.5,"ok":true,"note":null}`,
    );
    await load(store, first);
    expect(
      await rows(
        `SELECT row_number, id, user_id, user_name, CAST("day" AS VARCHAR) AS "day", CAST("at" AS VARCHAR) AS "at", n, score, ok, note, CAST(raw AS VARCHAR) AS raw FROM t ORDER BY row_number`,
      ),
    ).toEqual([
      {
        row_number: "1",
        id: "r1",
        user_id: "u1",
        user_name: "Ann",
        day: "2026-01-02",
        at: "2026-01-02 10:00:00",
        n: "1",
        score: 2.5,
        ok: true,
        note: null,
        raw: `{"id":"r1","user":{"id":"u1","name":"Ann"},"day":"2026-01-02","at":"2026-01-02T10:00:00Z","n":1.0,"score":2.5,"ok":true,"note":null}`,
      },
      {
        row_number: "2",
        id: "r2",
        user_id: "u2",
        user_name: 'Bob "B": x',
        day: "2026-01-03",
        at: "2026-01-03 11:30:00",
        n: "100",
        score: 3,
        ok: false,
        note: null,
        raw: `{"id":"r2","user":{"id":"u2","name":"Bob \\"B\\": x"},"day":"2026-01-03","at":"2026-01-03 11:30","n":1e2,"score":3,"ok":false}`,
      },
    ]);
    const second = await prepare(store, [`{"id":"r3","extra":"new"}`], "2026-01-31");
    expect(second.direct).toBe(true);
    await load(store, second, "2026-01-31");
    expect(await rows("SELECT id, extra, user_id FROM t WHERE window_start = DATE '2026-01-31'")).toEqual([
      { id: "r3", extra: "new", user_id: null },
    ]);
    expect(await rows("SELECT kind, records FROM simadmin_sync_windows ORDER BY window_start")).toEqual([
      { kind: "t", records: "2" },
      { kind: "t", records: "1" },
    ]);
  });

  it("records without fields: a row each, straight from raw", async () => {
    const store = await open();
    const result = await prepare(store, ["{}", "{}"]);
    expect(result.direct).toBe(true);
    await load(store, result);
    expect(await rows("SELECT row_number, CAST(raw AS VARCHAR) AS raw FROM t ORDER BY row_number")).toEqual([
      { row_number: "1", raw: "{}" },
      { row_number: "2", raw: "{}" },
    ]);
  });

  it("a value its column does not take as sent turns the window to the columns file, the records before it included", async () => {
    const store = await open();
    const result = await prepare(store, [
      `{"v":1.0,"w":"a"}`,
      `{"v":2,"w":"b"}`,
      `{"v":"x","w":["l",1],"nul":"a\\u0000b","big":9007199254740993}`,
    ]);
    expect(result.direct).toBe(false);
    await load(store, result);
    expect(await rows("SELECT row_number, v, w, nul, big FROM t ORDER BY row_number")).toEqual([
      { row_number: "1", v: "1", w: "a", nul: null, big: null },
      { row_number: "2", v: "2", w: "b", nul: null, big: null },
      { row_number: "3", v: "x", w: "l;1", nul: "a\ufffdb", big: "9007199254740993" },
    ]);
  });

  it("repeated keys (the last one counts), names differing only by case, a field both a value and an object: the columns file", async () => {
    const store = await open();
    for (const text of [`{"a":1,"a":2}`, `{"X":"up","x":"low"}`, `{"p":"v"}\n{"p":{"q":"w"}}`]) {
      const result = await prepare(store, text.split("\n"));
      expect(result.direct, text).toBe(false);
    }
    const result = await prepare(store, [`{"a":1,"a":2,"X":"up","x":"low"}`, `{"p":"v"}`, `{"p":{"q":"w"}}`]);
    await load(store, result);
    expect(await rows("SELECT a, x, x_2, p, p_q FROM t ORDER BY row_number")).toEqual([
      { a: "2", x: "up", x_2: "low", p: null, p_q: null },
      { a: null, x: null, x_2: null, p: "v", p_q: null },
      { a: null, x: null, x_2: null, p: null, p_q: "w" },
    ]);
  });

  it("a window prepared before another widened its column to text: numbers as the columns file writes them", async () => {
    const store = await open();
    const text = await prepare(store, [`{"v":"a"}`]);
    // Prepared while the first window was not loaded yet (the command overlaps them): v has no column.
    // w, a new text field, fits as sent: one field that does not is enough.
    const numbers = await prepare(store, [`{"v":2.50,"w":"x"}`, `{"v":1e2,"w":"y"}`], "2026-01-31");
    expect(numbers.direct).toBe(true);
    await load(store, text);
    await load(store, numbers, "2026-01-31");
    expect(await rows("SELECT v FROM t ORDER BY window_start, row_number")).toEqual([{ v: "a" }, { v: "2.5" }, { v: "100" }]);
    // Prepared once the column is text: the columns file from the start.
    expect((await prepare(store, [`{"v":3}`], "2026-03-02")).direct).toBe(false);
  });
});
