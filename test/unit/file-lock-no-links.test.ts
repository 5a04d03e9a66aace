import { readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { failure } from "../helpers/failure.js";

// A file system without hard links (some network and FUSE mounts, FAT): link() fails with
// EPERM/ENOTSUP/EOPNOTSUPP and the lock is made by an exclusive create instead
// (src/output/file-lock.ts, tryLink). link() is made to fail here; everything else is real.

let linkFails: string | undefined;
/** The exclusive create of the lock (not of its temp file) fails with this code. */
let createFails: string | undefined;
/** The holder lets go of this lock just as it is read (between our link and our read). */
let letGoOnRead: string | undefined;
vi.doMock("node:fs/promises", async () => {
  const real = await vi.importActual<typeof import("node:fs/promises")>("node:fs/promises");
  return {
    ...real,
    writeFile: async (...args: Parameters<typeof real.writeFile>) => {
      const path = String(args[0]);
      if (createFails !== undefined && !path.endsWith(".tmp")) {
        throw Object.assign(new Error(`${createFails}: open ${path}`), { code: createFails });
      }
      return real.writeFile(...args);
    },
    readFile: async (...args: Parameters<typeof real.readFile>) => {
      if (letGoOnRead !== undefined && String(args[0]) === letGoOnRead) {
        letGoOnRead = undefined;
        await real.rm(String(args[0]));
      }
      return real.readFile(...args);
    },
    link: async (from: string, to: string) => {
      if (linkFails !== undefined) throw Object.assign(new Error(`${linkFails}: link ${from} -> ${to}`), { code: linkFails });
      return real.link(from, to);
    },
  };
});

type FileLockModule = typeof import("../../src/output/file-lock.js");
type ErrorsModule = typeof import("../../src/errors.js");
let locks: FileLockModule;
let errors: ErrorsModule;
beforeAll(async () => {
  // Fresh modules: the mocked fs/promises must be the one file-lock.ts imports.
  vi.resetModules();
  locks = await import("../../src/output/file-lock.js");
  errors = await import("../../src/errors.js");
});
afterAll(() => {
  vi.doUnmock("node:fs/promises");
  vi.resetModules();
});

let dir: Awaited<ReturnType<typeof tempDir>>;
let lockPath: string;
beforeEach(async () => {
  dir = await tempDir("simadmin-file-lock-nolink-");
  lockPath = join(dir.path, "staff.csv.lock");
});
afterEach(async () => {
  linkFails = undefined;
  createFails = undefined;
  letGoOnRead = undefined;
  await dir.remove();
});

const options = { what: "an import of staff.csv", command: "users import staff.csv", now: () => Date.UTC(2026, 10, 21) };

describe("a file system without hard links", () => {
  it.each(["EPERM", "ENOTSUP", "EOPNOTSUPP"])(
    "link() failing with %s: the lock is created exclusively, mode 0600",
    async (code) => {
      linkFails = code;
      const lock = await locks.acquireFileLock(lockPath, options);
      const owner = JSON.parse(await readFile(lockPath, "utf8")) as Record<string, unknown>;
      expect(owner).toMatchObject({ pid: process.pid, command: "users import staff.csv", startedAt: "2026-11-21T00:00:00.000Z" });
      expect((await stat(lockPath)).mode & 0o777).toBe(0o600);
      expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
      // A second run is refused as with links: the exclusive create finds the lock.
      const error = await failure(locks.acquireFileLock(lockPath, options));
      expect(error).toBeInstanceOf(errors.UsageError);
      expect(error.message).toBe(
        `an import of staff.csv is already running in another simadmin process (pid ${process.pid}, started 2026-11-21T00:00:00.000Z); nothing was sent`,
      );
      await lock.release();
      expect(await readdir(dir.path)).toEqual([]);
    },
  );

  it("the exclusive create meeting a lock that keeps vanishing (a dangling link) stops after a few tries", async () => {
    linkFails = "EPERM";
    await symlink(join(dir.path, "nowhere"), lockPath);
    const error = await failure(locks.acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(errors.UsageError);
    expect(error.message).toBe("an import of staff.csv is being started by other simadmin runs at this moment; nothing was sent");
    expect(await readdir(dir.path)).toEqual(["staff.csv.lock"]);
  });

  it("link() failing with another error is exit 11 naming the lock file and the cause", async () => {
    linkFails = "EACCES";
    const error = await failure(locks.acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(errors.LocalFileError);
    expect(error.message).toBe(`cannot create the lock file ${lockPath}: permission denied (EACCES)`);
    expect(await readdir(dir.path)).toEqual([]);
  });

  it("the waiting lock: made by an exclusive create too; another link error is exit 11 naming the lock file", async () => {
    linkFails = "ENOTSUP";
    const guarded = { path: join(dir.path, "settings.json"), action: "write the settings file" };
    const waitOptions = { guarded, command: "config set", now: () => 0, sleep: async () => undefined, maxWaitMs: 1_000 };
    const lock = await locks.acquireWaitingLock(lockPath, waitOptions);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ command: "config set" });
    await lock.release();
    linkFails = "EIO";
    const error = await failure(locks.acquireWaitingLock(lockPath, waitOptions));
    expect(error).toBeInstanceOf(errors.LocalFileError);
    expect(error.message).toBe(`cannot create the lock file ${lockPath}: input/output error (EIO)`);
    expect(await readdir(dir.path)).toEqual([]);
  });

  it("the exclusive create failing otherwise is exit 11 naming the lock file and the cause", async () => {
    linkFails = "EPERM";
    createFails = "EIO";
    const error = await failure(locks.acquireFileLock(lockPath, options));
    expect(error).toBeInstanceOf(errors.LocalFileError);
    expect(error.message).toBe(`cannot create the lock file ${lockPath}: input/output error (EIO)`);
    expect(await readdir(dir.path)).toEqual([]);
  });
});

describe("a holder that lets go between our link and our read", () => {
  it("the waiting lock tries again at once, without a pause", async () => {
    await writeFile(lockPath, JSON.stringify({ pid: process.pid, host: hostname(), command: "config set", nonce: "holder" }));
    letGoOnRead = lockPath;
    const sleeps: number[] = [];
    const guarded = { path: join(dir.path, "settings.json"), action: "write the settings file" };
    const lock = await locks.acquireWaitingLock(lockPath, {
      guarded,
      command: "config get",
      now: () => 0,
      sleep: async (ms: number) => void sleeps.push(ms),
      maxWaitMs: 1_000,
    });
    expect(sleeps).toEqual([]);
    expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ command: "config get" });
    await lock.release();
  });
});
