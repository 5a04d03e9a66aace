import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { closeSync, existsSync, openSync } from "node:fs";
import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LocalFileError } from "../../src/errors.js";
import {
  checkOutputPath,
  makeDirectory,
  openAtomicFile,
  processAlive,
  removePendingTempFilesSync,
  removeStaleTempFiles,
  resolveOutputTarget,
  writeFileAtomic,
} from "../../src/output/atomic-file.js";
import { tempDir } from "../helpers/cli.js";
import { failure } from "../helpers/failure.js";

// Output files on a real temp directory (docs/cli-contract.md "Output files", exit 11). The
// same through commands: test/cli/output-files.test.ts; a real full disk: test/cli/full-disk.test.ts.

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir("simadmin-atomic-");
});
afterEach(async () => {
  await dir.remove();
});

let dead: number | undefined;
/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  dead ??= spawnSync("true").pid;
  if (dead === undefined) throw new Error("no child pid");
  return dead;
}

/**
 * A null and a full device for writes: made in the temp directory when we may (root), so that
 * a mutant that writes a device as a regular file (`npm run mutate`) replaces that copy, never
 * the machine's /dev/null; otherwise the real ones, which a non-root run cannot replace.
 */
function devices(): { nul: string; full: string } {
  const nul = join(dir.path, "null-device");
  const full = join(dir.path, "full-device");
  const made =
    spawnSync("mknod", ["-m", "666", nul, "c", "1", "3"]).status === 0 &&
    spawnSync("mknod", ["-m", "666", full, "c", "1", "7"]).status === 0;
  return made ? { nul, full } : { nul: "/dev/null", full: "/dev/full" };
}

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o7777;

describe("processAlive", () => {
  it.each([
    ["zero", 0],
    ["negative", -1],
    ["a fraction", 1.5],
    ["not a number", Number.NaN],
  ])("is false for a pid that is %s", (_name, pid) => {
    expect(processAlive(pid)).toBe(false);
  });

  it("is true for this process and for init (pid 1), false for a reaped child's pid", () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(1)).toBe(true);
    expect(processAlive(deadPid())).toBe(false);
  });
});

describe("removeStaleTempFiles", () => {
  it("removes only temp files of that output whose pid is dead, and returns their names", async () => {
    const d = deadPid();
    const names = [
      `.out.csv.${d}.0123abcd.tmp`, // stale: removed
      `.out.csv.${process.pid}.0123abcd.tmp`, // a live run's
      `.out.csv.${d}.0123ABCD.tmp`, // not our hex
      `.out.csv.${d}.0123abc.tmp`, // seven hex digits
      `.out.csv.${d}.0123abcd.tmp.bak`,
      `x.out.csv.${d}.0123abcd.tmp`,
      `.outXcsv.${d}.0123abcd.tmp`, // "." is not any character
      `.other.csv.${d}.0123abcd.tmp`,
      `.out.csv.x${d}.0123abcd.tmp`,
      "out.csv",
    ];
    for (const name of names) await writeFile(join(dir.path, name), "");
    expect(await removeStaleTempFiles(join(dir.path, "out.csv"))).toEqual([`.out.csv.${d}.0123abcd.tmp`]);
    expect((await readdir(dir.path)).sort()).toEqual(names.slice(1).sort());
  });

  it("treats the output's name literally (a name with regular-expression characters)", async () => {
    const d = deadPid();
    await writeFile(join(dir.path, `.aab.csv.${d}.0123abcd.tmp`), "");
    await writeFile(join(dir.path, `.a+b.csv.${d}.0123abcd.tmp`), "");
    expect(await removeStaleTempFiles(join(dir.path, "a+b.csv"))).toEqual([`.a+b.csv.${d}.0123abcd.tmp`]);
    expect(await readdir(dir.path)).toEqual([`.aab.csv.${d}.0123abcd.tmp`]);
  });

  it("returns nothing when the directory cannot be read", async () => {
    expect(await removeStaleTempFiles(join(dir.path, "missing", "out.csv"))).toEqual([]);
  });
});

describe("resolveOutputTarget", () => {
  it("a missing file, a regular file with its mode, a directory", async () => {
    const file = join(dir.path, "a.csv");
    expect(await resolveOutputTarget(file)).toEqual({ kind: "missing", target: file });
    await writeFile(file, "x");
    await chmod(file, 0o4640);
    expect(await resolveOutputTarget(file)).toEqual({ kind: "regular", target: file, mode: 0o4640 });
    expect(await resolveOutputTarget(dir.path)).toEqual({ kind: "directory", target: dir.path });
  });

  it("follows symbolic links, relative ones from the link's directory, to the end (a dangling link: missing)", async () => {
    await mkdir(join(dir.path, "real"));
    await writeFile(join(dir.path, "real", "t.csv"), "x");
    await symlink("real/t.csv", join(dir.path, "l1"));
    await symlink(join(dir.path, "l1"), join(dir.path, "l2"));
    expect(await resolveOutputTarget(join(dir.path, "l2"))).toMatchObject({
      kind: "regular",
      target: join(dir.path, "real", "t.csv"),
    });
    await symlink("real/none.csv", join(dir.path, "dangling"));
    expect(await resolveOutputTarget(join(dir.path, "dangling"))).toEqual({
      kind: "missing",
      target: join(dir.path, "real", "none.csv"),
    });
  });

  it("follows 40 links, refuses a 41st (exit 11, ELOOP)", async () => {
    await writeFile(join(dir.path, "end"), "x");
    let previous = join(dir.path, "end");
    for (let i = 1; i <= 41; i++) {
      await symlink(previous, join(dir.path, `s${i}`));
      previous = join(dir.path, `s${i}`);
    }
    expect(await resolveOutputTarget(join(dir.path, "s40"))).toMatchObject({ kind: "regular", target: join(dir.path, "end") });
    const error = await failure(resolveOutputTarget(join(dir.path, "s41")));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot write ${join(dir.path, "s41")}: too many symbolic links (ELOOP)`);
    expect((error as LocalFileError).code).toBe("ELOOP");
  });

  it("a FIFO is special; /dev paths are special as named, even through a link; a directory under /dev is a directory", async () => {
    const fifo = join(dir.path, "pipe");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    expect(await resolveOutputTarget(fifo)).toEqual({ kind: "special", target: fifo });
    expect(await resolveOutputTarget("/dev/null")).toEqual({ kind: "special", target: "/dev/null" });
    await symlink("/dev/null", join(dir.path, "null"));
    expect(await resolveOutputTarget(join(dir.path, "null"))).toEqual({ kind: "special", target: join(dir.path, "null") });
    expect(await resolveOutputTarget("/dev/no-such-device")).toEqual({ kind: "special", target: "/dev/no-such-device" });
    expect(await resolveOutputTarget("/dev/")).toEqual({ kind: "directory", target: "/dev/" });
    expect(await resolveOutputTarget("/proc/self/")).toEqual({ kind: "directory", target: "/proc/self/" });
  });

  it("a path through a regular file is exit 11 naming the cause", async () => {
    await writeFile(join(dir.path, "file"), "x");
    const error = await failure(resolveOutputTarget(join(dir.path, "file", "x.csv")));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(
      `cannot write ${join(dir.path, "file", "x.csv")}: a part of the path is not a directory (ENOTDIR)`,
    );
  });
});

describe("checkOutputPath", () => {
  it("accepts a new file in a writable directory and a writable device", async () => {
    expect(await checkOutputPath(join(dir.path, "new.csv"))).toEqual({ kind: "missing", target: join(dir.path, "new.csv") });
    expect(await checkOutputPath("/dev/null")).toEqual({ kind: "special", target: "/dev/null" });
  });

  it.each([
    ["a directory", (d: string) => d, (d: string) => `cannot write ${d}: is a directory (EISDIR)`, "EISDIR"],
    [
      "a file in a directory that does not exist",
      (d: string) => join(d, "missing", "x.csv"),
      (d: string) => `cannot write ${join(d, "missing", "x.csv")}: the directory ${join(d, "missing")} does not exist (ENOENT)`,
      "ENOENT",
    ],
    [
      "a missing device",
      () => "/dev/no-such-device",
      () => "cannot write /dev/no-such-device: no such file or directory (ENOENT)",
      "ENOENT",
    ],
  ])("refuses %s (exit 11)", async (_name, path, message, code) => {
    const error = await failure(checkOutputPath(path(dir.path)));
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).exitCode).toBe(11);
    expect(error.message).toBe(message(dir.path));
    expect((error as LocalFileError).code).toBe(code);
    expect((error as LocalFileError).path).toBe(path(dir.path));
  });
});

describe("makeDirectory", () => {
  it("creates every missing level with the mode given, and accepts one that exists", async () => {
    const deep = join(dir.path, "a", "b", "c");
    makeDirectory(deep, 0o700);
    expect(await modeOf(deep)).toBe(0o700);
    expect(await modeOf(join(dir.path, "a"))).toBe(0o700);
    makeDirectory(deep, 0o700);
    expect((await stat(deep)).isDirectory()).toBe(true);
  });

  it("names the cause and what was being done when a file is in the way (exit 11)", async () => {
    await writeFile(join(dir.path, "file"), "x");
    const target = join(dir.path, "file", "sub");
    expect(() => makeDirectory(target, 0o700, "create the cache directory")).toThrow(
      `cannot create the cache directory ${target}: a part of the path is not a directory (ENOTDIR)`,
    );
    expect(() => makeDirectory(join(dir.path, "file"))).toThrow(
      `cannot create the directory ${join(dir.path, "file")}: already exists (EEXIST)`,
    );
  });
});

describe("openAtomicFile", () => {
  it("writes into a temp file named after the output, renamed into place on commit", async () => {
    const path = join(dir.path, "out.csv");
    await writeFile(path, "old");
    const file = await openAtomicFile(path);
    expect(file.path).toBe(path);
    file.stream.write("new,");
    const names = await readdir(dir.path);
    expect(names).toHaveLength(2);
    expect(names.find((n) => n !== "out.csv")).toMatch(new RegExp(`^\\.out\\.csv\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(await readFile(path, "utf8")).toBe("old");
    file.stream.write("content");
    await file.commit();
    expect(await readFile(path, "utf8")).toBe("new,content");
    expect(await readdir(dir.path)).toEqual(["out.csv"]);
    expect(file.failure()).toBeUndefined();
    // Once committed, neither a second commit nor an abort changes anything.
    await file.commit();
    await file.abort();
    expect(await readFile(path, "utf8")).toBe("new,content");
  });

  it("abort leaves the previous file as it was and no temp file", async () => {
    const path = join(dir.path, "out.csv");
    await writeFile(path, "old");
    const file = await openAtomicFile(path);
    file.stream.write("half");
    await file.abort();
    await file.abort();
    await file.commit();
    expect(await readFile(path, "utf8")).toBe("old");
    expect(await readdir(dir.path)).toEqual(["out.csv"]);
  });

  it("a new file gets the mode asked for (0644 by default); an existing one keeps its own, umask or not", async () => {
    const secret = join(dir.path, "secret.json");
    await (await openAtomicFile(secret, 0o600)).commit();
    expect(await modeOf(secret)).toBe(0o600);
    const plain = join(dir.path, "plain.csv");
    await (await openAtomicFile(plain)).commit();
    expect(await modeOf(plain)).toBe(0o644);
    const shared = join(dir.path, "shared.csv");
    await writeFile(shared, "x");
    await chmod(shared, 0o666);
    await (await openAtomicFile(shared, 0o600)).commit();
    expect(await modeOf(shared)).toBe(0o666);
  });

  it("replaces a symlink's target, leaving the link a link", async () => {
    await writeFile(join(dir.path, "target.csv"), "old");
    await symlink("target.csv", join(dir.path, "link.csv"));
    const file = await openAtomicFile(join(dir.path, "link.csv"));
    file.stream.write("new");
    await file.commit();
    expect((await lstat(join(dir.path, "link.csv"))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir.path, "link.csv"))).toBe("target.csv");
    expect(await readFile(join(dir.path, "target.csv"), "utf8")).toBe("new");
  });

  it("removes a dead run's temp files of the same output when it opens", async () => {
    const stale = `.out.csv.${deadPid()}.0123abcd.tmp`;
    await writeFile(join(dir.path, stale), "left by a killed run");
    const file = await openAtomicFile(join(dir.path, "out.csv"));
    expect(await readdir(dir.path)).not.toContain(stale);
    await file.abort();
  });

  it("removePendingTempFilesSync removes the temp files not yet committed (the exit path)", async () => {
    const file = await openAtomicFile(join(dir.path, "out.csv"));
    expect(await readdir(dir.path)).toHaveLength(1);
    removePendingTempFilesSync();
    expect(await readdir(dir.path)).toEqual([]);
    await file.abort();
  });

  it("a commit whose rename fails (a directory took the name) is exit 11 and leaves no temp file", async () => {
    const path = join(dir.path, "out.csv");
    const file = await openAtomicFile(path);
    file.stream.write("x");
    await mkdir(path);
    await writeFile(join(path, "keep"), "");
    const error = await failure(file.commit());
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toMatch(new RegExp(`^cannot write ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `));
    expect(await readdir(dir.path)).toEqual(["out.csv"]);
  });

  it("writes a device in place: a null device commits, a full one fails with its cause (exit 11)", async () => {
    const { nul: nulPath, full: fullPath } = devices();
    const nul = await openAtomicFile(nulPath);
    nul.stream.write("dropped");
    await nul.commit();
    await nul.commit();
    expect((await stat(nulPath)).isCharacterDevice()).toBe(true);
    const full = await openAtomicFile(fullPath);
    full.stream.write("no room");
    const error = await failure(full.commit());
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot write ${fullPath}: no space left on device (ENOSPC)`);
    expect(full.failure()?.message).toBe(`cannot write ${fullPath}: no space left on device (ENOSPC)`);
    await full.abort();
    const aborted = await openAtomicFile(nulPath);
    await aborted.abort();
    await aborted.abort();
    expect(aborted.stream.destroyed).toBe(true);
  });

  it("an output in a missing directory fails before anything is created", async () => {
    const path = join(dir.path, "missing", "out.csv");
    const error = await failure(openAtomicFile(path));
    expect(error.message).toBe(`cannot write ${path}: the directory ${join(dir.path, "missing")} does not exist (ENOENT)`);
    expect(existsSync(join(dir.path, "missing"))).toBe(false);
  });
});

describe("writeFileAtomic", () => {
  it("writes a new file with the mode asked for, keeps an existing file's mode, leaves no temp file", async () => {
    const path = join(dir.path, "m.json");
    await writeFileAtomic(path, "{}", 0o600);
    expect(await readFile(path, "utf8")).toBe("{}");
    expect(await modeOf(path)).toBe(0o600);
    await chmod(path, 0o664);
    await writeFileAtomic(path, new TextEncoder().encode("[1]"));
    expect(await readFile(path, "utf8")).toBe("[1]");
    expect(await modeOf(path)).toBe(0o664);
    const plain = join(dir.path, "p.json");
    await writeFileAtomic(plain, "x");
    expect(await modeOf(plain)).toBe(0o644);
    expect((await readdir(dir.path)).sort()).toEqual(["m.json", "p.json"]);
  });

  it("a file reached through /proc (a shell's `>> log` as /dev/stdout) is appended to, never truncated", async () => {
    const log = join(dir.path, "run.log");
    await writeFile(log, "earlier\n");
    const fd = openSync(log, "a");
    try {
      await writeFileAtomic(`/proc/self/fd/${fd}`, "now\n");
    } finally {
      closeSync(fd);
    }
    expect(await readFile(log, "utf8")).toBe("earlier\nnow\n");
  });

  it("appends to a device; a full one fails with its cause (exit 11)", async () => {
    const { nul, full } = devices();
    await writeFileAtomic(nul, "dropped");
    expect((await stat(nul)).isCharacterDevice()).toBe(true);
    const error = await failure(writeFileAtomic(full, "x"));
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error.message).toBe(`cannot write ${full}: no space left on device (ENOSPC)`);
  });

  it("a rename that fails (a directory in the way of a dangling link's target) is exit 11 and leaves no temp file", async () => {
    await symlink("real.json", join(dir.path, "link.json"));
    await writeFileAtomic(join(dir.path, "link.json"), "x");
    expect(await readFile(join(dir.path, "real.json"), "utf8")).toBe("x");
    await rm(join(dir.path, "real.json"));
    const error = await failure(writeFileAtomic(dir.path, "x"));
    expect(error.message).toBe(`cannot write ${dir.path}: is a directory (EISDIR)`);
    expect((await readdir(dir.path)).sort()).toEqual(["link.json"]);
  });
});

describe("atomic files, more edges", () => {
  it("processAlive: EPERM from kill means a process of another user runs; any other error means none", () => {
    const kill = vi.spyOn(process, "kill");
    try {
      kill.mockImplementation(() => {
        throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
      });
      expect(processAlive(4242)).toBe(true);
      kill.mockImplementation(() => {
        throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" });
      });
      expect(processAlive(4242)).toBe(false);
      kill.mockImplementation(() => {
        throw new Error("no code");
      });
      expect(processAlive(4242)).toBe(false);
    } finally {
      kill.mockRestore();
    }
  });

  it("a directory named dev or proc outside the root is an ordinary place for a file", async () => {
    await mkdir(join(dir.path, "dev"));
    const path = join(dir.path, "dev", "out.csv");
    expect(await resolveOutputTarget(path)).toEqual({ kind: "missing", target: path });
  });

  it("removePendingTempFilesSync is quiet when a temp file was already removed by hand", async () => {
    const file = await openAtomicFile(join(dir.path, "out.csv"));
    const [temp] = await readdir(dir.path);
    await rm(join(dir.path, temp!));
    expect(() => removePendingTempFilesSync()).not.toThrow();
    await file.abort();
  });

  it("a healthy file reports no failure", async () => {
    const file = await openAtomicFile(join(dir.path, "out.csv"));
    file.stream.write("x");
    expect(file.failure()).toBeUndefined();
    await file.commit();
    expect(file.failure()).toBeUndefined();
    expect(await readFile(join(dir.path, "out.csv"), "utf8")).toBe("x");
  });

  it("a stream closed before commit (without an error) commits what it wrote", async () => {
    const path = join(dir.path, "out.csv");
    const file = await openAtomicFile(path);
    await new Promise<void>((resolve, reject) => file.stream.write("abc", (error) => (error ? reject(error) : resolve())));
    await new Promise<void>((resolve) => {
      file.stream.once("close", () => resolve());
      file.stream.destroy();
    });
    await file.commit();
    expect(await readFile(path, "utf8")).toBe("abc");
    expect(await readdir(dir.path)).toEqual(["out.csv"]);
  });

  it("a special file that cannot be opened (a socket) is exit 11 naming it", async () => {
    const path = join(dir.path, "s.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(await resolveOutputTarget(path)).toEqual({ kind: "special", target: path });
      const error = await failure(openAtomicFile(path));
      expect(error).toBeInstanceOf(LocalFileError);
      expect(error.message).toBe(`cannot write ${path}: failed (ENXIO)`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
