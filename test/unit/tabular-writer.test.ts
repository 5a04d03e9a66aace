import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Cell } from "../../src/domain/records.js";
import { InterruptedError, UsageError } from "../../src/errors.js";
import { CsvRowWriter } from "../../src/output/csv.js";
import { createRecordWriter } from "../../src/output/record-stream.js";
import type { RecordStreamOptions } from "../../src/output/record-types.js";
import { TabularRecordWriter, type RowOutput } from "../../src/output/tabular-writer.js";
import { tempDir } from "../helpers/cli.js";

// csv and xlsx rows (src/output/tabular-writer.ts) seen from the row output's side: when the
// header is known, what each row holds, and what end() and abort() hand on; then the CSV
// row writer's failures (src/output/csv.ts).

type Call = ["begin", string[]] | ["row", (Cell | undefined)[]] | ["end"] | ["abort"];

function recordingOutput(): RowOutput & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async begin(columns) {
      calls.push(["begin", [...columns]]);
    },
    async rows(rows) {
      for (const cells of rows) calls.push(["row", [...cells]]);
    },
    async end() {
      calls.push(["end"]);
    },
    abort() {
      calls.push(["abort"]);
    },
  };
}

function writer(options: Omit<RecordStreamOptions, "format"> = {}): { writer: TabularRecordWriter; calls: Call[] } {
  const output = recordingOutput();
  return { writer: new TabularRecordWriter(output, { format: "csv", ...options }), calls: output.calls };
}

/** Records of about 100 characters each: `count` of them fill the 64 KiB spool buffer past its limit when count >= 700. */
const wide = (count: number): { i: number; text: string }[] =>
  Array.from({ length: count }, (_, i) => ({ i, text: "t".repeat(90) }));

describe("tabular writer without --fields", () => {
  it("names the header at the end and pads rows spooled before a later column appeared", async () => {
    const { writer: w, calls } = writer();
    await w.writeBatch([{ a: 1 }, { b: "x", a: 2 }]);
    await w.writeBatch([{ c: true }]);
    expect(calls).toEqual([]);
    await w.end();
    expect(calls).toEqual([
      ["begin", ["a", "b", "c"]],
      ["row", [1, undefined, undefined]],
      ["row", [2, "x", undefined]],
      // Holes of a spooled row come back as null (JSON), missing ends as undefined: an empty cell either way.
      ["row", [null, null, true]],
      ["end"],
    ]);
    expect(w.count).toBe(3);
  });

  it("pads the rows read back from a spool file to the final width, in order", async () => {
    const dir = await tempDir();
    try {
      const { writer: w, calls } = writer({ spoolDir: dir.path });
      await w.writeBatch(wide(800));
      await w.writeBatch([{ late: "x" }]);
      expect(await readdir(dir.path)).toHaveLength(1);
      await w.end();
      expect(await readdir(dir.path)).toEqual([]);
      const rows = calls.filter((c) => c[0] === "row");
      expect(rows).toHaveLength(801);
      expect(calls[0]).toEqual(["begin", ["i", "text", "late"]]);
      expect(rows[0]).toEqual(["row", [0, "t".repeat(90), undefined]]);
      expect(rows[799]).toEqual(["row", [799, "t".repeat(90), undefined]]);
      expect(rows[800]).toEqual(["row", [null, null, "x"]]);
      expect(calls.at(-1)).toEqual(["end"]);
    } finally {
      await dir.remove();
    }
  });

  it("names the command's known fields when no record came, and the records' (none) when only empty ones came", async () => {
    const none = writer({ knownFields: ["id", "title"] });
    await none.writer.end();
    expect(none.calls).toEqual([["begin", ["id", "title"]], ["end"]]);

    const empty = writer({ knownFields: ["id"] });
    await empty.writer.writeBatch([{}]);
    await empty.writer.end();
    expect(empty.calls).toEqual([["begin", []], ["row", []], ["end"]]);

    const nothing = writer();
    await nothing.writer.end();
    expect(nothing.calls).toEqual([["begin", []], ["end"]]);
  });

  it("stops spooling at the next chunk once the signal is aborted (Ctrl-C)", async () => {
    const controller = new AbortController();
    const { writer: w, calls } = writer({ signal: controller.signal });
    await w.writeBatch(wide(10));
    controller.abort();
    await w.writeBatch(wide(10)); // still in memory: nothing to stop
    await expect(w.writeBatch(wide(800))).rejects.toBeInstanceOf(InterruptedError);
    await w.abort();
    expect(calls).toEqual([["abort"]]);
  });

  it("stops reading a spool back once the signal is aborted, before any row is handed on", async () => {
    const controller = new AbortController();
    const { writer: w, calls } = writer({ signal: controller.signal });
    await w.writeBatch(wide(800));
    controller.abort();
    await expect(w.end()).rejects.toBeInstanceOf(InterruptedError);
    expect(calls).toEqual([["begin", ["i", "text"]], ["abort"]]);
  });
});

describe("tabular writer with --fields", () => {
  it("names the header at the first record and streams each row through in the fields' order", async () => {
    const { writer: w, calls } = writer({ fields: ["b", "a.c"] });
    await w.writeBatch([]);
    expect(calls).toEqual([]);
    await w.writeBatch([{ a: { c: 1 }, b: "x" }]);
    expect(calls).toEqual([
      ["begin", ["b", "a.c"]],
      ["row", ["x", 1]],
    ]);
    await w.writeBatch([{ b: "y" }]);
    await w.end();
    expect(calls).toEqual([["begin", ["b", "a.c"]], ["row", ["x", 1]], ["row", ["y", undefined]], ["end"]]);
  });

  it("names the header at the end when no record came", async () => {
    const { writer: w, calls } = writer({ fields: ["id"], knownFields: ["id"] });
    await w.writeBatch([]);
    await w.end();
    expect(calls).toEqual([["begin", ["id"]], ["end"]]);
  });

  it("aborts the output and rethrows when the check at the end fails", async () => {
    const { writer: w, calls } = writer({ fields: ["nope"], knownFields: ["id"] });
    const error = await w.end().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe("unknown field for --fields: nope; known fields: id");
    expect(calls).toEqual([["abort"]]);
  });
});

describe("tabular writer end and abort", () => {
  it("completes once, however often end() is called", async () => {
    const { writer: w, calls } = writer();
    await w.writeBatch([{ a: 1 }]);
    await w.end();
    await w.end();
    expect(calls).toEqual([["begin", ["a"]], ["row", [1]], ["end"]]);
  });

  it("after abort(), end() hands nothing on", async () => {
    const { writer: w, calls } = writer();
    await w.writeBatch([{ a: 1 }]);
    await w.abort();
    await w.end();
    expect(calls).toEqual([["abort"]]);
  });

  it("aborts the output when it fails while ending, and removes the spool", async () => {
    const dir = await tempDir();
    try {
      const output = recordingOutput();
      output.end = async () => {
        throw new Error("disk full");
      };
      const w = new TabularRecordWriter(output, { format: "csv", spoolDir: dir.path });
      await w.writeBatch(wide(800));
      await expect(w.end()).rejects.toThrow("disk full");
      expect(output.calls.at(-1)).toEqual(["abort"]);
      expect(await readdir(dir.path)).toEqual([]);
    } finally {
      await dir.remove();
    }
  });
});

describe("CsvRowWriter", () => {
  /** A cell of 1,000 characters: a hundred rows are more than csv-stringify buffers before it asks the writer to wait. */
  const LONG = "x".repeat(1000);

  it("throws the sink's failure at the next row and at the end, instead of waiting for a drain", async () => {
    const csv = new CsvRowWriter(async () => {
      throw new Error("disk full");
    });
    let failure: unknown;
    for (let i = 0; i < 100 && failure === undefined; i++) failure = await csv.row([i, LONG]).catch((e: unknown) => e);
    expect(failure).toEqual(new Error("disk full"));
    await expect(csv.end()).rejects.toThrow("disk full");
  });

  it("names a failure that is not an Error", async () => {
    const csv = new CsvRowWriter(async () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- a sink that rejects with a bare value is the case
      throw "closed";
    });
    let failure: unknown;
    for (let i = 0; i < 100 && failure === undefined; i++) failure = await csv.row([i, LONG]).catch((e: unknown) => e);
    expect(failure).toBe("closed");
    await expect(csv.end()).rejects.toThrow(new Error("CSV output failed: closed"));
  });

  it("waits for a slow sink, then writes every row in order", async () => {
    const chunks: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const csv = new CsvRowWriter(async (chunk) => {
      await gate;
      chunks.push(chunk);
    });
    // 400 KB: more than the stream buffers hold on any Node (Node 22 raised the default
    // highWaterMark from 16 KiB to 64 KiB), so the rows must wait for the sink.
    const written = (async () => {
      for (let i = 0; i < 400; i++) await csv.row([i, LONG]);
    })();
    let done = false;
    void written.then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    release();
    await written;
    await csv.end();
    expect(chunks.join("")).toBe(`${Array.from({ length: 400 }, (_, i) => `${i},${LONG}\n`).join("")}`);
  });
});

describe("csv rows", () => {
  it("aborts quietly before any row began the document", async () => {
    let written = "";
    const writer = createRecordWriter(
      { toTerminal: false, write: async (chunk) => void (written += String(chunk)) },
      { format: "csv" },
    );
    await expect(writer.abort()).resolves.toBeUndefined();
    await writer.end();
    expect(written).toBe("");
  });
});

describe("tabular writer details", () => {
  it("counts the rows streamed with --fields", async () => {
    const { writer: w } = writer({ fields: ["a"] });
    await w.writeBatch([{ a: 1 }, { a: 2 }]);
    expect(w.count).toBe(2);
  });

  it("takes only flattened names for --fields: a nested object's key is not a column", async () => {
    for (const format of ["csv", "table"] as const) {
      const w = createRecordWriter({ toTerminal: false, write: async () => {} }, { format, fields: ["user"] });
      await expect(w.writeBatch([{ user: { name: "Ana" } }])).rejects.toThrow(
        "unknown field for --fields: user; known fields: user.name",
      );
    }
  });

  it("spools once the rows in memory reach 64 KiB exactly (where Ctrl-C is heard)", async () => {
    const controller = new AbortController();
    controller.abort();
    // A spooled row is its JSON array and a line break: ["…"] + "\n" is 5 characters more than the text.
    const { writer: below } = writer({ signal: controller.signal });
    await expect(below.writeBatch([{ t: "x".repeat(65_530) }])).resolves.toBeUndefined();
    const { writer: at } = writer({ signal: controller.signal });
    await expect(at.writeBatch([{ t: "x".repeat(65_531) }])).rejects.toBeInstanceOf(InterruptedError);
  });

  it("keeps the spool file private to its owner (0600)", async () => {
    const dir = await tempDir();
    try {
      const { writer: w } = writer({ spoolDir: dir.path });
      await w.writeBatch(wide(800));
      const [spoolDir] = await readdir(dir.path);
      expect(((await stat(join(dir.path, spoolDir!))).mode & 0o777).toString(8)).toBe("700");
      expect(((await stat(join(dir.path, spoolDir!, "rows.ndjson"))).mode & 0o777).toString(8)).toBe("600");
      await w.abort();
    } finally {
      await dir.remove();
    }
  });
});
