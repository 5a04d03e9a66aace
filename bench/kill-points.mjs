// SIGKILL the built CLI at many moments (docs/import-safety.md): `users import` of 3 batches
// at every phase of each of its uploads, `users sync` of 1,600 users (3 batches) with its
// state in PostgreSQL at every phase of each of its uploads, and `reports all` at every phase
// of each of its requests, `progress` of six pairs and `progress notify` of five messages with
// their state in PostgreSQL at every phase of each completion request (notify also at each
// moment of each SMTP message, over one connection and over three: a message named ambiguous
// must have been begun at the sink); each run is repeated and checked (bench/kill-points-lib.mjs).
// Prints the counts of kills and violations, and each violation. Exit 1 when there is one.
// The sync points need PostgreSQL's server binaries (bench/postgres.mjs starts a cluster).
// `reports sync` of two kinds (8 windows) into a DuckDB file and into PostgreSQL at every
// phase of each request: after the kill and after the re-run, every window's rows
// equal its meta count, and the re-run ends with an uninterrupted run's windows and counts.
//
//   npm run build && node bench/kill-points.mjs [--only import|sync|reports|reports-sync|progress|notify] [--repeat <n>]
import { parseArgs } from "node:util";
import { BIN, distModule, root } from "./lib.mjs";
import {
  importKillPoint,
  NOTIFY_RECIPIENTS,
  notifyKillPoint,
  PHASES,
  progressKillPoint,
  referenceReports,
  referenceSync,
  reportsKillPoint,
  reportsSyncKillPoint,
  SMTP_PHASES,
  syncKillPoint,
  syncSince,
} from "./kill-points-lib.mjs";
import { postgresDatabase } from "./postgres.mjs";

const { values } = parseArgs({ options: { only: { type: "string" }, repeat: { type: "string", default: "1" } } });
const { startSandbox } = await distModule("sandbox", "server.js");
const { userCells } = await import(`${root}/fixtures/users/generate.mjs`);
// A range in the past whatever today is: the sandbox's data for it does not change.
const REPORT_RANGE = { from: "2025-01-01", to: "2025-03-31" };

const results = [];
async function record(kind, run) {
  const result = await run();
  results.push({ kind, ...result });
  const where = `${kind} request ${result.point.request} ${result.point.phase}`;
  if (result.violations.length > 0)
    console.log(`VIOLATION ${where}: ${result.violations.join("; ")} (${result.steps.join(" → ")})`);
  else if (process.env.VERBOSE) console.log(`ok ${where} (${result.steps.join(" → ")})`);
}

const started = performance.now();
/** `reports sync` into a DuckDB file and into PostgreSQL: every phase of each of its requests. */
async function reportsSyncPoints(kind, target) {
  const since = syncSince();
  const reference = await referenceSync({ bin: BIN, startSandbox, target: await target(), since });
  for (let request = 1; request <= reference.requests; request++) {
    for (const phase of PHASES) {
      await record(kind, async () =>
        reportsSyncKillPoint({
          bin: BIN,
          startSandbox,
          point: { request, phase },
          target: await target(),
          reference: reference.counts,
          since,
        }),
      );
    }
  }
}
for (let repeat = 0; repeat < Number(values.repeat); repeat++) {
  if (values.only === undefined || values.only === "sync") {
    const pg = await postgresDatabase();
    try {
      // Without --wait the first sync makes 3 requests: the uploads (the state is not relayed).
      for (let request = 1; request <= 3; request++) {
        for (const phase of PHASES) {
          await record("sync", async () =>
            syncKillPoint({ bin: BIN, startSandbox, point: { request, phase }, stateUrl: await pg.fresh() }),
          );
        }
      }
    } finally {
      await pg.stop();
    }
  }
  if (values.only === undefined || values.only === "progress" || values.only === "notify") {
    const pg = await postgresDatabase();
    try {
      // Six pairs, none cached: six completion requests.
      if (values.only !== "notify") {
        for (let request = 1; request <= 6; request++) {
          for (const phase of PHASES) {
            await record("progress", async () =>
              progressKillPoint({ bin: BIN, startSandbox, point: { request, phase }, stateUrl: await pg.fresh() }),
            );
          }
        }
      }
      if (values.only !== "progress") {
        for (let request = 1; request <= 6; request++) {
          for (const phase of PHASES) {
            await record("notify", async () =>
              notifyKillPoint({ bin: BIN, startSandbox, point: { request, phase }, stateUrl: await pg.fresh() }),
            );
          }
        }
        // One connection (messages one after the other), then three (messages in flight together).
        for (const connections of [1, 3]) {
          for (let message = 1; message <= NOTIFY_RECIPIENTS.length; message++) {
            for (const phase of SMTP_PHASES) {
              await record("notify", async () =>
                notifyKillPoint({
                  bin: BIN,
                  startSandbox,
                  point: { request: message, phase },
                  stateUrl: await pg.fresh(),
                  connections,
                }),
              );
            }
          }
        }
      }
    } finally {
      await pg.stop();
    }
  }
  if (values.only === undefined || values.only === "import") {
    // Without --wait an import makes 3 requests: the uploads.
    for (let request = 1; request <= 3; request++) {
      for (const phase of PHASES) {
        await record("import", () => importKillPoint({ bin: BIN, startSandbox, userCells, point: { request, phase } }));
      }
    }
  }
  if (values.only === undefined || values.only === "reports") {
    const reference = await referenceReports({ bin: BIN, startSandbox, range: REPORT_RANGE });
    for (let request = 1; request <= reference.requests; request++) {
      for (const phase of PHASES.filter((p) => p !== "mid-body")) {
        await record("reports", () =>
          reportsKillPoint({
            bin: BIN,
            startSandbox,
            point: { request, phase },
            reference: reference.files,
            range: REPORT_RANGE,
          }),
        );
      }
    }
  }
  if (values.only === undefined || values.only === "reports-sync") {
    await reportsSyncPoints("reports-sync-duckdb", () => ({ kind: "duckdb" }));
    const pg = await postgresDatabase();
    try {
      await reportsSyncPoints("reports-sync-postgres", async () => ({ kind: "postgres", url: await pg.fresh() }));
    } finally {
      await pg.stop();
    }
  }
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
for (const kind of ["import", "sync", "reports", "reports-sync-duckdb", "reports-sync-postgres", "progress", "notify"]) {
  const mine = results.filter((r) => r.kind === kind);
  if (mine.length === 0) continue;
  const killed = mine.filter((r) => r.reached).length;
  const bad = mine.filter((r) => r.violations.length > 0).length;
  // Notify: messages the re-run named ambiguous, of those the ones that never arrived (cut off
  // mid-transaction; they wait for --resend-ambiguous), and the ones never begun at the sink
  // (each also a violation).
  const named = mine.reduce((n, r) => n + (r.ambiguous ?? 0), 0);
  const unsent = mine.reduce((n, r) => n + (r.unsentAmbiguous ?? 0), 0);
  const unbegun = mine.reduce((n, r) => n + (r.unbegunAmbiguous ?? 0), 0);
  const extra =
    kind === "notify"
      ? `; ${named} messages named ambiguous, ${unsent} of them never delivered, ${unbegun} never begun at the sink`
      : "";
  console.log(`${kind}: ${mine.length} kill points, ${killed} kills, ${bad} with violations${extra}`);
}
console.log(`${seconds} s`);
process.exitCode = results.some((r) => r.violations.length > 0) ? 1 : 0;
