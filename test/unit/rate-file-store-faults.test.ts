import fs, { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLedger } from "../../src/api/rate/file-store.js";
import { ledgerFs } from "../../src/api/rate/ledger-files.js";
import type { RateLimits } from "../../src/api/rate/limits.js";
import { createFakeClock, type Clock } from "../../src/clock.js";

// Faults of the file ledger (src/api/rate/file-store.ts) that root cannot provoke on a real
// file system: a full disk, a read-only or forbidden settings directory, a lock replaced or
// moved by another run between two calls. One fs call is replaced at a time (issue 27), with
// vi.spyOn on the ledger's file calls (ledger-files.ts, read at each call) — no vi.mock, which
// the shared workers (isolate: false) would not honour.

const actual = { writeFile: fs.writeFile, rename: fs.rename, unlink: fs.unlink, readFile: fs.readFile };

function replace<K extends "writeFile" | "rename" | "readFile">(name: K, impl: (typeof fs)[K]): void {
  vi.spyOn(ledgerFs, name).mockImplementation(impl as never);
}

const T0 = 1_800_000_000_000;
const LIMITS: RateLimits = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

let dir: string;
let path: string;
let lockPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-file-faults-"));
  path = join(dir, "settings", "rate-ledger.json");
  lockPath = `${path}.lock`;
  await mkdir(join(dir, "settings"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

function steppingClock(stepMs: number): Clock & { sleeps: number[] } {
  const clock = createFakeClock(T0);
  return {
    ...clock,
    sleep: async (ms) => {
      clock.sleeps.push(ms);
      clock.advance(stepMs);
    },
  };
}

describe("a settings directory that refuses the lock", () => {
  it.each([
    [
      Object.assign(new Error("ENOSPC: no space left on device, open 'x'"), { code: "ENOSPC" }),
      "no space left on device (ENOSPC)",
    ],
    [Object.assign(new Error("EROFS: read-only file system, open 'x'"), { code: "EROFS" }), "read-only file system (EROFS)"],
    [Object.assign(new Error("EACCES: permission denied, open 'x'"), { code: "EACCES" }), "permission denied (EACCES)"],
    [Object.assign(new Error("EPERM: operation not permitted, open 'x'"), { code: "EPERM" }), "permission denied (EPERM)"],
    [Object.assign(new Error("EIO: i/o error\nat the disk"), { code: "EIO" }), "EIO: i/o error"],
    [Object.assign(new Error("odd"), { code: 5 }), "odd"],
    [new Error("x".repeat(300)), "x".repeat(200)],
    [null, "null"],
    ["a text", "a text"],
  ])("is named: %s", async (error, description) => {
    replace("writeFile", async (file, ...rest) => {
      // A rejection with anything, as a faulty fs (or a library under it) might give: null and a text too.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      if (String(file).startsWith(`${lockPath}.`)) return Promise.reject(error);
      return actual.writeFile(file, ...rest);
    });
    const warnings: string[] = [];
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, warn: (t) => warnings.push(t) });
    expect(await ledger.reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    expect(warnings).toEqual([`the shared rate budget ${path} cannot be used: ${description}; this run keeps its own budget`]);
    expect(await readdir(join(dir, "settings"))).toEqual([]);
  });
});

describe("taking over a stale lock", () => {
  async function staleLock(): Promise<void> {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, time: T0 - 120_000, token: "stale" }));
  }
  const fresh = JSON.stringify({ pid: process.pid, time: T0, token: "fresh" });

  it("puts back a fresh lock that replaced the stale one in the meantime, and waits for it", async () => {
    await staleLock();
    let calls = 0;
    replace("rename", async (from, to) => {
      // another run took over first and locked
      if (calls++ === 0) await actual.writeFile(lockPath, fresh);
      return actual.rename(from, to);
    });
    const lockClock = steppingClock(2_000);
    const warnings: string[] = [];
    const ledger = new RateLedger({
      limits: LIMITS,
      clock: createFakeClock(T0),
      path,
      lockClock,
      staleLockMs: 60_000,
      warn: (t) => warnings.push(t),
    });
    await ledger.reserve("reports");
    expect(await readFile(lockPath, "utf8")).toBe(fresh);
    expect(warnings.at(-1)).toBe(
      `the shared rate budget ${path} cannot be used: rate ledger lock ${lockPath} is held too long; this run keeps its own budget`,
    );
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json.lock"]);
  });

  it("tries again at once when another run moved it away first", async () => {
    await staleLock();
    let calls = 0;
    replace("rename", async (from, to) => {
      if (calls++ > 0) return actual.rename(from, to);
      await actual.unlink(from); // another run's rename won
      throw Object.assign(new Error("ENOENT: no such file or directory, rename"), { code: "ENOENT" });
    });
    const lockClock = steppingClock(1);
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock, staleLockMs: 60_000 });
    expect(await ledger.reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    expect(lockClock.sleeps).toEqual([]);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ groups: { reports: { sends: [T0] } } });
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json"]);
    expect(calls).toBe(2);
  });
});

describe("a lock let go between our attempt and our read of it", () => {
  it("is tried again at once, without a poll's sleep", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, time: T0, token: "leaving" }));
    let reads = 0;
    replace("readFile", (async (file: string, ...rest: [BufferEncoding]) => {
      if (file === lockPath && reads++ === 0) {
        await actual.unlink(lockPath); // its holder let go just now
        throw Object.assign(new Error("ENOENT: no such file or directory, open"), { code: "ENOENT" });
      }
      return actual.readFile(file, ...rest);
    }) as typeof fs.readFile);
    const lockClock = steppingClock(1);
    const ledger = new RateLedger({ limits: LIMITS, clock: createFakeClock(T0), path, lockClock, staleLockMs: 60_000 });
    expect(await ledger.reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    // The failed read, then the release of our own lock.
    expect(reads).toBe(2);
    expect(lockClock.sleeps).toEqual([]);
    expect(await readdir(join(dir, "settings"))).toEqual(["rate-ledger.json"]);
  });
});
