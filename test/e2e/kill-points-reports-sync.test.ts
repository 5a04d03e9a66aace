import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import { type KillPoint, referenceSync, reportsSyncKillPoint, syncSince, type SyncTarget } from "../../bench/kill-points-lib.mjs";
import { BIN, HANG_GUARD_MS } from "../helpers/cli.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// reports sync of two kinds (8 windows) SIGKILLed at a moment per target — each window's load
// overlaps the next window's request, so the kills land while a window is fetched, prepared,
// loaded or committed (docs/reports-sync.md) — then run again: right after the kill and after
// the re-run every window's rows equal its meta count, and the re-run ends with the windows
// and counts of an uninterrupted run, no spool file left. bench/kill-points.mjs --only
// reports-sync runs every phase of every request over both targets.
//
// The points run side by side (describe … concurrent), each with its own sandbox, relay,
// directory and database: a point is a sequence of runs that mostly wait (the relay, the
// import steps, PostgreSQL), and one after the other they held a worker for up to 35 s
// (docs/development.md, "How long the suite takes"). Nothing a point checks depends on time.

// One uninterrupted run is the reference for both targets: its windows and counts are the
// sandbox's data, the same whichever database holds them (checked: equal, window by window),
// and a second reference run cost ~0.4 s of CPU (docs/development.md, "How long the suite takes").
// Into PostgreSQL when the machine has it (a third cheaper than DuckDB's), else a DuckDB file.
const since = syncSince();
let pg: TestPostgres | undefined;
let reference: Promise<Awaited<ReturnType<typeof referenceSync>>["counts"]> | undefined;
const referenceCounts = () =>
  (reference ??= (async () => {
    const target: SyncTarget = pg ? { kind: "postgres", url: await pg.createDatabase("kill_sync") } : { kind: "duckdb" };
    return (await referenceSync({ bin: BIN, startSandbox, target, since })).counts;
  })());

async function checkPoint(point: KillPoint, target: () => Promise<SyncTarget>): Promise<void> {
  const result = await reportsSyncKillPoint({
    bin: BIN,
    startSandbox,
    point,
    target: await target(),
    reference: await referenceCounts(),
    since,
  });
  const where = `request ${point.request} ${point.phase}: ${result.steps.join(" → ")}`;
  expect(result.reached, `the run ended before the kill point (${where})`).toBe(true);
  expect(result.violations, where).toEqual([]);
}

const withPostgres = postgresAvailable() || Boolean(process.env.CI);
beforeAll(async () => {
  if (withPostgres) pg = await startPostgres();
}, HANG_GUARD_MS);
afterAll(async () => {
  await pg?.stop();
});

describe("kill points: reports sync", { timeout: HANG_GUARD_MS, concurrent: true }, () => {
  // Window 2's answer reached the relay, not the client, while window 1 is prepared or loaded.
  it(
    "into a DuckDB file, killed as window 2 is answered: every window whole, the re-run converges",
    async () => {
      await checkPoint({ request: 2, phase: "answered" }, () => Promise.resolve({ kind: "duckdb" }));
    },
    HANG_GUARD_MS,
  );

  it.runIf(withPostgres)(
    "into PostgreSQL, killed as window 5 is asked for (window 4 prepared or loaded): every window whole, the re-run converges",
    async () => {
      await checkPoint({ request: 5, phase: "sent" }, async () => ({
        kind: "postgres",
        url: await pg!.createDatabase("kill_sync"),
      }));
    },
    HANG_GUARD_MS,
  );
});
