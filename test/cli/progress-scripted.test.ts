import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import { createFakeClock } from "../../src/clock.js";
import { InvalidDataError, NotFoundError, UnexpectedResponseError } from "../../src/errors.js";
import { memoryStateStore } from "../helpers/memory-state.js";
import { runInProcess, tempDir, type InProcessOptions } from "../helpers/in-process.js";

// progress --from-csv in this process with no sandbox and no network: a client that answers
// each completion-data, deep-links and user-token request from the test's script, and the
// cache of completed pairs in a state store in memory (ServiceFakes, src/services.ts). What is
// checked is what a user or a script sees — stdout, stderr, the exit code, the requests sent,
// the files written, the cache kept — in runs of milliseconds, so that mutation testing
// (docs/mutation-testing.md) can run them for every mutant.

const ORG = "org-1";
const SERVICE = "https://sim.example.com";
const START = Date.UTC(2026, 10, 23, 12);
const COMPLETION = "/access-api/simulation/completion-data";

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

const done = (at: string, score: number) => [
  { executionId: `e-${at}`, completedAt: at, completionTime: 600, score, status: "COMPLETED" },
];
const started = [{ executionId: "e-open", completedAt: null, score: null, status: "IN_PROGRESS" }];

/** Completion answers by "user/sim": a list of attempts, an error, or one of those per time asked. */
type PairAnswer = unknown[] | Error | ((asked: number) => unknown[] | Error);

function scriptedClient(pairs: Record<string, PairAnswer>, now: () => number) {
  const sent: string[] = [];
  /** When each completion-data request was sent. */
  const times: number[] = [];
  const asked = new Map<string, number>();
  const api = {
    apiVersion: 2,
    postJson: async (endpoint: Endpoint, body: { userId: string; simulationId?: string }) => {
      sent.push(`${endpoint.path} ${body.userId}${body.simulationId ? `/${body.simulationId}` : ""}`);
      if (endpoint.path === COMPLETION) {
        times.push(now());
        const key = `${body.userId}/${body.simulationId}`;
        const n = (asked.get(key) ?? 0) + 1;
        asked.set(key, n);
        const script = pairs[key] ?? [];
        const answer = typeof script === "function" ? script(n) : script;
        if (answer instanceof Error) throw answer;
        return { completionData: answer };
      }
      if (endpoint.path.endsWith("/deep-links")) return { url: `https://app.example.com/${ORG}/simulation/${body.simulationId}` };
      return { token: `tok-${body.userId}`, expiresIn: 3600 };
    },
  } as unknown as ApiClient;
  return { api, sent, times };
}

let counter = 0;
async function assignments(text: string, ext = "csv"): Promise<string> {
  const path = join(dir.path, `assignments-${++counter}.${ext}`);
  await writeFile(path, text);
  return path;
}

async function world(env: Record<string, string> = {}) {
  const store = memoryStateStore();
  const clock = createFakeClock(START);
  const configDir = join(dir.path, `config-${++counter}`);
  const base = {
    SIMADMIN_BASE_URL: SERVICE,
    SIMADMIN_ORG: ORG,
    SIMADMIN_API_KEY: "sk-test",
    SIMADMIN_CONFIG_DIR: configDir,
    SIMADMIN_RATE_LIMITS: "access=100/5m",
    ...env,
  };
  const run = async (args: string[], pairs: Record<string, PairAnswer> = {}, extra: InProcessOptions = {}) => {
    const { api, sent, times } = scriptedClient(pairs, () => clock.now());
    const r = await runInProcess(["progress", ...args], { env: base, clock, fakes: { api, state: store }, ...extra });
    return { ...r, sent, times };
  };
  return { store, clock, configDir, run };
}

type Row = Record<string, unknown>;
const asked = (sent: string[]): string[] => sent.filter((s) => s.startsWith(COMPLETION)).map((s) => s.split(" ")[1]!);

describe("progress with a scripted service", () => {
  it("asks each pair once, overdue first, keeps the file's columns, and completed pairs are not asked again", async () => {
    const w = await world();
    const file = await assignments(
      "userId,simulationId,dueDate,manager\nu1,s1,2027-01-31,Dana\nu2,s1,2026-11-01,Sam\nu3,s2,,Dana\n",
    );
    const pairs = { "u1/s1": done("2026-11-20T10:00:00Z", 80), "u2/s1": started };
    const r = await w.run(["--from-csv", file, "-o", "json"], pairs);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(asked(r.sent)).toEqual(["u2/s1", "u1/s1", "u3/s2"]);
    expect(r.stderr).toContain("3 pairs to ask, 0 cached: ");
    expect(r.stderr).toContain("at 100 per 5m (1 overdue or due within 7 days first)");
    const rows = JSON.parse(r.stdout) as Row[];
    expect(
      rows.map((x) => `${String(x.userId)} ${String(x.state)} ${String(x.manager)} ${String(x.bestScore)} ${String(x.attempts)}`),
    ).toEqual(["u1 completed Dana 80 1", "u2 overdue Sam null 1", "u3 not-started Dana null 0"]);
    expect(r.stderr).toMatch(/\(3 requests in \S+\)/);

    const again = await w.run(["--from-csv", file, "-o", "json"], pairs);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(asked(again.sent)).toEqual(["u2/s1", "u3/s2"]);
    expect(again.stderr).toContain("2 pairs to ask, 1 cached: ");
    expect((JSON.parse(again.stdout) as Row[])[0]).toMatchObject({ userId: "u1", state: "completed", bestScore: 80 });
    expect(again.stderr).toMatch(/\(2 requests in /);

    const refresh = await w.run(["--from-csv", file, "--refresh", "-o", "json"], pairs);
    expect(asked(refresh.sent)).toHaveLength(3);
  });

  it("--dry-run says what would be asked and sends nothing", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId,dueDate\nu1,s1,2026-11-25\nu2,s1,2027-05-01\n");
    const r = await w.run(["--from-csv", file, "--dry-run", "-o", "json", "--due-soon", "3"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual({
      file,
      pairs: 2,
      cached: 0,
      toAsk: 2,
      urgent: 1,
      minimumSeconds: 0,
      budget: "100 per 5m",
    });
    expect(r.stderr).toContain(
      "dry run: 2 pairs to ask, 0 cached: no wait at 100 per 5m (1 overdue or due within 3 days first); nothing was sent",
    );
  });

  it("a pair the service refuses: exit 6, its error in the row; an answer that cannot be read: exit 8, the pair unsettled", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\nu3,s1\n");
    const refused = await w.run(["--from-csv", file, "-o", "json"], {
      "u1/s1": new NotFoundError("completion-data: no such user in the organization"),
      "u2/s1": new InvalidDataError("completion-data: simulationId is not assigned"),
    });
    expect(refused.exitCode).toBe(6);
    expect(refused.stderr).toContain("2 pairs refused by the service (see the error column)");
    expect(refused.stderr).toContain("check their userId and simulationId in the organization (--org)");
    expect(refused.stderr).toContain("2 refused by the service");
    const rows = JSON.parse(refused.stdout) as Row[];
    expect(rows.map((x) => `${String(x.state)} ${String(x.error ?? "")}`)).toEqual([
      "unknown no such user in the organization",
      "unknown simulationId is not assigned",
      "not-started ",
    ]);

    const one = await w.run(["--from-csv", file, "-o", "json"], { "u1/s1": new NotFoundError("completion-data: gone") });
    expect(one.stderr).toContain("1 pair refused by the service (see the error column)");

    const unread = await w.run(["--from-csv", file, "-o", "json"], {
      "u1/s1": new UnexpectedResponseError("completion-data: the service answered something unexpected (no list)"),
      "u2/s1": new NotFoundError("completion-data: gone"),
    });
    expect(unread.exitCode).toBe(8);
    expect(unread.stderr).toContain(
      "1 pair could not be settled: the service's answer could not be read (see the error column); the other pairs are in the output",
    );
    expect(unread.stderr).toContain("1 unsettled (the answer could not be read)");
    expect(unread.stderr).toContain("run again later: those pairs are asked again; if it persists, report the answer");
    const two = await w.run(["--from-csv", file, "-o", "json"], {
      "u1/s1": new UnexpectedResponseError("x"),
      "u2/s1": new UnexpectedResponseError("y"),
    });
    expect(two.stderr).toContain("2 pairs could not be settled");
  });

  it("a failure that stops the run says how far it got and what the cache kept", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\nu3,s1\n");
    const { ServiceError } = await import("../../src/errors.js");
    const r = await w.run(["--from-csv", file], {
      "u1/s1": done("2026-11-20T10:00:00Z", 90),
      "u2/s1": new ServiceError("503 unavailable", { status: 503 }),
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain(
      "stopped after asking 2 of 3 pairs; 1 newly completed pair kept in the cache (1 cached in all): run again to ask only the rest",
    );
    const none = await w.run(["--from-csv", file], { "u2/s1": new ServiceError("503", { status: 503 }) });
    expect(none.stderr).toContain(
      "stopped after asking 1 of 2 pairs; 0 newly completed pairs kept in the cache (1 cached in all)",
    );
  });

  it("--wait sweeps the open pairs until they complete, a minute or more apart", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\n");
    const r = await w.run(["--from-csv", file, "--wait", "-o", "json"], {
      "u1/s1": (n) => (n < 3 ? started : done("2026-11-23T12:05:00Z", 70)),
      "u2/s1": done("2026-11-20T10:00:00Z", 90),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("waiting for 1 pair to complete, for up to 2h");
    expect(asked(r.sent)).toEqual(["u1/s1", "u2/s1", "u1/s1", "u1/s1"]);
    // Two more sweeps, each a minute after the one before started.
    expect(w.clock.now() - START).toBe(120_000);
    expect(r.stderr).toContain("2 pairs: 2 done, 0 in progress, 0 not started, 0 overdue (4 requests in 2m)");
    expect((JSON.parse(r.stdout) as Row[]).map((x) => x.state)).toEqual(["completed", "completed"]);
  });

  it("--wait leaves a refused pair alone: it waits for the open one, then exits 6", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\n");
    const r = await w.run(["--from-csv", file, "--wait", "-o", "json"], {
      "u1/s1": (n) => (n < 2 ? started : done("2026-11-23T12:01:00Z", 70)),
      "u2/s1": new NotFoundError("completion-data: gone"),
    });
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.stderr).toContain("waiting for 1 pair to complete");
    expect(asked(r.sent)).toEqual(["u1/s1", "u2/s1", "u1/s1"]);
  });

  it("--wait gives up at --wait-timeout: exit 9 naming the pairs left", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\nu3,s1\n");
    const r = await w.run(["--from-csv", file, "--wait", "--wait-timeout", "150s"], { "u1/s1": started, "u2/s1": started });
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain("waiting for 3 pairs to complete, for up to 2m 30s");
    expect(r.stderr).toMatch(/3 pairs not completed within 2m 30s \(\d+ sweeps\)/);
    expect(r.stderr).toContain("run again with a longer --wait-timeout");
    const one = await w.run(["--from-csv", file, "--wait", "--wait-timeout", "90s"], {
      "u1/s1": done("2026-11-20T10:00:00Z", 1),
      "u2/s1": done("2026-11-20T10:00:00Z", 1),
    });
    expect(one.exitCode).toBe(9);
    expect(one.stderr).toMatch(/1 pair not completed within 1m 30s/);
    const allDone = await w.run(["--from-csv", file, "--wait"], { "u3/s1": done("2026-11-20T10:00:00Z", 1) });
    expect(allDone.exitCode, allDone.stderr).toBe(0);
    expect(allDone.stderr).not.toContain("waiting for");
    expect(allDone.stderr).toContain("(1 request in 0s)");
    // --wait-timeout counts from the start of the run: a first sweep of a minute leaves 1m 30s.
    const before = w.clock.now();
    const slow = await w.run(["--from-csv", file, "--wait", "--wait-timeout", "150s", "--refresh"], {
      "u1/s1": (n) => {
        if (n === 1) w.clock.advance(60_000);
        return started;
      },
    });
    expect(slow.exitCode).toBe(9);
    expect(w.clock.now() - before).toBe(150_000);
  });

  it("--wait spreads its sweeps over the budget: 3 open pairs at 2 per 100 s start 150 s apart", async () => {
    const w = await world({ SIMADMIN_RATE_LIMITS: "access=2/100s" });
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\nu3,s1\n");
    const later = (n: number) => (n < 2 ? started : done("2026-11-23T13:00:00Z", 1));
    const r = await w.run(["--from-csv", file, "--wait"], { "u1/s1": later, "u2/s1": later, "u3/s1": later });
    expect(r.exitCode, r.stderr).toBe(0);
    // The scripted client has no scheduler (the budget is the real client's part): what is
    // seen is the command's own spacing, 3 × 100 s / 2 = 150 s after the first sweep started,
    // not the one minute that is the least.
    expect(r.times.map((t) => (t - START) / 1000)).toEqual([0, 0, 0, 150, 150, 150]);
  });

  it("--links: a link per open pair, one deep-links request per simulation and one token per user", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu1,s2\nu2,s1\nu3,s1\n");
    const r = await w.run(["--from-csv", file, "--links", "-o", "json"], { "u3/s1": done("2026-11-20T10:00:00Z", 1) });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(
      rows.map(
        (x) =>
          `${String(x.userId)}/${String(x.simulationId)} ${x.link === "" ? "-" : "link"} ${x.linkExpiresAt === "" ? "-" : "expires"}`,
      ),
    ).toEqual(["u1/s1 link expires", "u1/s2 link expires", "u2/s1 link expires", "u3/s1 - -"]);
    expect(String(rows[0]!.link)).toContain(`https://app.example.com/${ORG}/simulation/s1`);
    expect(r.sent.filter((s) => s.includes("deep-links"))).toHaveLength(2);
    expect(r.sent.filter((s) => s.includes("/user/token"))).toHaveLength(2);
    expect(r.stdout).not.toContain('"error"');
  });

  it("--links needs API version 2; --durable needs a links URL; both before anything is sent", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\n");
    const v1 = await w.run(["--from-csv", file, "--links", "--api-version", "1"]);
    expect(v1.exitCode).toBe(2);
    expect(v1.stderr).toContain("--links needs API version 2: user tokens do not exist in version 1");
    expect(v1.stderr).toContain("drop --links, or use --api-version 2");
    expect(v1.sent).toEqual([]);
    const durable = await w.run(["--from-csv", file, "--links", "--durable"]);
    expect(durable.exitCode).toBe(2);
    expect(durable.sent).toEqual([]);
    // A dry run finds it too (docs/links.md: no links URL is exit 2 before anything is sent).
    const dry = await w.run(["--from-csv", file, "--links", "--durable", "--dry-run"]);
    expect(dry.exitCode, dry.stderr).toBe(2);
  });

  it("--links --durable: a durable link per open pair, with no deep-links or token request", async () => {
    const w = await world({ SIMADMIN_LINKS_URL: "https://links.example.com" });
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\n");
    const r = await w.run(["--from-csv", file, "--links", "--durable", "-o", "json"], {
      "u2/s1": done("2026-11-20T10:00:00Z", 1),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(String(rows[0]!.link)).toMatch(/^https:\/\/links\.example\.com\/l\/\S+$/);
    expect(rows[1]!.link).toBe("");
    expect(r.sent.filter((s) => !s.startsWith(COMPLETION))).toEqual([]);
    // The first durable run makes the key and says so; the next one uses it.
    expect(r.stderr).toContain("made a new link key (kept in the state store; see docs/links.md)");
    const again = await w.run(["--from-csv", file, "--links", "--durable", "-o", "json"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("made a new link key");
  });

  it("--links --durable takes --valid-for or --valid-until alone (only the two together are refused)", async () => {
    const w = await world({ SIMADMIN_LINKS_URL: "https://links.example.com" });
    const file = await assignments("userId,simulationId\nu1,s1\n");
    for (const validity of [
      ["--valid-for", "7d"],
      ["--valid-until", "2027-01-01"],
    ]) {
      const r = await w.run(["--from-csv", file, "--links", "--durable", ...validity, "-o", "json"]);
      expect(r.exitCode, `${validity.join(" ")}: ${r.stderr}`).toBe(0);
      expect(String((JSON.parse(r.stdout) as Row[])[0]!.link)).toMatch(/^https:\/\/links\.example\.com\/l\/\S+$/);
    }
  });

  it("--fields is checked against the record's fields before anything is sent", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId,team\nu1,s1,A\n");
    const bad = await w.run(["--from-csv", file, "--fields", "userId,link"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.sent).toEqual([]);
    const good = await w.run(["--from-csv", file, "--fields", "userId,team,link", "--links", "-o", "csv"]);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.stdout.split("\n")[0]).toBe("userId,team,link");
    // A dry run answers with its own fields (the plan), checked by the output.
    const dry = await w.run(["--from-csv", file, "--fields", "toAsk,budget", "--dry-run", "-o", "csv"]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe("toAsk,budget\n1,100 per 5m\n");
  });

  it("--split-by writes one file per value, named on stderr with its rows", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId,manager\nu1,s1,Dana Reyes\nu2,s1,Sam Ito\nu3,s1,Dana Reyes\nu4,s1,\n");
    const out = join(dir.path, `mail-${counter}`);
    const r = await w.run(["--from-csv", file, "--split-by", " MANAGER ", "--out-dir", out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect((await readdir(out)).sort()).toHaveLength(3);
    expect(r.stderr).toMatch(/wrote \S+ \(2 rows, manager = "Dana Reyes"\)/);
    expect(r.stderr).toMatch(/wrote \S+ \(1 row, manager = "Sam Ito"\)/);
    expect(r.stderr).toMatch(/wrote \S+ \(1 row, manager = ""\)/);
    // The table's note follows the files: the fake clock did not move while the 4 pairs were asked.
    expect(r.stderr).toMatch(/\(4 requests in 0s\)\n$/);
    const dana = (await readdir(out)).find((n) => n.toLowerCase().includes("dana"))!;
    expect(dana.endsWith(".csv")).toBe(true);
    const text = await readFile(join(out, dana), "utf8");
    expect(text.trim().split("\n")).toHaveLength(3);
    expect(text).toContain("u1,s1");
    expect(text).toContain("u3,s1");

    const json = join(dir.path, `json-${counter}`);
    const j = await w.run(["--from-csv", file, "--split-by", "manager", "--out-dir", json, "-o", "json"], {
      "u2/s1": new NotFoundError("completion-data: gone"),
    });
    expect(j.exitCode).toBe(6);
    expect((await readdir(json)).every((n) => n.endsWith(".json"))).toBe(true);
    // Each file is a whole result, pretty-printed as stdout's JSON is (output/sections.ts).
    const first = await readFile(join(json, (await readdir(json))[0]!), "utf8");
    expect(first.startsWith("[\n  {\n    ")).toBe(true);

    const unknown = await w.run(["--from-csv", file, "--split-by", "boss", "--out-dir", out]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("--split-by boss: no such column; known columns: ");
    expect(unknown.stderr).toContain("manager");
    expect(unknown.sent).toEqual([]);
    const both = await w.run(["--from-csv", file, "--split-by", "manager", "--out-dir", out, "--out", join(out, "x.csv")]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain("give --out <file> or --split-by with --out-dir <dir>, not both");
  });

  it("--split-by -o json: a file is the document --out writes for its records, without the API key; the summary line follows the files", async () => {
    const key = "sk-live-5f0c7a91d2e34b6f8a";
    const file = await assignments(`userId,simulationId,manager,comment\nu1,s1,Dana,fine\nu2,s1,Dana,key ${key} pasted\n`);
    const answers = { "u1/s1": done("2026-11-20T10:00:00Z", 90) };
    const out = join(dir.path, `split-json-${counter}`);
    const split = await (
      await world({ SIMADMIN_API_KEY: key })
    ).run(["--from-csv", file, "--split-by", "manager", "--out-dir", out, "-o", "json"], answers);
    expect(split.exitCode, split.stderr).toBe(0);
    const whole = join(dir.path, `whole-${counter}.json`);
    const single = await (
      await world({ SIMADMIN_API_KEY: key })
    ).run(["--from-csv", file, "--out", whole, "-o", "json"], answers);
    expect(single.exitCode, single.stderr).toBe(0);
    const text = await readFile(join(out, "Dana.json"), "utf8");
    expect(text).toBe(await readFile(whole, "utf8"));
    expect(text).not.toContain(key);
    expect(split.stderr).toMatch(
      /wrote \S+Dana\.json \(2 rows, manager = "Dana"\)\n2 pairs: 1 done, 0 in progress, 1 not started, 0 overdue \(2 requests in 0s\)\n$/,
    );
  });

  it("--split-by: a value that is empty, null or absent is the file _none_", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\n");
    const answers = { "u1/s1": done("2026-11-20T10:00:00Z", 90) };
    const byDate = join(dir.path, `by-date-${counter}`);
    const r = await w.run(["--from-csv", file, "--split-by", "completedAt", "--out-dir", byDate, "--refresh"], answers);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote \S+_none_\.csv \(1 row, completedAt = ""\)/);
    expect((await readdir(byDate)).sort()).toEqual(["2026-11-20T10_00_00Z.csv", "_none_.csv"]);
    const byDue = join(dir.path, `by-due-${counter}`);
    const noDue = await w.run(["--from-csv", file, "--split-by", "dueDate", "--out-dir", byDue, "--refresh"], answers);
    expect(noDue.exitCode, noDue.stderr).toBe(0);
    expect(await readdir(byDue)).toEqual(["_none_.csv"]);
  });

  it("options that go together, and those that cannot, are checked before the file is read, each saying what to do", async () => {
    const w = await world();
    for (const [args, message, hint] of [
      [
        ["--split-by", "manager"],
        "--split-by <column> and --out-dir <dir> go together",
        "give both, e.g. --split-by manager --out-dir ./mail",
      ],
      [
        ["--out-dir", "x"],
        "--split-by <column> and --out-dir <dir> go together",
        "give both, e.g. --split-by manager --out-dir ./mail",
      ],
      [["--durable"], "--durable applies only with --links", "add --links, or drop --durable"],
      [["--wait-timeout", "5m"], "--wait-timeout applies only with --wait", "add --wait, or drop --wait-timeout"],
      [
        ["--links", "--durable", "--valid-for", "7d", "--valid-until", "2027-01-01"],
        "--valid-for and --valid-until cannot go together",
        "give one of them",
      ],
      [["--links", "--valid-for", "7d"], "--valid-for applies only with --durable", "add --durable, or drop --valid-for"],
      [
        ["--links", "--valid-until", "2027-01-01"],
        "--valid-until applies only with --durable",
        "add --durable, or drop --valid-until",
      ],
    ] as const) {
      const r = await w.run(["--from-csv", "absent.csv", ...args]);
      expect(r.exitCode, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(message);
      expect(r.stderr, args.join(" ")).toContain(hint);
    }
  });

  it("without --wait-timeout --wait gives up after two hours; without --due-soon, due within 7 days comes first", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId,dueDate\nu1,s1,2026-11-29\nu2,s1,2026-12-05\n");
    const r = await w.run(["--from-csv", file, "--wait", "-o", "json"], { "u1/s1": started, "u2/s1": started });
    expect(r.exitCode).toBe(9);
    expect(r.stderr).toContain("waiting for 2 pairs to complete, for up to 2h");
    expect(w.clock.now() - START).toBe(2 * 3_600_000);
    // The pair due in 6 days is urgent, the one due in 12 days is not.
    expect(r.stderr).toContain("(1 overdue or due within 7 days first)");
  });
});

describe("the assignments file", () => {
  it("invalid rows: exit 6, listed, nothing sent", async () => {
    const w = await world();
    const file = await assignments("userId,simulationId,dueDate\nu1,,2027-01-01\nu2,s1,not a date\n");
    const r = await w.run(["--from-csv", file, "-o", "json"]);
    expect(r.exitCode).toBe(6);
    expect(r.sent).toEqual([]);
    expect(r.stderr).toContain(`${file}: 2 invalid rows; nothing was sent`);
  });

  it("an empty file, a header alone, blank lines before the header; a file that is not there is not called empty", async () => {
    const w = await world();
    const absent = await w.run(["--from-csv", join(dir.path, "absent.csv")]);
    expect(absent.exitCode).not.toBe(0);
    expect(absent.stderr).toContain("absent.csv");
    expect(absent.stderr).not.toContain("is empty");
    const bom = await assignments("\ufeffuserId,simulationId\nu1,s1\n");
    const notes = await w.run(["--from-csv", bom, "--encoding", "windows-1252", "-o", "json"]);
    expect(notes.exitCode, notes.stderr).toBe(0);
    expect(notes.stderr).toContain(`${bom}: the file starts with a UTF-8 byte-order mark, so it was read as UTF-8`);
    const empty = await w.run(["--from-csv", await assignments("")]);
    expect(empty.exitCode).toBe(6);
    expect(empty.stderr).toContain("is empty; it needs a header row userId,simulationId[,dueDate] and one row per pair");
    const blank = await w.run(["--from-csv", await assignments("\n,\n")]);
    expect(blank.exitCode).toBe(6);
    expect(blank.stderr).toContain("is empty; it needs a header row");
    const header = await w.run(["--from-csv", await assignments("userId,simulationId\n")]);
    expect(header.exitCode).toBe(6);
    expect(header.stderr).toContain("has a header but no rows; nothing to do");
    const late = await w.run([
      "--from-csv",
      await assignments(",,\nUser ID,Simulation ID,Due Date\nu1,s1,2026-11-01\n"),
      "-o",
      "json",
    ]);
    expect(late.exitCode, late.stderr).toBe(0);
    expect((JSON.parse(late.stdout) as Row[])[0]).toMatchObject({
      userId: "u1",
      simulationId: "s1",
      dueDate: "2026-11-01",
      state: "overdue",
    });
  });

  it("a column that looks like a due date but is not read as one is named in a warning", async () => {
    const w = await world();
    const none = await w.run(["--from-csv", await assignments("userId,simulationId,Deadline\nu1,s1,2026-11-01\n"), "-o", "json"]);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stderr).toContain(
      `"Deadline" (column 3) looks like a due date but no column is read as the due date; name the column dueDate`,
    );
    const two = await w.run([
      "--from-csv",
      await assignments("userId,Due on,simulationId,dueDate,deadline\nu1,x,s1,2026-11-01,y\n"),
      "-o",
      "json",
    ]);
    expect(two.stderr).toContain(
      `"Due on" (column 2), "deadline" (column 5) look like a due date but the due date is read from column 4; name the column dueDate`,
    );
    const plain = await w.run(["--from-csv", await assignments("userId,simulationId,manager\nu1,s1,Dana\n"), "-o", "json"]);
    expect(plain.stderr).not.toContain("like a due date");
    const first = await w.run([
      "--from-csv",
      await assignments("dueDate,userId,simulationId,Deadline\n2027-01-01,u1,s1,x\n"),
      "-o",
      "json",
    ]);
    expect(first.stderr).toContain(`"Deadline" (column 4) looks like a due date but the due date is read from column 1;`);
    expect(plain.stderr).not.toContain("unknown column");
  });
});

describe("the header of the assignments file", () => {
  it("known columns matched by name: the output and --split-by use our names, the file's others as they are", async () => {
    const w = await world();
    const file = await assignments("User ID,Simulation ID,Due Date,manager\nu1,s1,2026-11-01,Dana\n");
    const r = await w.run(["--from-csv", file, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("warning");
    expect(JSON.parse(r.stdout)).toEqual([
      {
        userId: "u1",
        simulationId: "s1",
        state: "overdue",
        completedAt: null,
        bestScore: null,
        attempts: 0,
        dueDate: "2026-11-01",
        manager: "Dana",
      },
    ]);
    const split = await w.run(["--from-csv", file, "--split-by", "boss", "--out-dir", join(dir.path, "split-known")]);
    expect(split.exitCode).toBe(2);
    expect(split.stderr).toContain(
      "--split-by boss: no such column; known columns: userId, simulationId, state, completedAt, bestScore, attempts, dueDate, manager\n",
    );
  });

  it("a column without a name is carried as column<N>, and the warning says so", async () => {
    const w = await world();
    const one = await assignments("userId,simulationId,,manager\nu1,s1,x,Dana\n");
    const r = await w.run(["--from-csv", one, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${one}: column 3 has no name: carried into the output as column3\n`);
    expect(r.stderr).not.toContain("ignored");
    expect((JSON.parse(r.stdout) as Row[])[0]).toMatchObject({ column3: "x", manager: "Dana" });
    const two = await assignments("userId,,simulationId, ,manager\nu1,a,s1,b,Dana\n");
    const r2 = await w.run(["--from-csv", two, "-o", "json"]);
    expect(r2.stderr).toContain(`${two}: columns 2, 4 have no name: carried into the output as column2, column4\n`);
    expect((JSON.parse(r2.stdout) as Row[])[0]).toMatchObject({ column2: "a", column4: "b" });
  });

  it("a due-date-like name is shown without its spaces; a second dueDate column is kept as file.dueDate, not called due-date-like", async () => {
    const w = await world();
    const spaced = await assignments("userId,simulationId,  Deadline \nu1,s1,soon\n");
    const r = await w.run(["--from-csv", spaced, "-o", "json"]);
    expect(r.stderr).toContain(`${spaced}: "Deadline" (column 3) looks like a due date but no column is read as the due date;`);
    const twice = await assignments("userId,simulationId,dueDate,dueDate\nu1,s1,2026-11-01,2027-01-01\n");
    const r2 = await w.run(["--from-csv", twice, "-o", "json"]);
    expect(r2.exitCode, r2.stderr).toBe(0);
    expect(r2.stderr).not.toContain("warning");
    expect((JSON.parse(r2.stdout) as Row[])[0]).toMatchObject({
      dueDate: "2026-11-01",
      state: "overdue",
      "file.dueDate": "2027-01-01",
    });
  });

  it("a file that is not valid CSV is named for what is wrong, not called empty", async () => {
    const w = await world();
    const file = await assignments('userId,simulationId\n"u1,s1\n');
    const r = await w.run(["--from-csv", file]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toContain("row 2: the file is not valid CSV: a quoted cell is never closed");
    expect(r.stderr).not.toContain("is empty");
    expect(r.sent).toEqual([]);
  });
});

describe("the cache of completed pairs", () => {
  it("a cache file of an earlier version is moved into the state store and not asked again", async () => {
    const w = await world();
    const none = await w.run(["--from-csv", await assignments("userId,simulationId\nu9,s9\n"), "-o", "json"]);
    expect(none.stderr).not.toContain("progress-cache.json");
    await mkdir(w.configDir, { recursive: true });
    const { createHash } = await import("node:crypto");
    const key = createHash("sha256")
      .update(JSON.stringify([SERVICE, ORG, "u1", "s1"]))
      .digest("hex");
    const legacy = join(w.configDir, "progress-cache.json");
    await writeFile(
      legacy,
      JSON.stringify({
        version: 1,
        pairs: { [key]: { completedAt: "2026-11-01T10:00:00Z", bestScore: 55, attempts: 2, seenAt: "2026-11-02T00:00:00Z" } },
      }),
    );
    const file = await assignments("userId,simulationId\nu1,s1\nu2,s1\n");
    const r = await w.run(["--from-csv", file, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`moved the cache of completed pairs (1 pair) from ${legacy} into the state store memory`);
    expect(asked(r.sent)).toEqual(["u2/s1"]);
    expect((JSON.parse(r.stdout) as Row[])[0]).toMatchObject({ state: "completed", bestScore: 55, attempts: 2 });
    await expect(readFile(legacy)).rejects.toThrow(/ENOENT/);

    await writeFile(legacy, "{ not json");
    const bad = await w.run(["--from-csv", file, "-o", "json"]);
    expect(bad.stderr).toContain(`moved the cache of completed pairs (0 pairs) from ${legacy}`);
    await expect(readFile(legacy)).rejects.toThrow(/ENOENT/);

    await mkdir(legacy);
    const unreadable = await w.run(["--from-csv", file, "-o", "json"]);
    expect(unreadable.exitCode, unreadable.stderr).toBe(0);
    expect(unreadable.stderr).toContain(`${legacy} cannot be read (`);
    expect(unreadable.stderr).toContain("left where it is, not moved into the state store");
  });

  it("an entry of another shape in the store is ignored: the pair is asked", async () => {
    const w = await world();
    const { createHash } = await import("node:crypto");
    const key = createHash("sha256")
      .update(JSON.stringify([SERVICE, ORG, "u1", "s1"]))
      .digest("hex");
    await w.store.put({ service: SERVICE, organizationId: ORG }, "progress-cache", { [key]: { completedAt: 5 } });
    const r = await w.run(["--from-csv", await assignments("userId,simulationId\nu1,s1\n"), "-o", "json"]);
    expect(asked(r.sent)).toEqual(["u1/s1"]);
  });
});
