import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import type { WaitEvent } from "../../src/api/rate/scheduler.js";
import { createFakeClock } from "../../src/clock.js";
import { InterruptedError, InvalidDataError, ServiceError } from "../../src/errors.js";
import { legacyDir } from "../../src/commands/users-sync/legacy.js";
import { memoryStateStore } from "../helpers/memory-state.js";
import { runInProcess, tempDir, terminalStdin, type InProcessOptions } from "../helpers/in-process.js";

// users sync in this process with no sandbox and no network: a client that answers each
// request from the test's script and a state store in memory (ServiceFakes,
// src/services.ts). What is checked is what a user or a script sees — the lines on stderr,
// the plan on stdout, the exit code, the requests sent and the state kept — in runs that take
// milliseconds, so that mutation testing (docs/mutation-testing.md) can run them per mutant.

const ORG = "org-1";
const SERVICE = "https://sim.example.com";
const TENANT = JSON.stringify([SERVICE, ORG]).slice(0, -1);
const START = Date.UTC(2026, 10, 20, 2);

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

type Answer = unknown;

/** A client whose uploads answer in turn and whose status questions answer by task id. */
function scriptedClient(script: {
  uploads?: Answer[];
  statuses?: Record<string, string | Error>;
  /** Called during each upload, with what announces a wait as the real client's scheduler does. */
  onUpload?: (announceWait: (event: WaitEvent) => void) => void;
}) {
  let announce: ((event: WaitEvent) => void) | undefined;
  const sent: string[] = [];
  /** Each uploaded file, its rows as records by the file's own header. */
  const files: Record<string, string>[][] = [];
  const uploads = [...(script.uploads ?? [])];
  const api = {
    apiVersion: 2,
    postMultipart: async (endpoint: Endpoint, build: () => FormData) => {
      const form = build();
      const file = form.get("file") as File;
      const [header, ...records] = (await file.text()).trim().split("\n");
      const columns = header!.split(",");
      const users = records.map((line) => Object.fromEntries(line.split(",").map((cell, i) => [columns[i]!, cell])));
      files.push(users);
      const rows = users.map((u) => `${u.action} ${u.status} ${u.email}`);
      sent.push(`${endpoint.path} ${String(form.get("organizationId"))} ${file.name}: ${rows.join("; ")}`);
      script.onUpload?.((event) => announce?.(event));
      const answer = uploads.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
    postJson: async (endpoint: Endpoint, body: { organizationId: string; taskId: string }) => {
      sent.push(`${endpoint.path} ${body.organizationId} ${body.taskId}`);
      const status = script.statuses?.[body.taskId] ?? "STARTED";
      if (status instanceof Error) throw status;
      return { status };
    },
  } as unknown as ApiClient;
  return { api, sent, files, waits: (a: (event: WaitEvent) => void) => (announce = a) };
}

interface Person {
  n: number;
  team?: string;
}
let counter = 0;
async function roster(people: (number | Person)[], extraLines: string[] = []): Promise<string> {
  const lines = [
    "firstName,lastName,email,teamName",
    ...people
      .map((p) => (typeof p === "number" ? { n: p } : p))
      .map((p) => `F${p.n},L${p.n},p${p.n}@example.com,${p.team ?? "Sales"}`),
    ...extraLines,
  ];
  const path = join(dir.path, `roster-${++counter}.csv`);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** One organization's kept state, and the runs against it on one fake clock. */
async function world(options: { env?: Record<string, string> } = {}) {
  const store = memoryStateStore();
  const clock = createFakeClock(START);
  const configDir = join(dir.path, `config-${++counter}`);
  const env = {
    SIMADMIN_BASE_URL: SERVICE,
    SIMADMIN_ORG: ORG,
    SIMADMIN_API_KEY: "sk-test",
    SIMADMIN_CONFIG_DIR: configDir,
    ...options.env,
  };
  const run = async (
    args: string[],
    script: Parameters<typeof scriptedClient>[0] = {},
    extra: InProcessOptions = {},
  ): Promise<{ exitCode: number; stdout: string; stderr: string; sent: string[]; files: Record<string, string>[][] }> => {
    const { api, sent, files, waits } = scriptedClient(script);
    const r = await runInProcess(["users", "sync", ...args], { env, clock, fakes: { api, state: store, waits }, ...extra });
    return { ...r, sent, files };
  };
  /** The users-sync entries kept, by key. */
  const kept = (): Record<string, unknown> =>
    Object.fromEntries(
      [...store.entries]
        .filter(([k]) => k.startsWith(`${TENANT},"users-sync",`))
        .map(([k, v]) => [(JSON.parse(k) as string[])[3]!, v]),
    );
  return { store, clock, configDir, run, kept };
}

const UPLOAD = "/access-api/user/bulk-import";
const STATUS = "/access-api/user/bulk-import/status";
const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");
const baselineEmails = (kept: Record<string, unknown>): string[] =>
  Object.values((kept.baseline as { users: Record<string, { email: string; status: string }> }).users)
    .map((u) => `${u.email} ${u.status}`)
    .sort();

describe("users sync with a scripted service, night after night", () => {
  it("a first night on CI: the CI warning, every user Add, the task kept open; the next night asks it and the users enter the baseline", async () => {
    const w = await world({ env: { CI: "true" } });
    const first = await w.run([await roster([1, 2]), "-o", "json"], { uploads: [{ taskId: "t-1" }] });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      "first sync of this service and organization in the state store memory, on a CI runner: without a baseline",
    );
    expect(first.stderr).toContain(
      `plan for organization ${ORG}: 2 Adds, 0 Updates, 0 to INACTIVE, 0 ACTIVE again, 0 unchanged (first sync: no baseline yet for this service and organization; this run establishes it)`,
    );
    expect(first.stderr).toContain("accepted: batch 1 of 1, task t-1");
    expect(first.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com; Add ACTIVE p2@example.com`,
    ]);
    expect((JSON.parse(first.stdout) as { email: string; change: string }[]).map((r) => `${r.change} ${r.email}`)).toEqual([
      "add p1@example.com",
      "add p2@example.com",
    ]);
    let kept = w.kept();
    expect(kept.run).toBeUndefined();
    expect(kept.tasks).toMatchObject([{ taskId: "t-1", rows: [{ email: "p1@example.com" }, { email: "p2@example.com" }] }]);
    expect(baselineEmails(kept)).toEqual([]);

    // The next night: the task is asked first; p2 has left, p3 has come.
    w.clock.advance(24 * 3600_000);
    const second = await w.run([await roster([1, 3]), "--max-deactivate", "1"], {
      uploads: [{ taskId: "t-2" }],
      statuses: { "t-1": "COMPLETED" },
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("CI runner");
    expect(second.sent).toEqual([
      `${STATUS} ${ORG} t-1`,
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p3@example.com; Update INACTIVE p2@example.com`,
    ]);
    expect(second.stderr).toContain("(baseline of 2026-11-21T02:00:00.000Z: 2 users, 2 active)");
    kept = w.kept();
    expect(baselineEmails(kept)).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
    expect(kept.deactivations).toEqual({ "p2@example.com": "2026-11-21T02:00:00.000Z" });
  });

  it("--wait polls the run's task until it ends and the users enter the baseline in the same run", async () => {
    const w = await world();
    const r = await w.run([await roster([1]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com`, `${STATUS} ${ORG} t-1`]);
    const kept = w.kept();
    expect(baselineEmails(kept)).toEqual(["p1@example.com ACTIVE"]);
    expect(kept.tasks).toEqual([]);
    expect(kept.unsent).toBeUndefined();
  });

  it("a task found FAILED the next night: its rows are planned again and never enter the baseline", async () => {
    const w = await world();
    await w.run([await roster([1, 2])], { uploads: [{ taskId: "t-1" }] });
    const r = await w.run([await roster([1, 2]), "--plan"]);
    expect(r.sent).toEqual([]);
    expect(r.stderr).toContain(
      "2 users in 1 import task not known to have ended: planned as if it COMPLETED; a real run asks the service first",
    );
    expect(r.exitCode).toBe(0);
    const again = await w.run([await roster([1, 2])], { uploads: [{ taskId: "t-2" }], statuses: { "t-1": "FAILED" } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain("2 rows of the last run did not reach the service or were not imported");
    expect(again.sent[1]).toBe(
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com; Add ACTIVE p2@example.com`,
    );
  });

  it("a task still running the next night: its users are left alone and nothing is sent", async () => {
    const w = await world();
    await w.run([await roster([1, 2])], { uploads: [{ taskId: "t-1" }] });
    const r = await w.run([await roster([1, 2, 3])], { uploads: [{ taskId: "t-2" }], statuses: { "t-1": "STARTED" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("2 users in 1 import task still running: left as they are until it ends");
    expect(r.sent).toEqual([`${STATUS} ${ORG} t-1`, `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p3@example.com`]);
    expect((w.kept().tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual(["t-1", "t-2"]);
  });
});

describe("users sync guards, plans and the roster, with a scripted service", () => {
  it("--plan: exit 12 with the changes pending and the command that sends them; nothing sent, nothing kept", async () => {
    const w = await world();
    const path = await roster([1]);
    const r = await w.run([path, "--plan"]);
    expect(r.exitCode).toBe(12);
    expect(r.sent).toEqual([]);
    expect(lines(r.stderr)).toContain(
      `plan for organization ${ORG}: 1 Add, 0 Updates, 0 to INACTIVE, 0 ACTIVE again, 0 unchanged (first sync: no baseline yet for this service and organization; the first run without --plan establishes it)`,
    );
    expect(r.stderr).toContain("plan: 1 change pending; nothing was sent");
    expect(r.stderr).toContain(`run \`simadmin users sync ${path}\` without --plan to send it`);
    expect(w.kept()).toEqual({});
    const two = await w.run([await roster([1, 2]), "--dry-run"]);
    expect(two.exitCode).toBe(12);
    expect(two.stderr).toContain("plan: 2 changes pending; nothing was sent");
    expect(two.stderr).toContain("without --plan to send them");
  });

  it("a roster and the last sync that agree: --plan exits 0, a run sends nothing", async () => {
    const w = await world();
    await w.run([await roster([1]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const plan = await w.run([await roster([1]), "--plan"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("plan: nothing to do; the roster and the last sync agree");
    const r = await w.run([await roster([1])]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
  });

  it("--max-deactivate: more leavers than allowed stop the run before anything is sent; the users deactivated this week count", async () => {
    const w = await world();
    await w.run([await roster([1, 2, 3, 4]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    // One leaver a night is allowed; two are not.
    const refused = await w.run([await roster([1, 2])], {}, {});
    expect(refused.exitCode).toBe(6);
    expect(refused.sent).toEqual([]);
    const one = await w.run([await roster([1, 2, 3]), "--max-deactivate", "1", "--wait"], {
      uploads: [{ taskId: "t-2" }],
      statuses: { "t-2": "COMPLETED" },
    });
    expect(one.exitCode, one.stderr).toBe(0);
    w.clock.advance(24 * 3600_000);
    // p3 leaves the next day: with p4 the day before, two in a week.
    const week = await w.run([await roster([1, 2]), "--max-deactivate", "1"]);
    expect(week.exitCode).toBe(6);
    expect(week.sent).toEqual([]);
    // Eight days later p4's deactivation no longer counts.
    w.clock.advance(8 * 24 * 3600_000);
    const later = await w.run([await roster([1, 2]), "--max-deactivate", "1", "--wait"], {
      uploads: [{ taskId: "t-3" }],
      statuses: { "t-3": "COMPLETED" },
    });
    expect(later.exitCode, later.stderr).toBe(0);
    expect(later.sent[0]).toBe(`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Update INACTIVE p3@example.com`);
    // The two --wait runs before each waited one poll of 1 s.
    expect(w.kept().deactivations).toEqual({ "p3@example.com": "2026-11-29T02:00:02.000Z" });
  });

  it("an invalid roster row stops the run (exit 6, nothing sent); --skip-invalid leaves that user alone", async () => {
    const w = await world();
    const path = await roster([1, 2], ["F9,L9,not-an-email,Sales"]);
    const r = await w.run([path]);
    expect(r.exitCode).toBe(6);
    expect(r.sent).toEqual([]);
    expect(r.stderr).toContain(`1 invalid row in roster-${counter}.csv; nothing was sent; fix it or pass --skip-invalid`);
    const skipped = await w.run([path, "--skip-invalid"], { uploads: [{ taskId: "t-1" }] });
    expect(skipped.exitCode, skipped.stderr).toBe(0);
    expect(skipped.stderr).toContain("1 invalid row in");
    expect(skipped.stderr).toContain("skipped (--skip-invalid); those users are left as they are");
    expect(skipped.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com; Add ACTIVE p2@example.com`,
    ]);
  });

  it("--assume-existing after a first run warns that it applies to a first run only", async () => {
    const w = await world();
    const first = await w.run([await roster([1]), "--assume-existing", "--wait"], {
      uploads: [{ taskId: "t-1" }],
      statuses: { "t-1": "COMPLETED" },
    });
    expect(first.sent[0]).toBe(`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Update ACTIVE p1@example.com`);
    expect(first.stderr).not.toContain("applies to a first run only");
    const r = await w.run([await roster([1, 2]), "--assume-existing", "--plan"]);
    expect(r.stderr).toContain("--assume-existing applies to a first run only: a baseline exists, so new users are Add");
  });

  it("the roster path is required; flags that cannot go together are usage errors before anything is read", async () => {
    const w = await world();
    const missing = await w.run([]);
    expect(missing.exitCode).toBe(2);
    const blank = await w.run([" "]);
    expect(blank.exitCode).toBe(2);
    expect(blank.stderr).toContain("users sync: the roster file is missing");
    const path = await roster([1]);
    for (const [args, message] of [
      [["--plan", "--wait"], "--wait has nothing to wait for with --plan (nothing is sent)"],
      [["--dry-run", "--resume"], "--resume sends; it cannot go with --plan"],
      [
        ["--plan", "--resend-ambiguous"],
        "--resend-ambiguous and --mark-imported settle held batches; they cannot go with --plan",
      ],
      [
        ["--dry-run", "--mark-imported", "2"],
        "--resend-ambiguous and --mark-imported settle held batches; they cannot go with --plan",
      ],
      [["--max-deactivate", "ten"], '--max-deactivate: "ten" is neither a whole number nor a percentage like 10%'],
      [["--max-changes", "5x"], '--max-changes: "5x" is neither a whole number nor a percentage like 10%'],
      [["--wait-timeout", "5m"], "--wait-timeout applies only with --wait; add --wait, or drop --wait-timeout"],
    ] as const) {
      const r = await w.run([path, ...args]);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(message);
    }
    const map = await w.run([path, "--map", "nonsense"]);
    expect(map.exitCode).toBe(2);
    expect(map.stderr).toMatch(/--map/);
    expect(w.kept()).toEqual({});
  });

  it("--map takes a roster column under another name; --wait-timeout with --wait is accepted", async () => {
    const w = await world();
    const path = join(dir.path, `mapped-${++counter}.csv`);
    await writeFile(path, "First,Last,Mail,Team\nAnn,Lee,ann@example.com,Ops\n");
    const r = await w.run(
      [
        path,
        "--map",
        "firstName=First",
        "--map",
        "lastName=Last",
        "--map",
        "email=Mail",
        "--map",
        "teamName=Team",
        "--wait",
        "--wait-timeout",
        "5m",
      ],
      { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent[0]).toBe(`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE ann@example.com`);
  });

  it("on a terminal the run asks before sending: no sends nothing, --yes does not ask", async () => {
    const w = await world();
    const path = await roster([1]);
    const stdin = terminalStdin();
    const pending = w.run([path], {}, { stdin, stderrIsTTY: false });
    stdin.end("n\n");
    const no = await pending;
    expect(no.exitCode).toBe(2);
    expect(no.stderr).toContain(`Send 1 change to ${ORG}?`);
    expect(no.stderr).toContain("sync cancelled; nothing was sent; pass --yes to skip the question");
    expect(no.sent).toEqual([]);
    const yes = await w.run([path, "--yes"], { uploads: [{ taskId: "t-1" }] }, { stdin: terminalStdin() });
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(yes.stderr).not.toContain("Send 1 change");
    expect(yes.sent).toHaveLength(1);
  });
});

describe("users sync when the service refuses or the upload is cut off, with a scripted service", () => {
  it("a batch refused whole: named, no task, and its users planned again next night", async () => {
    const w = await world();
    const r = await w.run([await roster([1, 2])], {
      uploads: [
        new (await import("../../src/errors.js")).InvalidDataError("400 no valid row", {
          body: {
            validUsersCount: 0,
            invalidUsersCount: 2,
            errors: [
              { row: 2, errors: ["exists"] },
              { row: 3, errors: ["team unknown"] },
            ],
          },
        }),
      ],
    });
    expect(r.stderr).toContain(
      "batch 1 (2 users): the service rejected every row; no task was created; continuing with the other batches",
    );
    expect(r.stderr).toContain("batch 1 (rows 2–3): 2 rows rejected by the service");
    expect(r.stderr).toContain("p1@example.com: exists");
    expect(r.stderr).toContain("p2@example.com: team unknown");
    expect(baselineEmails(w.kept())).toEqual([]);
  });

  it("rows rejected inside an accepted batch are named by roster row and email", async () => {
    const w = await world();
    const r = await w.run([await roster([1, 2])], {
      uploads: [{ taskId: "t-1", validUsersCount: 1, invalidUsersCount: 1, errors: [{ row: 3, errors: ["bad team"] }] }],
    });
    expect(r.stderr).toContain("batch 1 (rows 2–3): 1 row rejected by the service");
    expect(r.stderr).toMatch(/row 3\b.*p2@example\.com: bad team/);
  });

  it("an upload cut off: the batch is held (exit 8); --plan shows it held; --mark-imported records it; --resend-ambiguous sends it again", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    const cut = await w.run([path], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    expect(cut.exitCode).toBe(8);
    expect((w.kept().held as unknown[]).length).toBe(1);
    const plan = await w.run([path, "--plan"]);
    expect(plan.stderr).toContain(
      "held batch 1 (2 users of the plan of 2026-11-20T02:00:00.000Z: p1@example.com, p2@example.com) is held",
    );
    expect(plan.sent).toEqual([]);

    const bad = await w.run([path, "--mark-imported", "7"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--mark-imported:");
    expect(bad.stderr).toContain(`nothing was recorded or sent; run \`simadmin users sync ${path}\` to see what is held`);

    const resend = await w.run([path, "--resend-ambiguous"], { uploads: [{ taskId: "t-9" }] });
    expect(resend.exitCode, resend.stderr).toBe(0);
    expect(resend.stderr).toContain(
      "--resend-ambiguous: sending the users of held batch 1 again; an Add the service refuses as existing is taken as done",
    );
    expect(resend.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com; Add ACTIVE p2@example.com`,
    ]);
    expect(w.kept().held).toEqual([]);
    const none = await w.run([path, "--resend-ambiguous"], { statuses: { "t-9": "STARTED" } });
    expect(none.stderr).toContain("--resend-ambiguous: no batch is held; nothing to send again");
  });

  it("--mark-imported: the held batch's users enter the baseline and nothing is sent", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    await w.run([path], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    const r = await w.run([path, "--mark-imported", "1"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "--mark-imported: held batch 1 recorded as imported (2 users entered the baseline); nothing was sent",
    );
    expect(r.sent).toEqual([]);
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
  });

  it("Ctrl-C while sending: exit 130, and the note says the next sync settles it (no file to pass)", async () => {
    const w = await world();
    const controller = new AbortController();
    const r = await w.run(
      [await roster([1])],
      { uploads: [new InterruptedError()], onUpload: () => controller.abort() },
      { signal: controller.signal },
    );
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain("the state store records what was sent: the next `simadmin users sync");
    expect(r.stderr).toContain("settles it and sends nothing twice");
    expect(r.stderr).not.toContain("plan.csv");
  });

  it("--resume with nothing to resume is a usage error; after a run cut short it sends only what was not sent", async () => {
    const w = await world();
    const path = await roster([1]);
    const nothing = await w.run([path, "--resume"]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain(`--resume: there is no unfinished sync of organization ${ORG} to resume`);
    expect(nothing.stderr).toContain(`run \`simadmin users sync ${path}\` without --resume`);

    // 752 users: two batches; the first upload is cut off, so the second is never sent.
    const many = Array.from({ length: 752 }, (_, i) => i + 1);
    const big = await roster(many);
    const cut = await w.run([big], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    expect(cut.exitCode).toBe(8);
    expect(cut.sent).toHaveLength(1);
    const resumed = await w.run([big, "--resume"], { uploads: [{ taskId: "t-2" }] });
    // Batch 1 is still held: the run says so with exit 8.
    expect(resumed.exitCode, resumed.stderr).toBe(8);
    expect(resumed.stderr).toContain(
      `--resume: finishing the plan of 2026-11-20T02:00:00.000Z (2 rows to send); roster-${counter}.csv is not read`,
    );
    expect(resumed.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p751@example.com; Add ACTIVE p752@example.com`,
    ]);
    expect(w.kept().unsent).toBeUndefined();
  });
});

describe("users sync state of an earlier version, with a scripted service", () => {
  async function legacy(w: Awaited<ReturnType<typeof world>>): Promise<string> {
    const old = legacyDir(w.configDir, SERVICE, ORG);
    await mkdir(old, { recursive: true });
    const user = { email: "p1@example.com", firstName: "F1", lastName: "L1", teamName: "Sales", status: "ACTIVE" };
    await writeFile(
      join(old, "baseline.json"),
      JSON.stringify({
        version: 1,
        baseUrl: SERVICE,
        organizationId: ORG,
        createdAt: "2026-11-01T02:00:00.000Z",
        updatedAt: "2026-11-19T02:00:00.000Z",
        users: { "p1@example.com": user },
      }),
    );
    return old;
  }

  it("--plan reads the old settings directory as it is; a real run moves it into the store and renames it", async () => {
    const w = await world();
    const old = await legacy(w);
    const plan = await w.run([await roster([1, 2]), "--plan"]);
    expect(plan.stderr).toContain(
      `--plan: using the users sync state of ${old} as it is; a real run moves it into the state store memory`,
    );
    expect(plan.stderr).toContain("(baseline of 2026-11-19T02:00:00.000Z: 1 user, 1 active)");
    expect(w.kept()).toEqual({});
    const r = await w.run([await roster([1, 2])], { uploads: [{ taskId: "t-1" }] });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `moved the users sync state of ${old} into the state store memory (the old files are kept in ${old}.moved)`,
    );
    expect(r.sent).toEqual([`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p2@example.com`]);
    expect(await readdir(join(w.configDir, "sync"))).toEqual([`${old.split("/").pop()}.moved`]);
  });

  it("under --sandbox the settings directory is not looked at", async () => {
    const w = await world();
    await legacy(w);
    const plan = await w.run([await roster([1]), "--plan", "--sandbox"]);
    expect(plan.exitCode, plan.stderr).toBe(12);
    expect(plan.stderr).not.toContain("using the users sync state of");
    expect(plan.stderr).toContain("(first sync: no baseline yet");
  });
});

describe("users sync: what a run leaves, settled by the next, with a scripted service", () => {
  it("a run stopped while waiting: the next asks how its task ended, takes the users into the baseline and, with nothing to send, keeps that", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    const stopped = await w.run([path, "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": new InterruptedError() } });
    expect(stopped.exitCode).toBe(130);
    expect(stopped.stderr).toContain("the state store records what was sent: the next `simadmin users sync");
    expect(w.kept().run).toMatchObject({ batches: [{ number: 1, taskId: "t-1" }] });

    const next = await w.run([path], { statuses: { "t-1": "COMPLETED" } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.sent).toEqual([`${STATUS} ${ORG} t-1`]);
    expect(next.stderr).toContain("the last run's 2 accepted rows entered the baseline");
    const kept = w.kept();
    expect(baselineEmails(kept)).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
    expect(kept.run).toBeUndefined();
    expect(kept.unsent).toBeUndefined();
    const plan = await w.run([path, "--plan"]);
    expect(plan.exitCode).toBe(0);
    expect(plan.stderr).not.toContain("entered the baseline");
  });

  it("an open task found COMPLETED with nothing else to send: the baseline and the tasks are written by the settling alone", async () => {
    const w = await world();
    const path = await roster([1]);
    await w.run([path], { uploads: [{ taskId: "t-1" }] });
    const r = await w.run([path], { statuses: { "t-1": "COMPLETED" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([`${STATUS} ${ORG} t-1`]);
    const kept = w.kept();
    expect(kept.tasks).toEqual([]);
    expect(baselineEmails(kept)).toEqual(["p1@example.com ACTIVE"]);
    // Asked once: the next run has nothing to ask.
    const again = await w.run([path]);
    expect(again.sent).toEqual([]);
    expect(again.stderr).not.toContain("import task");
  });

  it("the rows a cut-off run never sent wait for --resume; a plain run plans from the roster and forgets them", async () => {
    const w = await world();
    const many = Array.from({ length: 752 }, (_, i) => i + 1);
    const big = await roster(many);
    await w.run([big], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    expect((w.kept().unsent as { rows: unknown[] }).rows).toHaveLength(2);
    // The held batch is recorded as imported, and the roster now has its 750 users only: nothing
    // to send, and the two rows never sent are forgotten (a --resume would have sent them).
    const small = await roster(many.slice(0, 750));
    const r = await w.run([small, "--mark-imported", "1"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    expect(w.kept().unsent).toBeUndefined();
  });

  it("CI is told apart by CI or GITHUB_ACTIONS set to anything but empty, false or 0", async () => {
    for (const [env, warned] of [
      [{ CI: "false" }, false],
      [{ CI: "0" }, false],
      [{ CI: "" }, false],
      [{ GITHUB_ACTIONS: "true" }, true],
      [{ CI: "1" }, true],
    ] as const) {
      const w = await world({ env });
      const r = await w.run([await roster([1]), "--plan"]);
      expect(r.stderr.includes("on a CI runner"), JSON.stringify(env)).toBe(warned);
    }
  });

  it("under GitHub Actions an invalid roster row is an annotation on its line: an error, or a warning when skipped", async () => {
    const summary = join(dir.path, `summary-${++counter}.md`);
    await writeFile(summary, "");
    const w = await world({ env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } });
    const path = await roster([1], ["F9,L9,not-an-email,Sales"]);
    const r = await w.run([path, "--plan"]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/::error file=[^,]+,line=3,title=row 3 rejected::row 3: email: /);
    // Every problem of a row, in one annotation.
    const two = await w.run([await roster([1], [",L9,not-an-email,Sales"]), "--plan"]);
    expect(two.stderr).toMatch(/::error file=[^,]+,line=3,title=row 3 rejected::row 3: firstName: [^:]+; email: /);
    const skipped = await w.run([path, "--plan", "--skip-invalid"]);
    expect(skipped.stderr).toMatch(/::warning file=[^,]+,line=3,title=row 3 skipped::row 3: email: /);
    expect(await readFile(summary, "utf8")).toContain("| Roster | 1 user, 1 invalid row |");
  });

  it("the plan as a table at 60 columns names the columns left out; with --fields or -o json it does not", async () => {
    const w = await world();
    const path = await roster([{ n: 1, team: "Customer Success Europe" }]);
    const table = await w.run([path, "--plan"], {}, { stdoutIsTTY: true, columns: 60 });
    expect(table.stderr).toMatch(/columns shown to fit 60 columns/);
    const fields = await w.run([path, "--plan", "--fields", "email,change"], {}, { stdoutIsTTY: true, columns: 60 });
    expect(fields.stderr).not.toMatch(/columns shown to fit/);
    const json = await w.run([path, "--plan", "-o", "json"], {}, { stdoutIsTTY: true, columns: 60 });
    expect(json.stderr).not.toMatch(/columns shown to fit/);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        change: "add",
        action: "Add",
        email: "p1@example.com",
        firstName: "F1",
        lastName: "L1",
        teamName: "Customer Success Europe",
        status: "ACTIVE",
        row: 2,
        changed: "",
      },
    ]);
  });

  it("a user deactivated, back, and leaving again within the week is not counted twice against --max-deactivate", async () => {
    const w = await world();
    const wait = (id: string) => ({ uploads: [{ taskId: id }], statuses: { [id]: "COMPLETED" } });
    await w.run([await roster([1, 2, 3]), "--wait"], wait("t-1"));
    w.clock.advance(24 * 3600_000);
    expect((await w.run([await roster([1, 2]), "--wait", "--max-deactivate", "1"], wait("t-2"))).exitCode).toBe(0);
    w.clock.advance(24 * 3600_000);
    expect((await w.run([await roster([1, 2, 3]), "--wait"], wait("t-3"))).exitCode).toBe(0);
    w.clock.advance(24 * 3600_000);
    const again = await w.run([await roster([1, 2]), "--wait", "--max-deactivate", "1"], wait("t-4"));
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.sent[0]).toBe(`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Update INACTIVE p3@example.com`);
    expect(Object.keys(w.kept().deactivations as object)).toEqual(["p3@example.com"]);
    // The next day p2 leaves too: the history keeps p3 (two days old) beside p2.
    w.clock.advance(24 * 3600_000);
    const next = await w.run([await roster([1]), "--wait", "--max-deactivate", "2"], wait("t-5"));
    expect(next.exitCode, next.stderr).toBe(0);
    expect(Object.keys(w.kept().deactivations as object).sort()).toEqual(["p2@example.com", "p3@example.com"]);
  });

  it("a re-sent Add the service refuses as existing is taken as done when its task COMPLETED", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    await w.run([path], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    const resend = await w.run([path, "--resend-ambiguous"], {
      uploads: [
        { taskId: "t-9", validUsersCount: 1, invalidUsersCount: 1, errors: [{ row: 2, errors: ["user already exists"] }] },
      ],
    });
    expect(resend.exitCode, resend.stderr).toBe(0);
    const next = await w.run([path], { statuses: { "t-9": "COMPLETED" } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toContain("the last run's 1 accepted row entered the baseline");
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
    expect(next.sent).toEqual([`${STATUS} ${ORG} t-9`]);
  });

  it("--wait asks nothing when no batch has a task: a batch refused whole, an upload cut off", async () => {
    const w = await world();
    const refused = await w.run([await roster([1]), "--wait"], {
      uploads: [
        new InvalidDataError("400 no valid row", {
          body: { validUsersCount: 0, invalidUsersCount: 1, errors: [{ row: 2, errors: ["bad"] }] },
        }),
      ],
    });
    expect(refused.sent).toEqual([`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com`]);
    const cut = await w.run([await roster([2]), "--wait"], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    expect(cut.exitCode).toBe(8);
    expect(cut.sent).toHaveLength(1);
  });

  it("on a terminal the upload is shown as it goes", async () => {
    const w = await world();
    const r = await w.run([await roster([1, 2])], { uploads: [{ taskId: "t-1" }] }, { stderrIsTTY: true });
    expect(r.stderr).toContain("uploading batch 1 of 1 (2 users)…");
    // Once the batch is uploaded the line is gone: it is not drawn again below the answer.
    const after = stripVTControlCharacters(r.stderr).split("accepted: batch 1 of 1, task t-1")[1];
    expect(after).toBeDefined();
    expect(after).not.toContain("uploading");
  });

  it("a wait of the rate budget or of a retry during an upload is named on the progress line", async () => {
    // docs/rate-limits.md "Waits are shown": multi-step commands show a wait in their progress
    // line. Without a terminal the line is written once 25 s have passed (docs/ci-and-cron.md).
    const w = await world();
    const wait = { group: "access", label: "users bulk import" } as const;
    const r = await w.run([await roster([1, 2])], {
      uploads: [{ taskId: "t-1" }],
      onUpload: (announce) => {
        w.clock.advance(30_000);
        announce({ ...wait, reason: "budget", waitMs: 5_000, attempt: 1 });
        w.clock.advance(30_000);
        announce({ ...wait, reason: "retry", waitMs: 61_000, attempt: 2 });
      },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("uploading batch 1 of 1 (2 users) · waiting 5s for the access rate budget (30s so far)\n");
    expect(r.stderr).toContain("uploading batch 1 of 1 (2 users) · waiting 1m 1s for the retry (1m so far)\n");
  });
});

describe("users sync: the last run settled, told and written, with a scripted service", () => {
  const rowRejected = (row: number, message: string) => ({
    validUsersCount: 1,
    invalidUsersCount: 1,
    errors: [{ row, errors: [message] }],
  });

  it("a run stopped while waiting with a row rejected: --plan writes nothing; the next run takes the accepted row in and sends the rejected one again", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    const stopped = await w.run([path, "--wait"], {
      uploads: [{ taskId: "t-1", ...rowRejected(3, "bad team") }],
      statuses: { "t-1": new InterruptedError() },
    });
    expect(stopped.exitCode).toBe(130);
    const left = structuredClone(w.kept());
    expect(left.run).toBeDefined();

    const plan = await w.run([path, "--plan"]);
    expect(plan.sent).toEqual([]);
    expect(lines(plan.stderr)).toContain(
      "1 user in 1 import task not known to have ended: planned as if it COMPLETED; a real run asks the service first",
    );
    expect(w.kept()).toEqual(left);

    const next = await w.run([path], { uploads: [{ taskId: "t-2" }], statuses: { "t-1": "COMPLETED" } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(lines(next.stderr)).toContain("the last run's 1 accepted row entered the baseline");
    expect(lines(next.stderr)).toContain(
      "1 row of the last run did not reach the service or were not imported (never sent, FAILED or rejected): planned again",
    );
    expect(next.stderr).not.toContain("refused as existing");
    expect(next.sent).toEqual([
      `${STATUS} ${ORG} t-1`,
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p2@example.com`,
    ]);
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE"]);
  });

  it("a re-sent Add refused as existing, in a run stopped while waiting: the next run says it was delivered before and takes both users in", async () => {
    const w = await world();
    const path = await roster([1, 2]);
    await w.run([path], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    const stopped = await w.run([path, "--resend-ambiguous", "--wait"], {
      uploads: [{ taskId: "t-9", ...rowRejected(2, "user already exists") }],
      statuses: { "t-9": new InterruptedError() },
    });
    expect(stopped.exitCode).toBe(130);
    const next = await w.run([path], { statuses: { "t-9": "COMPLETED" } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(lines(next.stderr)).toContain("the last run's 2 accepted rows entered the baseline");
    expect(lines(next.stderr)).toContain(
      "1 Add refused as existing were sent before in an upload that may have been received: it was; they are in the baseline",
    );
    expect(next.stderr).not.toContain("planned again");
    expect(next.sent).toEqual([`${STATUS} ${ORG} t-9`]);
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
  });

  it("two tasks not known to have ended are told as 'they', with the users of both", async () => {
    const w = await world();
    await w.run([await roster([1])], { uploads: [{ taskId: "t-1" }] });
    await w.run([await roster([1, 2, 3])], { uploads: [{ taskId: "t-2" }], statuses: { "t-1": "STARTED" } });
    const plan = await w.run([await roster([1, 2, 3]), "--plan"]);
    expect(lines(plan.stderr)).toContain(
      "3 users in 2 import tasks not known to have ended: planned as if they COMPLETED; a real run asks the service first",
    );
    const r = await w.run([await roster([1, 2, 3])], { statuses: { "t-1": "STARTED", "t-2": "SCHEDULED" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lines(r.stderr)).toContain("3 users in 2 import tasks still running: left as they are until they end");
    expect(r.sent).toEqual([`${STATUS} ${ORG} t-1`, `${STATUS} ${ORG} t-2`]);
  });

  it("a task found FAILED whose users left the roster: nothing is sent, and the task is dropped so that no later run asks it again", async () => {
    const w = await world();
    await w.run([await roster([1, 2]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    await w.run([await roster([1, 2, 3])], { uploads: [{ taskId: "t-2" }] });
    const r = await w.run([await roster([1, 2])], { statuses: { "t-2": "FAILED" } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([`${STATUS} ${ORG} t-2`]);
    expect(w.kept().tasks).toEqual([]);
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE"]);
    const later = await w.run([await roster([1, 2])]);
    expect(later.sent).toEqual([]);
  });

  it("the rows a run cut off by Ctrl-C never sent are kept for --resume by the next run, even one stopped by an invalid roster row", async () => {
    const w = await world();
    const many = Array.from({ length: 752 }, (_, i) => i + 1);
    const big = await roster(many);
    const controller = new AbortController();
    const cut = await w.run(
      [big],
      { uploads: [new InterruptedError()], onUpload: () => controller.abort() },
      { signal: controller.signal },
    );
    expect(cut.exitCode).toBe(130);
    const invalid = await w.run([await roster([1], ["F9,L9,not-an-email,Sales"])]);
    expect(invalid.exitCode).toBe(6);
    expect(w.kept().unsent).toMatchObject({
      createdAt: "2026-11-20T02:00:00.000Z",
      rows: [{ email: "p751@example.com" }, { email: "p752@example.com" }],
    });
    const resumed = await w.run([big, "--resume"], { uploads: [{ taskId: "t-2" }] });
    expect(resumed.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p751@example.com; Add ACTIVE p752@example.com`,
    ]);
  });

  it("a first run stopped by invalid roster rows keeps nothing, names them all and asks to fix them", async () => {
    const w = await world();
    const path = await roster([1], ["F8,L8,bad-8,Sales", "F9,L9,bad-9,Sales"]);
    const r = await w.run([path]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain(`2 invalid rows in roster-${counter}.csv; nothing was sent; fix them or pass --skip-invalid`);
    expect(w.kept()).toEqual({});
  });
});

describe("users sync: what is sent and shown, with a scripted service", () => {
  const plain = (text: string): string => stripVTControlCharacters(text);

  it("each roster user is sent as a trainee whose username is the email, in the users CSV's columns; a clean roster and batch add no problem lines", async () => {
    const w = await world();
    const r = await w.run([await roster([1])], { uploads: [{ taskId: "t-1" }] });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.files).toEqual([
      [
        {
          firstName: "F1",
          lastName: "L1",
          username: "p1@example.com",
          email: "p1@example.com",
          role: "trainee",
          teamName: "Sales",
          status: "ACTIVE",
          action: "Add",
        },
      ],
    ]);
    expect(r.stderr).not.toContain("invalid row");
    expect(r.stderr).not.toContain("rejected by the service");
  });

  it("--encoding reads the roster in that encoding; a byte-order mark that says otherwise and blank rows are noted", async () => {
    const w = await world();
    const latin = join(dir.path, `latin-${++counter}.csv`);
    await writeFile(latin, Buffer.from("firstName,lastName,email,teamName\nZo\xEB,L1,p1@example.com,Sales\n", "latin1"));
    const r = await w.run([latin, "--encoding", "windows-1252"], { uploads: [{ taskId: "t-1" }] });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.files[0]![0]!.firstName).toBe("Zoë");

    const marked = join(dir.path, `marked-${counter}.csv`);
    await writeFile(
      marked,
      "\uFEFFfirstName,lastName,email,teamName\nF2,L2,p2@example.com,Sales\n,,,\nF3,L3,p3@example.com,Sales\n",
    );
    const plan = await w.run([marked, "--plan", "--encoding", "windows-1252"]);
    expect(lines(plan.stderr)).toContain(
      `warning: marked-${counter}.csv: the file starts with a UTF-8 byte-order mark, so it was read as UTF-8, not as windows-1252 (--encoding)`,
    );
    expect(lines(plan.stderr)).toContain(`warning: marked-${counter}.csv: 1 blank row was skipped`);
  });

  it("a --map naming a column the roster lacks is a usage error naming the roster's header; nothing is sent", async () => {
    const w = await world();
    const r = await w.run([await roster([1]), "--map", "email=Work Email"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'error: --map email="Work Email": the roster has no column "Work Email" (its header: "firstName", "lastName", "email", "teamName"); nothing was sent',
    );
    expect(r.sent).toEqual([]);
  });

  it("a roster without an email column is invalid data (exit 6) naming what it lacks, not a usage error", async () => {
    const w = await world();
    const path = join(dir.path, `no-email-${++counter}.csv`);
    await writeFile(path, "firstName,lastName,teamName\nF1,L1,Sales\n");
    const r = await w.run([path]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("the roster has no column email");
    expect(r.sent).toEqual([]);
  });

  it("rejected rows: each message of a row is shown; a row the service names outside the batch is shown without an email", async () => {
    const w = await world();
    const r = await w.run([await roster([1, 2])], {
      uploads: [
        {
          taskId: "t-1",
          validUsersCount: 0,
          invalidUsersCount: 2,
          errors: [
            { row: 3, errors: ["bad team", "bad name"] },
            { row: 9, errors: ["unknown row"] },
          ],
        },
      ],
    });
    expect(lines(r.stderr)).toContain("batch 1 (rows 2–3): 2 rows rejected by the service");
    expect(lines(r.stderr)).toContain("  row 3: p2@example.com: bad team; bad name");
    expect(lines(r.stderr)).toContain("  row ?: unknown row");
  });

  it("--wait tells each batch's task as it ends; a run stopped by a held batch does not wait", async () => {
    const w = await world();
    const waited = await w.run([await roster([1]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    expect(lines(waited.stderr)).toContain("batch 1 (t-1): COMPLETED");

    const many = Array.from({ length: 752 }, (_, i) => i + 10);
    const stopped = await w.run([await roster(many), "--wait"], {
      uploads: [{ taskId: "t-2" }, new ServiceError("502 bad gateway", { status: 502 })],
      statuses: { "t-2": "COMPLETED" },
    });
    expect(stopped.exitCode).toBe(8);
    expect(stopped.sent.map((s) => s.split(":")[0])).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-2.csv`,
      `${UPLOAD} ${ORG} users-sync.batch-2-of-2.csv`,
    ]);
  });

  it("an Update names the fields that changed", async () => {
    const w = await world();
    await w.run([await roster([1, 2]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const path = join(dir.path, `changed-${++counter}.csv`);
    await writeFile(path, "firstName,lastName,email,teamName\nF1,Lee,p1@example.com,Ops\nF2,L2,p2@example.com,Sales\n");
    const r = await w.run([path, "--plan", "-o", "json"]);
    expect(JSON.parse(r.stdout)).toMatchObject([{ email: "p1@example.com", change: "update", changed: "lastName,teamName" }]);
  });

  it("the plan table at 60 columns shows the most wanted columns that fit, in the plan's order, and names the others; at 200 or with no change, no hint", async () => {
    const w = await world();
    const path = await roster([{ n: 1, team: "Customer Success Europe" }]);
    const narrow = await w.run([path, "--plan"], {}, { stdoutIsTTY: true, columns: 60 });
    // Widths: email 14, change 6, status 6, changed 7, teamName 23, firstName 9, lastName 8,
    // action 6, row 3, each + 3 for its border and padding, + 1: email, change, status and
    // changed take 47; teamName does not fit (73), firstName does (59), the rest do not.
    const header = plain(narrow.stdout).split("\n")[1]!;
    expect(
      header
        .split("│")
        .map((c) => c.trim())
        .filter((c) => c !== ""),
    ).toEqual(["change", "email", "firstName", "status", "changed"]);
    expect(narrow.stderr).toContain("plan: 5 of 9 columns shown to fit 60 columns; left out: teamName, lastName, action, row (");
    const wide = await w.run([path, "--plan"], {}, { stdoutIsTTY: true, columns: 200 });
    expect(wide.stderr).not.toContain("columns shown");
    await w.run([path, "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const none = await w.run([path, "--plan"], {}, { stdoutIsTTY: true, columns: 60 });
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stderr).not.toContain("columns shown");
  });
});

describe("users sync: the run's own rules, with a scripted service", () => {
  /** Two held batches: p1, p2 cut off one night; p3 cut off the next (p1, p2 left alone). */
  async function twoHeld(w: Awaited<ReturnType<typeof world>>): Promise<string> {
    const cutOff = { uploads: [new ServiceError("502 bad gateway", { status: 502 })] };
    await w.run([await roster([1, 2])], cutOff);
    const path = await roster([1, 2, 3]);
    await w.run([path], cutOff);
    expect((w.kept().held as unknown[]).length).toBe(2);
    return path;
  }

  it("a real run takes the users-sync lock in the store's name of the command; --plan takes none", async () => {
    const w = await world();
    const locks: string[] = [];
    w.store.lock = async (_tenant, kind, options) => {
      locks.push(`${kind}: ${options.purpose}`);
      return { release: async () => {} };
    };
    await w.run([await roster([1]), "--plan"]);
    expect(locks).toEqual([]);
    await w.run([await roster([1])], { uploads: [{ taskId: "t-1" }] });
    expect(locks).toEqual(["users-sync: simadmin users sync"]);
  });

  it("--plan needs no API key; a real run without one stops (exit 3) before it takes the lock", async () => {
    const w = await world();
    const locks: string[] = [];
    w.store.lock = async (_tenant, kind) => {
      locks.push(kind);
      return { release: async () => {} };
    };
    const env = { SIMADMIN_BASE_URL: SERVICE, SIMADMIN_ORG: ORG, SIMADMIN_CONFIG_DIR: w.configDir };
    const path = await roster([1]);
    const plan = await runInProcess(["users", "sync", path, "--plan"], { env, clock: w.clock, fakes: { state: w.store } });
    expect(plan.exitCode, plan.stderr).toBe(12);
    const r = await runInProcess(["users", "sync", path], { env, clock: w.clock, fakes: { state: w.store } });
    expect(r.exitCode, r.stderr).toBe(3);
    expect(locks).toEqual([]);
  });

  it("two held batches: --mark-imported 1,2 names both and takes their users in", async () => {
    const w = await world();
    const path = await twoHeld(w);
    const r = await w.run([path, "--mark-imported", "1,2"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lines(r.stderr)).toContain(
      "--mark-imported: held batch 1, 2 recorded as imported (3 users entered the baseline); nothing was sent",
    );
    expect(baselineEmails(w.kept())).toEqual(["p1@example.com ACTIVE", "p2@example.com ACTIVE", "p3@example.com ACTIVE"]);
  });

  it("two held batches: --resend-ambiguous names both and sends their users again", async () => {
    const w = await world();
    const path = await twoHeld(w);
    const r = await w.run([path, "--resend-ambiguous"], { uploads: [{ taskId: "t-1" }] });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("--resend-ambiguous: sending the users of held batch 1, held batch 2 again;");
    expect(r.sent).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Add ACTIVE p1@example.com; Add ACTIVE p2@example.com; Add ACTIVE p3@example.com`,
    ]);
  });

  it("--resend-ambiguous: a re-sent Update the service rejects is planned again, not taken as done", async () => {
    const w = await world();
    await w.run([await roster([1]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const moved = await roster([{ n: 1, team: "Ops" }]);
    await w.run([moved], { uploads: [new ServiceError("502 bad gateway", { status: 502 })] });
    await w.run([moved, "--resend-ambiguous", "--wait"], {
      uploads: [{ taskId: "t-2", validUsersCount: 0, invalidUsersCount: 1, errors: [{ row: 2, errors: ["team unknown"] }] }],
      statuses: { "t-2": "COMPLETED" },
    });
    const plan = await w.run([moved, "--plan", "-o", "json"]);
    expect(plan.exitCode, plan.stderr).toBe(12);
    expect(JSON.parse(plan.stdout)).toMatchObject([{ email: "p1@example.com", change: "update", teamName: "Ops" }]);
  });

  it("--resume after a run cut off by Ctrl-C sends the rows it never sent; with --resend-ambiguous the held batch's too", async () => {
    const w = await world();
    const many = Array.from({ length: 752 }, (_, i) => i + 1);
    const big = await roster(many);
    const controller = new AbortController();
    await w.run([big], { uploads: [new InterruptedError()], onUpload: () => controller.abort() }, { signal: controller.signal });
    expect(w.kept().run).toBeDefined();
    const resumed = await w.run([big, "--resume", "--resend-ambiguous"], { uploads: [{ taskId: "t-2" }, { taskId: "t-3" }] });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `--resume: finishing the plan of 2026-11-20T02:00:00.000Z (752 rows to send); roster-${counter}.csv is not read`,
    );
    expect(resumed.sent.map((s) => s.split(":")[0])).toEqual([
      `${UPLOAD} ${ORG} users-sync.batch-1-of-2.csv`,
      `${UPLOAD} ${ORG} users-sync.batch-2-of-2.csv`,
    ]);
  });

  it("the guards name their numbers and say when the limit is the default; an explicit --max-changes applies to a first run", async () => {
    const w = await world();
    const first = await w.run([await roster([1, 2]), "--assume-existing", "--max-changes", "1"]);
    expect(first.exitCode).toBe(6);
    expect(first.stderr).toContain("the plan updates 2 users, more than the 1 allowed (");
    expect(first.sent).toEqual([]);
    await w.run([await roster([1, 2, 3, 4]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const empty = join(dir.path, `empty-${++counter}.csv`);
    await writeFile(empty, "firstName,lastName,email,teamName\n");
    const none = await w.run([empty]);
    expect(none.exitCode).toBe(6);
    expect(none.stderr).toContain(
      "the roster lists no users; nothing was sent; an empty HR export is never a reason to deactivate everyone; check the export",
    );
    const two = await w.run([await roster([1, 2])]);
    expect(two.exitCode).toBe(6);
    expect(two.stderr).toMatch(/the plan deactivates 2 users, more than the 1 allowed \([^)]*, the default\); nothing was sent/);
    expect(two.stderr).toContain("check the roster; if these leavers are real, pass --max-deactivate 2");
    const explicit = await w.run([await roster([1, 2]), "--max-deactivate", "1"]);
    expect(explicit.exitCode).toBe(6);
    expect(explicit.stderr).toMatch(/the plan deactivates 2 users, more than the 1 allowed \([^)]*\); nothing was sent/);
    expect(explicit.stderr).not.toContain("the default");
  });

  it("a user deactivated this week who is back today still counts against --max-deactivate", async () => {
    const w = await world();
    const wait = (id: string) => ({ uploads: [{ taskId: id }], statuses: { [id]: "COMPLETED" } });
    await w.run([await roster([1, 2, 3, 4]), "--wait"], wait("t-1"));
    w.clock.advance(24 * 3600_000);
    expect((await w.run([await roster([1, 2, 4]), "--wait", "--max-deactivate", "1"], wait("t-2"))).exitCode).toBe(0);
    w.clock.advance(24 * 3600_000);
    // p3 comes back and p4 leaves: p3's deactivation yesterday and p4's today make two.
    const r = await w.run([await roster([1, 2, 3]), "--max-deactivate", "1"]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("the plan deactivates 1 users and the syncs of the last 7 days deactivated 1: 2");
    expect(r.sent).toEqual([]);
  });

  it("a deactivation exactly 7 days old has left the week: it no longer counts and is no longer kept", async () => {
    const w = await world();
    await w.run([await roster([1, 2, 3, 4]), "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    w.clock.advance(24 * 3600_000);
    const day = w.clock.now();
    await w.run([await roster([1, 2, 3]), "--max-deactivate", "1"], { uploads: [{ taskId: "t-2" }] });
    expect(w.kept().deactivations).toEqual({ "p4@example.com": new Date(day).toISOString() });
    w.clock.advance(7 * 24 * 3600_000);
    const r = await w.run([await roster([1, 2]), "--max-deactivate", "1"], {
      uploads: [{ taskId: "t-3" }],
      statuses: { "t-2": "COMPLETED" },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent[1]).toBe(`${UPLOAD} ${ORG} users-sync.batch-1-of-1.csv: Update INACTIVE p3@example.com`);
    expect(w.kept().deactivations).toEqual({ "p3@example.com": new Date(w.clock.now()).toISOString() });
  });

  it("on a terminal, a run with nothing to send asks nothing and says so", async () => {
    const w = await world();
    const path = await roster([1]);
    await w.run([path, "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const stdin = terminalStdin();
    const pending = w.run([path], {}, { stdin });
    stdin.end("n\n");
    const r = await pending;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("Send ");
    expect(r.stderr).toContain("nothing to do: the roster and the last sync agree; nothing was sent");
  });

  it("an error while waiting that is not Ctrl-C keeps its own exit code", async () => {
    const w = await world();
    const r = await w.run([await roster([1]), "--wait"], {
      uploads: [{ taskId: "t-1" }],
      statuses: { "t-1": new ServiceError("503 unavailable", { status: 503 }) },
    });
    expect(r.exitCode, r.stderr).toBe(8);
    expect(r.stderr).not.toContain("the state store records what was sent");
  });

  it("the settings directory of an earlier version is not read once the store holds state", async () => {
    const w = await world();
    const path = await roster([1]);
    await w.run([path, "--wait"], { uploads: [{ taskId: "t-1" }], statuses: { "t-1": "COMPLETED" } });
    const old = legacyDir(w.configDir, SERVICE, ORG);
    await mkdir(old, { recursive: true });
    await writeFile(
      join(old, "baseline.json"),
      JSON.stringify({
        version: 1,
        baseUrl: SERVICE,
        organizationId: ORG,
        createdAt: "2026-11-01T02:00:00.000Z",
        updatedAt: "2026-11-01T02:00:00.000Z",
        users: {},
      }),
    );
    const r = await w.run([path]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("moved the users sync state");
    expect(await readdir(join(w.configDir, "sync"))).toEqual([old.split("/").pop()]);
  });
});
