import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../src/errors.js";
import { BufferedChunkWriter, FLUSH_AT } from "../../src/output/chunk-writer.js";
import { systemIO, writeChunk, type IOStreams } from "../../src/output/io.js";
import { confirm, promptHidden, readAllStdin } from "../../src/output/prompt.js";

// The IO object, prompts on stderr and the buffered writer, with in-memory streams. Through
// commands: test/cli/auth.test.ts (prompts), test/cli/output-files.test.ts (writes).

class Memory extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += String(chunk);
    callback();
  }
}

/** A stdin a test types into; `setRawMode` recorded when `tty`. */
function terminalInput(tty: { isRaw: boolean } | undefined) {
  const stdin = new PassThrough() as PassThrough & { isRaw?: boolean; setRawMode?: (on: boolean) => void };
  const rawModes: boolean[] = [];
  if (tty) {
    stdin.isRaw = tty.isRaw;
    stdin.setRawMode = (on: boolean) => {
      rawModes.push(on);
      stdin.isRaw = on;
    };
  }
  return { stdin, rawModes };
}

function testIO(stdin: NodeJS.ReadableStream, stderr = new Memory()): IOStreams & { stderr: Memory } {
  return {
    stdout: new Memory(),
    stderr,
    stdin: stdin as IOStreams["stdin"],
    stdoutIsTTY: false,
    stderrIsTTY: true,
    stdinIsTTY: true,
    columns: undefined,
  };
}

describe("systemIO", () => {
  it("is the process's own streams, read when asked, with their terminal flags", () => {
    const io = systemIO();
    expect(io.stdout).toBe(process.stdout);
    expect(io.stderr).toBe(process.stderr);
    expect(io.stdin).toBe(process.stdin);
    expect(io.stdoutIsTTY).toBe(process.stdout.isTTY === true);
    expect(io.stderrIsTTY).toBe(process.stderr.isTTY === true);
    expect(io.stdinIsTTY).toBe(process.stdin.isTTY === true);
  });

  it("reports a terminal and its width when stdout is one, no width otherwise", () => {
    const io = systemIO();
    const saved = Object.getOwnPropertyDescriptors(process.stdout);
    const set = (isTTY: boolean | undefined, columns: number | undefined) => {
      Object.defineProperty(process.stdout, "isTTY", { value: isTTY, configurable: true, writable: true });
      Object.defineProperty(process.stdout, "columns", { value: columns, configurable: true, writable: true });
    };
    try {
      set(true, 132);
      expect([io.stdoutIsTTY, io.columns]).toEqual([true, 132]);
      set(undefined, 132);
      expect([io.stdoutIsTTY, io.columns]).toEqual([false, undefined]);
    } finally {
      for (const key of ["isTTY", "columns"]) {
        const descriptor = saved[key];
        if (descriptor) Object.defineProperty(process.stdout, key, descriptor);
        else delete (process.stdout as unknown as Record<string, unknown>)[key];
      }
    }
  });

  it("stderr and stdin flags follow their own streams", () => {
    const io = systemIO();
    for (const [stream, read] of [
      [process.stderr, () => io.stderrIsTTY],
      [process.stdin, () => io.stdinIsTTY],
    ] as const) {
      const saved = Object.getOwnPropertyDescriptor(stream, "isTTY");
      try {
        Object.defineProperty(stream, "isTTY", { value: true, configurable: true, writable: true });
        expect(read()).toBe(true);
        Object.defineProperty(stream, "isTTY", { value: 1, configurable: true, writable: true });
        expect(read()).toBe(false);
      } finally {
        if (saved) Object.defineProperty(stream, "isTTY", saved);
        else delete (stream as unknown as Record<string, unknown>).isTTY;
      }
    }
  });
});

describe("writeChunk", () => {
  it("resolves at once while the stream takes more, after 'drain' when it is full", async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _encoding, callback) {
        written.push(String(chunk));
        release = callback;
      },
    });
    let done = false;
    const first = writeChunk(slow, "ab").then(() => (done = true));
    await first;
    expect(done).toBe(true);
    let second = false;
    const full = writeChunk(slow, "cdef").then(() => (second = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(false);
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    release?.();
    await full;
    expect(written).toEqual(["ab", "cdef"]);
  });

  it("rejects with the stream's write error", async () => {
    const broken = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        callback(new Error("EPIPE: broken pipe"));
      },
    });
    broken.on("error", () => undefined);
    await expect(writeChunk(broken, "x")).rejects.toThrow("EPIPE: broken pipe");
  });
});

describe("promptHidden", () => {
  it("reads a line without echo on a terminal in raw mode, backspace included, and restores the mode", async () => {
    const { stdin, rawModes } = terminalInput({ isRaw: false });
    const io = testIO(stdin);
    const answer = promptHidden(io, "API key: ");
    expect(io.stderr.text).toBe("API key: ");
    stdin.write("sk_l");
    stdin.write("x\u007fi\u0001\u001bve_1\bX\r");
    stdin.write("ignored");
    expect(await answer).toBe("sk_live_X");
    expect(io.stderr.text).toBe("API key: \n");
    expect(rawModes).toEqual([true, false]);
    expect(stdin.listenerCount("data")).toBe(0);
    expect(stdin.isPaused()).toBe(true);
  });

  it("keeps a terminal that was raw already raw; a newline ends the line too", async () => {
    const { stdin, rawModes } = terminalInput({ isRaw: true });
    const answer = promptHidden(testIO(stdin), "key: ");
    stdin.write("abc\ndef\n");
    expect(await answer).toBe("abc");
    expect(rawModes).toEqual([true, true]);
  });

  it("Ctrl-C is an interruption (exit 130); Ctrl-D ends the answer", async () => {
    const first = terminalInput(undefined);
    const interrupted = promptHidden(testIO(first.stdin), "key: ");
    first.stdin.write("ab\u0003cd\r");
    await expect(interrupted).rejects.toBeInstanceOf(InterruptedError);
    const second = terminalInput(undefined);
    const ended = promptHidden(testIO(second.stdin), "key: ");
    second.stdin.write("ab\u0004cd\r");
    expect(await ended).toBe("ab");
  });
});

describe("readAllStdin", () => {
  it("joins every chunk, a character split between two of them included", async () => {
    const stdin = new PassThrough();
    const euro = Buffer.from("€");
    stdin.write("key-");
    stdin.write(euro.subarray(0, 1));
    stdin.end(Buffer.concat([euro.subarray(1), Buffer.from("\n")]));
    expect(await readAllStdin(testIO(stdin))).toBe("key-€\n");
  });

  it("reads string chunks as they are", async () => {
    const stdin = new PassThrough({ encoding: "utf8" });
    stdin.end("élan");
    expect(await readAllStdin(testIO(stdin))).toBe("élan");
  });
});

describe("confirm", () => {
  it.each([
    ["y", true],
    ["Y", true],
    ["yes", true],
    [" YES ", true],
    ["yess", false],
    ["ayes", false],
    ["no", false],
    ["", false],
  ])("answer %j → %s", async (answer, yes) => {
    const stdin = new PassThrough();
    const io = testIO(stdin);
    const asked = confirm(io, "Delete 3 users?");
    await new Promise((resolve) => setImmediate(resolve));
    stdin.write(`${answer}\r`);
    expect(await asked).toBe(yes);
    expect(io.stderr.text).toContain("Delete 3 users? [y/N] ");
    expect(stdin.listenerCount("keypress")).toBe(0);
  });
});

describe("BufferedChunkWriter", () => {
  function sink(toTerminal: boolean) {
    const writes: string[] = [];
    return {
      writes,
      sink: {
        toTerminal,
        async write(chunk: string | Uint8Array) {
          writes.push(String(chunk));
        },
      },
    };
  }

  it("gathers pieces into one write of 64 KiB", async () => {
    expect(FLUSH_AT).toBe(65_536);
    const { writes, sink: s } = sink(false);
    const writer = new BufferedChunkWriter(s);
    await writer.write("a".repeat(65_535));
    expect(writes).toEqual([]);
    await writer.write("b");
    expect(writes.map((w) => w.length)).toEqual([65_536]);
    await writer.write("tail\u001b");
    await writer.flush();
    expect(writes.slice(1)).toEqual(["tail\u001b"]);
    await writer.flush();
    expect(writes).toHaveLength(2);
  });

  it("makes control characters visible for a terminal", async () => {
    const { writes, sink: s } = sink(true);
    const writer = new BufferedChunkWriter(s);
    await writer.write("a\u001b[31mb\n");
    await writer.flush();
    expect(writes).toEqual(["a\\u001b[31mb\n"]);
  });

  it("stops with an interruption once the run is aborted, writing nothing more", async () => {
    const { writes, sink: s } = sink(false);
    const controller = new AbortController();
    const writer = new BufferedChunkWriter(s, controller.signal);
    await writer.write("x");
    controller.abort();
    await expect(writer.flush()).rejects.toBeInstanceOf(InterruptedError);
    const empty = new BufferedChunkWriter(s, controller.signal);
    await expect(empty.flush()).rejects.toBeInstanceOf(InterruptedError);
    expect(writes).toEqual([]);
  });
});
