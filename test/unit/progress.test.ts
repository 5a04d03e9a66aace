import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IOStreams } from "../../src/output/io.js";
import { createProgress, fitWidth, HEARTBEAT_BOUND_MS, HEARTBEAT_MS } from "../../src/output/progress.js";

// Progress on stderr (docs/cli-contract.md "Progress", "CI and cron"), driven with an
// in-memory stderr and an injected clock and timer. Through commands: test/cli/progress.test.ts.

/** stderr in memory; a terminal of `columns` columns when asked (with the cursor calls ora makes). */
class Stderr extends Writable {
  text = "";
  constructor(
    readonly isTTY: boolean,
    readonly columns?: number,
  ) {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += String(chunk);
    callback();
  }
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
}

function io(stderr: Stderr): IOStreams {
  return {
    stdout: new Stderr(false),
    stderr,
    stdin: process.stdin,
    stdoutIsTTY: false,
    stderrIsTTY: stderr.isTTY,
    stdinIsTTY: false,
    columns: stderr.columns,
  };
}

/** An injected clock and timer: `tick()` runs the checks the progress registered. */
function fakeTimer() {
  let t = 1_000_000;
  const timers: { ms: number; check: () => void; stopped: boolean }[] = [];
  return {
    now: () => t,
    every: (ms: number, check: () => void) => {
      const timer = { ms, check, stopped: false };
      timers.push(timer);
      return () => {
        timer.stopped = true;
      };
    },
    /** Time passes without a timer tick. */
    move(ms: number) {
      t += ms;
    },
    advance(ms: number) {
      t += ms;
      for (const timer of timers) if (!timer.stopped) timer.check();
    },
    timers,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("fitWidth", () => {
  it.each([
    ["abcdef", 6, "abcdef"],
    ["abcdefg", 6, "abcde…"],
    ["😀😀😀", 3, "😀😀😀"],
    ["😀😀😀😀", 3, "😀😀…"],
    ["abc", 1, "…"],
    ["abc", 0, "…"],
  ])("%s in %i columns → %s", (text, width, fitted) => {
    expect(fitWidth(text, width)).toBe(fitted);
  });
});

describe("progress without a terminal (heartbeat lines)", () => {
  it("the bound and the margin under it", () => {
    expect([HEARTBEAT_BOUND_MS, HEARTBEAT_MS]).toEqual([30_000, 25_000]);
  });

  it("prints nothing for a run shorter than 25 s, then the latest text every 25 s, timer or update", async () => {
    const stderr = new Stderr(false);
    const timer = fakeTimer();
    const progress = await createProgress(io(stderr), { quiet: false, color: false, now: timer.now, every: timer.every });
    expect(timer.timers.map((x) => x.ms)).toEqual([1000]);
    progress.update("fetching page 1");
    timer.advance(24_999);
    expect(stderr.text).toBe("");
    timer.advance(1);
    expect(stderr.text).toBe("fetching page 1 (25s so far)\n");
    timer.advance(10_000);
    progress.update("fetching page 2");
    timer.advance(14_999);
    expect(stderr.text).toBe("fetching page 1 (25s so far)\n");
    progress.update("fetching\tpage\n3\u001b");
    timer.advance(1);
    expect(stderr.text).toBe("fetching page 1 (25s so far)\nfetching\\tpage\\n3\\u001b (50s so far)\n");
    progress.done("done");
    timer.advance(60_000);
    expect(stderr.text).toBe("fetching page 1 (25s so far)\nfetching\\tpage\\n3\\u001b (50s so far)\n");
  });

  it("an update 25 s after the last line prints at once, without waiting for the timer", async () => {
    const stderr = new Stderr(false);
    const timer = fakeTimer();
    const progress = await createProgress(io(stderr), { quiet: false, color: false, now: timer.now, every: timer.every });
    timer.move(24_999);
    progress.update("page 1");
    expect(stderr.text).toBe("");
    timer.move(1);
    progress.update("page 2");
    expect(stderr.text).toBe("page 2 (25s so far)\n");
    timer.move(25_000);
    progress.update("page 3");
    expect(stderr.text).toBe("page 2 (25s so far)\npage 3 (50s so far)\n");
  });

  it("says the whole seconds passed as every other duration is written", async () => {
    const stderr = new Stderr(false);
    const timer = fakeTimer();
    const progress = await createProgress(io(stderr), { quiet: false, color: false, now: timer.now, every: timer.every });
    timer.move(125_999);
    progress.update("page 9");
    timer.move(3_725_000 - 125_999);
    progress.update("page 99");
    expect(stderr.text).toBe("page 9 (2m 5s so far)\npage 99 (1h 2m so far)\n");
  });

  it("says 'working' until told more; an update after done starts the timer again", async () => {
    const stderr = new Stderr(false);
    const timer = fakeTimer();
    const progress = await createProgress(io(stderr), { quiet: false, color: false, now: timer.now, every: timer.every });
    timer.advance(25_000);
    expect(stderr.text).toBe("working (25s so far)\n");
    progress.done();
    progress.done();
    expect(timer.timers.map((x) => x.stopped)).toEqual([true]);
    progress.update("again");
    expect(timer.timers.map((x) => x.stopped)).toEqual([true, false]);
    timer.advance(25_000);
    expect(stderr.text).toBe("working (25s so far)\nagain (50s so far)\n");
  });

  it("by default times itself with the real clock and an interval (faked here)", async () => {
    vi.useFakeTimers({ now: 0 });
    const stderr = new Stderr(false);
    const progress = await createProgress(io(stderr), { quiet: false, color: false });
    progress.update("slow request");
    vi.advanceTimersByTime(24_000);
    expect(stderr.text).toBe("");
    vi.advanceTimersByTime(1_000);
    expect(stderr.text).toBe("slow request (25s so far)\n");
    progress.done();
    vi.advanceTimersByTime(100_000);
    expect(stderr.text).toBe("slow request (25s so far)\n");
  });
});

describe("progress with --quiet or an unusable terminal", () => {
  it.each([
    ["--quiet, no terminal", true, new Stderr(false)],
    ["--quiet on a terminal", true, new Stderr(true, 80)],
    ["a terminal of 0 columns", false, new Stderr(true, 0)],
    ["a terminal that reports no width", false, new Stderr(true)],
  ])("%s: nothing at all", async (_name, quiet, stderr) => {
    const timer = fakeTimer();
    const progress = await createProgress(io(stderr), { quiet, color: false, now: timer.now, every: timer.every });
    progress.update("x");
    timer.advance(100_000);
    progress.done("finished");
    expect(stderr.text).toBe("");
    expect(timer.timers).toEqual([]);
  });
});

describe("progress on a terminal (a spinner)", () => {
  it("shows the text cut to the width, escaped, and leaves a final line", async () => {
    vi.useFakeTimers();
    const stderr = new Stderr(true, 20);
    const progress = await createProgress(io(stderr), { quiet: false, color: false });
    progress.update("page\t2 of a very long export");
    expect(stderr.text).toContain("page\\t2 of a ver…");
    expect(stderr.text).not.toContain("page\\t2 of a very");
    progress.update("page 3");
    vi.advanceTimersByTime(200);
    expect(stderr.text).toContain("page 3");
    progress.done("exported\n12 rows");
    expect(stderr.text.endsWith("✔ exported\\n12 rows\n")).toBe(true);
  });

  it("a green tick with colour; no final line when done without text", async () => {
    const green = new Stderr(true, 40);
    const coloured = await createProgress(io(green), { quiet: false, color: true });
    coloured.update("working");
    coloured.done("ok");
    expect(green.text.endsWith("\u001b[32m✔\u001b[39m ok\n")).toBe(true);
    const plain = new Stderr(true, 40);
    const quietEnd = await createProgress(io(plain), { quiet: false, color: false });
    quietEnd.update("working");
    quietEnd.done();
    expect(plain.text).not.toContain("✔");
    expect(plain.text).toContain("working");
  });
});
