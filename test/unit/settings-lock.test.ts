import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { LocalFileError } from "../../src/errors.js";
import { SettingsStore } from "../../src/settings/store.js";
import { tempDir } from "../helpers/cli.js";

// Issue 22 items 2 and 3 (docs/cli-contract.md "Settings"): settings writes are a locked
// read-modify-write. Real processes racing: test/e2e/settings-race.test.ts; a full or
// read-only disk: test/cli/full-disk.test.ts.

let dir: Awaited<ReturnType<typeof tempDir>>;
let configDir: string;
beforeEach(async () => {
  dir = await tempDir("simadmin-settings-lock-");
  configDir = join(dir.path, "config");
  await mkdir(configDir, { mode: 0o700 });
});
afterEach(async () => {
  await dir.remove();
});

const lockPath = (): string => join(configDir, "settings.json.lock");
const liveOwner = (): string =>
  JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "", command: "config set", nonce: "someone-else" });

describe("SettingsStore.updateProfile", () => {
  it("20 concurrent updates of 20 profiles all land, and leave only settings.json", async () => {
    const store = new SettingsStore(configDir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.updateProfile(`p${i}`, (current) => ({ ...current, org: `org-${i}` }))),
    );
    const profiles = store.read().profiles;
    for (let i = 0; i < 20; i++) expect(profiles[`p${i}`]?.org).toBe(`org-${i}`);
    expect(await readdir(configDir)).toEqual(["settings.json"]);
  });

  it("keeps top-level keys it does not know, and writes the file 0600", async () => {
    await writeFile(join(configDir, "settings.json"), JSON.stringify({ profiles: {}, futureKey: { a: 1 } }), { mode: 0o600 });
    await new SettingsStore(configDir).updateProfile("default", () => ({ org: "o" }));
    expect(JSON.parse(await readFile(join(configDir, "settings.json"), "utf8"))).toEqual({
      profiles: { default: { org: "o" } },
      futureKey: { a: 1 },
    });
  });

  it("takes over an empty lock file at once (a full disk under an older version left it)", async () => {
    await writeFile(lockPath(), "");
    const lockClock = createFakeClock(Date.now());
    await new SettingsStore(configDir, { lockClock }).updateProfile("default", () => ({ org: "o" }));
    expect(lockClock.sleeps).toEqual([]);
    expect(existsSync(lockPath())).toBe(false);
  });

  it("waits for a live run's lock, says so on stderr after ~1 s, and gives up at its limit naming the lock (exit 11)", async () => {
    await writeFile(lockPath(), liveOwner());
    const lockClock = createFakeClock(Date.now());
    const warnings: string[] = [];
    let mutated = false;
    const store = new SettingsStore(configDir, { lockClock, lockMaxWaitMs: 2_000, warn: (text) => warnings.push(text) });
    const error = await store
      .updateProfile("default", () => {
        mutated = true;
        return { org: "o" };
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).message).toContain(`cannot write the settings file ${join(configDir, "settings.json")}`);
    expect((error as LocalFileError).message).toContain(`pid ${process.pid}, config set`);
    expect(warnings).toEqual([`waiting for ${lockPath()}, held by another simadmin run (pid ${process.pid}, config set)`]);
    expect(mutated).toBe(false);
    expect(await readFile(lockPath(), "utf8")).toBe(liveOwner());
  });

  it("re-reads the file under the lock: a change written while it waited is kept", async () => {
    await writeFile(lockPath(), liveOwner());
    const store = new SettingsStore(configDir);
    const writing = store.updateProfile("default", (current) => ({ ...current, timeout: 45 }));
    // The other run writes its change, then lets go.
    await new Promise((resolve) => setTimeout(resolve, 30));
    await writeFile(join(configDir, "settings.json"), JSON.stringify({ profiles: { default: { org: "theirs" } } }), {
      mode: 0o600,
    });
    const { rm } = await import("node:fs/promises");
    await rm(lockPath());
    await writing;
    expect(store.read().profiles.default).toEqual({ org: "theirs", timeout: 45 });
  });
});
