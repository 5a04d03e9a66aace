import { copyFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAST, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// Terminal injection on stderr (issue 13 item 6; docs/cli-contract.md "Output"): text from
// the service or from input files never reaches stderr raw — the final error line included.
// What the program writes is the subject: in-process, its stderr kept byte for byte.

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/; // eslint-disable-line no-control-regex -- finding them is the point;
const EVIL = "t-1\u001b]0;owned\u0007\u001b[2J";

let t: TestEnv | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("control characters from the service", () => {
  it("users import --wait: a taskId holding escape sequences is shown escaped in the final error line", async () => {
    t = await startTestEnv({ ...ROOMY, importStepMs: 50 });
    t.sandbox.faults.respondNext("/v2/access-api/user/bulk-import", 1, { status: 200, body: { taskId: EVIL } });
    t.sandbox.faults.respondNext("/v2/access-api/user/bulk-import/status", 5, { status: 200, body: { status: "FAILED" } });
    const dir = await tempDir();
    try {
      const csv = join(dir.path, "users.csv");
      await copyFile(resolve(import.meta.dirname, "../../fixtures/users-import-sample.csv"), csv);
      const r = await t.run(["users", "import", csv, "--yes", "--wait"], { env: FAST });
      expect(r.exitCode).toBe(10);
      expect(r.stderr).not.toMatch(CONTROL);
      expect(r.stderr).toContain("t-1\\u001b]0;owned\\u0007\\u001b[2J");
    } finally {
      await dir.remove();
    }
  });

  it("an error answer's message holding escape sequences is escaped", async () => {
    t = await startTestEnv(ROOMY);
    t.sandbox.faults.respondNext("/v2/access-api/user/token", 1, { status: 404, body: { error: { message: EVIL } } });
    const r = await t.run(["token", "--user", "user-demo"], { env: FAST });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).not.toMatch(CONTROL);
  });
});

describe("control characters from input files and arguments", () => {
  it("a file name holding escape sequences is escaped in the error line", async () => {
    t = await startTestEnv(ROOMY);
    const r = await t.run(["users", "import", `/nonexistent/${EVIL}.csv`, "--yes"], { env: FAST });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it("commander's own messages (an unknown option) are escaped", async () => {
    t = await startTestEnv(ROOMY);
    const r = await t.run(["token", `--\u001b[31mred`], { env: FAST });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(CONTROL);
  });
});
