import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// assign | unassign | link --from-csv (issue 16 item 1; docs/cli-contract.md "Bulk operations").

const ASSIGNMENT = "/v2/access-api/simulation/assignment";
const DEEP_LINKS = "/v2/access-api/simulation/deep-links";
const TOKEN = "/v2/access-api/user/token";

let t: TestEnv;
let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  t = await startTestEnv(ROOMY);
  dir = await tempDir();
});
afterAll(async () => {
  await t.close();
  await dir.remove();
});
beforeEach(() => {
  t.sandbox.faults.clear();
});

let counter = 0;
async function csv(text: string, bom = false): Promise<string> {
  const path = join(dir.path, `cohort-${++counter}.csv`);
  await writeFile(path, `${bom ? "\uFEFF" : ""}${text}`);
  return path;
}

function parseCsv(text: string): Record<string, string>[] {
  const [head, ...lines] = text.trimEnd().split("\n");
  const columns = head!.split(",");
  return lines.map((line) => {
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") {
        cells.push(cell);
        cell = "";
      } else cell += ch;
    }
    cells.push(cell);
    return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? ""]));
  });
}

describe("validation first", () => {
  it("empty ids and a repeated pair: exit 6, the problems as output and in <file>.errors.csv, nothing sent", async () => {
    const file = await csv("userId;simulationId\nuser-demo;sim-001\n;sim-002\nuser-ava;\nuser-demo;sim-001\n");
    const r = await t.capture(["assign", "--from-csv", file, "-o", "json"]);
    expect(r.exitCode).toBe(6);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(r.stdout)).toEqual([
      { row: 3, field: "userId", message: "is empty" },
      { row: 4, field: "simulationId", message: "is empty" },
      { row: 5, field: "(row)", message: "repeats the pair user-demo / sim-001 of row 2" },
    ]);
    expect(r.stderr).toMatch(/^error: .*3 invalid rows; nothing was sent/m);
    const errors = await readFile(file.replace(/\.csv$/, ".errors.csv"), "utf8");
    // Written with the input's `;` (docs/users-csv.md "The errors file").
    expect(parseCsv(errors.replaceAll(";", ",")).map((e) => e.row)).toEqual(["3", "4", "5"]);
    expect(existsSync(file.replace(/\.csv$/, ".assign.json"))).toBe(false);
  });

  it("a file without the columns is exit 6 naming them; a missing file is exit 11", async () => {
    const file = await csv("user,sim\nuser-demo,sim-001\n");
    const r = await t.capture(["link", "--from-csv", file]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/userId|simulationId/);
    expect(r.sent).toEqual([]);
    const missing = await t.capture(["link", "--from-csv", join(dir.path, "nope.csv")]);
    expect(missing.exitCode).toBe(11);
  });

  it("--dry-run prints the plan and sends nothing; --user with --from-csv is a usage error", async () => {
    const file = await csv("userId,simulationId\nuser-demo,sim-001\nuser-demo,sim-002\nuser-ava,sim-001\n", true);
    const r = await t.capture(["link", "--from-csv", file, "--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, users: 2, simulations: 2, alreadyDone: 0, requests: 5 });
    const both = await t.capture(["assign", "--from-csv", file, "--user", "user-demo"]);
    expect(both.exitCode).toBe(2);
    const none = await t.capture(["assign", "--sim", "sim-001"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/--user.*--from-csv/);
  });
});

describe("files from spreadsheets", () => {
  // Excel's "CSV (Comma delimited)" on Windows: windows-1252, `;` in many locales, CRLF.
  const excel1252 = async (): Promise<string> => {
    const path = join(dir.path, `cohort-${++counter}.csv`);
    await writeFile(path, Buffer.from("userId;simulationId\r\nuser-ben;sim-006\r\nus\xe9r-x;sim-006\r\n", "latin1"));
    return path;
  };

  it("a windows-1252 file is refused with the byte named and --encoding suggested; nothing is sent", async () => {
    const r = await t.capture(["assign", "--from-csv", await excel1252()]);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/not valid UTF-8: byte 0xE9.*--encoding windows-1252/);
    expect(r.sent).toEqual([]);
  });

  it("--encoding windows-1252 reads it: the ids are sent as the spreadsheet shows them", async () => {
    const r = await t.capture(["assign", "--from-csv", await excel1252(), "--encoding", "windows-1252", "-o", "json"]);
    // usér-x does not exist: that row is rejected by the service (exit 6), the other assigned.
    expect(r.exitCode, r.stderr).toBe(6);
    expect(r.sent.map((s) => (s.body as { userId: string }).userId)).toEqual(["user-ben", "usér-x"]);
    expect((JSON.parse(r.stdout) as { status: string }[]).map((row) => row.status)).toEqual(["ok", "failed"]);
  });

  it("--encoding is checked before anything is read or sent, and goes with --from-csv only (exit 2)", async () => {
    const unknown = await t.capture(["link", "--from-csv", await excel1252(), "--encoding", "klingon"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/--encoding: unknown encoding "klingon"/);
    const alone = await t.capture(["assign", "--user", "user-ben", "--sim", "sim-006", "--encoding", "windows-1252"]);
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toMatch(/--encoding goes with --from-csv/);
    expect([...unknown.sent, ...alone.sent]).toEqual([]);
  });
});

describe("sending", () => {
  it("link: one deep link per row, one token per user; a rejected row is recorded and the run goes on (exit 6, errors file)", async () => {
    const file = await csv(
      "userId,simulationId,email\nuser-demo,sim-001,a@x\nuser-ava,sim-001,b@x\nuser-demo,sim-002,a@x\nuser-demo,sim-999,a@x\nuser-ava,sim-003,b@x\n",
    );
    const r = await t.capture(["link", "--from-csv", file, "-o", "csv"]);
    expect(r.exitCode).toBe(6);
    expect(r.sent.filter((s) => s.path === DEEP_LINKS)).toHaveLength(5);
    expect(r.sent.filter((s) => s.path === TOKEN).map((s) => (s.body as { userId: string }).userId)).toEqual([
      "user-demo",
      "user-ava",
    ]);
    const rows = parseCsv(r.stdout);
    expect(rows.map((row) => [row.userId, row.simulationId, row.status])).toEqual([
      ["user-demo", "sim-001", "ok"],
      ["user-ava", "sim-001", "ok"],
      ["user-demo", "sim-002", "ok"],
      ["user-demo", "sim-999", "failed"],
      ["user-ava", "sim-003", "ok"],
    ]);
    for (const row of rows.filter((x) => x.status === "ok")) {
      const url = new URL(row.link!);
      expect(url.pathname).toBe(`/org-demo/simulation/${row.simulationId}`);
      expect(t.sandbox.state.verifyUserToken(url.searchParams.get("token")!)).toMatchObject({ valid: true });
      expect(row.error).toBe("");
    }
    expect(rows[3]!.error).toMatch(/404/);
    expect(rows[3]!.link).toBe("");
    const errors = parseCsv(await readFile(file.replace(/\.csv$/, ".errors.csv"), "utf8"));
    expect(errors).toEqual([{ userId: "user-demo", simulationId: "sim-999", email: "a@x", row: "5", errors: rows[3]!.error }]);
    // The manifest records each row, and never a token.
    const manifest = await readFile(file.replace(/\.csv$/, ".link.json"), "utf8");
    expect(Object.keys((JSON.parse(manifest) as { rows: object }).rows)).toEqual(["2", "3", "4", "5", "6"]);
    expect(manifest).not.toMatch(/token/i);
  });

  it("assign: every row ok → exit 0, deepLink per row, the assignments made; unassign undoes them", async () => {
    const file = await csv("userId,simulationId\nuser-ben,sim-004\nuser-ben,sim-005\n");
    const r = await t.capture(["assign", "--from-csv", file, "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent.map((s) => [s.path, (s.body as { assign: boolean }).assign])).toEqual([
      [ASSIGNMENT, true],
      [ASSIGNMENT, true],
    ]);
    expect(JSON.parse(r.stdout)).toEqual([
      { userId: "user-ben", simulationId: "sim-004", status: "ok", error: "", deepLink: expect.stringMatching(/sim-004$/) },
      { userId: "user-ben", simulationId: "sim-005", status: "ok", error: "", deepLink: expect.stringMatching(/sim-005$/) },
    ]);
    expect(t.sandbox.state.isAssigned("org-demo", "user-ben", "sim-005")).toBe(true);
    const u = await t.capture(["unassign", "--from-csv", file, "-o", "ndjson"]);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(
      u.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as { status: string }).status),
    ).toEqual(["ok", "ok"]);
    expect(t.sandbox.state.isAssigned("org-demo", "user-ben", "sim-005")).toBe(false);
  });

  it("a second run of the same file without --resume is refused (exit 2, nothing sent)", async () => {
    const file = await csv("userId,simulationId\nuser-demo,sim-006\n");
    expect((await t.capture(["assign", "--from-csv", file])).exitCode).toBe(0);
    const again = await t.capture(["assign", "--from-csv", file]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/--resume/);
    expect(again.sent).toEqual([]);
  });

  it("an interrupted run resumes without repeating a finished row; finished link rows get a fresh token", async () => {
    const lines = ["userId,simulationId"];
    const users = ["user-demo", "user-ava", "user-ben"];
    for (let i = 0; i < 9; i++) lines.push(`${users[i % 3]},sim-0${10 + i}`);
    const file = await csv(`${lines.join("\n")}\n`);
    // Every deep link takes 40 ms, so the run can be stopped after the third one.
    t.sandbox.faults.delayNext(DEEP_LINKS, 100, 40);
    const controller = new AbortController();
    const watch = setInterval(() => {
      if (t.sandbox.requests.filter((q) => q.path === DEEP_LINKS && q.status === 200).length >= first + 3) controller.abort();
    }, 5);
    const first = t.sandbox.requests.filter((q) => q.path === DEEP_LINKS && q.status === 200).length;
    const stopped = await t.capture(["link", "--from-csv", file, "-o", "json"], { signal: controller.signal });
    clearInterval(watch);
    expect(stopped.exitCode).toBe(130);
    const manifestPath = file.replace(/\.csv$/, ".link.json");
    const recorded = Object.keys((JSON.parse(await readFile(manifestPath, "utf8")) as { rows: object }).rows).map(Number);
    expect(recorded.length).toBeGreaterThanOrEqual(2);
    expect(recorded.length).toBeLessThan(9);

    t.sandbox.faults.clear();
    const resumed = await t.capture(["link", "--from-csv", file, "--resume", "-o", "json"]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`resuming: ${recorded.length} of 9 rows already done`));
    const resent = resumed.sent
      .filter((s) => s.path === DEEP_LINKS)
      .map((s) => (s.body as { simulationId: string }).simulationId);
    const recordedSims = recorded.map((row) => `sim-0${10 + row - 2}`);
    expect(resent.filter((sim) => recordedSims.includes(sim))).toEqual([]);
    expect(resent).toHaveLength(9 - recorded.length);
    // One token per user of the output, the users of finished rows included.
    expect(resumed.sent.filter((s) => s.path === TOKEN)).toHaveLength(3);
    const out = JSON.parse(resumed.stdout) as { status: string; link: string }[];
    expect(out).toHaveLength(9);
    for (const row of out) {
      expect(row.status).toBe("ok");
      expect(t.sandbox.state.verifyUserToken(new URL(row.link).searchParams.get("token")!)).toMatchObject({ valid: true });
    }
  });

  it("another live run of the same file holds the lock: exit 2 naming its pid, nothing sent", async () => {
    const file = await csv("userId,simulationId\nuser-demo,sim-020\n");
    const lock = `${file.replace(/\.csv$/, ".assign.json")}.lock`;
    await writeFile(
      lock,
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: "2026-11-23T00:00:00Z", command: "assign" }),
    );
    const r = await t.capture(["assign", "--from-csv", file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`pid ${process.pid}`);
    expect(r.sent).toEqual([]);
    // A lock of a process that is gone is taken over.
    await writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), startedAt: "x", command: "assign" }));
    const taken = await t.capture(["assign", "--from-csv", file]);
    expect(taken.exitCode, taken.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });
});
