import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAST, ROOMY, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// Environment errors are not bugs (issue 13 items 7 and 8; docs/cli-contract.md exit 11):
// a port in use, a file system in the way — exit 2 or 11 with the path and the cause,
// never "internal error … this is a bug". How the program meets them is the subject:
// in-process.

let t: TestEnv | undefined;
let dir: { path: string; remove(): Promise<void> } | undefined;
afterEach(async () => {
  await t?.close();
  await dir?.remove();
  t = undefined;
  dir = undefined;
});

describe("sandbox --port", () => {
  it("a port in use is a usage error (exit 2) naming the address", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runCli(["sandbox", "--port", String(port)]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(
        `error: --port ${port}: 127.0.0.1:${port} is already in use (EADDRINUSE); pick another --port, or --port 0 for any free one\n`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe("the file system in the way: exit 11 naming the path", () => {
  it("a settings directory that is a file", async () => {
    t = await startTestEnv(ROOMY);
    dir = await tempDir();
    const notADir = join(dir.path, "config");
    await writeFile(notADir, "");
    const r = await t.run(["token", "--user", "user-demo"], { env: { ...FAST, SIMADMIN_CONFIG_DIR: notADir } });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(notADir);
    expect(r.stderr).not.toMatch(/internal error|this is a bug/);
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it("--out naming an existing directory", async () => {
    t = await startTestEnv(ROOMY);
    dir = await tempDir();
    const out = join(dir.path, "token.json");
    await mkdir(out);
    const r = await t.run(["token", "--user", "user-demo", "--out", out], { env: FAST });
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toMatch(new RegExp(`${out.replace(/[.]/g, "\\.")}: is a directory \\(EISDIR\\)`));
    expect(r.stderr).not.toMatch(/internal error|this is a bug/);
  });
});

describe("settings modes", () => {
  it("a settings directory writable by everyone is tightened with a warning, and the command goes on", async () => {
    t = await startTestEnv(ROOMY);
    await mkdir(t.configDir, { recursive: true });
    await writeFile(join(t.configDir, "settings.json"), JSON.stringify({ profiles: {} }), { mode: 0o600 });
    await chmod(t.configDir, 0o777);
    const r = await t.run(["token", "--user", "user-demo", "-o", "json"], { env: FAST });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`^warning: the settings directory ${t.configDir} was writable by every user \\(mode 0777\\); changed to 0700`),
    );
  });
});
