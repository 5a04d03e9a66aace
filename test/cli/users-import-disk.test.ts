import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { closeSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import { FAST, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// users import on a real full or read-only file system (issue 22 items 1 and 3;
// docs/cli-contract.md "Retries": a batch the service accepted is never sent again, even when
// the manifest could not be written at that moment). A small tmpfs is mounted per test and
// filled up at the moment the service answers an upload (the sandbox's log callback runs
// after the answer is sent and before the client reads it). Mounting needs root: without it
// these tests are skipped, saying why.

const UPLOAD = "/v2/access-api/user/bulk-import";
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
  let dir: string | undefined;
  try {
    dir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim();
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" });
    execFileSync("umount", [dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
const MOUNT_OK = canMount();
if (!MOUNT_OK) console.warn("users-import-disk: skipped — mounting a tmpfs needs root (CAP_SYS_ADMIN)");

interface Manifest {
  batches: { number: number; sha256: string; state: string; taskId?: string }[];
}

let t: TestEnv | undefined;
let onRequest: ((line: string) => void) | undefined;
const mounts: string[] = [];

afterEach(async () => {
  onRequest = undefined;
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  for (const dir of mounts) {
    execFileSync("umount", [dir], { stdio: "ignore" });
    await rm(dir, { recursive: true, force: true });
  }
});

async function mountTmpfs(size: string, options: { readOnly?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "simadmin-disk-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", dir]);
  mounts.push(dir);
  if (options.readOnly) execFileSync("mount", ["-o", "remount,ro", dir]);
  return dir;
}

function usersCsv(rows: number): string {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const cells = userCells(i).cells;
    cells[7] = "Add";
    lines.push(cells.join(","));
  }
  return `${lines.join("\n")}\n`;
}

/** Takes every free byte of the file system at `dir` (synchronously: nothing runs meanwhile). */
function fillDisk(dir: string): void {
  const fd = openSync(join(dir, "filler"), "a");
  try {
    for (const size of [65536, 4096, 1]) {
      const chunk = Buffer.alloc(size, 0x78);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch {
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

async function env(): Promise<TestEnv> {
  t = await startTestEnv({
    rateLimits: { access: { limit: 10_000, windowMs: 1000 } },
    importStepMs: 100,
    log: (line) => onRequest?.(line),
  });
  return t;
}

async function run(e: TestEnv, args: string[], cwd: string) {
  const before = e.sandbox.requests.length;
  const result = await e.run(args, { env: FAST, cwd });
  return { ...result, uploads: e.sandbox.requests.slice(before).filter((r) => r.path === UPLOAD) };
}

function uploadsPerBatch(e: TestEnv, manifest: Manifest): number[] {
  const hashes = e.sandbox.requests
    .filter((r) => r.path === UPLOAD)
    .map((r) =>
      createHash("sha256")
        .update((r.body as { csvText: string }).csvText)
        .digest("hex"),
    );
  return manifest.batches.map((b) => hashes.filter((h) => h === b.sha256).length);
}

/** Runs `fault` once, when the first upload has been answered. */
function whenFirstUploadAnswered(fault: () => void): void {
  let seen = 0;
  onRequest = (line) => {
    if (line.startsWith(`POST ${UPLOAD} `) && ++seen === 1) fault();
  };
}

async function manifestOf(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "staff.import.json"), "utf8")) as Manifest;
}

describe.skipIf(!MOUNT_OK)("users import on a full disk (real tmpfs)", () => {
  it("the disk fills up while batch 1 is uploading: its task is still recorded (reserved space); batch 2 is not sent; --resume sends 2 and 3 once", async () => {
    const e = await env();
    const dir = await mountTmpfs("1m");
    await writeFile(join(dir, "staff.csv"), usersCsv(1600));
    whenFirstUploadAnswered(() => fillDisk(dir));

    const first = await run(e, ["users", "import", "staff.csv", "-o", "json"], dir);
    expect(first.exitCode, first.stderr).toBe(11);
    expect(first.uploads).toHaveLength(1);
    const accepted = /accepted: batch 1 of 3, task (\S+)/.exec(first.stderr)?.[1];
    expect(accepted).toMatch(/\S/);
    // Batch 2's reservation or its "uploading" record meets the full disk: nothing more sent.
    expect(first.stderr).toMatch(/cannot (write|reserve space for the manifest) staff\.import\.json: no space left/);
    let manifest = await manifestOf(dir);
    expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "pending", "pending"]);
    expect(manifest.batches[0]?.taskId).toBe(accepted);
    // No temp file left behind (the reservation of batch 2 was never made).
    expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);

    await rm(join(dir, "filler"));
    const resumed = await run(e, ["users", "import", "staff.csv", "--resume"], dir);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    manifest = await manifestOf(dir);
    expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "uploaded", "uploaded"]);
    expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 1]);
  });

  it("the reservation is lost too (as on a copy-on-write disk): exit 11 naming the manifest and the taskId; --resume holds batch 1 back (exit 8) and sends 2 and 3", async () => {
    const e = await env();
    const dir = await mountTmpfs("1m");
    await writeFile(join(dir, "staff.csv"), usersCsv(1600));
    whenFirstUploadAnswered(() => {
      for (const name of readdirSync(dir)) if (name.startsWith(".staff.import.json.")) rmSync(join(dir, name));
      fillDisk(dir);
    });

    const first = await run(e, ["users", "import", "staff.csv"], dir);
    expect(first.exitCode, first.stderr).toBe(11);
    const taskId = /accepted: batch 1 of 3, task (\S+)/.exec(first.stderr)?.[1];
    // The task printed is the one the service created for batch 1 — the only one.
    expect(e.sandbox.state.listTasks(e.sandbox.org).map((task) => task.taskId)).toEqual([taskId]);
    expect(first.stderr).toContain(
      `batch 1 of 3 was ACCEPTED by the service as task ${taskId} but staff.import.json could not record it`,
    );
    expect(first.stderr).toContain("no space left");
    expect(first.uploads).toHaveLength(1);

    await rm(join(dir, "filler"));
    const resumed = await run(e, ["users", "import", "staff.csv", "--resume"], dir);
    expect(resumed.exitCode, resumed.stderr).toBe(8);
    expect(resumed.stderr).toContain("batch 1 of 3 (rows 2–751) may have been received by the service in an earlier run");
    const manifest = await manifestOf(dir);
    expect(manifest.batches.map((b) => b.state)).toEqual(["uploading", "uploaded", "uploaded"]);
    expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 1]);
  });
});

describe.skipIf(!MOUNT_OK)("users import --dry-run in a read-only directory (real read-only tmpfs)", () => {
  it("a valid file: exit 0, no manifest, no errors file; the real run's refusal is named", async () => {
    const e = await env();
    const source = await mountTmpfs("256k");
    await writeFile(join(source, "staff.csv"), usersCsv(3));
    execFileSync("mount", ["-o", "remount,ro", source]);
    const r = await run(e, ["users", "import", "staff.csv", "--dry-run"], source);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("a real run would stop here: cannot write staff.import.json");
    expect(await readdir(source)).toEqual(["staff.csv"]);
    const real = await run(e, ["users", "import", "staff.csv"], source);
    expect(real.exitCode).toBe(11);
    expect(real.uploads).toEqual([]);
  });
});
