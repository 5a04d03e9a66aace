import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { createProgress, fitWidth, HEARTBEAT_BOUND_MS } from "../../src/output/progress.js";
import { renderTable } from "../../src/output/table.js";
import { sandboxStateDir } from "../../src/sandbox/persist.js";
import type { IOStreams } from "../../src/output/io.js";
import { PassThrough, Readable, Writable } from "node:stream";
import { closedPort, ROOMY, startTestEnv, type TestEnv } from "../helpers/in-process.js";
import { startProxy } from "../helpers/proxy.js";

// Issue 26 items 1-3 (docs/ci-and-cron.md): --ping-url, heartbeats without a terminal.

let t: TestEnv;
let monitor: Server;
let monitorUrl: string;
const pings: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
beforeAll(async () => {
  t = await startTestEnv();
  monitor = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      pings.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      // Uptime Kuma 1.23 routes GET /api/push/:token only: any other method is a 404 there.
      res.statusCode = req.url?.startsWith("/api/push/") && req.method !== "GET" ? 404 : 200;
      res.end("OK");
    });
  });
  await new Promise<void>((resolve) => monitor.listen(0, "127.0.0.1", resolve));
  monitorUrl = `http://127.0.0.1:${(monitor.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => monitor.close(resolve));
});

describe("--ping-url", () => {
  it("pings <url>/start then <url> for a run that succeeds, keeping the query, without the API key", async () => {
    pings.length = 0;
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", `${monitorUrl}/check-1?rid=7`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(pings.map((p) => p.url)).toEqual(["/check-1/start?rid=7", "/check-1?rid=7"]);
    const key = t.env.SIMADMIN_API_KEY!;
    for (const ping of pings) expect(JSON.stringify(ping.headers)).not.toContain(key);
  });

  it("pings <url>/<exit code> for a run that fails", async () => {
    pings.length = 0;
    const r = await t.capture(["token", "--user", "nobody-here", "--ping-url", `${monitorUrl}/check-2/`]);
    expect(r.exitCode).toBe(5);
    expect(pings.map((p) => p.url)).toEqual(["/check-2/start", "/check-2/5"]);
    // healthchecks keeps the body of a ping: the failure's error line, as stderr showed it.
    expect(pings[1]?.body).toMatch(/^user token: .*nobody-here/);
    expect(r.stderr).toContain(pings[1]?.body);
  });

  it("an Uptime Kuma push URL: no start ping, one GET ?status=up or ?status=down&msg=<error line>", async () => {
    pings.length = 0;
    const ok = await t.capture([
      "token",
      "--user",
      "user-demo",
      "--ping-url",
      `${monitorUrl}/api/push/Tk1?status=up&msg=OK&ping=`,
    ]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain("--ping-url");
    const failed = await t.capture([
      "token",
      "--user",
      "nobody-here",
      "--ping-url",
      `${monitorUrl}/api/push/Tk1?status=up&msg=OK&ping=`,
    ]);
    expect(failed.exitCode).toBe(5);
    expect(failed.stderr).not.toContain("--ping-url");
    expect(pings.map((p) => p.method)).toEqual(["GET", "GET"]);
    const [up, down] = pings.map((p) => new URL(p.url, monitorUrl));
    expect([up?.pathname, up?.searchParams.get("status"), up?.searchParams.get("msg")]).toEqual(["/api/push/Tk1", "up", "OK"]);
    expect([down?.pathname, down?.searchParams.get("status")]).toEqual(["/api/push/Tk1", "down"]);
    expect(down?.searchParams.get("msg")).toMatch(/nobody-here/);
  });

  it("a Cronitor telemetry URL (through a proxy, cronitor.link being off-line here): ?state=run then ?state=fail&status_code=5", async () => {
    const proxy = await startProxy();
    try {
      const r = await t.capture(
        ["token", "--user", "nobody-here", "--ping-url", "http://cronitor.link/p/abc123/nightly-export"],
        {
          env: { http_proxy: proxy.url, NO_PROXY: "127.0.0.1" },
        },
      );
      expect(r.exitCode).toBe(5);
      const [run, fail] = proxy.visits.map((v) => new URL(v.target));
      expect([run?.pathname, run?.searchParams.get("state")]).toEqual(["/p/abc123/nightly-export", "run"]);
      expect([fail?.searchParams.get("state"), fail?.searchParams.get("status_code")]).toEqual(["fail", "5"]);
      expect(fail?.searchParams.get("message")).toMatch(/nobody-here/);
    } finally {
      await proxy.close();
    }
  });

  it("only warns when the monitor cannot be reached", async () => {
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", "http://127.0.0.1:9/check"]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/warning: --ping-url: the start ping to http:\/\/127\.0\.0\.1:9 failed \(ECONNREFUSED\)/);
    expect(r.stderr).toMatch(/the success ping/);
  });

  it("refuses a URL that carries the API key, before anything is sent", async () => {
    pings.length = 0;
    const key = t.env.SIMADMIN_API_KEY!;
    const r = await t.capture(["token", "--user", "user-demo", "--ping-url", `${monitorUrl}/${key}`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--ping-url carries the API key/);
    expect(r.stderr).not.toContain(key);
    expect(pings).toEqual([]);
    expect(r.sent).toEqual([]);
  });
});

class Buffered extends Writable {
  text = "";
  override _write(chunk: Buffer, _e: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

function pipeIO(): IOStreams & { stderr: Buffered } {
  return {
    stdout: new PassThrough(),
    stderr: new Buffered(),
    stdin: Readable.from([]),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
  };
}

describe("heartbeats without a terminal", () => {
  it("prints nothing for a run shorter than the bound, then a line within every 30 s of the injected clock", async () => {
    const clock = createFakeClock();
    const io = pipeIO();
    let tick: (() => void) | undefined;
    const progress = await createProgress(io, {
      quiet: false,
      color: false,
      now: () => clock.now(),
      every: (_ms, check) => {
        tick = check;
        return () => (tick = undefined);
      },
    });
    progress.update("window 1 of 9");
    clock.advance(10_000);
    progress.update("window 2 of 9");
    expect(io.stderr.text).toBe("");
    // Nine silent minutes of one long request: only the timer ticks (every second of real time).
    const times: number[] = [];
    for (let s = 0; s < 9 * 60; s++) {
      clock.advance(1000);
      const before = io.stderr.text.length;
      tick?.();
      if (io.stderr.text.length > before) times.push(clock.now());
    }
    const lines = io.stderr.text.trimEnd().split("\n");
    expect(lines[0]).toBe("window 2 of 9 (25s so far)");
    expect(lines.at(-1)).toMatch(/^window 2 of 9 \(9m( \d{1,2}s)? so far\)$/);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(HEARTBEAT_BOUND_MS);
    expect(lines.length).toBeGreaterThanOrEqual(18);
    progress.done();
    expect(tick).toBeUndefined();
  });

  it("is silent with --quiet", async () => {
    const io = pipeIO();
    const clock = createFakeClock();
    const progress = await createProgress(io, { quiet: true, color: false, now: () => clock.now() });
    clock.advance(120_000);
    progress.update("x");
    expect(io.stderr.text).toBe("");
  });

  it("a spinner line is cut to the width", () => {
    expect(fitWidth("abcdef", 4)).toBe("abc…");
    expect(fitWidth("abc", 4)).toBe("abc");
  });

  it.each([80, 120])("a spinner at %i columns shows the time left: the counts between go first", async (columns) => {
    // What ora calls on a terminal stream, as node:tty's WriteStream has them.
    const stderr = Object.assign(new Buffered(), {
      isTTY: true,
      columns,
      cursorTo: (): boolean => true,
      moveCursor: (): boolean => true,
      clearLine: (): boolean => true,
    });
    const io = { ...pipeIO(), stderr, stderrIsTTY: true };
    const progress = await createProgress(io, { quiet: false, color: false });
    const line =
      "user-results · window 3 of 9 (2026-03-01..2026-03-31) · 2 of 9 done · next report request in 4s · about 6m 5s left";
    progress.update(line);
    progress.done();
    // eslint-disable-next-line no-control-regex -- the spinner's cursor codes are removed to read its text
    const shown = stderr.text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
    expect(shown).toContain("user-results · window 3 of 9 (2026-03-01..2026-03-31) · ");
    expect(shown).toContain(" · about 6m 5s left");
    if (columns === 120) expect(shown).toContain(line);
    else expect(shown).not.toContain("next report request");
  });
});

describe("-q under cron keeps only what needs action (docs/ci-and-cron.md)", () => {
  it.each([
    ["users import", (file: string) => ["users", "import", file, "--dry-run"]],
    ["link --from-csv", (file: string) => ["link", "--from-csv", file, "--dry-run"]],
  ])("%s: the nightly 'unknown column' warning is shown without -q, not with -q", async (_name, argv) => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-quiet-"));
    try {
      const file = join(dir, "in.csv");
      const users =
        "firstName,lastName,username,email,role,teamName,status,action,Cost Centre\nAl,Ng,al@example.com,al@example.com,trainee,Sales,ACTIVE,Add,42\n";
      const pairs = "userId,simulationId,Cost Centre\nuser-demo,sim-001,42\n";
      await writeFile(file, argv("x")[0] === "users" ? users : pairs);
      const loud = await t.capture(argv(file));
      expect(loud.exitCode, loud.stderr).toBe(0);
      expect(loud.stderr).toMatch(/^warning: .*in\.csv: unknown column "?Cost Centre"? \(column \d+\) is ignored/m);
      const quiet = await t.capture([...argv(file), "-q"]);
      expect(quiet.exitCode, quiet.stderr).toBe(0);
      expect(quiet.stderr).not.toMatch(/unknown column/);
      expect(quiet.stdout).toBe(loud.stdout);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a warning that needs action stays under -q (rows left out by --skip-invalid)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-quiet-"));
    try {
      const file = join(dir, "staff.csv");
      await writeFile(
        file,
        "firstName,lastName,username,email,role,teamName,status,action\nAl,Ng,al@example.com,al@example.com,trainee,Sales,ACTIVE,Add\nBo,Ng,bo@example.com,bo@example.org,trainee,Sales,ACTIVE,Add\n",
      );
      const r = await t.capture(["users", "import", file, "--dry-run", "--skip-invalid", "-q"]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^warning: 1 invalid row in .*staff\.csv will be skipped \(--skip-invalid\)/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("users import under GitHub Actions", () => {
  const header = "firstName,lastName,username,email,role,teamName,status,action";
  const good = (n: number): string => `Ann,Lee,ann${n}@example.com,ann${n}@example.com,trainee,Sales,ACTIVE,Add`;
  const mismatch = (n: number): string => `Bo,Ng,bo${n}@example.com,bo${n}@example.org,trainee,Sales,ACTIVE,Add`;

  async function ciRun(csv: string, extra: string[] = []) {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "staff.csv");
    await writeFile(file, csv);
    const summary = join(dir, "summary.md");
    const junit = join(dir, "report.xml");
    const r = await t.capture(["users", "import", file, "--junit", junit, ...extra], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir },
    });
    const read = (path: string): Promise<string> => readFile(path, "utf8").catch(() => "");
    return { ...r, dir, summary: await read(summary), junit: await read(junit) };
  }

  it("annotates each rejected row on its physical line (a quoted line break shifts the lines), and writes the summary and JUnit", async () => {
    const csv = [
      header,
      mismatch(1),
      `Cy,"Multi\nLine",cy@example.com,cy@example.com,trainee,Sales,ACTIVE,Add`,
      mismatch(2),
      good(3),
    ].join("\n");
    const r = await ciRun(`${csv}\n`);
    expect(r.exitCode).toBe(6);
    const annotations = r.stderr.split("\n").filter((l) => l.startsWith("::"));
    // Row 3 starts on line 3 and spans two lines (a valid name with a line break); row 4 is on line 5.
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatch(/^::error file=staff\.csv,line=2,title=row 2 rejected::row 2: /);
    expect(annotations[1]).toMatch(/^::error file=staff\.csv,line=5,title=row 4 rejected::row 4: /);
    expect(r.stderr).not.toContain("::notice");
    expect(r.summary).toContain("### `simadmin users import");
    expect(r.summary).toContain("❌ failed (exit 6)");
    expect(r.summary).toMatch(/\| Rows \| 4 \(2 valid, 2 invalid\) \|/);
    expect(r.summary).toMatch(/Errors file \| `.*staff\.errors\.csv`/);
    expect(r.summary).toMatch(/\| `.*staff\.csv` \| 4 \| 5 \| /);

    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(r.junit) as {
      testsuites: {
        testsuite: {
          tests: string;
          failures: string;
          testcase: { name: string; line?: string; failure?: { message: string } }[];
        };
      };
    };
    expect(XMLValidator.validate(r.junit)).toBe(true);
    const suite = parsed.testsuites.testsuite;
    expect(suite.tests).toBe("2");
    expect(suite.failures).toBe("2");
    expect(suite.testcase.map((c) => [c.name.replace(/^.*staff/, "staff"), c.line])).toEqual([
      ["staff.csv row 2", "2"],
      ["staff.csv row 4", "5"],
    ]);
    expect(suite.testcase[1]!.failure!.message).toMatch(/email/);
    await rm(r.dir, { recursive: true, force: true });
  });

  it("caps annotations at ten and gives the total in one notice; escapes what the data carries", async () => {
    const rows = Array.from({ length: 13 }, (_, i) => mismatch(i));
    rows[0] = `Bo,Ng,"50%,\r\nx",bo@example.com,trainee,Sales,ACTIVE,Add`;
    const r = await ciRun(`${[header, ...rows].join("\n")}\n`);
    expect(r.exitCode).toBe(6);
    const errors = r.stderr.split("\n").filter((l) => l.startsWith("::error"));
    const notices = r.stderr.split("\n").filter((l) => l.startsWith("::notice"));
    expect(errors).toHaveLength(10);
    expect(notices).toEqual([
      expect.stringMatching(
        /^::notice title=simadmin::13 rows were rejected; the first 10 are annotated; all are in .*staff\.errors\.csv$/,
      ),
    ]);
    // No raw line break inside an annotation; % encoded first.
    expect(errors.join("\n")).not.toMatch(/%(?!25|0D|0A|3A|2C)/);
    expect(errors[1]).toMatch(/line=4,/);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(r.junit) as {
      testsuites: { testsuite: { failures: string } };
    };
    expect(parsed.testsuites.testsuite.failures).toBe("13");
    await rm(r.dir, { recursive: true, force: true });
  });

  it("writes no annotation outside GitHub Actions", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "staff.csv");
    await writeFile(file, `${[header, mismatch(1)].join("\n")}\n`);
    const r = await t.capture(["users", "import", file]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).not.toContain("::error");
    await rm(dir, { recursive: true, force: true });
  });
});

describe("bulk --from-csv under GitHub Actions", () => {
  it("annotates invalid rows on their physical lines and lists every row in the JUnit report", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "cohort.csv");
    await writeFile(file, 'userId,simulationId\n,sim-0\n"user-\ndemo",sim-1\nuser-demo,\n');
    const junit = join(dir, "bulk.xml");
    const r = await t.capture(["assign", "--from-csv", file, "--junit", junit], {
      env: { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode).toBe(6);
    const annotations = r.stderr.split("\n").filter((l) => l.startsWith("::error"));
    expect(annotations.map((l) => /line=(\d+)/.exec(l)?.[1])).toEqual(["2", "5"]);
    expect(annotations[0]).toMatch(/^::error file=cohort\.csv,line=2,title=row 2 rejected::row 2: userId/);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(await readFile(junit, "utf8")) as {
      testsuites: { testsuite: { failures: string } };
    };
    expect(parsed.testsuites.testsuite.failures).toBe("2");
    await rm(dir, { recursive: true, force: true });
  });
});

describe("reports all with the service gone", () => {
  it("stops after the first kind cannot connect: the others are named as not attempted, each kind once", async () => {
    const clock = createFakeClock();
    const port = await closedPort();
    const r = await t.run(["reports", "all", "--from", "2025-06-01", "--to", "2025-06-02", "-o", "json"], {
      env: { SIMADMIN_BASE_URL: `http://127.0.0.1:${port}` },
      clock,
    });
    expect(r.exitCode).toBe(8);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: report syms-result: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(lines[0]).not.toMatch(/syms-result: report syms-result/);
    expect(lines[1]).toMatch(
      /^error: reports all: 1 of 7 kinds failed \(syms-result\) and 6 were not attempted because the service could not be reached \(.*\); nothing was written; /,
    );
    expect(lines[1]).not.toMatch(/the other 0/);
    // One kind's retries only (5 with backoff), not seven kinds' worth.
    const waited = clock.sleeps.reduce((a, b) => a + b, 0);
    expect(clock.sleeps.length).toBeLessThanOrEqual(6);
    expect(waited).toBeLessThan(60_000);
  });
});

describe("--dry-run tells the requests per budget and the least time", () => {
  it("reports all over three months: 7 kinds × 3 monthly windows at 10 per 60 s", async () => {
    const r = await t.run(["reports", "all", "--from", "2025-01-01", "--to", "2025-03-31", "--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    const plan = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(plan).toMatchObject({ windows: 3, requests: 21, budget: "10/60s" });
    // 21 requests, 10 a window: two more windows of 60 s (+ the scheduler's 0.9 s margin each).
    expect(plan.leastSeconds).toBe(122);
    expect(r.stderr).toMatch(/needs 21 reports requests \(budget 10\/60s\): at least 2m 2s by the budget/);
  });

  it("users import: one access request per batch", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "staff.csv");
    const rows = Array.from({ length: 1600 }, (_, i) => `A,B,u${i}@example.com,u${i}@example.com,trainee,Sales,ACTIVE,Add`);
    await writeFile(file, `firstName,lastName,username,email,role,teamName,status,action\n${rows.join("\n")}\n`);
    const r = await t.run(["users", "import", file, "--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { batches: number; requests: number; leastSeconds: number };
    expect(plan.batches).toBe(3);
    expect(plan.requests).toBe(3);
    expect(plan.leastSeconds).toBe(0);
    expect(r.stderr).toMatch(/needs 3 access requests \(budget 100\/300s\): no wait for the budget/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe("what a person meets at 80 columns (issue 26 item 6)", () => {
  it("names the required flag a typo was meant for", async () => {
    const r = await t.run(["token", "--usr", "user-demo"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/required option '--user <id>' not specified/);
    expect(r.stderr).toContain("did you mean --user instead of --usr?");
    const unrelated = await t.run(["token", "--verbose"]);
    expect(unrelated.stderr).not.toContain("did you mean");
  });

  it("keeps the sandbox state under ~/.cache, not in a shared /tmp directory", () => {
    expect(sandboxStateDir({ HOME: "/home/ann" })).toBe("/home/ann/.cache/simadmin");
    expect(sandboxStateDir({ HOME: "/home/ann", XDG_CACHE_HOME: "/var/cache/ann" })).toBe("/var/cache/ann/simadmin");
  });

  it("draws no line between table rows when no cell wraps, and keeps the header's", async () => {
    const rows = [
      { id: "attempt-2026-10-01T12:00:00Z", note: "short" },
      { id: "attempt-2026-10-02T12:00:00Z", note: "shorter" },
      { id: "attempt-2026-10-03T12:00:00Z", note: "shortest" },
    ];
    const lines = (await renderTable(["id", "note"], rows, { width: 80 })).trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("├"))).toHaveLength(1);
    expect(lines[2]!.startsWith("├")).toBe(true);
    expect(lines).toHaveLength(7);
  });

  it("keeps the lines between rows once a cell wraps (they tell rows apart), and wraps prose at spaces instead of cutting ids", async () => {
    const rows = [
      { id: "attempt-2026-10-01T12:00:00Z", note: "a long note that can wrap at its spaces without trouble at all" },
      { id: "attempt-2026-10-02T12:00:00Z", note: "short" },
    ];
    const text = await renderTable(["id", "note"], rows, { width: 60 });
    const lines = text.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("├"))).toHaveLength(2);
    expect(lines[2]!.startsWith("├")).toBe(true);
    expect(text).toContain("attempt-2026-10-01T12:00:00Z");
    expect(text).toContain("attempt-2026-10-02T12:00:00Z");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it("library: a page past the end says so, and the service's total ends the page hint", async () => {
    const past = await t.run(["library", "--user", "user-demo", "--page", "40", "--page-size", "5", "-o", "json"]);
    expect(past.exitCode, past.stderr).toBe(0);
    expect(past.stderr).toMatch(/page 40 is past the end of the library/);
    expect(past.stderr).not.toMatch(/--page 41/);
  });

  it("a 401 for a stored key names the profile whose key was refused", async () => {
    const env = { SIMADMIN_API_KEY: undefined, SIMADMIN_KEYCHAIN: "off" };
    const login = await t.run(["--profile", "staging", "auth", "login", "--with-key", "--no-verify"], {
      env,
      input: "sk_wrong_key_123456",
    });
    expect(login.exitCode, login.stderr).toBe(0);
    const r = await t.run(["--profile", "staging", "token", "--user", "user-demo"], { env });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/the key of the profile 'staging' was refused: run `simadmin --profile staging auth login`/);
  });
});

describe("users sync under GitHub Actions", () => {
  it("annotates an invalid roster row on its physical line and writes the summary", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "roster.csv");
    await writeFile(
      file,
      'firstName,lastName,email,teamName\n"Ann\nMarie",Lee,ann@example.com,Sales\n,Ng,bo@example.com,Sales\n',
    );
    const summary = join(dir, "summary.md");
    const r = await t.capture(["users", "sync", file, "--plan"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode).toBe(6);
    const annotations = r.stderr.split("\n").filter((l) => l.startsWith("::error"));
    expect(annotations).toEqual([
      expect.stringMatching(/^::error file=roster\.csv,line=4,title=row 3 rejected::row 3: firstName/),
    ]);
    expect(await readFile(summary, "utf8")).toMatch(/\| Roster \| 1 user, 1 invalid row \|/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe("exit 12 (changes pending) is an answer, not a failure, wherever the run is reported", () => {
  it("users sync --plan with changes: no 'error:', a passing JUnit case, a summary that does not say failed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-ci-"));
    const file = join(dir, "roster.csv");
    await writeFile(file, "firstName,lastName,email,teamName\nAnn,Lee,ann.pending@example.com,Sales\n");
    const summary = join(dir, "summary.md");
    const junit = join(dir, "junit.xml");
    const r = await t.capture(["--junit", junit, "users", "sync", file, "--plan"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode, r.stderr).toBe(12);
    expect(r.stderr).not.toMatch(/^error:/m);
    const report = await readFile(junit, "utf8");
    expect(report).toContain('failures="0"');
    expect(report).not.toContain("<failure");
    const text = await readFile(summary, "utf8");
    expect(text).not.toContain("failed");
    expect(text).toMatch(/\| Result \| ✅ exit 12/);
    await rm(dir, { recursive: true, force: true });
  });
});

describe("Ctrl-C says what was kept and how to go on", () => {
  it("reports: the windows fetched so far are kept; run the same command again", async () => {
    const controller = new AbortController();
    const path = "/v2/report/users";
    // Ctrl-C while the second window's request is under way (each answer takes 300 ms).
    t.sandbox.faults.delayNext(path, 3, 300);
    const watch = setInterval(() => {
      if (t.sandbox.requests.filter((q) => q.path === path).length >= 2) controller.abort();
    }, 5);
    try {
      const r = await t.capture(["reports", "users", "--from", "2025-01-01", "--to", "2025-03-31", "-o", "json"], {
        signal: controller.signal,
      });
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toMatch(
        /^interrupted; the windows fetched so far are kept \(24 h\): run the same command again to resume from them$/m,
      );
    } finally {
      clearInterval(watch);
      t.sandbox.faults.clear();
    }
  });
});

describe("auth login checks the key", () => {
  const env = { SIMADMIN_API_KEY: undefined, SIMADMIN_KEYCHAIN: "off" };
  it("stores nothing when the service refuses the key, with one report request", async () => {
    const r = await t.run(["--profile", "checked", "auth", "login", "--with-key"], { env, input: "sk_refused_123456" });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/the service refused the key for profile 'checked' .*; it was not stored/);
    expect(r.sent.map((q) => q.path)).toEqual(["/v2/report/syms"]);
    const status = await t.run(["--profile", "checked", "auth", "status"], { env });
    expect(status.exitCode).not.toBe(0);
  });

  it("stores a key the service accepts; --no-verify sends nothing", async () => {
    const good = await t.run(["--profile", "good", "auth", "login", "--with-key"], { env, input: t.env.SIMADMIN_API_KEY });
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.sent).toHaveLength(1);
    const unchecked = await t.run(["--profile", "unchecked", "auth", "login", "--with-key", "--no-verify"], {
      env,
      input: "sk_whatever_123456",
    });
    expect(unchecked.exitCode).toBe(0);
    expect(unchecked.sent).toEqual([]);
  });
});

describe("a long export without a terminal", () => {
  // The fake clock's sleeps are instant, so only the lines due at each update show here; the
  // timer that prints during a long wait in real time is tested with the heartbeat above.
  it("prints progress lines on stderr while it waits for the budget, and none with -q", async () => {
    // A service of its own: its budget counts real time, the client's the fake clock.
    const roomy = await startTestEnv(ROOMY);
    const args = ["reports", "users", "--from", "2025-01-01", "--to", "2025-06-30", "-o", "json"];
    const env = { SIMADMIN_RATE_LIMITS: "reports=1/60s" };
    const r = await roomy.run(args, { env, clock: createFakeClock() });
    expect(r.exitCode, r.stderr).toBe(0);
    // Seven windows at one a minute: a line for each wait.
    const lines = r.stderr.split("\n").filter((l) => / so far\)$/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(lines[0]).toMatch(/^users · window \d of 7 .* \(\dm( \d{1,2}s)? so far\)$/);
    expect(r.stdout.startsWith("[")).toBe(true);
    const quiet = await roomy.run([...args, "--to", "2025-05-31", "-q"], { env, clock: createFakeClock() });
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe("");
    await roomy.close();
  });
});
