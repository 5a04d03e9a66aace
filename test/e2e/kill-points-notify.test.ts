import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { type KillPoint, notifyKillPoint, progressKillPoint } from "../../bench/kill-points-lib.mjs";
import { BIN, HANG_GUARD_MS } from "../helpers/cli.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// progress and progress notify with their state in PostgreSQL, SIGKILLed at a spread of moments
// (docs/reminders.md "Exactly once"): a completion request, a message's data read whole by the
// SMTP server before its answer, and just after a 250. After each kill the re-run converges:
// the progress cache holds exactly the completed pairs, no recipient gets a message twice
// (counted at the SMTP sink), every message that never arrived is sent or named ambiguous, and
// one named ambiguous had begun at the sink (its transaction reached DATA): a message the killed
// run had not begun is sent by the re-run, never left waiting for --resend-ambiguous.
// bench/kill-points.mjs --only progress / --only notify runs every point.
//
// The points run side by side (describe … concurrent), each with its own sandbox, relay,
// directory and database: a point is a sequence of runs that mostly wait (the relay, the
// import steps, PostgreSQL), and one after the other they held a worker for up to 35 s
// (docs/development.md, "How long the suite takes"). Nothing a point checks depends on time.

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startPostgres();
}, HANG_GUARD_MS);
afterAll(async () => {
  await pg?.stop();
});

const freshDatabase = (): Promise<string> => pg.createDatabase("kill_notify");

describe.runIf(postgresAvailable() || process.env.CI)(
  "kill points: progress and progress notify over PostgreSQL state",
  { timeout: HANG_GUARD_MS, concurrent: true },
  () => {
    it("progress killed once its third completion request was answered: the re-run converges, the cache stays whole", async () => {
      const point: KillPoint = { request: 3, phase: "answered" };
      const result = await progressKillPoint({ bin: BIN, startSandbox, point, stateUrl: await freshDatabase() });
      expect(result.reached, `the run ended before the kill point: ${result.steps.join(" → ")}`).toBe(true);
      expect(result.violations, result.steps.join(" → ")).toEqual([]);
    });

    it.each<KillPoint>([
      { request: 2, phase: "smtp-data" },
      { request: 4, phase: "smtp-accepted" },
    ])("notify killed at message $request ($phase): nothing delivered twice, nothing lost unnamed", async (point) => {
      const result = await notifyKillPoint({ bin: BIN, startSandbox, point, stateUrl: await freshDatabase() });
      expect(result.reached, `the run ended before the kill point: ${result.steps.join(" → ")}`).toBe(true);
      expect(result.violations, result.steps.join(" → ")).toEqual([]);
      // A message whose data the server read but never answered: the killed run cannot have
      // recorded it sent, so the re-run names it.
      if (point.phase === "smtp-data") expect(result.ambiguous).toBeGreaterThan(0);
    });

    it("notify killed just after the first message's 250, three connections: the re-run sends the rest, names none it had not begun", async () => {
      // Claims made ahead of the transactions (a batch of the next messages) would leave these
      // named ambiguous though the server never saw them (docs/reminders.md "Exactly once").
      const point: KillPoint = { request: 1, phase: "smtp-accepted" };
      const result = await notifyKillPoint({ bin: BIN, startSandbox, point, stateUrl: await freshDatabase(), connections: 3 });
      expect(result.reached, `the run ended before the kill point: ${result.steps.join(" → ")}`).toBe(true);
      expect(result.violations, result.steps.join(" → ")).toEqual([]);
      // How many were under way when the kill landed depends on the machine's load; that each
      // named one was begun does not (and each not begun was sent by the re-run: the violations).
      expect(result.unbegunAmbiguous).toBe(0);
    });
  },
);
