import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { pairScript } from "../../src/sandbox/progress-script.js";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// progress --from-csv (issue 25; docs/cli-contract.md "Progress"). The sandbox's scripted pairs
// (src/sandbox/progress-script.ts) start, complete or never move on a fake clock shared with the
// client, so waits of minutes take milliseconds and the budget arithmetic is exact.

const COMPLETION = "/v2/access-api/simulation/completion-data";
const TOKEN = "/v2/access-api/user/token";
const DEEP_LINKS = "/v2/access-api/simulation/deep-links";
const STEP_MS = 30_000;
const START = Date.UTC(2026, 10, 23, 12);
const USERS = ["user-ben", "user-emma", "user-grace", "user-hugo"];
const SIMS = Array.from({ length: 6 }, (_, i) => `sim-${String(i + 1).padStart(3, "0")}`);
const ALL_PAIRS = USERS.flatMap((u) => SIMS.map((s) => [u, s] as const));
const kindOf = (u: string, s: string): number => pairScript("org-demo", u, s).kind;

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

let env: TestEnv | undefined;
let clock: ReturnType<typeof createFakeClock>;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function start(options: Parameters<typeof startTestEnv>[0] = ROOMY): Promise<TestEnv> {
  clock = createFakeClock(START);
  env = await startTestEnv({ ...options, now: () => clock.now(), scriptedAttemptStepMs: STEP_MS });
  return env;
}

let counter = 0;
async function csv(text: string): Promise<string> {
  const path = join(dir.path, `assignments-${++counter}.csv`);
  await writeFile(path, text);
  return path;
}

function pairsCsv(
  pairs: readonly (readonly [string, string])[],
  due = (_u: string, _s: string) => "2027-06-30",
): Promise<string> {
  return csv(
    [
      "userId,simulationId,dueDate,manager",
      ...pairs.map(([u, s]) => `${u},${s},${due(u, s)},${USERS.indexOf(u) < 2 ? "Dana Reyes" : "Sam Ito/Ops"}`),
    ].join("\n"),
  );
}

const asked = (sent: { path: string; body: unknown }[]): string[] =>
  sent
    .filter((r) => r.path === COMPLETION)
    .map((r) => `${(r.body as { userId: string }).userId}/${(r.body as { simulationId: string }).simulationId}`);

type Row = Record<string, unknown>;

/** A scripted pair's state when first asked, no due date (src/sandbox/progress-script.ts's kinds). */
const firstState = (kind: number): string => (kind === 0 ? "not-started" : kind === 4 ? "completed" : "in-progress");

describe("progress", () => {
  it("gives each pair its state (overdue past the due date), carries the other columns, and sums up on stderr", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS, (u, s) => (s === "sim-001" || s === "sim-002" ? "2026-01-31" : "2027-06-30"));
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows).toHaveLength(ALL_PAIRS.length);
    for (const row of rows) {
      const kind = kindOf(String(row.userId), String(row.simulationId));
      const overdueDate = row.dueDate === "2026-01-31";
      // On the first request: kind 4 is completed, kinds 1–3 have a started attempt, kind 0 none.
      const expected = kind === 4 ? "completed" : overdueDate ? "overdue" : kind === 0 ? "not-started" : "in-progress";
      expect(row.state, JSON.stringify(row)).toBe(expected);
      expect(row.manager).toBe(USERS.indexOf(String(row.userId)) < 2 ? "Dana Reyes" : "Sam Ito/Ops");
      if (kind === 4) expect(row).toMatchObject({ completedAt: expect.any(String), bestScore: expect.any(Number), attempts: 1 });
      else expect(row).toMatchObject({ completedAt: null, bestScore: null });
    }
    const states = new Set(rows.map((row) => row.state));
    expect([...states].sort()).toEqual(["completed", "in-progress", "not-started", "overdue"]);
    const count = (s: string): number => rows.filter((row) => row.state === s).length;
    expect(r.stderr).toContain(
      `${ALL_PAIRS.length} pairs: ${count("completed")} done, ${count("in-progress")} in progress, ${count("not-started")} not started, ${count("overdue")} overdue`,
    );
    // Overdue pairs are asked first.
    expect(
      asked(r.sent)
        .slice(0, 8)
        .every((p) => p.endsWith("sim-001") || p.endsWith("sim-002")),
    ).toBe(true);
    expect(r.sent.filter((s) => s.status === 429)).toHaveLength(0);
  });

  it("asks again only the pairs not completed (the cache), and every pair with --refresh", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS);
    const first = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(asked(first.sent)).toHaveLength(ALL_PAIRS.length);
    clock.advance(5 * STEP_MS); // every pair of kind 2 and 3 completes
    const second = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    const notCompleted = (JSON.parse(first.stdout) as Row[])
      .filter((row) => row.state !== "completed")
      .map((row) => `${String(row.userId)}/${String(row.simulationId)}`);
    expect(asked(second.sent).sort()).toEqual(notCompleted.sort());
    expect(second.stderr).toContain(`${notCompleted.length} pairs to ask, ${ALL_PAIRS.length - notCompleted.length} cached`);
    const rows = JSON.parse(second.stdout) as Row[];
    expect(rows.filter((row) => row.state === "completed")).toHaveLength(ALL_PAIRS.filter(([u, s]) => kindOf(u, s) >= 2).length);
    const third = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(asked(third.sent)).toHaveLength(ALL_PAIRS.filter(([u, s]) => kindOf(u, s) < 2).length);
    const refreshed = await t.capture(["progress", "--from-csv", file, "--refresh", "-o", "json"], { clock });
    expect(asked(refreshed.sent)).toHaveLength(ALL_PAIRS.length);
    // The cache is in the state store under the settings directory; it holds no ids in the
    // clear, and never the key.
    const stateFiles = (await readdir(join(t.configDir, "state"), { recursive: true })).filter((f) => f.endsWith(".json"));
    expect(stateFiles.map((f) => f.split("/").at(-1))).toEqual(["progress-cache.json"]);
    const cache = await readFile(join(t.configDir, "state", stateFiles[0]!), "utf8");
    expect(cache).toContain('"completedAt"');
    expect(cache).not.toContain("user-ben");
    expect(cache).not.toContain(t.env.SIMADMIN_API_KEY);
  });

  it("moves an older version's progress-cache.json into the state store on first use, with one line saying so", async () => {
    const t = await start();
    const [user, sim] = ALL_PAIRS.find(([u, s]) => kindOf(u, s) < 2)!; // not completed at the service
    // The older cache's format: entries named by a SHA-256 of (base URL, organization, user, simulation).
    const name = createHash("sha256")
      .update(JSON.stringify([t.env.SIMADMIN_BASE_URL, "org-demo", user, sim]))
      .digest("hex");
    const legacy = join(t.configDir, "progress-cache.json");
    const entry = { completedAt: "2026-11-01T10:00:00Z", bestScore: 90, attempts: 1, seenAt: "2026-11-02T10:00:00Z" };
    await mkdir(t.configDir, { recursive: true });
    await writeFile(legacy, JSON.stringify({ version: 1, pairs: { [name]: entry } }));
    const file = await pairsCsv([[user, sim], ALL_PAIRS.find(([u, s]) => u !== user || s !== sim)!]);
    const first = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `moved the cache of completed pairs (1 pair) from ${legacy} into the state store ${join(t.configDir, "state")}`,
    );
    expect(asked(first.sent)).not.toContain(`${user}/${sim}`);
    expect((JSON.parse(first.stdout) as Row[]).find((r) => r.userId === user)).toMatchObject({ state: "completed" });
    await expect(readFile(legacy)).rejects.toThrow(/ENOENT/);
    const second = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(second.stderr).not.toContain("moved the cache");
    expect(asked(second.sent)).not.toContain(`${user}/${sim}`);
  });

  it("under API version 1 knows only completed and not-started (no attempt in progress is shown there)", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS);
    const r = await t.capture(["--api-version", "1", "progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    for (const row of rows)
      expect(row.state).toBe(kindOf(String(row.userId), String(row.simulationId)) === 4 ? "completed" : "not-started");
    expect(r.sent.every((s) => s.path === "/access-api/simulation/completion-data")).toBe(true);
  });

  it("--wait polls only the pairs not completed and ends when the last one completes", async () => {
    const t = await start();
    const finishing = ALL_PAIRS.filter(([u, s]) => kindOf(u, s) >= 2);
    const file = await pairsCsv(finishing);
    const r = await t.capture(["progress", "--from-csv", file, "--wait", "--wait-timeout", "1h", "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Row[]).every((row) => row.state === "completed")).toBe(true);
    // A completed pair is never asked again.
    const polls = asked(r.sent);
    const lastPoll = new Map(polls.map((p, i) => [p, i]));
    const completedAtFirst = finishing.filter(([u, s]) => kindOf(u, s) === 4).map(([u, s]) => `${u}/${s}`);
    for (const p of completedAtFirst) expect(polls.filter((q) => q === p)).toHaveLength(1);
    expect(lastPoll.size).toBe(finishing.length);
    // The last completes 4 steps (2 min) after its first request: the wait ends one sweep later at most.
    const latest = Math.max(
      ...finishing.map(([u, s]) => (kindOf(u, s) === 4 ? 0 : pairScript("org-demo", u, s).steps * STEP_MS)),
    );
    expect(clock.now() - START).toBeGreaterThanOrEqual(latest);
    expect(clock.now() - START).toBeLessThanOrEqual(latest + 60_000);
  });

  it("--wait ends with exit 9 after --wait-timeout, printing what it knows", async () => {
    const t = await start();
    const never = ALL_PAIRS.filter(([u, s]) => kindOf(u, s) === 1).slice(0, 2);
    const done = ALL_PAIRS.filter(([u, s]) => kindOf(u, s) === 4).slice(0, 1);
    const file = await pairsCsv([...never, ...done]);
    const r = await t.capture(["progress", "--from-csv", file, "--wait", "--wait-timeout", "5m", "-o", "json"], { clock });
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toMatch(/error: 2 pairs not completed within 5m/);
    expect((JSON.parse(r.stdout) as Row[]).map((row) => row.state)).toEqual(["in-progress", "in-progress", "completed"]);
    expect(clock.now() - START).toBeLessThanOrEqual(5 * 60_000 + 1000);
  });

  it("--split-by manager --out-dir writes one file per manager with safe names", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS.slice(0, 12).concat(ALL_PAIRS.slice(18, 22)));
    const out = join(dir.path, "mail");
    const r = await t.capture(["progress", "--from-csv", file, "--split-by", "manager", "--out-dir", out], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect((await readdir(out)).sort()).toEqual(["Dana_Reyes.csv", "Sam_Ito_Ops.csv"]);
    const dana = (await readFile(join(out, "Dana_Reyes.csv"), "utf8")).trim().split("\n");
    expect(dana[0]).toBe("userId,simulationId,state,completedAt,bestScore,attempts,dueDate,manager");
    expect(dana).toHaveLength(13);
    const sam = (await readFile(join(out, "Sam_Ito_Ops.csv"), "utf8")).trim().split("\n");
    expect(sam.slice(1).every((line) => line.startsWith("user-hugo,") && line.endsWith(",Sam Ito/Ops"))).toBe(true);
    const bad = await t.capture(["progress", "--from-csv", file, "--split-by", "boss", "--out-dir", out], { clock });
    expect(bad.exitCode).toBe(2);
    expect(bad.sent).toHaveLength(0);
  });

  it("--links gives every pair not completed a link whose token the service accepts, one token per user", async () => {
    const t = await start();
    const pairs = ALL_PAIRS.filter(([u]) => u === "user-ben" || u === "user-emma");
    const file = await pairsCsv(pairs);
    const r = await t.capture(["progress", "--from-csv", file, "--links", "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    for (const row of rows) {
      if (row.state === "completed") {
        expect(row.link).toBe("");
        continue;
      }
      const url = new URL(String(row.link));
      expect(url.pathname).toBe(`/org-demo/simulation/${String(row.simulationId)}`);
      expect(t.sandbox.state.verifyUserToken(url.searchParams.get("token")!)).toMatchObject({ valid: true, userId: row.userId });
    }
    expect(r.sent.filter((s) => s.path === TOKEN)).toHaveLength(2);
    expect(r.stderr).not.toContain("token=");
  });

  it("--links asks one deep link per simulation, not one per pair", async () => {
    const t = await start();
    // Three users on sim-001 and sim-002, none completed (the script's kinds 1–3): six pairs, two simulations.
    const open = ALL_PAIRS.filter(([u, s]) => (s === "sim-001" || s === "sim-002") && kindOf(u, s) !== 4);
    const users = new Set(open.map(([u]) => u));
    expect(open.length).toBeGreaterThan(2);
    const file = await pairsCsv(open);
    const r = await t.capture(["progress", "--from-csv", file, "--links", "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.filter((row) => row.link !== "")).toHaveLength(open.length);
    const deep = r.sent.filter((s) => s.path === DEEP_LINKS);
    expect(deep.map((s) => (s.body as { simulationId: string }).simulationId).sort()).toEqual(["sim-001", "sim-002"]);
    expect(r.sent.filter((s) => s.path === TOKEN)).toHaveLength(users.size);
    // The summary counts every request: completion per pair, the two deep links, a token per user.
    expect(r.stderr).toContain(`(${open.length + 2 + users.size} requests in `);
  });

  it("keeps within the access budget: 0 × 429, and the wall time the plan line announced", async () => {
    // A budget of 50 per 10 s on both sides (the spec's 100 per 5 min, scaled): 120 requests
    // need the first window and two more.
    const limits = { access: { limit: 50, windowMs: 10_000 } };
    const t = await start({ rateLimits: limits });
    const pairs = ["user-ava", "user-ben", "user-chloe", "user-emma"].flatMap((u) =>
      Array.from({ length: 30 }, (_, i) => [u, `sim-${String(i + 1).padStart(3, "0")}`] as const),
    );
    const file = await pairsCsv(pairs);
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], {
      clock,
      env: { SIMADMIN_RATE_LIMITS: "access=50/10s" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(asked(r.sent)).toHaveLength(120);
    expect(r.sent.filter((s) => s.status === 429)).toHaveLength(0);
    expect(r.stderr).toContain("120 pairs to ask, 0 cached: at least 20s at 50 per 10s");
    const elapsed = clock.now() - START;
    // The budget minimum: 2 windows; the scheduler's margin (150 ms a window) on top, nothing more.
    expect(elapsed).toBeGreaterThanOrEqual(20_000);
    expect(elapsed).toBeLessThanOrEqual(20_000 * 1.05);
  });

  it("refuses a bad dueDate with exit 6 naming the row, before anything is sent", async () => {
    const t = await start();
    const file = await csv(
      "userId,simulationId,dueDate\nuser-ben,sim-001,2026-02-30\nuser-emma,sim-002,31/12/2026\nuser-emma,sim-003,\n",
    );
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode).toBe(6);
    expect(r.sent).toHaveLength(0);
    expect((JSON.parse(r.stdout) as Row[]).map((p) => [p.row, p.field])).toEqual([
      [2, "dueDate"],
      [3, "dueDate"],
    ]);
  });

  it("reads the first sheet of an .xlsx workbook like a CSV", async () => {
    const t = await start();
    const { default: excel } = await import("exceljs");
    const workbook = new excel.Workbook();
    const sheet = workbook.addWorksheet("cohort");
    sheet.addRow(["Manager", "userId", "simulationId", "dueDate"]);
    for (const [u, s] of ALL_PAIRS.slice(0, 4)) sheet.addRow(["Dana Reyes", u, s, "2026-01-31"]);
    const path = join(dir.path, "cohort.xlsx");
    await workbook.xlsx.writeFile(path);
    const r = await t.capture(["progress", "--from-csv", path, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => [row.userId, row.simulationId, row.Manager, row.state])).toEqual(
      ALL_PAIRS.slice(0, 4).map(([u, s]) => [u, s, "Dana Reyes", kindOf(u, s) === 4 ? "completed" : "overdue"]),
    );
  });

  it("matches User ID, Simulation-ID and Due Date by their normalised names in an .xlsx (QA bug 4)", async () => {
    const t = await start();
    const { default: excel } = await import("exceljs");
    const workbook = new excel.Workbook();
    const sheet = workbook.addWorksheet("cohort");
    sheet.addRow(["User ID", "Simulation-ID", "Due Date", "Manager"]);
    const pairs = ALL_PAIRS.slice(0, 4);
    for (const [u, s] of pairs) sheet.addRow([u, s, "2026-01-31", "Dana Reyes"]);
    const path = join(dir.path, "due-date-header.xlsx");
    await workbook.xlsx.writeFile(path);
    const r = await t.capture(["progress", "--from-csv", path, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => [row.userId, row.simulationId, row.dueDate, row.Manager, row.state])).toEqual(
      pairs.map(([u, s]) => [u, s, "2026-01-31", "Dana Reyes", kindOf(u, s) === 4 ? "completed" : "overdue"]),
    );
    expect(r.stderr).not.toContain("looks like a due date");
  });

  it("warns once about a column that looks like a due date but is not read as one", async () => {
    const t = await start();
    const [u, s] = ALL_PAIRS[0]!;
    const path = await csv(`user_id,simulation_id,Due,Deadline,Manager\n${u},${s},2026-01-31,2026-01-31,Dana Reyes\n`);
    const r = await t.capture(["progress", "--from-csv", path, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stderr.split("\n").filter((l) => l.includes("like a due date"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"Due" (column 3), "Deadline" (column 4) look like a due date');
    const [row] = JSON.parse(r.stdout) as Row[];
    // The columns are kept under their own headers; no due date is read.
    expect([row!.userId, row!.dueDate, row!.Due, row!.Deadline]).toEqual([u, null, "2026-01-31", "2026-01-31"]);
  });

  it("Ctrl-C keeps the completions learned so far: the next run does not ask them again", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS);
    const controller = new AbortController();
    // Stop once the sandbox has answered 12 requests (the clock is read before every send).
    const stopping = { ...clock, now: () => (t.sandbox.requests.length >= 12 && controller.abort(), clock.now()) };
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock: stopping, signal: controller.signal });
    expect(r.exitCode).toBe(130);
    expect(r.stdout).toBe("");
    const seen = asked(r.sent);
    const completedSeen = seen.filter((p) => kindOf(p.split("/")[0]!, p.split("/")[1]!) === 4);
    expect(completedSeen.length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `stopped after asking \\d+ of ${ALL_PAIRS.length} pairs; ${completedSeen.length} newly completed pairs? kept in the cache`,
      ),
    );
    const again = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(again.exitCode).toBe(0);
    expect(asked(again.sent)).toHaveLength(ALL_PAIRS.length - completedSeen.length);
  });

  it("goes on past a pair the service refuses (404): state unknown with the error, exit 6", async () => {
    const t = await start();
    const file = await csv("userId,simulationId\nuser-nobody,sim-001\nuser-ben,sim-003\n");
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode).toBe(6);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => row.state)).toEqual(["unknown", kindOf("user-ben", "sim-003") === 4 ? "completed" : "in-progress"]);
    expect(String(rows[0]!.error)).not.toBe("");
    expect(r.stderr).toContain("1 pair refused by the service");
  });

  it("goes on past a pair the service answers 400: that pair unknown with the service's sentence, the others asked, exit 6", async () => {
    const t = await start();
    t.sandbox.faults.failNext(COMPLETION, 1, 400, { body: { message: "simulationId sim-bad is not a simulation id" } });
    const file = await csv("userId,simulationId\nuser-ben,sim-bad\nuser-ben,sim-003\nuser-emma,sim-004\n");
    const r = await t.capture(["progress", "--from-csv", file, "-o", "json"], { clock });
    expect(r.exitCode).toBe(6);
    expect(asked(r.sent)).toEqual(["user-ben/sim-bad", "user-ben/sim-003", "user-emma/sim-004"]);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => [row.simulationId, row.state])).toEqual([
      ["sim-bad", "unknown"],
      ["sim-003", firstState(kindOf("user-ben", "sim-003"))],
      ["sim-004", firstState(kindOf("user-emma", "sim-004"))],
    ]);
    expect(String(rows[0]!.error)).toContain("simulationId sim-bad is not a simulation id");
    expect(rows[1]!.error ?? "").toBe("");
    expect(r.stderr).toContain("1 pair refused by the service");
    expect(r.stderr).toContain("(3 requests in ");
  });

  it("prints a table that fits 80 columns", async () => {
    const t = await start();
    const file = await pairsCsv(ALL_PAIRS.slice(0, 10));
    const r = await t.capture(["progress", "--from-csv", file], { clock, stdoutIsTTY: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- colour codes are not columns
    const lines = r.stdout.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
    expect(lines.some((line) => line.includes("user-ben"))).toBe(true);
    for (const line of lines) expect(line.length, lines.join("\n")).toBeLessThanOrEqual(80);
  });
});
