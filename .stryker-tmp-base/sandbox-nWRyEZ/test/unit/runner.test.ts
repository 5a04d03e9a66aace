// @ts-nocheck
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { run } from "../../src/main.js";

// The runner (src/runner.ts) enforces what each declaration says, in-process through
// main's `Deps` seam: no service is started, so any of these that reached the network
// would fail differently (no base URL).

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-runner-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function simadmin(argv: string[], env: Record<string, string> = {}) {
  const stdout = sink();
  const stderr = sink();
  const code = await run(argv, {
    io: {
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdin: new PassThrough(),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: undefined,
    },
    env: { SIMADMIN_CONFIG_DIR: dir, ...env },
    clock: createFakeClock(),
    signal: new AbortController().signal,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe("runner", () => {
  it("refuses --fields for a command that prints no data, before it changes anything", async () => {
    const r = await simadmin(["config", "set", "timeout", "60", "--fields", "key"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("`config set` prints no data: --fields does not apply");
    await expect(readFile(join(dir, "settings.json"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses -o text for a command without a single value, naming the commands that offer it", async () => {
    const r = await simadmin(["config", "list", "-o", "text"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /`config list` has no single value to print as text \(-o text\); use -o table, json, csv, ndjson or xlsx; text is for .*`config get`.*`token`/,
    );
    expect(r.stdout).toBe("");
  });

  it("refuses a v2-only command under --api-version 1 before it needs an address or a key", async () => {
    const r = await simadmin(["--api-version", "1", "token", "--user", "u-1", "--org", "org-1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("`token` needs API version 2; it does not exist in version 1");
  });

  it("asks for the organization of a command that needs it before running it", async () => {
    const r = await simadmin(["token", "--user", "u-1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no organization: pass --org <id>");
  });

  it("turns a bad option value into exit 2 naming the flag, with the option's own next step", async () => {
    const r = await simadmin(["import-status", "--task", "t-1", "--wait-timeout", "5m"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: --wait-timeout applies only with --wait; add --wait, or drop --wait-timeout\n");
  });

  it("prints the result a command returns, then exits with the failure it returned (auth status without a key)", async () => {
    const r = await simadmin(["auth", "status", "-o", "json"]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: "default", apiKey: null });
    expect(r.stderr).toContain("error: no API key for profile 'default'");
  });
});
