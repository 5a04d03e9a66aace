import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import type { SandboxOptions } from "../../src/sandbox/server.js";
import { FAST, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// users import of files larger than one upload, through the real program, in-process,: 1,600 rows in
// three batches, failures halfway (the connection dropped after the service accepted, a
// 500, a 429) and --resume, which must never send a batch twice unless the user said so;
// and --wait ending 0, 10 and 9.

const UPLOAD = "/v2/access-api/user/bulk-import";
const HEADER = "firstName,lastName,username,email,role,teamName,status,action";

interface Manifest {
  sha256: string;
  batches: {
    number: number;
    rows: number;
    firstRow: number;
    lastRow: number;
    sha256: string;
    state: string;
    taskId?: string;
    status?: string;
    sends: number;
  }[];
}

let t: TestEnv | undefined;
/** Called with each request line the sandbox logs ("POST /v2/… 200 3ms"), to time faults. */
let onRequest: ((line: string) => void) | undefined;
const dirs: { remove(): Promise<void> }[] = [];

async function env(options: SandboxOptions = {}): Promise<TestEnv> {
  t = await startTestEnv({
    rateLimits: { access: { limit: 10_000, windowMs: 1000 } },
    importStepMs: 100,
    log: (line) => onRequest?.(line),
    ...options,
  });
  return t;
}
afterEach(async () => {
  onRequest = undefined;
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

/** `rows` users, all Adds of new addresses (the generator's Updates would be rejected as unknown). */
async function usersFile(rows: number, options: { failRow?: number } = {}): Promise<{ dir: string; file: string }> {
  const dir = await tempDir();
  dirs.push(dir);
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) {
    const cells = userCells(i).cells;
    cells[7] = "Add";
    if (i + 1 === options.failRow) cells[2] = cells[3] = `user${i}@fail.example.com`;
    lines.push(cells.join(","));
  }
  await writeFile(join(dir.path, "staff.csv"), `${lines.join("\n")}\n`);
  return { dir: dir.path, file: "staff.csv" };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function run(env: TestEnv, args: string[], cwd: string) {
  const before = env.sandbox.requests.length;
  const result = await env.run(args, { env: FAST, cwd });
  const uploads = env.sandbox.requests.slice(before).filter((r) => r.path === UPLOAD);
  return { ...result, uploads, sent: env.sandbox.requests.slice(before) };
}

async function manifestOf(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "staff.import.json"), "utf8")) as Manifest;
}

/** How many times each batch (by hash, in manifest order) reached the service over the whole test. */
function uploadsPerBatch(env: TestEnv, manifest: Manifest): number[] {
  const hashes = env.sandbox.requests
    .filter((r) => r.path === UPLOAD)
    .map((r) => sha256((r.body as { csvText: string }).csvText));
  return manifest.batches.map((b) => hashes.filter((h) => h === b.sha256).length);
}

/** Registers `fault` once the first upload has been answered, so that it hits the second. */
function afterFirstUpload(fault: () => void): void {
  let seen = 0;
  onRequest = (line) => {
    if (line.startsWith(`POST ${UPLOAD} `) && ++seen === 1) fault();
  };
}

describe("users import: batches", () => {
  it("uploads 1,600 rows as 750, 750 and 100 with three tasks recorded in the manifest", async () => {
    const e = await env();
    const { dir, file } = await usersFile(1600);
    const r = await run(e, ["users", "import", file, "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    const csvs = r.uploads.map((u) => (u.body as { csvText: string }).csvText);
    expect(csvs.map((c) => c.trimEnd().split("\n").length - 1)).toEqual([750, 750, 100]);
    expect(csvs.every((c) => c.startsWith(`${HEADER}\n`))).toBe(true);
    expect(csvs[1]!.split("\n")[1]).toContain("user751@example.com");
    const tasks = e.sandbox.state.listTasks(e.sandbox.org);
    expect(tasks).toHaveLength(3);
    const manifest = await manifestOf(dir);
    expect(manifest.batches.map((b) => [b.number, b.rows, b.firstRow, b.lastRow, b.state])).toEqual([
      [1, 750, 2, 751, "uploaded"],
      [2, 750, 752, 1501, "uploaded"],
      [3, 100, 1502, 1601, "uploaded"],
    ]);
    expect(manifest.batches.map((b) => b.taskId)).toEqual(tasks.map((task) => task.taskId));
    expect(manifest.batches.map((b) => b.sha256)).toEqual(csvs.map(sha256));
    expect(manifest.sha256).toBe(sha256(await readFile(join(dir, file), "utf8")));
    const output = JSON.parse(r.stdout) as { batch: number; rows: number; taskId: string; status: string }[];
    expect(output.map((o) => [o.batch, o.rows, o.taskId, o.status])).toEqual(
      manifest.batches.map((b) => [b.number, b.rows, b.taskId, "SCHEDULED"]),
    );
  });

  it("--dry-run plans 750/750/100 and sends nothing", async () => {
    const e = await env();
    const { dir, file } = await usersFile(1600);
    const r = await run(e, ["users", "import", file, "--dry-run", "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({
      validRows: 1600,
      batches: 3,
      batchSizes: [750, 750, 100],
      adds: 1600,
      inactive: 400,
    });
  });
});

describe("users import: a failure halfway and --resume", () => {
  // importStepMs is long so that the first, ambiguous upload of batch 2 has not completed when
  // it is re-sent (its Adds would otherwise be rejected as existing users).
  it.each([
    [
      "the connection is dropped after the service accepted batch 2",
      (e: TestEnv) => e.sandbox.faults.dropAfterAccept(UPLOAD, 1),
      4,
    ],
    [
      "the service answers 500 to batch 2 (no task, but the client cannot know)",
      (e: TestEnv) => e.sandbox.faults.failNext(UPLOAD, 1, 500),
      3,
    ],
  ])(
    "%s: exit 8, batch 2 ambiguous; a plain re-run is refused; --resume sends 3 and holds 2 (exit 8); --resend-ambiguous re-sends 2",
    async (_name, fault, tasksAtEnd) => {
      const e = await env({ importStepMs: 60_000 });
      const { dir, file } = await usersFile(1600);
      afterFirstUpload(() => fault(e));

      const first = await run(e, ["users", "import", file, "-o", "json"], dir);
      expect(first.exitCode, first.stderr).toBe(8);
      expect(first.uploads).toHaveLength(2);
      expect(first.stderr).toContain("batch 2 of 3 (rows 752–1501) may have been accepted by the service");
      expect(first.stderr).toContain("it was not sent again and nothing more was sent");
      expect(first.stderr).toContain(`simadmin users import ${file} --resume`);
      expect(first.stderr).toContain("import-status");
      let manifest = await manifestOf(dir);
      expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "ambiguous", "pending"]);
      expect(JSON.parse(first.stdout)).toEqual(
        manifest.batches.map((b) => expect.objectContaining({ batch: b.number, state: b.state })),
      );
      expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 0]);

      const plain = await run(e, ["users", "import", file], dir);
      expect(plain.exitCode).toBe(2);
      expect(plain.sent).toEqual([]);
      expect(plain.stderr).toContain("--resume");
      expect(plain.stderr).toContain("--resend-ambiguous");

      // Plain --resume: batch 3 (never sent) goes, batch 2 is named and held back, exit 8.
      const resumed = await run(e, ["users", "import", file, "--resume", "-o", "json"], dir);
      expect(resumed.exitCode, resumed.stderr).toBe(8);
      expect(resumed.uploads).toHaveLength(1);
      expect(resumed.stderr).toContain("batch 2 of 3 (rows 752–1501) may have been received by the service in an earlier run");
      expect(resumed.stderr).toContain(`simadmin users import ${file} --resume --resend-ambiguous`);
      expect(resumed.stderr).toMatch(/accepted: batch 3 of 3, task \S+/);
      manifest = await manifestOf(dir);
      expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "ambiguous", "uploaded"]);
      expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 1]);

      // The user's say-so: batch 2 is sent again, nothing else.
      const resent = await run(e, ["users", "import", file, "--resume", "--resend-ambiguous", "-o", "json"], dir);
      expect(resent.exitCode, resent.stderr).toBe(0);
      expect(resent.stderr).toContain("sending batch 2 of 3 (rows 752–1501) again (--resend-ambiguous)");
      expect(resent.uploads).toHaveLength(1);
      manifest = await manifestOf(dir);
      expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "uploaded", "uploaded"]);
      expect(manifest.batches.map((b) => b.sends)).toEqual([1, 2, 1]);
      // Batch 1 once, batch 2 twice (the explicitly re-sent ambiguous one), batch 3 once.
      expect(uploadsPerBatch(e, manifest)).toEqual([1, 2, 1]);
      expect(e.sandbox.state.listTasks(e.sandbox.org)).toHaveLength(tasksAtEnd);
      expect(new Set(manifest.batches.map((b) => b.taskId)).size).toBe(3);

      // Finished: a further --resume sends nothing.
      const again = await run(e, ["users", "import", file, "--resume"], dir);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.uploads).toEqual([]);
    },
  );

  it("a held batch the user checked is settled by --resume --mark-imported: recorded without a task, never sent again, exit 0", async () => {
    const e = await env({ importStepMs: 60_000 });
    const { dir, file } = await usersFile(1600);
    afterFirstUpload(() => e.sandbox.faults.dropAfterAccept(UPLOAD, 1));
    expect((await run(e, ["users", "import", file], dir)).exitCode).toBe(8);

    // The held-batch message names both ways out, with the exact commands.
    const held = await run(e, ["users", "import", file, "--resume"], dir);
    expect(held.exitCode, held.stderr).toBe(8);
    expect(held.stderr).toContain(`\`simadmin users import ${file} --resume --mark-imported 2\` records it as imported`);
    expect(held.stderr).toContain(`\`simadmin users import ${file} --resume --resend-ambiguous\` sends it again`);

    const both = await run(e, ["users", "import", file, "--resume", "--mark-imported", "2", "--resend-ambiguous"], dir);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("--mark-imported and --resend-ambiguous contradict each other");
    const alone = await run(e, ["users", "import", file, "--mark-imported", "2"], dir);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toContain("--mark-imported applies only with --resume");
    const uploaded = await run(e, ["users", "import", file, "--resume", "--mark-imported", "1"], dir);
    expect(uploaded.exitCode).toBe(2);
    expect(uploaded.stderr).toContain("batch 1 is not held back as possibly received: it is recorded as uploaded");
    expect([...both.sent, ...alone.sent, ...uploaded.sent]).toEqual([]);

    const marked = await run(e, ["users", "import", file, "--resume", "--mark-imported", "2", "-o", "json"], dir);
    expect(marked.exitCode, marked.stderr).toBe(0);
    expect(marked.uploads).toEqual([]);
    expect(marked.stderr).toContain("batch 2 recorded as imported without a task id");
    const manifest = (await manifestOf(dir)) as Manifest & {
      batches: { settled?: { by: string; note: string }; history?: { state: string }[] }[];
    };
    expect(manifest.batches.map((b) => b.state)).toEqual(["uploaded", "uploaded", "uploaded"]);
    expect(manifest.batches[1]?.taskId).toBeUndefined();
    expect(manifest.batches[1]).toMatchObject({
      settled: { by: "--mark-imported", note: expect.stringContaining("no task id is known") as string },
      history: [{ state: "ambiguous" }],
    });
    expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 1]);
    const again = await run(e, ["users", "import", file, "--resume"], dir);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.uploads).toEqual([]);
  });

  it("--resume --accepted-task 2=<taskId> records the task a held batch got (the disk-full case), sends only batch 3, and --wait follows it", async () => {
    const e = await env();
    const { dir, file } = await usersFile(1600);
    afterFirstUpload(() => e.sandbox.faults.dropAfterAccept(UPLOAD, 1));
    expect((await run(e, ["users", "import", file], dir)).exitCode).toBe(8);
    const task2 = e.sandbox.state.listTasks(e.sandbox.org)[1]!.taskId;
    const bad = await run(e, ["users", "import", file, "--resume", "--accepted-task", "2"], dir);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("is not <batch>=<taskId>");

    const r = await run(e, ["users", "import", file, "--resume", "--accepted-task", `2=${task2}`, "--wait", "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`--accepted-task: batch 2 recorded as uploaded, task ${task2}`);
    expect(r.uploads).toHaveLength(1);
    const manifest = await manifestOf(dir);
    expect(manifest.batches.map((b) => [b.state, b.status])).toEqual([
      ["uploaded", "COMPLETED"],
      ["uploaded", "COMPLETED"],
      ["uploaded", "COMPLETED"],
    ]);
    expect(manifest.batches[1]?.taskId).toBe(task2);
    expect(uploadsPerBatch(e, manifest)).toEqual([1, 1, 1]);
  });

  it("--resend-ambiguous without --resume is a usage error (exit 2)", async () => {
    const e = await env();
    const { dir, file } = await usersFile(3);
    const r = await run(e, ["users", "import", file, "--resend-ambiguous"], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--resend-ambiguous applies only with --resume");
    expect(r.sent).toEqual([]);
  });

  it("a 429 on batch 2 is retried (the service did not take it) and the run succeeds without duplicates", async () => {
    const e = await env();
    const { dir, file } = await usersFile(1600);
    afterFirstUpload(() => e.sandbox.faults.failNext(UPLOAD, 1, 429, { retryAfterSeconds: 1 }));
    const r = await run(e, ["users", "import", file], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.uploads.map((u) => u.status)).toEqual([200, 429, 200, 200]);
    const manifest = await manifestOf(dir);
    expect(uploadsPerBatch(e, manifest)).toEqual([1, 2, 1]);
    expect(e.sandbox.state.listTasks(e.sandbox.org)).toHaveLength(3);
    expect(manifest.batches.map((b) => b.sends)).toEqual([1, 1, 1]);
  });

  it("refuses --resume when the file changed since the manifest (exit 2, nothing sent)", async () => {
    const e = await env({ importStepMs: 60_000 });
    const { dir, file } = await usersFile(800);
    afterFirstUpload(() => e.sandbox.faults.failNext(UPLOAD, 1, 503));
    expect((await run(e, ["users", "import", file], dir)).exitCode).toBe(8);
    await writeFile(
      join(dir, file),
      (await readFile(join(dir, file), "utf8")).replace(
        "user5@example.com,user5@example.com",
        "user5b@example.com,user5b@example.com",
      ),
    );
    const r = await run(e, ["users", "import", file, "--resume"], dir);
    expect(r.exitCode).toBe(2);
    expect(r.sent).toEqual([]);
    expect(r.stderr).toContain("is not the file recorded in staff.import.json");
    const plain = await run(e, ["users", "import", file], dir);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain("unfinished import of an earlier version");
  });
});

describe("users import --wait", () => {
  it("ends 0 when every task COMPLETED and records the status in the manifest", async () => {
    const e = await env();
    const { dir, file } = await usersFile(3);
    const r = await run(e, ["users", "import", file, "--wait", "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ batch: 1, status: "COMPLETED" })]);
    expect((await manifestOf(dir)).batches[0]?.status).toBe("COMPLETED");
    // Every row of the file is a user of the service now, as the file said (user3 is row 3).
    const imported = [1, 2, 3].map((i) => e.sandbox.state.getUser(e.sandbox.org, `user${i}@example.com`));
    expect(imported.map((u) => [u?.email, u?.status])).toEqual([
      ["user1@example.com", "ACTIVE"],
      ["user2@example.com", "ACTIVE"],
      ["user3@example.com", "ACTIVE"],
    ]);
  });

  it("ends 10 naming the task when a task FAILED", async () => {
    const e = await env();
    const { dir, file } = await usersFile(3, { failRow: 3 });
    const r = await run(e, ["users", "import", file, "--wait", "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(10);
    const manifest = await manifestOf(dir);
    expect(manifest.batches[0]?.status).toBe("FAILED");
    expect(r.stderr).toContain(`import task ${manifest.batches[0]?.taskId} (batch 1, rows 2–4) ended FAILED`);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ status: "FAILED" })]);
  });

  it("ends 9 when --wait-timeout passes first", async () => {
    const e = await env({ importStepMs: 60_000 });
    const { dir, file } = await usersFile(3);
    const r = await run(e, ["users", "import", file, "--wait", "--wait-timeout", "1s", "-o", "json"], dir);
    expect(r.exitCode, r.stderr).toBe(9);
    expect(r.stderr).toMatch(/1 import task still running after 1s: task-/);
    expect(r.stderr).toContain("import-status --task");
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ status: "SCHEDULED" })]);
  });
});
