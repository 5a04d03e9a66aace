import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// Output targets checked before the work, and named pipes that nobody reads (docs/local-files.md).

let t: TestEnv;
let dir: string;
beforeAll(async () => {
  t = await startTestEnv();
  dir = await mkdtemp(join(tmpdir(), "simadmin-targets-"));
});
afterAll(async () => {
  await Promise.all([t.close(), rm(dir, { recursive: true, force: true })]);
});

function fifo(name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  return path;
}

describe("--junit", () => {
  it("into a directory: exit 11 before anything is sent, said once", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "--junit", dir]);
    expect(r.exitCode).toBe(11);
    expect(r.sent).toEqual([]);
    expect(r.stderr.match(/is a directory \(EISDIR\)/g)).toHaveLength(1);
  });

  it("into a FIFO that no process reads: exit 11 naming it, instead of waiting for ever", async () => {
    const path = fifo("junit-unread");
    const r = await t.capture(["token", "--user", "user-demo", "--junit", path]);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(`cannot write ${path}: it is a named pipe (FIFO) that no process reads (ENXIO)`);
  });

  it("into a FIFO with a reader: the report arrives whole", async () => {
    const path = fifo("junit-read");
    const reader = spawn("cat", [path]);
    let text = "";
    reader.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const ended = new Promise((resolve) => reader.on("close", resolve));
    // cat has the pipe open once a writer can open it without blocking; until then, retry.
    let r = await t.capture(["token", "--user", "user-demo", "--junit", path]);
    while (r.exitCode === 11) r = await t.capture(["token", "--user", "user-demo", "--junit", path]);
    expect(r.exitCode, r.stderr).toBe(0);
    await ended;
    expect(text).toMatch(/^<\?xml [^]*<\/testsuites>\n$/);
  });
});

describe("$GITHUB_STEP_SUMMARY", () => {
  it("a FIFO that no process reads: a warning, and the run ends with its own outcome", async () => {
    const path = fifo("summary-unread");
    const file = join(dir, "staff.csv");
    await writeFile(
      file,
      "firstName,lastName,username,email,role,teamName,status,action\nBo,Ng,bo@example.com,bo@example.org,trainee,Sales,ACTIVE,Add\n",
    );
    const r = await t.capture(["users", "import", file], { env: { GITHUB_STEP_SUMMARY: path } });
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("could not append the run summary to $GITHUB_STEP_SUMMARY (ENXIO)");
    expect(await readFile(file, "utf8")).toContain("Bo,Ng");
  });
});
