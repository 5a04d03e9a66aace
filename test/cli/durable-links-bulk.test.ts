import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../src/clock.js";
import { verifyLinkId } from "../../src/domain/durable-links.js";
import { pairScript } from "../../src/sandbox/progress-script.js";
import { MATRIX_DIALECTS, ROOMY, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";

// link --from-csv --durable and progress --links --durable (docs/cli-contract.md "Durable
// links"): a mail-merge file of durable links made without a single deep-links or user/token
// request — progress still asks completion-data, and the links go to the pairs not completed
// whatever the dialect the service answers in.

const LINKS_URL = "https://links.example.com";
const KEY = "0123456789abcdef0123456789abcdef-bulk-key";
const ENV = { SIMADMIN_LINKS_URL: LINKS_URL, SIMADMIN_LINKS_KEY: KEY };
const START = Date.UTC(2026, 10, 23, 12);
const DAY = 86_400_000;
const TOKEN = "/v2/access-api/user/token";
const DEEP_LINKS = "/v2/access-api/simulation/deep-links";
const COMPLETION = "/v2/access-api/simulation/completion-data";

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await dir.remove();
});

let counter = 0;
async function csv(lines: string[]): Promise<string> {
  const path = join(dir.path, `pairs-${++counter}.csv`);
  await writeFile(path, lines.join("\n") + "\n");
  return path;
}

type Row = Record<string, string>;

function claimsOf(t: TestEnv, link: string) {
  expect(link.startsWith(`${LINKS_URL}/l/`)).toBe(true);
  const check = verifyLinkId(
    Buffer.from(KEY),
    { service: t.sandbox.baseUrl, organizationId: "org-demo" },
    link.slice(`${LINKS_URL}/l/`.length),
  );
  if (!check.ok) throw new Error(`${link} does not verify: ${check.reason}`);
  return check.claims;
}

describe("link --from-csv --durable", () => {
  let t: TestEnv;
  const clock = createFakeClock(START);
  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, now: () => clock.now() });
  });
  afterAll(async () => {
    await t.close();
  });

  it("writes one durable link per row, bound to its user and simulation, sending nothing", async () => {
    const file = await csv([
      "userId,simulationId,email",
      "user-ben,sim-001,b@x",
      "user-ben,sim-002,b@x",
      "user-emma,sim-001,e@x",
    ]);
    const r = await t.capture(["link", "--from-csv", file, "--durable", "--valid-for", "6w", "-o", "json"], { env: ENV, clock });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    const rows = JSON.parse(r.stdout) as Row[];
    expect(rows.map((row) => [row.userId, row.simulationId, row.status])).toEqual([
      ["user-ben", "sim-001", "ok"],
      ["user-ben", "sim-002", "ok"],
      ["user-emma", "sim-001", "ok"],
    ]);
    for (const row of rows) {
      const claims = claimsOf(t, row.link!);
      expect(claims).toMatchObject({ userId: row.userId, simulationId: row.simulationId, issuedAt: START });
      expect(claims.expiresAt).toBe(START + 42 * DAY);
      expect(row.expiresAt).toBe(new Date(START + 42 * DAY).toISOString());
    }
    // No manifest: nothing was sent, so there is nothing to resume.
    const again = await t.capture(["link", "--from-csv", file, "--durable", "-o", "json"], { env: ENV, clock });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.sent).toEqual([]);
  });

  it("--valid-until sets every row's expiry; --dry-run counts rows and makes nothing", async () => {
    const file = await csv(["userId,simulationId", "user-ben,sim-001", "user-emma,sim-003"]);
    const r = await t.capture(["link", "--from-csv", file, "--durable", "--valid-until", "2026-12-31", "-o", "json"], {
      env: ENV,
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const through = new Date(2027, 0, 1).getTime(); // the end of Dec 31 in local time
    for (const row of rows) expect(claimsOf(t, row.link!).expiresAt).toBe(through);
    const dry = await t.capture(["link", "--from-csv", file, "--durable", "--dry-run", "-o", "json"], { env: ENV, clock });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 2, users: 2, simulations: 2, requests: 0 });
    expect(dry.stdout).not.toContain(LINKS_URL);
    expect(dry.sent).toEqual([]);
  });

  it.each([
    [[], {}, 2, /links-url/],
    [["--resume"], ENV, 2, /--resume has nothing to resume/],
    [["--assign"], ENV, 2, /--assign cannot go with --durable/],
    [["--valid-for", "400d"], ENV, 2, /365 days/],
  ])("refuses %j with exit %i, sending nothing", async (extra, env, code, message) => {
    const file = await csv(["userId,simulationId", "user-ben,sim-001"]);
    const r = await t.capture(["link", "--from-csv", file, "--durable", ...extra], { env, clock });
    expect(r.exitCode).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe("");
    expect(r.sent).toEqual([]);
  });

  it("a file with an invalid row is exit 6 with no link made", async () => {
    const file = await csv(["userId,simulationId", "user-ben,sim-001", ",sim-002"]);
    const r = await t.capture(["link", "--from-csv", file, "--durable", "-o", "json"], { env: ENV, clock });
    expect(r.exitCode).toBe(6);
    expect(r.stdout).not.toContain(LINKS_URL);
    expect(r.sent).toEqual([]);
  });
});

describe.each(MATRIX_DIALECTS)("progress --links --durable against the %s dialect", (dialect) => {
  let t: TestEnv;
  const clock = createFakeClock(START);
  beforeAll(async () => {
    t = await startTestEnv({ ...ROOMY, dialect, now: () => clock.now(), scriptedAttemptStepMs: 30_000 });
  });
  afterAll(async () => {
    await t.close();
  });
  const users = ["user-ben", "user-emma", "user-grace"];
  const sims = ["sim-001", "sim-002", "sim-003", "sim-004"];
  const pairs = users.flatMap((u) => sims.map((s) => [u, s] as const));

  it("asks completion only, and gives every pair not completed a durable link", async () => {
    const file = await csv(["userId,simulationId,manager", ...pairs.map(([u, s]) => `${u},${s},Dana`)]);
    const r = await t.capture(["progress", "--from-csv", file, "--links", "--durable", "--valid-for", "2w", "-o", "json"], {
      env: ENV,
      clock,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent.filter((s) => s.path === TOKEN || s.path === DEEP_LINKS)).toEqual([]);
    expect(r.sent.filter((s) => s.path === COMPLETION)).toHaveLength(pairs.length);
    const rows = JSON.parse(r.stdout) as Row[];
    // The sandbox's script: kind 4 is completed on the first request (src/sandbox/progress-script.ts).
    const completed = (row: Row): boolean => pairScript("org-demo", row.userId!, row.simulationId!).kind === 4;
    expect(rows.some(completed)).toBe(true);
    expect(rows.some((row) => !completed(row))).toBe(true);
    for (const row of rows) {
      expect(row.state === "completed").toBe(completed(row));
      if (completed(row)) {
        expect(row.link).toBe("");
        continue;
      }
      const claims = claimsOf(t, row.link!);
      expect(claims).toMatchObject({ userId: row.userId, simulationId: row.simulationId });
      expect(claims.expiresAt - claims.issuedAt).toBe(14 * DAY);
      expect(row.linkExpiresAt).toBe(new Date(claims.expiresAt).toISOString());
    }
  });

  it.each([
    [["--links", "--durable"], {}, /links-url/],
    [["--durable"], { SIMADMIN_LINKS_URL: LINKS_URL }, /--durable applies only with --links/],
    [["--links", "--valid-for", "2w"], { SIMADMIN_LINKS_URL: LINKS_URL }, /--valid-for applies only with --durable/],
  ])("refuses %j with exit 2 before anything is sent", async (extra, env, message) => {
    const file = await csv(["userId,simulationId", "user-ben,sim-001"]);
    const r = await t.capture(["progress", "--from-csv", file, ...extra], { env, clock });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.sent).toEqual([]);
  });
});
