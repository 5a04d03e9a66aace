// @ts-nocheck
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { systemClock, type Clock } from "../../src/clock.js";
import { generateReport } from "../../src/sandbox/reports.js";
import { FAST, startTestEnv, type TestEnv } from "../helpers/in-process.js";

// The report resume cache keeps a window for 24 hours and no longer (src/commands/reports/
// cache.ts, MAX_AGE_MS: report data of recent days still changes). The run's clock is
// injected and set a day ahead instead of waiting one: a window stored 23 h "ago" is reused,
// one stored 25 h ago is neither reused nor kept.

const HOUR = 60 * 60_000;
const Q1 = ["--from", "2025-01-01", "--to", "2025-03-31"];
const Q1_WINDOWS = [
  { startDate: "2025-01-01", endDate: "2025-01-30" },
  { startDate: "2025-01-31", endDate: "2025-03-01" },
  { startDate: "2025-03-02", endDate: "2025-03-31" },
];

/** The real clock, `offsetMs` ahead (the cache's files carry the file system's real times). */
function clockAhead(offsetMs: number): Clock {
  return { ...systemClock, now: () => Date.now() + offsetMs };
}

let env: TestEnv;
/** Set by a test: fail the kind's windows after its first one has been answered. */
let failAfterFirstWindowOf: string | undefined;
beforeAll(async () => {
  env = await startTestEnv({
    rateLimits: { reports: { limit: 1000, windowMs: 1000 }, access: { limit: 1000, windowMs: 1000 } },
    // Called as a request is answered, before the client sees it: no race with the next one.
    log: (line) => {
      const kind = failAfterFirstWindowOf;
      if (kind && line.startsWith(`POST /v2/report/${kind} 200`)) {
        failAfterFirstWindowOf = undefined;
        env.sandbox.faults.failNext(`/v2/report/${kind}`, 10, 500);
      }
    },
  });
});
afterAll(() => env.close());
const cacheDir = (): string => join(env.configDir, "report-cache");
beforeEach(async () => {
  env.sandbox.faults.clear();
  await rm(cacheDir(), { recursive: true, force: true });
  // The rate ledger remembers the requests of a run whose clock was a day ahead; a run on the
  // real clock would wait for those to age out. Each test starts with none.
  for (const name of await readdir(env.configDir).catch(() => [])) {
    if (name.startsWith("rate-ledger-")) await rm(join(env.configDir, name), { force: true });
  }
});

/** `reports <kind>` over Q1 that stops with exit 8 after storing the first window. */
async function failAfterOneWindow(kind: string, clock?: Clock): Promise<void> {
  failAfterFirstWindowOf = kind;
  const failed = await env.run(["reports", kind, ...Q1, "-o", "ndjson", "--retries", "0"], { env: FAST, clock });
  expect(failed.exitCode, failed.stderr).toBe(8);
  env.sandbox.faults.clear();
}

function windowsSent(sent: { path: string; body: unknown }[], kind: string): unknown[] {
  return sent.filter((r) => r.path === `/v2/report/${kind}`).map((r) => r.body);
}

describe("report cache age (24 h)", () => {
  it("reuses a window stored 23 hours before", async () => {
    await failAfterOneWindow("users");
    const r = await env.run(["reports", "users", ...Q1, "-o", "ndjson"], { env: FAST, clock: clockAhead(23 * HOUR) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain("resuming: 1 of 3 windows from cache");
    expect(windowsSent(r.sent, "users")).toEqual(Q1_WINDOWS.slice(1));
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(generateReport("users", "2025-01-01", "2025-03-31", 2));
  });

  it("fetches again a window stored 25 hours before", async () => {
    await failAfterOneWindow("syms");
    const r = await env.run(["reports", "syms", ...Q1, "-o", "ndjson"], { env: FAST, clock: clockAhead(25 * HOUR) });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("resuming");
    expect(windowsSent(r.sent, "syms")).toEqual(Q1_WINDOWS);
    expect(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(generateReport("syms", "2025-01-01", "2025-03-31", 2));
  });

  it("removes windows older than 24 hours from disk when the cache is next opened, by any report", async () => {
    await failAfterOneWindow("syms-result");
    const stale = await readdir(cacheDir());
    expect(stale).toHaveLength(1);

    // Another kind, a day later, also stopping after its first window: only its own window is left.
    await failAfterOneWindow("users", clockAhead(25 * HOUR));
    const left = await readdir(cacheDir());
    expect(left).toHaveLength(1);
    expect(left).not.toContain(stale[0]);
  });

  it("keeps other windows younger than 24 hours when the cache is opened", async () => {
    await failAfterOneWindow("syms-result");
    const young = await readdir(cacheDir());
    expect(young).toHaveLength(1);

    await failAfterOneWindow("users", clockAhead(23 * HOUR));
    const left = await readdir(cacheDir());
    expect(left).toHaveLength(2);
    expect(left).toContain(young[0]);
  });
});
