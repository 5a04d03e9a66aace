import { beforeAll, describe, expect, it } from "vitest";
import { userCells } from "../../fixtures/users/generate.mjs";
import { startSandbox } from "../../src/sandbox/server.js";
import { importKillPoint, type KillPoint, referenceReports, reportsKillPoint } from "../../bench/kill-points-lib.mjs";
import { BIN, HANG_GUARD_MS } from "../helpers/cli.js";

// Issue 22 item 7 (docs/cli-contract.md "Retries", "Output files", "Concurrency"): the built
// binary SIGKILLed at a spread of moments — chosen by the requests a loopback relay sees, so
// no wall-clock timing — then run again (`--resume` for an import, and `--resend-ambiguous`
// only for a batch the service shows it never got, as the message tells a user to check).
// Nothing may be doubled, lost, half-written or left locked. bench/kill-points.mjs runs
// every phase of every request (15 import points, 84 reports points over three months).
//
// The points run side by side (describe … concurrent), each with its own sandbox, relay,
// directory and database: a point is a sequence of runs that mostly wait (the relay, the
// import steps, PostgreSQL), and one after the other they held a worker for up to 35 s
// (docs/development.md, "How long the suite takes"). Nothing a point checks depends on time.

// One point for each state a kill can leave once the relay has let the service finish — the
// manifest the client wrote and the tasks the service made — and so each way a resume goes:
// a batch the service never got whole (mid-body: resent with --resend-ambiguous), a batch it
// took whose answer the client never saw while a batch is still to send (answered), and the
// last batch's answer relayed as the client died (relayed). A kill as request 1 arrives leaves
// what mid-body leaves, and one once request 2 is sent what answered leaves (the same runs,
// checked by their steps): bench/kill-points.mjs runs them and every other phase; here they
// would be ~1.6 s of CPU more (docs/development.md, "How long the suite takes").
const IMPORT_POINTS: KillPoint[] = [
  { request: 1, phase: "mid-body" },
  { request: 2, phase: "answered" },
  { request: 3, phase: "relayed" },
];
// Two months: several windows per kind, so a kill falls between windows of one file too.
const REPORT_RANGE = { from: "2025-01-01", to: "2025-02-28" };

describe("kill points: users import of 3 batches, killed and resumed", { timeout: HANG_GUARD_MS, concurrent: true }, () => {
  it.each(IMPORT_POINTS)("killed at request $request ($phase): every batch imported exactly once", async (point) => {
    const result = await importKillPoint({ bin: BIN, startSandbox, userCells, point });
    expect(result.reached, `the run ended before the kill point: ${result.steps.join(" → ")}`).toBe(true);
    expect(result.violations, result.steps.join(" → ")).toEqual([]);
  });
});

describe("kill points: reports all, killed and run again", { timeout: HANG_GUARD_MS, concurrent: true }, () => {
  let reference: Awaited<ReturnType<typeof referenceReports>>;
  beforeAll(async () => {
    reference = await referenceReports({ bin: BIN, startSandbox, range: REPORT_RANGE });
  }, HANG_GUARD_MS);

  // Three moments spread over its requests: the first, the middle one answered, the last relayed.
  it.each([
    { at: "first", point: (): KillPoint => ({ request: 1, phase: "arrive" }) },
    { at: "middle", point: (): KillPoint => ({ request: Math.ceil(reference.requests / 2), phase: "answered" }) },
    { at: "last", point: (): KillPoint => ({ request: reference.requests, phase: "relayed" }) },
  ])("at the $at request: no file half-written, the files equal an uninterrupted run's", async ({ point }) => {
    expect(reference.files.size).toBeGreaterThan(1);
    const result = await reportsKillPoint({
      bin: BIN,
      startSandbox,
      point: point(),
      reference: reference.files,
      range: REPORT_RANGE,
    });
    expect(result.reached, `request ${point().request} ${point().phase}`).toBe(true);
    expect(result.violations, `request ${point().request} ${point().phase}`).toEqual([]);
  });
});
