import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { tempDir } from "../helpers/in-process.js";
import { rows, syncWorld } from "../helpers/scripted-reports.js";

// reports sync and another process holding its DuckDB file (docs/reports-sync.md, "Targets"):
// a dashboard is waited for, then exit 11 naming the file and the process; another reports
// sync, then exit 2. The holder is a real process with the file open (DuckDB locks it per
// process); the sync runs in this one with the scripted client of test/helpers/scripted-reports.ts.
//
// The tests run side by side (describe.concurrent), each with a DuckDB file, settings and a
// holder of its own (killed when its test ends): they are mostly --lock-timeout waits and
// holders starting, and one after the other they held a worker for ~15 s (docs/development.md,
// "How long the suite takes"). A holder is found by the file it has open, whatever else runs.

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir("simadmin-sync-holders-");
});
afterAll(() => dir.remove());

/**
 * A process with `db` open until the test ends; `args` are its own (what /proc/<pid>/cmdline
 * says of it).
 */
async function hold(
  test: Pick<TestContext, "onTestFinished">,
  db: string,
  args: string[],
  options = "",
  executable = process.execPath,
): Promise<number> {
  const code = `const { DuckDBInstance } = await import("@duckdb/node-api"); await DuckDBInstance.create(${JSON.stringify(db)}${options}); console.log("open"); setInterval(() => {}, 1000);`;
  const holder: ChildProcessWithoutNullStreams = spawn(executable, ["--input-type=module", "-e", code, ...args], {
    cwd: process.cwd(),
  });
  test.onTestFinished(() => void holder.kill());
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once("data", () => resolve());
    holder.once("exit", (status) => reject(new Error(`the holder exited (${status}) before opening ${db}`)));
  });
  return holder.pid!;
}

describe.concurrent("reports sync and another holder of the DuckDB file", () => {
  it("a dashboard: waits, saying so and naming the process, then exit 11 naming the file after --lock-timeout", async (test) => {
    const w = syncWorld(dir.path);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    // Its arguments mention reports and simadmin, but it is no sync: not "reports" with "sync", no simadmin entry point.
    const pid = await hold(test, w.db, ["reports", "/srv/simadmin.d/notes"]);
    const r = await w.run(["--kinds", "users", "--lock-timeout", "1"]);
    expect(r.exitCode).toBe(11);
    // Its command line, cut at 80 characters; the waiting line said once.
    const command = `${process.execPath} --input-type=module -e const { DuckDBInstance } = await import("@duckdb/node-api")`;
    const described = `process ${pid} (${command.slice(0, 80)})`;
    expect(r.stderr.split(`${w.db} is held by ${described}: waiting up to 1 s (--lock-timeout)`)).toHaveLength(2);
    expect(r.stderr).toContain(`${w.db} is held by ${described}; waited 1 s (--lock-timeout)`);
    expect(r.stderr).toContain("close the program that has it open (a dashboard, a DuckDB session), or raise --lock-timeout");
    expect(r.asked).toEqual([]);
  });

  it.for<[string[]]>([
    [["reports", "sync", "--db", "reports.duckdb"]],
    [["/opt/tools/dist/cli.cjs", "--db", "reports.duckdb"]],
    [["simadmin", "--db", "reports.duckdb"]],
  ])("another reports sync (by its arguments: %j): exit 2, let it finish", async ([args], test) => {
    const w = syncWorld(dir.path);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    await hold(test, w.db, args);
    const r = await w.run(["--kinds", "users", "--lock-timeout", "1"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("another reports sync is running into this file: let it finish");
    expect(r.asked).toEqual([]);
  });

  it("a Node whose executable is named simadmin is no sync by that alone: exit 11", async (test) => {
    const w = syncWorld(dir.path);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    const named = join(dir.path, "simadmin");
    if (!existsSync(named)) await symlink(process.execPath, named);
    await hold(test, w.db, ["dashboard"], "", named);
    const r = await w.run(["--kinds", "users", "--lock-timeout", "1"]);
    expect(r.exitCode).toBe(11);
  });

  it("a reader that opened it read-only does not hold up a --dry-run (read-only too)", async (test) => {
    const w = syncWorld(dir.path);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    await hold(test, w.db, ["dashboard"], ', { access_mode: "READ_ONLY" }');
    const r = await w.run(["--kinds", "users", "--dry-run", "--lock-timeout", "1", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("is held by");
    expect(JSON.parse(r.stdout)).toEqual([
      { kind: "users", table: "users", startDate: "2026-11-03", endDate: "2026-11-24", reason: "open" },
    ]);
  });

  it("Ctrl-C while it waits: exit 130", async (test) => {
    const w = syncWorld(dir.path);
    expect((await w.run(["--kinds", "users", "--since", "2026-11-20"], () => rows({ n: 1 }))).exitCode).toBe(0);
    await hold(test, w.db, ["dashboard"]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const r = await w.run(["--kinds", "users", "--lock-timeout", "60"], undefined, { signal: controller.signal });
    expect(r.exitCode).toBe(130);
    expect(r.asked).toEqual([]);
  });
});
