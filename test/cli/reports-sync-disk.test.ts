import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock.js";
import { FAST, ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// `reports sync` on a full disk (docs/cli-contract.md, Warehouse rules: "a full disk is exit
// 11 naming the file"): the DuckDB file, and the spool under the settings directory, on a
// real small tmpfs that is filled up. Mounting needs root (CI runs as root, .ci/run);
// elsewhere the file is skipped, as test/cli/full-disk.test.ts is.

const isRoot = process.getuid?.() === 0;
const reason = "needs root to mount a small tmpfs (CI runs as root)";
const TODAY = Date.UTC(2026, 10, 24, 10);
const clock = { ...systemClock, now: () => TODAY };

let root: string;
let disk: string;
let t: TestEnv;

/** Writes zeros until the disk is full, then frees `keep` bytes. */
function fill(keep: number): void {
  const fd = openSync(join(disk, "filler"), "w");
  const chunk = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // Full.
  } finally {
    closeSync(fd);
  }
  execFileSync("truncate", ["-s", `-${keep}`, join(disk, "filler")]);
}

beforeAll(async () => {
  if (!isRoot) return;
  root = await mkdtemp(join(tmpdir(), "simadmin-sync-disk-"));
  disk = join(root, "disk");
  mkdirSync(disk);
  t = await startTestEnv({ ...ROOMY, reportRecordsPerDay: 40 });
});
afterAll(async () => {
  if (!isRoot) return;
  await t.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  if (isRoot) execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk]);
});
afterEach(() => {
  if (isRoot) execFileSync("umount", [disk]);
});

describe.skipIf(!isRoot)(`reports sync on a full disk (real tmpfs; ${reason})`, () => {
  // No room to create the file; room for the file but not for the first window's write-ahead log.
  it.each([0, 512 * 1024])("the DuckDB file on a disk with %i bytes free: exit 11 naming the file", async (free) => {
    fill(free);
    const db = join(disk, "reports.duckdb");
    const r = await t.run(["reports", "sync", "--db", db, "-q", "-o", "json"], { env: FAST, clock });
    expect(r.exitCode, r.stderr).toBe(11);
    expect(r.stderr).toContain(db);
    expect(r.stderr).toMatch(/no space left|disk is full/i);
  });

  it("the spool under a full settings directory: exit 11 naming the file", async () => {
    fill(16 * 1024);
    const db = join(root, `spool-${Date.now()}.duckdb`);
    const r = await t.run(["reports", "sync", "--db", db, "-q", "-o", "json"], {
      env: { ...FAST, SIMADMIN_CONFIG_DIR: join(disk, "config") },
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(11);
    expect(r.stderr).toContain(join(disk, "config"));
    expect(r.stderr).toMatch(/no space left/i);
  });
});
