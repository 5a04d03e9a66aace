import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// The promises `users sync` keeps that `users import` keeps too (docs/import-safety.md), and
// its guards (docs/users-sync.md "Guards"): each test fails without the rule it names.

const UPLOAD = "/v2/access-api/user/bulk-import";
const DAY = 24 * 3600_000;

let t: TestEnv | undefined;
const dirs: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

async function night() {
  const clock = createFakeClock();
  t = await startTestEnv({ now: () => clock.now(), importStepMs: 1000 });
  const dir = await tempDir();
  dirs.push(dir);
  return { e: t, clock, dir: dir.path };
}

interface Person {
  first: string;
  last: string;
  email: string;
  team?: string;
}
const person = (n: number, team = "Sales"): Person => ({
  first: `First${n}`,
  last: `Last${n}`,
  email: `p${n}@example.com`,
  team,
});
const people = (from: number, to: number): Person[] => Array.from({ length: to - from + 1 }, (_, i) => person(from + i));

async function roster(dir: string, name: string, rows: Person[], header = "firstName,lastName,email,teamName"): Promise<string> {
  const lines = [header, ...rows.map((p) => `${p.first},${p.last},${p.email},${p.team ?? ""}`)];
  const path = join(dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

function sentRows(sent: { path: string; body: unknown }[]): string[] {
  return sent
    .filter((r) => r.path === UPLOAD)
    .flatMap((r) =>
      (r.body as { csvText: string }).csvText
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => {
          const cells = line.split(",");
          return `${cells[7]} ${cells[6]} ${cells[3]}`;
        }),
    );
}

describe("users sync keeps the import's promises", () => {
  it("an answer whose counts disagree with its row errors is not taken as accepted: the batch is held (exit 8)", async () => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "hr.csv", people(1, 4));
    e.sandbox.faults.miscountNext(UPLOAD, 1);
    const n1 = await e.capture(["users", "sync", path], { clock });
    expect(n1.exitCode, n1.stderr).toBe(8);
    expect(n1.stderr).toContain("the answer counts 4 valid and 2 invalid users for a batch of 4");
    expect(n1.stderr).toContain("baseline: 0 rows accepted by the service entered it");
    // Not in the baseline, not sent again: held until the user checks.
    const n2 = await e.capture(["users", "sync", path], { clock });
    expect(n2.exitCode, n2.stderr).toBe(8);
    expect(sentRows(n2.sent)).toEqual([]);
    expect(n2.stderr).toContain("--mark-imported 1");
  });

  it("rows of a batch the service refused whole never enter the baseline", async () => {
    const { e, clock, dir } = await night();
    // The users exist already (imported before simadmin kept a baseline): every Add is refused.
    const seed = join(dir, "seed.csv");
    await writeFile(
      seed,
      `firstName,lastName,username,email,role,teamName,status,action\n${people(1, 3)
        .map((p) => `${p.first},${p.last},${p.email},${p.email},trainee,Sales,ACTIVE,Add`)
        .join("\n")}\n`,
    );
    expect((await e.capture(["users", "import", seed, "--wait"], { clock })).exitCode).toBe(0);
    const path = await roster(dir, "hr.csv", people(1, 3));
    const n1 = await e.capture(["users", "sync", path, "--wait"], { clock });
    expect(n1.exitCode, n1.stderr).toBe(6);
    expect(n1.stderr).toContain("the service rejected every row");
    expect(n1.stderr).toContain("baseline: 0 rows accepted by the service entered it");
    const plan = await e.capture(["users", "sync", path, "--plan", "-o", "json"], { clock });
    expect(plan.exitCode, plan.stderr).toBe(12);
    expect((JSON.parse(plan.stdout) as { change: string }[]).map((r) => r.change)).toEqual(["add", "add", "add"]);
  });
});

describe("users sync guards count every change", () => {
  it("a swapped --map that would rewrite every user stops before sending, naming the numbers (exit 6)", async () => {
    const { e, clock, dir } = await night();
    const header = "First Name,Last Name,email,teamName";
    const good = await roster(dir, "n1.csv", people(1, 40), header);
    const map = ["--map", "firstName=First Name", "--map", "lastName=Last Name"];
    expect((await e.capture(["users", "sync", good, ...map, "--wait"], { clock })).exitCode).toBe(0);
    const swapped = ["--map", "firstName=Last Name", "--map", "lastName=First Name"];
    const r = await e.capture(["users", "sync", good, ...swapped, "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain(
      "the plan updates 40 users, more than the 4 allowed (10% of 40 users in the baseline, the default); nothing was sent",
    );
    expect(r.stderr).toContain("--max-changes 40");
    expect(sentRows(r.sent)).toEqual([]);
    const allowed = await e.capture(["users", "sync", good, ...swapped, "--max-changes", "40"], { clock });
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(sentRows(allowed.sent)).toHaveLength(40);
  });

  it("nightly deactivations within 10% each are also counted over 7 days", async () => {
    const { e, clock, dir } = await night();
    expect((await e.capture(["users", "sync", await roster(dir, "d0.csv", people(1, 20)), "--wait"], { clock })).exitCode).toBe(
      0,
    );
    // Night 1: 2 of 20 leave (10%): allowed.
    clock.advance(DAY);
    const n1 = await e.capture(["users", "sync", await roster(dir, "d1.csv", people(3, 20)), "--wait"], { clock });
    expect(n1.exitCode, n1.stderr).toBe(0);
    // Night 2: 2 of the 18 left go (within 10% of 18 rounded up), but 4 in two nights is
    // more than 10% of the 20 active before them.
    clock.advance(DAY);
    const n2 = await e.capture(["users", "sync", await roster(dir, "d2.csv", people(5, 20))], { clock });
    expect(n2.exitCode, n2.stderr).toBe(6);
    expect(n2.stderr).toContain(
      "the plan deactivates 2 users and the syncs of the last 7 days deactivated 2: 4, more than the 2 allowed in 7 days (10% of the 20 users active before them, the default)",
    );
    expect(sentRows(n2.sent)).toEqual([]);
    // A week later the first two no longer count.
    clock.advance(7 * DAY);
    const later = await e.capture(["users", "sync", join(dir, "d2.csv")], { clock });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(sentRows(later.sent)).toEqual(["Update INACTIVE p3@example.com", "Update INACTIVE p4@example.com"]);
  });
});

describe("users sync without a baseline", () => {
  it("--plan on a first run says a real run establishes the baseline, not this one", async () => {
    const { e, clock, dir } = await night();
    const r = await e.capture(["users", "sync", await roster(dir, "hr.csv", people(1, 2)), "--plan"], { clock });
    expect(r.exitCode, r.stderr).toBe(12);
    expect(r.stderr).toContain(
      "first sync: no baseline yet for this service and organization; the first run without --plan establishes it",
    );
    expect(r.stderr).not.toContain("this run establishes it");
  });

  it.each([
    ["CI", "true"],
    ["GITHUB_ACTIONS", "true"],
  ])("a first sync under %s warns that leavers cannot be found, naming SIMADMIN_STATE", async (name, value) => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "hr.csv", people(1, 2));
    const r = await e.capture(["users", "sync", path, "--plan"], { clock, env: { [name]: value } });
    expect(r.stderr).toMatch(/first sync .* on a CI runner: without a baseline, users who left the roster cannot be found/);
    expect(r.stderr).toContain("SIMADMIN_STATE=postgres://");
    // Not outside CI, and not once a baseline exists.
    // (CI and GITHUB_ACTIONS removed: the suite itself may run under CI.)
    const plain = await e.capture(["users", "sync", path, "--plan"], {
      clock,
      env: { CI: undefined, GITHUB_ACTIONS: undefined },
    });
    expect(plain.stderr).not.toContain("CI runner");
    expect((await e.capture(["users", "sync", path], { clock })).exitCode).toBe(0);
    const second = await e.capture(["users", "sync", path, "--plan"], { clock, env: { [name]: value } });
    expect(second.stderr).not.toContain("CI runner");
  });
});
