import { spawn, spawnSync } from "node:child_process";
import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// docs/cli-contract.md "Output files" and "Bad input" (exit 11): --out into FIFOs, devices,
// symlinks, existing files, missing or unwritable places, through the real program in-process.
// What needs the process itself — /dev/stdout, a killed run's leftovers, the bundle's
// warnings — is test/e2e/output-files.test.ts.

const isRoot = process.getuid?.() === 0;
const TOKEN = ["token", "--user", "user-demo", "-o", "json"];

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv(ROOMY);
});
afterAll(async () => {
  await env.close();
});

function tokenRequests(sent: { path: string }[]): number {
  return sent.filter((r) => r.path.endsWith("/user/token")).length;
}

describe("--out onto special files", () => {
  it.skipIf(!existsMkfifo())("writes into a FIFO for the reader waiting on it, and the FIFO stays a FIFO", async () => {
    const dir = await tempDir();
    try {
      const fifo = join(dir.path, "token.fifo");
      spawnSync("mkfifo", [fifo]);
      const reader = spawn("cat", [fifo]);
      let received = "";
      reader.stdout.on("data", (chunk: Buffer) => (received += chunk.toString()));
      const readerDone = new Promise((resolve) => reader.on("close", resolve));
      // cat has the pipe open once a writer can open it without blocking; until then, exit 11
      // (a FIFO nobody reads, test/cli/output-targets.test.ts): try again.
      let result = await env.capture([...TOKEN, "--out", fifo]);
      while (result.exitCode === 11) result = await env.capture([...TOKEN, "--out", fifo]);
      await readerDone;
      expect(result.exitCode, result.stderr).toBe(0);
      expect((JSON.parse(received) as { userId: string }).userId).toBe("user-demo");
      expect((await lstat(fifo)).isFIFO()).toBe(true);
      expect(await readdir(dir.path)).toEqual(["token.fifo"]); // no temp file beside it
    } finally {
      await dir.remove();
    }
  });

  it("writes into /dev/null, which stays a character device", async () => {
    const result = await env.capture([...TOKEN, "--out", "/dev/null"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const info = await lstat("/dev/null");
    expect(info.isCharacterDevice()).toBe(true);
  });

  it("follows a symlink: the target is replaced and keeps its mode, the link stays a link", async () => {
    const dir = await tempDir();
    try {
      const target = join(dir.path, "real.json");
      const link = join(dir.path, "link.json");
      await writeFile(target, "old\n");
      await chmod(target, 0o640);
      await symlink("real.json", link);
      const result = await env.capture([...TOKEN, "--out", link]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect((JSON.parse(await readFile(target, "utf8")) as { userId: string }).userId).toBe("user-demo");
      expect((await stat(target)).mode & 0o777).toBe(0o640);
      expect((await readdir(dir.path)).sort()).toEqual(["link.json", "real.json"]);
    } finally {
      await dir.remove();
    }
  });

  it("creates the target of a dangling symlink, keeping the link", async () => {
    const dir = await tempDir();
    try {
      const link = join(dir.path, "link.json");
      await symlink("made.json", link);
      const result = await env.capture([...TOKEN, "--out", link]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect((await stat(join(dir.path, "made.json"))).mode & 0o777).toBe(0o600);
    } finally {
      await dir.remove();
    }
  });

  it("creates a new file holding a token 0600, and a report file with the usual mode", async () => {
    const dir = await tempDir();
    try {
      const tokenFile = join(dir.path, "t.json");
      const tokenRun = await env.capture([...TOKEN, "--out", tokenFile]);
      expect(tokenRun.exitCode, tokenRun.stderr).toBe(0);
      expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
      const linkFile = join(dir.path, "l.txt");
      const linkRun = await env.capture(["link", "--user", "user-demo", "--sim", "sim-001", "--out", linkFile]);
      if (linkRun.exitCode === 0) expect((await stat(linkFile)).mode & 0o777).toBe(0o600);
      const reportFile = join(dir.path, "r.json");
      const reportRun = await env.capture([
        "reports",
        "users",
        "--from",
        "2025-01-01",
        "--to",
        "2025-01-02",
        "--out",
        reportFile,
      ]);
      expect(reportRun.exitCode, reportRun.stderr).toBe(0);
      expect((await stat(reportFile)).mode & 0o777).toBe(0o644 & ~process.umask());
    } finally {
      await dir.remove();
    }
  });

  it("an existing file keeps its mode when replaced", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "t.json");
      await writeFile(out, "{}\n");
      await chmod(out, 0o604);
      const result = await env.capture([...TOKEN, "--out", out]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect((await stat(out)).mode & 0o777).toBe(0o604);
    } finally {
      await dir.remove();
    }
  });
});

describe("--out is checked before anything is sent (exit 11 naming the path and the cause)", () => {
  it("a missing directory: no token is minted", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "missing", "t.json");
      const result = await env.capture([...TOKEN, "--out", out]);
      expect(result.exitCode).toBe(11);
      expect(result.stderr).toContain(out);
      expect(result.stderr).toMatch(/does not exist \(ENOENT\)/);
      expect(result.stderr).not.toContain("internal error");
      expect(tokenRequests(result.sent)).toBe(0);
    } finally {
      await dir.remove();
    }
  });

  it("a directory where the file should be: no token is minted", async () => {
    const dir = await tempDir();
    try {
      const out = join(dir.path, "t.json");
      await mkdir(out);
      const result = await env.capture([...TOKEN, "--out", out]);
      expect(result.exitCode).toBe(11);
      expect(result.stderr).toContain(`${out}: is a directory (EISDIR)`);
      expect(tokenRequests(result.sent)).toBe(0);
    } finally {
      await dir.remove();
    }
  });

  it.skipIf(isRoot)("a read-only directory: no token is minted", async () => {
    const dir = await tempDir();
    try {
      const ro = join(dir.path, "ro");
      await mkdir(ro);
      await chmod(ro, 0o555);
      const out = join(ro, "t.json");
      const result = await env.capture([...TOKEN, "--out", out]);
      expect(result.exitCode).toBe(11);
      expect(result.stderr).toMatch(/not writable \(EACCES\)/);
      expect(tokenRequests(result.sent)).toBe(0);
      await chmod(ro, 0o755);
    } finally {
      await dir.remove();
    }
  });

  it("a full disk (/dev/full) is exit 11 naming ENOSPC, not an internal error", async () => {
    const result = await env.capture([...TOKEN, "--out", "/dev/full"]);
    expect(result.exitCode).toBe(11);
    expect(result.stderr).toContain("/dev/full: no space left on device (ENOSPC)");
    expect(result.stderr).not.toContain("internal error");
  });

  it("reports --out-dir that cannot be a directory is exit 11 before any report request", async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "plain");
      await writeFile(file, "");
      const result = await env.capture(["reports", "all", "--from", "2025-01-01", "--to", "2025-01-02", "--out-dir", file]);
      expect(result.exitCode).toBe(11);
      expect(result.stderr).toContain(file);
      expect(result.sent.filter((r) => r.path.includes("/report/"))).toHaveLength(0);
    } finally {
      await dir.remove();
    }
  });
});

function existsMkfifo(): boolean {
  return spawnSync("mkfifo", ["--version"]).status === 0 || spawnSync("which", ["mkfifo"]).status === 0;
}
