import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import type { SandboxOptions } from "../../src/sandbox/server.js";
import { startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// users sync against one PostgreSQL state store (docs/users-sync.md "Where the state lives"):
// two machines — two settings directories, one SIMADMIN_STATE — syncing nights in turn and at
// once, and the store going away in the middle of a run. The sandbox counts every row sent.

const UPLOAD = "/v2/access-api/user/bulk-import";

let pg: TestPostgres;
const dirs: { remove(): Promise<void> }[] = [];
beforeAll(async () => {
  // Its own server: a test stops it mid-run.
  pg = await startPostgres({ own: true });
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  await Promise.all(dirs.map((d) => d.remove()));
});

/** One service, two machines sharing a fresh database of the PostgreSQL server as their state. */
async function twoMachines(options: SandboxOptions = {}) {
  const clock = createFakeClock();
  let onRequest: ((line: string) => void) | undefined;
  const e: TestEnv = await startTestEnv({
    now: () => clock.now(),
    importStepMs: 1000,
    log: (line) => onRequest?.(line),
    ...options,
  });
  const dir = await tempDir();
  dirs.push(dir);
  const state = await pg.createDatabase("sync");
  const machine = (config: string) => (args: string[]) =>
    e.capture(args, { clock, env: { SIMADMIN_STATE: state, SIMADMIN_CONFIG_DIR: join(dir.path, config) } });
  return {
    e,
    clock,
    dir: dir.path,
    a: machine("machine-a"),
    b: machine("machine-b"),
    setOnRequest: (f: ((line: string) => void) | undefined) => (onRequest = f),
    stateUrl: state,
    close: () => e.close(),
  };
}

const person = (n: number) => `First${n},Last${n},p${n}@example.com,Sales`;
async function roster(dir: string, name: string, from: number, to: number, extra: string[] = []): Promise<string> {
  const rows = Array.from({ length: to - from + 1 }, (_, i) => person(from + i));
  const path = join(dir, name);
  await writeFile(path, `firstName,lastName,email,teamName\n${[...rows, ...extra].join("\n")}\n`);
  return path;
}

/** How many times the sandbox received each email in an upload, over the whole test. */
function uploadsPerEmail(e: TestEnv): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of e.sandbox.requests.filter((x) => x.path === UPLOAD))
    for (const line of (r.body as { csvText: string }).csvText.trim().split("\n").slice(1)) {
      const email = line.split(",")[3]!;
      counts.set(email, (counts.get(email) ?? 0) + 1);
    }
  return counts;
}

describe.runIf(postgresAvailable() || process.env.CI)("users sync with its state in PostgreSQL", () => {
  it("two machines syncing nights in turn see one baseline: each night sends only what changed", async () => {
    const m = await twoMachines();
    try {
      const n1 = await m.a(["users", "sync", await roster(m.dir, "n1.csv", 1, 12), "--wait"]);
      expect(n1.exitCode, n1.stderr).toBe(0);
      m.clock.advance(10_000);
      // Machine B has never synced, but the store has A's baseline: nothing to do, no "first sync".
      const plan = await m.b(["users", "sync", join(m.dir, "n1.csv"), "--plan"]);
      expect(plan.exitCode, plan.stderr).toBe(0);
      expect(plan.stderr).not.toContain("first sync");
      // Night 2 on B: p12 left, p13 started.
      const n2 = await m.b(["users", "sync", await roster(m.dir, "n2.csv", 1, 11, [person(13)]), "--wait"]);
      expect(n2.exitCode, n2.stderr).toBe(0);
      const sent = n2.sent
        .filter((r) => r.path === UPLOAD)
        .map((r) => (r.body as { csvText: string }).csvText.trim().split("\n").slice(1));
      expect(
        sent
          .flat()
          .map((l) => l.split(",").slice(3).join(" "))
          .sort(),
      ).toEqual(["p12@example.com trainee Sales INACTIVE Update", "p13@example.com trainee Sales ACTIVE Add"]);
      // Night 3 on A: A sees B's night.
      const n3 = await m.a(["users", "sync", join(m.dir, "n2.csv"), "--plan"]);
      expect(n3.exitCode, n3.stderr).toBe(0);
      expect(m.e.sandbox.state.getUser(m.e.sandbox.org, "p12@example.com")?.status).toBe("INACTIVE");
    } finally {
      await m.close();
    }
  });

  it("two machines at once: one waits for the other, and no row is uploaded twice", async () => {
    const m = await twoMachines();
    try {
      const path = await roster(m.dir, "hr.csv", 1, 800);
      const [ra, rb] = await Promise.all([m.a(["users", "sync", path]), m.b(["users", "sync", path])]);
      expect([ra.exitCode, rb.exitCode], ra.stderr + rb.stderr).toEqual([0, 0]);
      const counts = uploadsPerEmail(m.e);
      expect(counts.size).toBe(800);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      // The one that came second took the lock after the first, found its tasks and sent nothing
      // (whether it printed the waiting line depends on how long it waited: not asserted).
      expect([ra.stderr, rb.stderr].filter((text) => text.includes("nothing was sent"))).toHaveLength(1);
    } finally {
      await m.close();
    }
  });

  it("PostgreSQL stopped mid-run: exit 11 naming the store; when it is back, nothing accepted is sent again", async () => {
    const m = await twoMachines();
    try {
      const path = await roster(m.dir, "hr.csv", 1, 1600);
      let uploads = 0;
      // The sandbox logs a request as it answers it, before the client reads the answer: the
      // store is gone when the run records batch 1's task.
      m.setOnRequest((line) => {
        if (line.startsWith(`POST ${UPLOAD} `) && ++uploads === 1) pg.pause();
      });
      const n1 = await m.a(["users", "sync", path]);
      m.setOnRequest(undefined);
      pg.resume();
      expect(n1.exitCode, n1.stderr).toBe(11);
      expect(n1.stderr).toMatch(/the state store postgres:\/\/simadmin@127\.0\.0\.1:\d+\/sync_\d+_\d+ cannot be used/);
      expect(n1.stderr).toMatch(/accepted: batch 1 of 3, task \S+/);
      expect(uploads).toBe(1);
      m.clock.advance(10_000);
      // The next run holds batch 1 (its task was never recorded) and sends the other 850.
      const n2 = await m.b(["users", "sync", path]);
      expect(n2.exitCode, n2.stderr).toBe(8);
      expect(n2.stderr).toContain("held batch 1 (750 users");
      const marked = await m.a(["users", "sync", path, "--mark-imported", "1"]);
      expect(marked.exitCode, marked.stderr).toBe(0);
      m.clock.advance(10_000);
      const after = await m.b(["users", "sync", path, "--plan"]);
      expect(after.exitCode, after.stderr).toBe(0);
      const counts = uploadsPerEmail(m.e);
      expect(counts.size).toBe(1600);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await m.close();
    }
  });

  it("a directory's state pushed to PostgreSQL: the other machine's --plan then ends 0", async () => {
    const m = await twoMachines();
    try {
      const path = await roster(m.dir, "hr.csv", 1, 12);
      // Machine A syncs with the default store (a directory under its settings directory)...
      const local = (args: string[]) =>
        m.e.capture(args, { clock: m.clock, env: { SIMADMIN_CONFIG_DIR: join(m.dir, "machine-a") } });
      expect((await local(["users", "sync", path, "--wait"])).exitCode).toBe(0);
      // ...then moves it into the shared store, which machine B uses.
      const push = await local(["state", "push", "--to", m.stateUrl]);
      expect(push.exitCode, push.stderr).toBe(0);
      const plan = await m.b(["users", "sync", path, "--plan"]);
      expect(plan.exitCode, plan.stderr).toBe(0);
      expect(plan.stderr).not.toContain("first sync");
    } finally {
      await m.close();
    }
  });
});
