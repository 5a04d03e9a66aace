import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { FAST, MATRIX_DIALECTS, ROOMY, runCli, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import { startScriptedService, type ScriptedService } from "../helpers/scripted-service.js";

// docs/table-width.md: what an admin at an 80-column terminal reads — a link whole (under the
// table when the table cannot hold it), and who a row of the users report is about.

// eslint-disable-next-line no-control-regex -- finding escape sequences is the point
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const TERMINAL = { stdoutIsTTY: true, columns: 80 } as const;
const visible = (text: string): string => text.replace(ANSI, "");
const headerOf = (stdout: string): string[] =>
  (visible(stdout).split("\n")[1] ?? "")
    .split("│")
    .map((c) => c.trim())
    .filter(Boolean);

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

describe.each(MATRIX_DIALECTS)("at 80 columns, the %s dialect", (dialect) => {
  let t: TestEnv | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("progress --links: the table keeps its columns and every link is printed whole under it, on its row's line", async () => {
    const clock = createFakeClock(Date.UTC(2026, 10, 23, 12));
    t = await startTestEnv({ ...ROOMY, dialect, now: () => clock.now(), scriptedAttemptStepMs: 30_000 });
    const file = join(dir.path, `pairs-${dialect}.csv`);
    await writeFile(file, "userId,simulationId,dueDate\nuser-ben,sim-001,2027-06-30\nuser-emma,sim-002,2027-06-30\n");
    const r = await t.capture(["progress", "--from-csv", file, "--links"], { clock, ...TERMINAL });
    expect(r.exitCode, r.stderr).toBe(0);
    const json = await t.capture(["progress", "--from-csv", file, "--links", "-o", "json"], { clock });
    const links = (JSON.parse(json.stdout) as { userId: string; simulationId: string; link: string }[]).filter((row) => row.link);
    expect(links.length).toBeGreaterThan(0);
    const lines = visible(r.stdout).trimEnd().split("\n");
    const table = lines.slice(0, lines.findIndex((line) => line.startsWith("└")) + 1);
    for (const line of table) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(headerOf(r.stdout)).toEqual(["userId", "simulationId", "state", "dueDate", "completedAt"]);
    // One table line per pair: no cell was wrapped.
    expect(table).toHaveLength(4 + 2);
    const below = lines.slice(table.length);
    expect(below[0]).toBe("");
    expect(below[1]?.split(/ +/)).toEqual(["userId", "simulationId", "link"]);
    for (const { userId, simulationId, link } of links) {
      // Each link once, whole on one line, after the pair it belongs to (the session's links differ: by token).
      expect(below.filter((line) => line.includes(link))).toEqual([
        expect.stringMatching(new RegExp(`^${userId} +${simulationId} +`)),
      ]);
      expect(below.find((line) => line.includes(link))?.endsWith(link)).toBe(true);
    }
  });

  it("reports users: the group's name right after the date (the sandbox's users report is per group)", async () => {
    t = await startTestEnv({ ...ROOMY, dialect });
    const r = await t.capture(["reports", "users", "--from", "2025-06-01", "--to", "2025-06-01", "-q"], TERMINAL);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(headerOf(r.stdout).slice(0, 2)).toEqual(
      { default: ["date", "group.name"], public: ["date", "name"], terse: ["day", "group_name"] }[dialect],
    );
  });
});

describe("a users report per user (a service may answer one record a trainee)", () => {
  let service: ScriptedService;
  beforeAll(async () => {
    const records = [1, 2, 3].map(
      (i) =>
        `{"date":"2026-11-20","userId":"user-00${i}","userName":"Trainee Number ${i}","email":"trainee${i}@example.com",` +
        `"group":{"id":"grp-${i}","name":"Sales EMEA"},"stats":{"sessions":${i * 7},"minutes":${i * 93},"attempts":${i * 4},"avgScore":${70 + i}.5}}`,
    );
    service = await startScriptedService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"data":[${records.join(",")}]}`);
    });
  });
  afterAll(() => service.close());

  it.each([80, 120])("at %i columns: the trainee's name or id among the first columns", async (columns) => {
    const config = await tempDir();
    try {
      const r = await runCli(["reports", "users", "--from", "2026-11-20", "--to", "2026-11-20", "-q"], {
        ...TERMINAL,
        columns,
        env: {
          ...FAST,
          SIMADMIN_BASE_URL: service.baseUrl,
          SIMADMIN_API_KEY: "k-test-1",
          SIMADMIN_ORG: "org-1",
          SIMADMIN_CONFIG_DIR: config.path,
        },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      const header = headerOf(r.stdout);
      expect(header[0]).toBe("date");
      expect(
        header.slice(1, 3).some((column) => column === "userName" || column === "userId"),
        header.join(","),
      ).toBe(true);
      for (const line of visible(r.stdout).trimEnd().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(columns);
    } finally {
      await config.remove();
    }
  });
});
