import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userCacheDir } from "../../src/boot/cache-dir.js";
import { privateDir, readCodeCache, writeCodeCache } from "../../src/boot/code-cache.js";
import { tempDir } from "../helpers/cli.js";

// The code cache of start-up (docs/architecture.md, Start-up): code this process will run,
// so it is taken only from a directory of the user's own that no one else can write, only
// whole and only for the same bundle and Node.

const me = process.getuid?.();
let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir("simadmin-code-cache-");
});
afterAll(async () => {
  await dir.remove();
});

describe("userCacheDir", () => {
  it.each([
    ["XDG_CACHE_HOME wins", { XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/a", "/x/cache/simadmin"],
    ["a relative XDG_CACHE_HOME is ignored", { XDG_CACHE_HOME: "cache" }, "linux", "/home/a", "/home/a/.cache/simadmin"],
    ["Linux", {}, "linux", "/home/a", "/home/a/.cache/simadmin"],
    ["macOS", {}, "darwin", "/Users/a", "/Users/a/Library/Caches/simadmin"],
    ["Windows", { LOCALAPPDATA: "C:/Users/a/AppData/Local" }, "win32", "C:/Users/a", "C:/Users/a/AppData/Local/simadmin/Cache"],
    ["no home", {}, "linux", undefined, undefined],
  ] as const)("%s", (_name, env, platform, home, expected) => {
    expect(userCacheDir(env, platform, home)?.replaceAll("\\", "/")).toBe(expected);
  });
});

describe.skipIf(me === undefined)("privateDir", () => {
  it("makes the directory 0700, parents included", () => {
    const path = join(dir.path, "made", "code-cache");
    expect(privateDir(path, me)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o700);
  });

  it("narrows a directory of the user's own that others could read or write", () => {
    const path = join(dir.path, "wide");
    mkdirSync(path);
    chmodSync(path, 0o777);
    expect(privateDir(path, me)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o700);
  });

  it("refuses a directory owned by another user, and leaves it as it is", () => {
    const path = join(dir.path, "theirs");
    mkdirSync(path);
    chmodSync(path, 0o777);
    expect(privateDir(path, me! + 1)).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o777);
  });

  it("refuses a symbolic link, even to a directory of the user's own", () => {
    const target = join(dir.path, "target");
    mkdirSync(target, { mode: 0o700 });
    const link = join(dir.path, "link");
    symlinkSync(target, link);
    expect(privateDir(link, me)).toBe(false);
  });
});

describe("the cache file", () => {
  const payload = Buffer.from("compiled code \u0000\u0001\u00ff".repeat(100), "latin1");

  it("is read back for the key it was written for, and is 0600", () => {
    const path = join(dir.path, "round-trip.v8");
    writeCodeCache(path, "key 1", payload);
    expect(readCodeCache(path, "key 1", me)).toEqual({ payload, commands: [] });
    if (me !== undefined) expect(lstatSync(path).mode & 0o777).toBe(0o600);
  });

  it("is ignored for another key (a new version or build of the bundle, another Node)", () => {
    const path = join(dir.path, "other-key.v8");
    writeCodeCache(path, "key 1", payload);
    expect(readCodeCache(path, "key 2", me)).toBeUndefined();
    writeCodeCache(path, "key 2", payload);
    expect(readCodeCache(path, "key 2", me)?.payload).toEqual(payload);
  });

  it("keeps the commands whose runs the code was saved after", () => {
    const path = join(dir.path, "commands.v8");
    writeCodeCache(path, "key", payload, ["token", "reports"]);
    expect(readCodeCache(path, "key", me)).toEqual({ payload, commands: ["token", "reports"] });
  });

  it.each([
    ["truncated", (bytes: Buffer) => bytes.subarray(0, bytes.length - 10)],
    ["one byte of the code changed", (bytes: Buffer) => Buffer.concat([bytes.subarray(0, -1), Buffer.from([bytes.at(-1)! ^ 1])])],
    ["empty", () => Buffer.alloc(0)],
    ["not a cache file at all", () => Buffer.from("garbage\n")],
    ["cut within its commands line", (bytes: Buffer) => bytes.subarray(0, bytes.indexOf("commands ") + 12)],
  ])("is ignored when damaged: %s", (_name, damage) => {
    const path = join(dir.path, "damaged.v8");
    writeCodeCache(path, "key", payload);
    writeFileSync(path, damage(readFileSync(path)));
    expect(readCodeCache(path, "key", me)).toBeUndefined();
  });

  it.skipIf(me === undefined)("is ignored when another user owns it or others can write to it", () => {
    const path = join(dir.path, "foreign.v8");
    writeCodeCache(path, "key", payload);
    expect(readCodeCache(path, "key", me! + 1)).toBeUndefined();
    chmodSync(path, 0o666);
    expect(readCodeCache(path, "key", me)).toBeUndefined();
  });

  it.skipIf(me === undefined)("is not followed through a symbolic link", () => {
    const path = join(dir.path, "real.v8");
    writeCodeCache(path, "key", payload);
    const link = join(dir.path, "linked.v8");
    symlinkSync(path, link);
    expect(readCodeCache(link, "key", me)).toBeUndefined();
  });

  it("is ignored when missing", () => {
    expect(readCodeCache(join(dir.path, "missing.v8"), "key", me)).toBeUndefined();
  });
});
