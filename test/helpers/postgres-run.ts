import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { binDir, ownDirectory, stopAllUnder } from "./postgres-cluster.js";

// The run's global set-up (vitest.config.ts): a directory for the run's PostgreSQL clusters —
// the one server the test files share, each with databases of its own, and the servers a file
// starts for itself (postgres.ts) — made here; its servers are stopped when the run ends,
// whatever its outcome, and the directory is removed once vitest has exited. Nothing is started here: the first file that asks for a server
// starts it, so a run without PostgreSQL tests costs nothing. Every run has its own directory
// and its own ports, so concurrent runs (CI's Node 20/22/24 at once) never meet.
//
// A watchdog process — started detached, it waits on vitest's pid with `tail --pid` — removes
// the directory when vitest has exited; if vitest was killed (its teardown never ran), it
// first stops the servers left (SIGQUIT: PostgreSQL's immediate shutdown).

const WATCHDOG = `
tail --pid="$2" -f /dev/null 2>/dev/null
for pidfile in "$1"/*/data/postmaster.pid; do
  [ -f "$pidfile" ] && kill -QUIT "$(head -n 1 "$pidfile")" 2>/dev/null
done
sleep 1
rm -rf "$1"
`;

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's PostgreSQL directory (absent when PostgreSQL is not installed). */
    postgresRunDir?: string;
  }
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (binDir() === undefined) return undefined;
  const root = mkdtempSync(join(tmpdir(), "simadmin-pg-run-"));
  ownDirectory(root);
  const watchdog = spawn("sh", ["-c", WATCHDOG, "watchdog", root, String(process.pid)], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  project.provide("postgresRunDir", root);
  // At the end the servers are stopped (their ports free, nothing left running); their files —
  // thousands, ~1 s of unlinking at the end of every run — are the watchdog's to remove once
  // vitest has exited.
  return () => stopAllUnder(root);
}
