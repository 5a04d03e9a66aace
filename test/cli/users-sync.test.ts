import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import type { SandboxOptions } from "../../src/sandbox/server.js";
import { startTestEnv, tempDir, terminalStdin, type TestEnv } from "../helpers/in-process.js";

// users sync (issue 23) in-process against the sandbox, night after night: the sandbox and
// the CLI share one fake clock, so import tasks finish when the test moves time ("the night
// passes"), and the sandbox applies Add/Update/INACTIVE so that a later night sees them.

const UPLOAD = "/v2/access-api/user/bulk-import";

let t: TestEnv | undefined;
const dirs: { remove(): Promise<void> }[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => d.remove()));
});

/** Called with each request line the sandbox logs ("POST /v2/… 200 3ms"), to time faults. */
let onRequest: ((line: string) => void) | undefined;

async function night(): Promise<{ e: TestEnv; clock: ReturnType<typeof createFakeClock>; dir: string }> {
  onRequest = undefined;
  const clock = createFakeClock();
  const options: SandboxOptions = { now: () => clock.now(), importStepMs: 1000, log: (line) => onRequest?.(line) };
  t = await startTestEnv(options);
  const dir = await tempDir();
  dirs.push(dir);
  return { e: t, clock, dir: dir.path };
}

interface Person {
  first: string;
  last: string;
  email: string;
  team?: string;
  status?: string;
}
const person = (n: number, team = "Sales"): Person => ({
  first: `First${n}`,
  last: `Last${n}`,
  email: `p${n}@example.com`,
  team,
});
const people = (from: number, to: number): Person[] => Array.from({ length: to - from + 1 }, (_, i) => person(from + i));

/** An HR export: no username, role, status or action columns. */
async function roster(dir: string, name: string, rows: Person[]): Promise<string> {
  const lines = ["firstName,lastName,email,teamName", ...rows.map((p) => `${p.first},${p.last},${p.email},${p.team ?? ""}`)];
  const path = join(dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** The rows of every upload a run sent, as "action status email" lines. */
function sentRows(sent: { path: string; body: unknown }[]): string[] {
  return sent
    .filter((r) => r.path === UPLOAD)
    .flatMap((r) => {
      const csv = (r.body as { csvText: string }).csvText.trim().split("\n").slice(1);
      return csv.map((line) => {
        const cells = line.split(",");
        return `${cells[7]} ${cells[6]} ${cells[3]}`;
      });
    });
}

function userOf(e: TestEnv, email: string): { firstName: string; status: string; teamName?: string } | undefined {
  return e.sandbox.state.getUser(e.sandbox.org, email);
}

describe("users sync, night after night", () => {
  it("first night: every user Add and the baseline made; second: a leaver, a mover, a starter; third: the returner", async () => {
    const { e, clock, dir } = await night();
    const opts = { clock };
    // Night 1: 12 users; the first run says it makes the baseline.
    const n1 = await e.capture(["users", "sync", await roster(dir, "hr1.csv", people(1, 12)), "-o", "json"], opts);
    expect(n1.exitCode, n1.stderr).toBe(0);
    expect(n1.stderr).toContain("first sync: no baseline yet");
    expect(sentRows(n1.sent)).toHaveLength(12);
    expect(sentRows(n1.sent).every((l) => l.startsWith("Add ACTIVE"))).toBe(true);
    expect((JSON.parse(n1.stdout) as { change: string }[]).map((r) => r.change)).toEqual(new Array(12).fill("add"));
    clock.advance(10_000);
    expect(userOf(e, "p12@example.com")?.status).toBe("ACTIVE");

    // --plan with nothing new: exit 0, nothing sent.
    const same = await e.capture(["users", "sync", join(dir, "hr1.csv"), "--plan"], opts);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.sent).toEqual([]);

    // Night 2: p3 left, p5 moved team, p13 started.
    const n2rows = [...people(1, 12).filter((p) => p.email !== "p3@example.com"), person(13)].map((p) =>
      p.email === "p5@example.com" ? { ...p, team: "Support" } : p,
    );
    const r2 = await roster(dir, "hr2.csv", n2rows);
    const plan = await e.capture(["users", "sync", r2, "--plan", "-o", "json"], opts);
    expect(plan.exitCode, plan.stderr).toBe(12);
    expect(plan.sent).toEqual([]);
    // Exit 12 is an answer, not an error.
    expect(plan.stderr).toContain("plan: 3 changes pending; nothing was sent");
    expect(plan.stderr).not.toContain("error:");
    expect(JSON.parse(plan.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ change: "add", email: "p13@example.com", action: "Add" }),
        expect.objectContaining({ change: "update", email: "p5@example.com", teamName: "Support", changed: "teamName" }),
        expect.objectContaining({ change: "deactivate", email: "p3@example.com", status: "INACTIVE", row: null }),
      ]),
    );
    const n2 = await e.capture(["users", "sync", r2, "--wait"], opts);
    expect(n2.exitCode, n2.stderr).toBe(0);
    expect(sentRows(n2.sent).sort()).toEqual([
      "Add ACTIVE p13@example.com",
      "Update ACTIVE p5@example.com",
      "Update INACTIVE p3@example.com",
    ]);
    expect(userOf(e, "p3@example.com")?.status).toBe("INACTIVE");
    expect(userOf(e, "p5@example.com")?.teamName).toBe("Support");
    expect(userOf(e, "p13@example.com")?.status).toBe("ACTIVE");

    // Night 3: p3 is back; nothing else changed, so only the returner is sent.
    const n3 = await e.capture(["users", "sync", await roster(dir, "hr3.csv", [...n2rows, person(3)]), "--yes"], opts);
    expect(n3.exitCode, n3.stderr).toBe(0);
    expect(sentRows(n3.sent)).toEqual(["Update ACTIVE p3@example.com"]);
    clock.advance(10_000);
    expect(userOf(e, "p3@example.com")?.status).toBe("ACTIVE");
    const after = await e.capture(["users", "sync", join(dir, "hr3.csv"), "--plan"], opts);
    expect(after.exitCode, after.stderr).toBe(0);
  });

  it("--assume-existing makes a first run Update instead of Add", async () => {
    const { e, clock, dir } = await night();
    const seeded = await e.capture(["users", "import", await usersCsv(dir, people(1, 2)), "--wait"], { clock });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    const r = await e.capture(["users", "sync", await roster(dir, "hr.csv", people(1, 2)), "--assume-existing", "--wait"], {
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sentRows(r.sent)).toEqual(["Update ACTIVE p1@example.com", "Update ACTIVE p2@example.com"]);
  });
});

async function usersCsv(dir: string, rows: Person[]): Promise<string> {
  const lines = [
    "firstName,lastName,username,email,role,teamName,status,action",
    ...rows.map((p) => `${p.first},${p.last},${p.email},${p.email},trainee,${p.team ?? ""},ACTIVE,Add`),
  ];
  const path = join(dir, "seed.csv");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

describe("users sync guards: nothing is sent", () => {
  it.each([
    ["a truncated roster (under half of the baseline)", 1, [] as string[], "under half of the 20 active users"],
    [
      "more leavers than the default 10%",
      17,
      [] as string[],
      "deactivates 3 users, more than the 2 allowed (10% of 20 active users, the default)",
    ],
    ["more leavers than --max-deactivate 2", 17, ["--max-deactivate", "2"], "deactivates 3 users, more than the 2 allowed"],
    [
      "more leavers than --max-deactivate 10%",
      17,
      ["--max-deactivate", "10%"],
      "more than the 2 allowed (10% of 20 active users)",
    ],
  ])("stops with exit 6 for %s", async (_what, keep, flags, message) => {
    const { e, clock, dir } = await night();
    expect((await e.capture(["users", "sync", await roster(dir, "full.csv", people(1, 20))], { clock })).exitCode).toBe(0);
    clock.advance(10_000);
    const r = await e.capture(["users", "sync", await roster(dir, "cut.csv", people(1, keep)), ...flags, "-o", "json"], {
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain("nothing was sent");
    expect(r.sent.filter((s) => s.path === UPLOAD)).toEqual([]);
  });

  it("lets the leavers go when --max-deactivate allows them", async () => {
    const { e, clock, dir } = await night();
    expect((await e.capture(["users", "sync", await roster(dir, "full.csv", people(1, 20))], { clock })).exitCode).toBe(0);
    clock.advance(10_000);
    const r = await e.capture(["users", "sync", await roster(dir, "cut.csv", people(1, 17)), "--max-deactivate", "15%"], {
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(sentRows(r.sent)).toHaveLength(3);
  });

  it("refuses an empty roster", async () => {
    const { e, clock, dir } = await night();
    const path = join(dir, "empty.csv");
    await writeFile(path, "firstName,lastName,email\n");
    const r = await e.capture(["users", "sync", path], { clock });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.sent.filter((s) => s.path === UPLOAD)).toEqual([]);
  });
});

describe("users sync after a failed or killed night", () => {
  it("a FAILED batch (--wait) stays out of the baseline and is sent again the next night, accepted rows are not", async () => {
    const { e, clock, dir } = await night();
    // The sandbox fails every task holding an address at fail.example.com.
    const first = [...people(1, 3), { first: "F", last: "Ail", email: "x@fail.example.com" }];
    const n1 = await e.capture(["users", "sync", await roster(dir, "n1.csv", first), "--wait"], { clock });
    expect(n1.exitCode, n1.stderr).toBe(10);
    expect(n1.stderr).toMatch(
      /ended FAILED; the next `simadmin users sync .*n1\.csv` sends again what the service did not accept/,
    );
    expect(n1.stderr).toContain("4 rows not accepted (yet): the next sync plans them again");
    expect(userOf(e, "p1@example.com")).toBeUndefined();
    // Next night HR fixed the address: everything is planned again, nothing twice.
    const fixed = [...people(1, 3), { first: "F", last: "Ail", email: "x@example.com" }];
    const n2 = await e.capture(["users", "sync", await roster(dir, "n2.csv", fixed), "--wait"], { clock });
    expect(n2.exitCode, n2.stderr).toBe(0);
    expect(sentRows(n2.sent).sort()).toEqual([
      "Add ACTIVE p1@example.com",
      "Add ACTIVE p2@example.com",
      "Add ACTIVE p3@example.com",
      "Add ACTIVE x@example.com",
    ]);
    expect(userOf(e, "x@example.com")?.status).toBe("ACTIVE");
  });

  it("a FAILED task without --wait: the next night asks, plans its rows again, and they never enter the baseline meanwhile", async () => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "n1.csv", [...people(1, 2), { first: "F", last: "Ail", email: "x@fail.example.com" }]);
    const n1 = await e.capture(["users", "sync", path], { clock });
    expect(n1.exitCode, n1.stderr).toBe(0);
    expect(n1.stderr).toContain("3 rows in 1 import task not known to have ended (no --wait): the next sync asks the service");
    clock.advance(10_000);
    // --plan asks nothing; a real run asks, finds FAILED, and sends the three again.
    const n2 = await e.capture(["users", "sync", path, "--wait"], { clock });
    expect(n2.exitCode, n2.stderr).toBe(10);
    expect(n2.stderr).toContain("3 rows of the last run did not reach the service or were not imported");
    expect(n2.sent.map((r) => r.path)[0]).toBe(`${UPLOAD}/status`);
    expect(sentRows(n2.sent).sort()).toEqual([
      "Add ACTIVE p1@example.com",
      "Add ACTIVE p2@example.com",
      "Add ACTIVE x@fail.example.com",
    ]);
    // Still FAILED: still out of the baseline, so a --plan still has them to send.
    const n3 = await e.capture(["users", "sync", path, "--plan", "-o", "json"], { clock });
    expect(n3.exitCode, n3.stderr).toBe(12);
    expect((JSON.parse(n3.stdout) as { change: string }[]).map((r) => r.change)).toEqual(["add", "add", "add"]);
  });

  it("a night cut off mid-upload: the batch that may have arrived is held (exit 8), never sent again unasked", async () => {
    const { e, clock, dir } = await night();
    // 800 starters = two batches (750 + 50); the service accepts the second upload but the
    // connection drops before its answer: the run cannot know, like a run killed mid-upload.
    let uploads = 0;
    onRequest = (line) => {
      if (line.startsWith(`POST ${UPLOAD} `) && ++uploads === 1) e.sandbox.faults.dropAfterAccept(UPLOAD, 1);
    };
    const path = await roster(dir, "n1.csv", people(1, 800));
    const n1 = await e.capture(["users", "sync", path], { clock });
    expect(n1.exitCode, n1.stderr).toBe(8);
    expect(sentRows(n1.sent)).toHaveLength(800);
    clock.advance(10_000);

    // The next night asks how batch 1 ended (COMPLETED: its 750 enter the baseline) and holds batch 2.
    const n2 = await e.capture(["users", "sync", path, "-o", "json"], { clock });
    expect(n2.exitCode, n2.stderr).toBe(8);
    expect(sentRows(n2.sent)).toEqual([]);
    expect(n2.stderr).toContain("the last run's 750 accepted rows entered the baseline");
    expect(n2.stderr).toContain("held batch 2 (50 users of the plan of");
    expect(n2.stderr).toContain(`\`simadmin users sync ${path} --mark-imported 2\``);
    expect(n2.stderr).toContain(`\`simadmin users sync ${path} --resend-ambiguous\``);
    // Every night after is the same until the user says: nothing is ever sent twice by itself.
    const n3 = await e.capture(["users", "sync", path], { clock });
    expect(n3.exitCode, n3.stderr).toBe(8);
    expect(sentRows(n3.sent)).toEqual([]);

    // --resend-ambiguous: the 50 go again, are refused as existing, and that settles them.
    const n4 = await e.capture(["users", "sync", path, "--resend-ambiguous"], { clock });
    expect(n4.exitCode, n4.stderr).toBe(0);
    expect(sentRows(n4.sent)).toEqual(people(751, 800).map((p) => `Add ACTIVE ${p.email}`));
    expect(n4.stderr).toContain("50 Adds refused as existing were sent before");
    clock.advance(10_000);
    const n5 = await e.capture(["users", "sync", path, "--plan"], { clock });
    expect(n5.exitCode, n5.stderr).toBe(0);
    expect(n5.stderr).not.toContain("held batch");
    expect(userOf(e, "p800@example.com")?.status).toBe("ACTIVE");
  });
});

describe("users sync: a cut-off upload, then a night that could not send", () => {
  it("re-sent Adds not delivered stay held, and are still read as 'it went through' when they are", async () => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "n.csv", people(1, 5));
    e.sandbox.faults.dropAfterAccept(UPLOAD, 1);
    expect((await e.capture(["users", "sync", path], { clock })).exitCode).toBe(8);
    clock.advance(10_000);
    e.sandbox.faults.failNext(UPLOAD, 10, 429);
    const n2 = await e.capture(["users", "sync", path, "--resend-ambiguous", "--retries", "0"], { clock });
    expect(n2.exitCode, n2.stderr).toBe(7);
    e.sandbox.faults.clear();
    // Not delivered by n2, but maybe by n1: held again, not planned as new.
    const n3 = await e.capture(["users", "sync", path], { clock });
    expect(n3.exitCode, n3.stderr).toBe(8);
    expect(sentRows(n3.sent)).toEqual([]);
    const n4 = await e.capture(["users", "sync", path, "--resend-ambiguous"], { clock });
    expect(n4.exitCode, n4.stderr).toBe(0);
    expect(n4.stderr).toContain("5 Adds refused as existing");
    const n5 = await e.capture(["users", "sync", path, "--plan"], { clock });
    expect(n5.exitCode, n5.stderr).toBe(0);
    expect(n5.stderr).not.toContain("held batch");
  });
});

describe("users sync: a night interrupted while waiting", () => {
  it("the next night asks how the tasks ended and sends nothing again", async () => {
    const { e, clock, dir } = await night();
    const stop = new AbortController();
    onRequest = (line) => {
      if (line.startsWith(`POST ${UPLOAD}/status `)) stop.abort();
    };
    const path = await roster(dir, "n1.csv", people(1, 5));
    const n1 = await e.capture(["users", "sync", path, "--wait"], { clock, signal: stop.signal });
    expect(n1.exitCode, n1.stderr).toBe(130);
    expect(sentRows(n1.sent)).toHaveLength(5);
    // Ctrl-C names the sync's own next step, never the import of a file of the sync's.
    expect(n1.stderr).toContain(`the state store records what was sent: the next \`simadmin users sync ${path}`);
    expect(n1.stderr).not.toContain("users import");
    expect(n1.stderr).not.toContain("plan.csv");
    onRequest = undefined;
    clock.advance(10_000);
    const n2 = await e.capture(["users", "sync", path, "--wait"], { clock });
    expect(n2.exitCode, n2.stderr).toBe(0);
    expect(n2.stderr).toContain("the last run's 5 accepted rows entered the baseline");
    expect(sentRows(n2.sent)).toEqual([]);
    expect(n2.sent.map((r) => r.path)).toEqual([`${UPLOAD}/status`]);
  });
});

describe("users sync on a terminal, and --resume", () => {
  it.each([
    ["y\n", 0, 2],
    ["n\n", 2, 0],
  ])("asks before sending; answer %j → exit %i, %i rows sent", async (answer, code, rows) => {
    const { e, clock, dir } = await night();
    const stdin = terminalStdin();
    stdin.write(answer);
    const r = await e.capture(["users", "sync", await roster(dir, "hr.csv", people(1, 2)), "-o", "json"], { clock, stdin });
    stdin.end();
    expect(r.exitCode, r.stderr).toBe(code);
    expect(r.stderr).toContain("Send 2 changes to org-demo? [y/N]");
    expect(sentRows(r.sent)).toHaveLength(rows);
  });

  it("--resume sends the last plan's batches never sent, and only those", async () => {
    const { e, clock, dir } = await night();
    let uploads = 0;
    onRequest = (line) => {
      if (line.startsWith(`POST ${UPLOAD} `) && ++uploads === 1) e.sandbox.faults.failNext(UPLOAD, 10, 429);
    };
    const path = await roster(dir, "n1.csv", people(1, 800));
    const n1 = await e.capture(["users", "sync", path, "--retries", "0"], { clock });
    expect(n1.exitCode, n1.stderr).toBe(7);
    e.sandbox.faults.clear();
    const resumed = await e.capture(["users", "sync", path, "--resume"], { clock });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(sentRows(resumed.sent)).toEqual(people(751, 800).map((p) => `Add ACTIVE ${p.email}`));
    clock.advance(10_000);
    const after = await e.capture(["users", "sync", path, "--plan"], { clock });
    expect(after.exitCode, after.stderr).toBe(0);
  });

  it("a held batch checked at the service: --mark-imported records it and its rows enter the baseline", async () => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "n.csv", people(1, 5));
    e.sandbox.faults.dropAfterAccept(UPLOAD, 1);
    const n1 = await e.capture(["users", "sync", path], { clock });
    expect(n1.exitCode, n1.stderr).toBe(8);
    // Ctrl-C or not, no next step ever names a file of the sync's own.
    expect(n1.stderr).not.toContain("users import");
    clock.advance(10_000);
    const held = await e.capture(["users", "sync", path], { clock });
    expect(held.exitCode, held.stderr).toBe(8);
    expect(sentRows(held.sent), held.stderr).toEqual([]);
    // The ways out name the sync's own command.
    expect(held.stderr).toContain(`\`simadmin users sync ${path} --mark-imported 1\``);
    expect(held.stderr).toContain(`\`simadmin users sync ${path} --resend-ambiguous\``);
    expect(held.stderr).not.toContain("users import");
    const both = await e.capture(["users", "sync", path, "--mark-imported", "1", "--resend-ambiguous"], { clock });
    expect(both.exitCode).toBe(2);
    expect(both.sent).toEqual([]);
    const wrong = await e.capture(["users", "sync", path, "--mark-imported", "2"], { clock });
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("--mark-imported: no held batch 2 (held: 1)");

    const marked = await e.capture(["users", "sync", path, "--mark-imported", "1"], { clock });
    expect(marked.exitCode, marked.stderr).toBe(0);
    expect(sentRows(marked.sent)).toEqual([]);
    expect(marked.stderr).toContain("--mark-imported: held batch 1 recorded as imported (5 users entered the baseline)");
    const after = await e.capture(["users", "sync", path, "--plan"], { clock });
    expect(after.exitCode, after.stderr).toBe(0);
    expect(sentRows(after.sent)).toEqual([]);
  });

  it("--resend-ambiguous and --mark-imported with --plan are usage errors and send nothing", async () => {
    const { e, clock, dir } = await night();
    const path = await roster(dir, "hr.csv", people(1, 2));
    for (const flags of [["--resend-ambiguous"], ["--mark-imported", "1"]]) {
      const r = await e.capture(["users", "sync", path, "--plan", ...flags], { clock });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain("they cannot go with --plan");
      expect(r.sent).toEqual([]);
    }
  });
});

const ROSTERS = join(import.meta.dirname, "../../fixtures/users/roster");
const MAP = [
  "--map",
  "firstName=First Name",
  "--map",
  "lastName=Last Name",
  "--map",
  "email=Work Email",
  "--map",
  "teamName=Department",
];

describe("users sync input (rosters written by LibreOffice, fixtures/users/roster/)", () => {
  it.each(["hr-roster.xlsx", "hr-roster-semicolon.csv"])("reads %s with other header names through --map", async (file) => {
    const { e, clock } = await night();
    const r = await e.capture(["users", "sync", join(ROSTERS, file), ...MAP, "--plan", "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(12);
    expect(r.sent).toEqual([]);
    const rows = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(rows.map((x) => [x.row, x.change, x.firstName, x.lastName, x.email, x.teamName])).toEqual([
      [2, "add", "Ana", "Díaz", "ana.diaz@hr.example.org", "Sales"],
      [3, "add", "Björn", "Öberg", "bjorn.oberg@hr.example.org", "Support"],
      [4, "add", "Chloé", "Martin", "chloe.martin@hr.example.org", "Sales"],
      [5, "add", "Dmitri", "Ivanov", "dmitri.ivanov@hr.example.org", ""],
      [6, "add", "Eve", "O'Neil", "eve.oneil@hr.example.org", "Ops, North"],
    ]);
    // The columns HR adds (Employee ID, Start Date) are ignored with one warning.
    expect(r.stderr).toMatch(/2 unknown columns are ignored: "Employee ID" \(column 1\), "Start Date" \(column 6\)/);
  });

  it("sends the workbook's users and then finds nothing to do", async () => {
    const { e, clock } = await night();
    const r = await e.capture(["users", "sync", join(ROSTERS, "hr-roster.xlsx"), ...MAP, "--wait"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(e.sandbox.state.getUser(e.sandbox.org, "eve.oneil@hr.example.org")).toMatchObject({ teamName: "Ops, North" });
    const again = await e.capture(["users", "sync", join(ROSTERS, "hr-roster-semicolon.csv"), ...MAP, "--plan"], { clock });
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it("users import reads a workbook like a CSV (its first sheet)", async () => {
    const { e, clock } = await night();
    const r = await e.capture(["users", "import", join(ROSTERS, "staff.xlsx"), "--dry-run", "-o", "json"], { clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ validRows: 5, invalidRows: 0, adds: 5 });
  });

  it("names the headers there are when --map points at a missing one (exit 2, nothing sent)", async () => {
    const { e, clock, dir } = await night();
    const r = await e.capture(
      ["users", "sync", await roster(dir, "hr.csv", people(1, 2)), "--map", "firstName=Given", "--plan"],
      { clock },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the roster has no column "Given"');
    expect(r.sent).toEqual([]);
  });

  it("stops with exit 6 on an invalid row, and with --skip-invalid leaves that user alone", async () => {
    const { e, clock, dir } = await night();
    expect((await e.capture(["users", "sync", await roster(dir, "a.csv", people(1, 10))], { clock })).exitCode).toBe(0);
    clock.advance(10_000);
    const broken = people(1, 10).map((p) => (p.email === "p4@example.com" ? { ...p, first: "" } : p));
    const r = await e.capture(["users", "sync", await roster(dir, "b.csv", broken), "-o", "json"], { clock });
    expect(r.exitCode).toBe(6);
    expect(JSON.parse(r.stdout)).toEqual([{ row: 5, field: "firstName", message: "required but empty" }]);
    const skip = await e.capture(["users", "sync", join(dir, "b.csv"), "--skip-invalid", "--plan"], { clock });
    expect(skip.exitCode, skip.stderr).toBe(0);
  });
});

describe("users sync --plan: the printed follow-up command (QA bug 1)", () => {
  /** The command inside the hint's backquotes, split as a shell would (single quotes only). */
  function pastedArgs(stderr: string): string[] {
    const m = /run `simadmin ([^`]+)` without --plan/.exec(stderr);
    expect(m, stderr).not.toBeNull();
    const words = m![1]!.match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
    return words.map((w) => w.replace(/^'(.*)'$/s, "$1").replace(/^"(.*)"$/s, "$1"));
  }

  it("keeps --map and the other planning flags and quotes a path with a space, so pasting it sends the plan", async () => {
    const { e, clock, dir } = await night();
    const path = join(dir, "hr export.csv");
    await writeFile(path, "First Name,Surname,Work Email\nAna,Diaz,ana@example.com\nBo,Li,bo@example.com\n");
    const maps = ["--map", "firstName=First Name", "--map", "lastName=Surname", "--map", "email=Work Email"];
    const flags = ["--encoding", "utf-8", "--max-deactivate", "5%", "--skip-invalid", "--assume-existing"];

    const plan = await e.capture(["users", "sync", path, ...maps, ...flags, "--plan", "-o", "json"], { clock });
    expect(plan.exitCode, plan.stderr).toBe(12);
    const args = pastedArgs(plan.stderr);
    expect(args).toEqual(["users", "sync", path, ...maps, ...flags]);

    const pasted = await e.capture([...args, "--yes", "-o", "json"], { clock });
    expect(pasted.exitCode, pasted.stderr).toBe(0);
    // --assume-existing came along: the first run sends Update, not Add.
    expect(sentRows(pasted.sent)).toEqual(["Update ACTIVE ana@example.com", "Update ACTIVE bo@example.com"]);
  });
});

describe("users sync --plan at 80 columns (QA bug 3)", () => {
  it("never splits an email, and names the columns left out in one hint line", async () => {
    const { e, clock, dir } = await night();
    const long = (n: number): Person => ({
      first: `Alexandria${n}`,
      last: `Montgomery-Whitfield${n}`,
      email: `alexandria.montgomery-whitfield${n}@example-corporation.com`,
      team: "Customer Success EMEA",
    });
    const first = await e.capture(["users", "sync", await roster(dir, "n1.csv", [long(1), long(2)]), "--yes"], { clock });
    expect(first.exitCode, first.stderr).toBe(0);
    clock.advance(10_000);
    const moved = { ...long(2), team: "Enterprise Accounts North America" };
    const path = await roster(dir, "n2.csv", [long(1), moved, long(3)]);
    const r = await e.capture(["users", "sync", path, "--plan"], { clock, stdoutIsTTY: true, columns: 80 });
    expect(r.exitCode, r.stderr).toBe(12);
    // eslint-disable-next-line no-control-regex -- the table's colour codes take no columns
    const lines = r.stdout.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
    for (const email of [moved.email, long(3).email])
      expect(
        lines.some((l) => l.includes(email)),
        r.stdout,
      ).toBe(true);
    expect(Math.max(...lines.map((l) => l.length)), r.stdout + r.stderr).toBeLessThanOrEqual(80);
    const hints = r.stderr.split("\n").filter((l) => l.includes("columns shown to fit 80 columns"));
    expect(hints, r.stderr).toHaveLength(1);
    expect(hints[0]).toMatch(/^plan: \d of 9 columns shown to fit 80 columns; left out: .*action, row \(--fields /);
  });
});
