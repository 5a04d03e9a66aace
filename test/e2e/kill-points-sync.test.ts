import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { type KillPoint, syncKillPoint } from "../../bench/kill-points-lib.mjs";
import { BIN, HANG_GUARD_MS } from "../helpers/cli.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// users sync with its state in PostgreSQL, SIGKILLed at a spread of moments of its three
// uploads (docs/users-sync.md "Settling a run"), then run again as its messages say: every
// point converges (a --plan ends 0) with every one of the 1,600 users imported exactly once,
// counted in the sandbox's import tasks. bench/kill-points.mjs --only sync runs all 15 points.
//
// The points run side by side (describe … concurrent), each with its own sandbox, relay,
// directory and database: a point is a sequence of runs that mostly wait (the relay, the
// import steps, PostgreSQL), and one after the other they held a worker for up to 35 s
// (docs/development.md, "How long the suite takes"). Nothing a point checks depends on time.

// A batch the service never got whole (resent), one it took unseen with a batch still to send
// (marked imported), the last one's answer relayed as the run died (marked imported); batch 2
// answered but never relayed is the last test's, sent again unchecked. A kill once request 2 is
// sent leaves what one once it is answered leaves (the service finishes before the re-run) and
// the runs after it are the same: checked here once each way, not twice the same way.
const POINTS: KillPoint[] = [
  { request: 1, phase: "mid-body" },
  { request: 2, phase: "sent" },
  { request: 3, phase: "relayed" },
];

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, HANG_GUARD_MS);
afterAll(async () => {
  await pg?.stop();
});

const freshDatabase = (): Promise<string> => pg.createDatabase("kill");

describe.runIf(postgresAvailable() || process.env.CI)(
  "kill points: users sync over PostgreSQL state, 1,600 users in 3 batches",
  { timeout: HANG_GUARD_MS, concurrent: true },
  () => {
    it.each(POINTS)("killed at request $request ($phase): converges, no user imported twice", async (point) => {
      const result = await syncKillPoint({ bin: BIN, startSandbox, point, stateUrl: await freshDatabase() });
      expect(result.reached, `the run ended before the kill point: ${result.steps.join(" → ")}`).toBe(true);
      expect(result.violations, result.steps.join(" → ")).toEqual([]);
      expect(result.imported).toBe(1600);
    });

    it("killed once batch 2 was answered, its 750 users sent again unchecked: all refused as existing, taken as done", async () => {
      const point: KillPoint = { request: 2, phase: "answered" };
      const result = await syncKillPoint({ bin: BIN, startSandbox, point, stateUrl: await freshDatabase(), resendAlways: true });
      expect(result.steps.join(" → ")).toContain("--resend-ambiguous --wait:0");
      expect(result.violations, result.steps.join(" → ")).toEqual([]);
      expect(result.imported).toBe(1600);
    });
  },
);
