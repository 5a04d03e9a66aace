import { mkdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import { neutralizeCsvCell, unguardCsvCell } from "../../src/text/sanitize.js";
import type { SandboxOptions } from "../../src/sandbox/server.js";
import { FAST, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// users import and its side files (issue 12 items 2, 3, 7, 12 and 13; docs/cli-contract.md
// "Users CSV", "Concurrency", "Bad input"): the errors file round trip, the manifest of
// several services, dry runs that need no permission, --retry-failed, and side files that
// cannot be written found before anything is sent.

const UPLOAD = "/v2/access-api/user/bulk-import";
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

interface Section {
  baseUrl?: string;
  organizationId: string;
  batches: {
    number: number;
    state: string;
    taskId?: string;
    status?: string;
    history?: { taskId?: string; status?: string }[];
  }[];
}
type Manifest = Section & { otherImports?: Section[] };

const envs: TestEnv[] = [];
const dirs: { remove(): Promise<void> }[] = [];
async function env(options: SandboxOptions = {}): Promise<TestEnv> {
  const e = await startTestEnv({ rateLimits: { access: { limit: 10_000, windowMs: 1000 } }, importStepMs: 50, ...options });
  envs.push(e);
  return e;
}
afterEach(async () => {
  await Promise.all(envs.splice(0).map((e) => e.close()));
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

async function dirWith(name: string, text: string): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  await writeFile(join(dir.path, name), text);
  return dir.path;
}

async function run(e: TestEnv, args: string[], cwd: string) {
  const before = e.sandbox.requests.length;
  const result = await e.run(args, { env: FAST, cwd });
  const sent = e.sandbox.requests.slice(before);
  return { ...result, sent, uploads: sent.filter((r) => r.path === UPLOAD).map((r) => (r.body as { csvText: string }).csvText) };
}

async function manifestOf(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "staff.import.json"), "utf8")) as Manifest;
}

function addRows(count: number, options: { failRow?: number } = {}): string {
  const lines = [HEADER];
  for (let i = 1; i <= count; i++) {
    const cells = userCells(i).cells;
    cells[7] = "Add";
    if (i + 1 === options.failRow) cells[2] = cells[3] = `user${i}@fail.example.com`;
    lines.push(cells.join(","));
  }
  return `${lines.join("\n")}\n`;
}

describe("the formula guard", () => {
  it.each(["-Smith", "+Sales", "=SUM(A1)", "@x", "\tx", "'-x", "''=y", "'plain", "plain", "", "-"])(
    "unguard(guard(%j)) is the value itself",
    (value) => {
      expect(unguardCsvCell(neutralizeCsvCell(value))).toBe(value);
    },
  );
});

describe("a corrected errors file imports the original values exactly", () => {
  it("undoes the ' of the formula guard and ignores the row and errors columns", async () => {
    const e = await env();
    const cwd = await dirWith(
      "staff.csv",
      `${HEADER}\nAnn,-Smith,ann@example.com,ann@example.com,Trainee,+Sales,ACTIVE,Add\n=Bo,Lee,bo@example.com,bo@example.com,trainee,@Ops,ACTIVE,Add\n`,
    );
    const first = await run(e, ["users", "import", "staff.csv", "-o", "json"], cwd);
    expect(first.exitCode).toBe(6);
    expect(first.sent).toEqual([]);
    const errorsText = await readFile(join(cwd, "staff.errors.csv"), "utf8");
    expect(errorsText).toContain("'-Smith");
    expect(errorsText).toContain("'+Sales");

    // The user fixes the role in the errors file and imports that file.
    await writeFile(join(cwd, "fixed.csv"), errorsText.replace("Trainee", "trainee"));
    const again = await run(e, ["users", "import", "fixed.csv", "-o", "json"], cwd);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/unknown column/);
    expect(again.uploads).toHaveLength(1);
    const uploaded = again.uploads[0]!;
    expect(uploaded).toBe(`${HEADER}\nAnn,-Smith,ann@example.com,ann@example.com,trainee,+Sales,ACTIVE,Add\n`);
  });
});

describe("the manifest is per service and organization", () => {
  it("the same file into a second service with the same org is imported there, and both records are kept", async () => {
    const a = await env();
    const b = await env();
    const cwd = await dirWith("staff.csv", addRows(3));
    const intoA = await run(a, ["users", "import", "staff.csv", "-o", "json"], cwd);
    expect(intoA.exitCode, intoA.stderr).toBe(0);
    const taskA = (await manifestOf(cwd)).batches[0]?.taskId;

    const intoB = await run(b, ["users", "import", "staff.csv", "-o", "json"], cwd);
    expect(intoB.exitCode, intoB.stderr).toBe(0);
    expect(intoB.uploads).toHaveLength(1);
    expect(b.sandbox.state.listTasks(b.sandbox.org)).toHaveLength(1);
    expect(intoB.stderr).toContain(`also records an import into organization ${a.sandbox.org} at ${a.sandbox.baseUrl}`);
    const manifest = await manifestOf(cwd);
    expect(manifest.baseUrl).toBe(b.sandbox.baseUrl);
    expect(manifest.otherImports?.map((s) => [s.baseUrl, s.batches[0]?.taskId])).toEqual([[a.sandbox.baseUrl, taskA]]);

    // Service A still knows its own import: importing again there is refused, nothing sent.
    const againA = await run(a, ["users", "import", "staff.csv"], cwd);
    expect(againA.exitCode).toBe(2);
    expect(againA.sent.filter((r) => r.path === UPLOAD)).toEqual([]);
    expect(againA.stderr).toContain(`already imported into organization ${a.sandbox.org} at ${a.sandbox.baseUrl}`);
    const after = await manifestOf(cwd);
    expect([after.baseUrl, ...(after.otherImports ?? []).map((s) => s.baseUrl)].sort()).toEqual(
      [a.sandbox.baseUrl, b.sandbox.baseUrl].sort(),
    );
  });
});

describe("--dry-run and --retry-failed", () => {
  it("--dry-run of an imported file is not refused: it says what a real run would do", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", addRows(3));
    expect((await run(e, ["users", "import", "staff.csv"], cwd)).exitCode).toBe(0);
    const dry = await run(e, ["users", "import", "staff.csv", "--dry-run", "-o", "json"], cwd);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.sent).toEqual([]);
    expect(dry.stderr).toContain("a real run would stop here: staff.csv was already imported");
    expect(JSON.parse(dry.stdout)).toMatchObject({ validRows: 3, realRunWouldStop: expect.stringContaining("already imported") });
  });

  it("--retry-failed sends a FAILED batch again and keeps the first task in the manifest's history", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", addRows(3, { failRow: 3 }));
    const first = await run(e, ["users", "import", "staff.csv", "--wait", "-o", "json"], cwd);
    expect(first.exitCode).toBe(10);
    expect(first.stderr).toContain("simadmin users import staff.csv --retry-failed");
    const failedTask = (await manifestOf(cwd)).batches[0]?.taskId;

    // A plain re-run is refused and names the option.
    const plain = await run(e, ["users", "import", "staff.csv"], cwd);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain("--retry-failed");
    // --resume alone does not send a FAILED batch again.
    const resumed = await run(e, ["users", "import", "staff.csv", "--resume"], cwd);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.uploads).toHaveLength(0);

    const retried = await run(e, ["users", "import", "staff.csv", "--retry-failed", "--wait", "-o", "json"], cwd);
    expect(retried.uploads).toHaveLength(1);
    const batch = (await manifestOf(cwd)).batches[0]!;
    // The manifest holds the task the service created for the retry: its second, after the failed one.
    const tasks = e.sandbox.state.listTasks(e.sandbox.org).map((task) => task.taskId);
    expect(tasks).toHaveLength(2);
    expect(tasks[0]).toBe(failedTask);
    expect(batch.taskId).toBe(tasks[1]);
    expect(batch.history?.map((h) => [h.taskId, h.status])).toEqual([[failedTask, "FAILED"]]);
  });
});

describe("--retry-failed after a run without --wait", () => {
  it("asks the service how the uploaded batches ended, and sends the FAILED one again", async () => {
    // The sandbox's clock, moved by hand: its tasks end two steps after their upload.
    let at = Date.parse("2026-11-23T10:00:00Z");
    const e = await env({ now: () => at });
    const cwd = await dirWith("staff.csv", addRows(3, { failRow: 3 }));
    const first = await run(e, ["users", "import", "staff.csv", "-o", "json"], cwd);
    expect(first.exitCode, first.stderr).toBe(0);
    const failedTask = (await manifestOf(cwd)).batches[0]?.taskId;
    expect((await manifestOf(cwd)).batches[0]?.status).not.toBe("FAILED");

    at += 60_000;
    const retried = await run(e, ["users", "import", "staff.csv", "--retry-failed", "-o", "json"], cwd);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(retried.stderr).toContain("asked the service how the 1 batch uploaded without --wait ended: 1 FAILED");
    expect(retried.sent.filter((r) => r.path !== UPLOAD).map((r) => (r.body as { taskId: string }).taskId)).toEqual([failedTask]);
    expect(retried.uploads).toHaveLength(1);
    const batch = (await manifestOf(cwd)).batches[0]!;
    expect(batch.taskId).not.toBe(failedTask);
    expect(batch.history?.map((h) => [h.taskId, h.status])).toEqual([[failedTask, "FAILED"]]);
  });

  it("sends nothing again when the tasks completed, and asks only once: the answer is kept in the manifest", async () => {
    let at = Date.parse("2026-11-23T10:00:00Z");
    const e = await env({ now: () => at });
    const cwd = await dirWith("staff.csv", addRows(3));
    expect((await run(e, ["users", "import", "staff.csv"], cwd)).exitCode).toBe(0);
    at += 60_000;
    const retried = await run(e, ["users", "import", "staff.csv", "--retry-failed"], cwd);
    expect(retried.exitCode, retried.stderr).toBe(0);
    expect(retried.stderr).toContain("1 COMPLETED");
    expect(retried.uploads).toHaveLength(0);
    expect((await manifestOf(cwd)).batches[0]?.status).toBe("COMPLETED");
    const again = await run(e, ["users", "import", "staff.csv", "--retry-failed"], cwd);
    expect(again.sent).toEqual([]);
  });
});

describe("side files that cannot be written are found before anything is sent (exit 11)", () => {
  it("errors file path taken by a directory: exit 11 even with --dry-run", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", `${HEADER}\nAnn,Lee,ann@example.com,ann@example.com,Trainee,,ACTIVE,Add\n`);
    await mkdir(join(cwd, "staff.errors.csv"));
    for (const extra of [["--dry-run"], []]) {
      const r = await run(e, ["users", "import", "staff.csv", ...extra], cwd);
      expect(r.exitCode).toBe(11);
      expect(r.stderr).toContain("cannot write staff.errors.csv: is a directory (EISDIR)");
      expect(r.sent).toEqual([]);
    }
  });

  it("manifest path taken by a directory: exit 11 before any upload", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", addRows(3));
    await mkdir(join(cwd, "staff.import.json"));
    const r = await run(e, ["users", "import", "staff.csv"], cwd);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain("staff.import.json: is a directory (EISDIR)");
    expect(r.sent).toEqual([]);
  });
});

describe("the import lock", () => {
  it("a lock left by a dead run is taken over, and released at the end", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", addRows(3));
    const dead = Number(
      spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout,
    );
    const lock = join(cwd, "staff.import.lock");
    await writeFile(
      lock,
      JSON.stringify({ pid: dead, host: hostname(), startedAt: "2026-01-01T00:00:00Z", command: "x", nonce: "n" }),
    );
    const r = await run(e, ["users", "import", "staff.csv"], cwd);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads).toHaveLength(1);
    await expect(readFile(lock)).rejects.toThrow(/ENOENT/);
  });

  it("a lock held by a live run stops the import with exit 2 naming its pid, nothing sent", async () => {
    const e = await env();
    const cwd = await dirWith("staff.csv", addRows(3));
    const lock = join(cwd, "staff.import.lock");
    // This test process is alive: its pid stands for the other run.
    await writeFile(
      lock,
      JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: "2026-01-01T00:00:00Z", command: "x", nonce: "n" }),
    );
    const r = await run(e, ["users", "import", "staff.csv"], cwd);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`pid ${process.ppid}`);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(await readFile(lock, "utf8"))).toMatchObject({ pid: process.ppid }); // not removed
  });
});
