import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LineFile, readLines } from "../../src/commands/reports-sync/line-file.js";
import { LocalFileError } from "../../src/errors.js";

// The load files of `reports sync` (docs/reports-sync.md, "How a window is loaded"): written
// through a buffer of 1 MiB, read back a chunk of 1 MiB at a time. The sizes below are chosen
// around that buffer; the expected texts are written out.

const MIB = 1 << 20;
/** Files this process has open. */
const openFiles = (): number => readdirSync("/proc/self/fd").length;
let dir: string;
let n = 0;
const path = (): string => join(dir, `load-${++n}.txt`);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "simadmin-line-file-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("readLines", () => {
  it("gives the first lines asked for, without their line breaks", () => {
    const file = path();
    writeFileSync(file, "a\nbb\n\nccc\n");
    expect([...readLines(file, 2)]).toEqual(["a", "bb"]);
    expect([...readLines(file, 4)]).toEqual(["a", "bb", "", "ccc"]);
    expect([...readLines(file, 0)]).toEqual([]);
  });

  it("stops at the end of the file when it has fewer lines; a last line without a break is not one", () => {
    const file = path();
    writeFileSync(file, "one\ntwo\nthree");
    expect([...readLines(file, 10)]).toEqual(["one", "two"]);
    const empty = path();
    writeFileSync(empty, "");
    expect([...readLines(empty, 3)]).toEqual([]);
  });

  it("a line and a character cut by the 1 MiB chunk are read whole", () => {
    const file = path();
    // "é" is 2 bytes: the first line ends so that the second's "é" straddles byte 1,048,576.
    const first = "x".repeat(MIB - 4);
    const second = "ab" + "é" + "cd";
    const third = "y".repeat(MIB + 10);
    writeFileSync(file, `${first}\n${second}\n${third}\nlast\n`);
    const lines = [...readLines(file, 4)];
    expect(lines.map((line) => line.length)).toEqual([MIB - 4, 5, MIB + 10, 4]);
    expect(lines[1]).toBe("abécd");
    expect(lines[3]).toBe("last");
  });

  it("an empty first line is a line", () => {
    const file = path();
    writeFileSync(file, "\nx\n");
    expect([...readLines(file, 2)]).toEqual(["", "x"]);
  });

  it("stops reading once it has the lines asked for, and closes the file", () => {
    const file = path();
    writeFileSync(file, "a\nb\nc\n");
    const before = openFiles();
    const lines = readLines(file, 1);
    expect(lines.next()).toEqual({ value: "a", done: false });
    expect(openFiles()).toBe(before + 1);
    expect(lines.next().done).toBe(true);
    expect(openFiles()).toBe(before);
    // Left early by its reader.
    for (const line of readLines(file, 3)) if (line === "b") break;
    expect(openFiles()).toBe(before);
  });
});

describe("LineFile", () => {
  it("writes what it is given, in order, readable by its owner only, once finished", () => {
    const file = path();
    const out = new LineFile(file);
    out.write("a,b\n");
    out.write("é€😀\n");
    expect(out.path).toBe(file);
    expect(readFileSync(file, "utf8")).toBe("");
    out.finish();
    expect(readFileSync(file, "utf8")).toBe("a,b\né€😀\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    out.close();
  });

  it("a load file left from before is emptied first", () => {
    const file = path();
    writeFileSync(file, "left over from before\n");
    const out = new LineFile(file);
    out.write("new\n");
    out.finish();
    expect(readFileSync(file, "utf8")).toBe("new\n");
  });

  it("more than its buffer holds is written out as it fills, in order", () => {
    const file = path();
    const out = new LineFile(file);
    const line = "z".repeat(1000) + "\n";
    for (let i = 0; i < 1500; i++) out.write(line);
    out.write("end\n");
    out.finish();
    const text = readFileSync(file, "utf8");
    expect(text.length).toBe(1500 * 1001 + 4);
    expect(text.endsWith("z\nend\n")).toBe(true);
    expect(text.replaceAll("z".repeat(1000) + "\n", "")).toBe("end\n");
  });

  it("a text too long for the buffer is written straight after what was buffered", () => {
    const file = path();
    const out = new LineFile(file);
    out.write("before\n");
    const long = "é".repeat(MIB / 2) + "\n";
    out.write(long);
    out.write("after\n");
    out.finish();
    expect(readFileSync(file, "utf8")).toBe(`before\n${long}after\n`);
  });

  it("writes bytes given one per character as they are, through the buffer or past it, a piece starting only at a line", () => {
    const file = path();
    const out = new LineFile(file, "w", 8);
    const bytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");
    out.writeBytes(bytes('{"n":"é€😀"}'));
    out.write("\n");
    const long = bytes("é".repeat(MIB / 2 + 10));
    out.writeBytes(long);
    out.writeBytes(bytes("\n"));
    out.writeBytes(bytes("after"));
    out.writeBytes(bytes("\n"));
    out.finish();
    expect(out.files).toEqual([file, `${file}.1`, `${file}.2`]);
    expect(readFileSync(file, "utf8")).toBe('{"n":"é€😀"}\n');
    expect(readFileSync(`${file}.1`, "utf8")).toBe(`${"é".repeat(MIB / 2 + 10)}\n`);
    expect(readFileSync(`${file}.2`, "utf8")).toBe("after\n");
  });

  it("writes a range of a Buffer as it is, through the buffer or past it, a piece starting only at a line", () => {
    const file = path();
    const out = new LineFile(file, "w", 8);
    const bytes = Buffer.from(`xx{"n":"é€"}yy`, "utf8");
    out.writeRange(bytes, 2, bytes.length - 2);
    out.write("\n");
    const long = Buffer.from(`${"é".repeat(MIB / 2 + 10)}\n`, "utf8");
    out.writeRange(long, 0, long.length);
    out.writeRange(Buffer.from("after\n"), 0, 6);
    out.finish();
    expect(out.files).toEqual([file, `${file}.1`, `${file}.2`]);
    expect(readFileSync(file, "utf8")).toBe('{"n":"é€"}\n');
    expect(readFileSync(`${file}.1`, "utf8")).toBe(`${"é".repeat(MIB / 2 + 10)}\n`);
    expect(readFileSync(`${file}.2`, "utf8")).toBe("after\n");
  });

  it("moveTo renames what was written and goes on writing at its end", () => {
    const first = path();
    const second = path();
    const out = new LineFile(first);
    out.write("one\n");
    const moved = out.moveTo(second);
    expect(moved.path).toBe(second);
    moved.write("two\n");
    moved.finish();
    expect(readFileSync(second, "utf8")).toBe("one\ntwo\n");
    expect(() => statSync(first)).toThrow(/ENOENT/);
  });

  it("a load file that cannot be made names its path", () => {
    const file = join(dir, "missing", "load.txt");
    expect(() => new LineFile(file)).toThrow(LocalFileError);
    expect(() => new LineFile(file)).toThrow(`cannot write the load file ${file}: no such file or directory (ENOENT)`);
  });

  it("a move that fails names the new path", () => {
    const out = new LineFile(path());
    const target = join(dir, "missing", "moved.txt");
    expect(() => out.moveTo(target)).toThrow(`cannot write the load file ${target}: no such file or directory (ENOENT)`);
  });

  it("a load file removed before its move is an error, not a new empty file", () => {
    const first = path();
    const out = new LineFile(first);
    out.write("one\n");
    rmSync(first);
    const target = path();
    expect(() => out.moveTo(target)).toThrow(`cannot write the load file ${target}: no such file or directory (ENOENT)`);
    expect(() => statSync(target)).toThrow(/ENOENT/);
  });

  it("a full disk names the load file and closes it", () => {
    const full = join(dir, `full-${++n}`);
    // A device node of the test's own (as root), never the machine's /dev/full (docs/mutation-testing.md).
    if (spawnSync("mknod", ["-m", "666", full, "c", "1", "7"]).status !== 0) return;
    const before = openFiles();
    const out = new LineFile(full);
    expect(openFiles()).toBe(before + 1);
    out.write("a line\n");
    expect(() => out.finish()).toThrow(`cannot write the load file ${full}: no space left on device (ENOSPC)`);
    expect(openFiles()).toBe(before);
    const straight = new LineFile(full);
    expect(() => straight.write("w".repeat(MIB))).toThrow(/no space left on device \(ENOSPC\)/);
    expect(openFiles()).toBe(before);
    straight.close();
  });
});
