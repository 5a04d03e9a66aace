import { readdir } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// Issue 22 item 5, docs/cli-contract.md "Rate limits": the service counts requests per client
// address, so concurrent runs against one service share one budget whatever their profile.
// Four runs with four profiles used to keep four ledgers and meet 429s.
//
// The client's budget is half the service's rate (2 per second against 2 per 500 ms): the
// sandbox answers on the test process's event loop, so a request reaches it as late as that
// loop is busy — four runs starting at once, at load 30, held the first request ~90 ms while
// the third went out on time, 475 ms after it. The half leaves 500 ms of such lag; four
// ledgers of their own would still send all four at once and draw two 429s.

let t: TestEnv | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("one rate budget per service, not per profile", () => {
  it("4 concurrent runs with 4 profiles against one service at 2 per 500 ms, each allowed 2 per second (one token each): 0 × 429", async () => {
    t = await startTestEnv({ rateLimits: { access: { limit: 2, windowMs: 500 } } });
    const env = { SIMADMIN_RATE_LIMITS: "access=2/1s", SIMADMIN_BASE_URL: undefined };
    const profiles = ["prod", "ci", "ana", "ops"];
    // Each profile names the service itself (one of them with a trailing path slash).
    for (const [i, profile] of profiles.entries()) {
      const url = i === 1 ? `${t.sandbox.baseUrl}/` : t.sandbox.baseUrl;
      expect((await t.run(["--profile", profile, "config", "set", "baseUrl", url], { env })).exitCode).toBe(0);
    }
    const runs = await Promise.all(
      profiles.map((profile) => t!.run(["--profile", profile, "token", "--user", "user-demo", "-q"], { env })),
    );
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    const access = t.sandbox.requests.filter((r) => r.group === "access");
    expect(access).toHaveLength(4);
    expect(access.filter((r) => r.status === 429)).toEqual([]);
    // One ledger for the service, whatever the profile.
    expect((await readdir(t.configDir)).filter((name) => name.startsWith("rate-ledger-"))).toHaveLength(1);
  });
});
