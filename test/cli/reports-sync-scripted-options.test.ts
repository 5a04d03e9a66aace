import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, tempDir } from "../helpers/in-process.js";
import { syncWorld } from "../helpers/scripted-reports.js";

// reports sync's options and targets, with the scripted client of test/helpers/scripted-reports.ts:
// each refused with its exit code and words before anything is asked (or the database created).

let dir: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  dir = await tempDir("simadmin-sync-scripted-");
});
afterAll(() => dir.remove());
const isRoot = process.getuid?.() === 0;
const world = (options: { env?: Record<string, string>; db?: string } = {}) => syncWorld(dir.path, options);

describe("reports sync's options and targets, refused before anything is asked", () => {
  it.each([
    [
      ["--kinds", " , "],
      "--kinds needs at least one report kind",
      "known: syms-result, user-results, training-plan-result, modules-results, syms, users, teams-result",
    ],
    [
      ["--kinds", "users,nope"],
      '--kinds: unknown report kind "nope"',
      "known: syms-result, user-results, training-plan-result, modules-results, syms, users, teams-result",
    ],
    [["--since", "2026-02-30"], '--since "2026-02-30": expected a real date YYYY-MM-DD, e.g. 2026-01-01', undefined],
    [["--db", " "], "--db needs a DuckDB file or a postgres:// URL", undefined],
    [
      ["--db", "mysql://db.example.com/reports"],
      '--db: unsupported target "mysql://…"',
      "give a DuckDB file (reports.duckdb) or a postgres:// URL",
    ],
    [["--db", "s3://bucket/reports.duckdb"], '--db: unsupported target "s3://…"', undefined],
  ])("%j: exit 2, the reason and what to give", async (args, reason, hint) => {
    const w = world();
    const r = await w.run(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(reason);
    if (hint) expect(r.stderr).toContain(hint);
    expect(r.asked).toEqual([]);
    expect(existsSync(w.db)).toBe(false);
  });

  it("a kind named twice is synced once; kinds go in the order given, names trimmed", async () => {
    const w = world();
    const r = await w.run(["--kinds", " syms ,users,syms", "--since", "2026-11-20", "--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { kind: string }[]).map((p) => p.kind)).toEqual(["syms", "users"]);
  });

  it("--since is trimmed, and its block is fetched whole", async () => {
    const w = world();
    const r = await w.run(["--kinds", "users", "--since", " 2026-10-20 ", "--dry-run", "-o", "json"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { startDate: string }[]).map((p) => p.startDate)).toEqual(["2026-10-04", "2026-11-03"]);
  });

  it.each(["PostgreSQL", "postgres"])(
    "%s:// (any case) is a PostgreSQL target: a server that refuses is exit 11 naming it, never the password",
    async (scheme) => {
      const w = world();
      const port = await closedPort();
      const r = await w.run(["--db", `${scheme}://sync:pw-secret@127.0.0.1:${port}/reports`, "--kinds", "users", "--dry-run"]);
      expect(r.exitCode).toBe(11);
      expect(r.stderr).toContain(`127.0.0.1:${port}`);
      expect(r.stderr).not.toContain("pw-secret");
    },
  );

  it.each(["postgres", "s3"])(
    "a path holding %s:// further on is a DuckDB file (in a directory that is not there)",
    async (scheme) => {
      const w = world();
      const r = await w.run(["--db", join(dir.path, `exports/${scheme}://old.duckdb`), "--kinds", "users"]);
      expect(r.exitCode).toBe(11);
      expect(r.stderr).toContain(`cannot write the database into ${join(dir.path, `exports/${scheme}:`)}: `);
    },
  );

  const kinds: [string, (path: string) => Promise<unknown>][] = [
    ["a directory", (path: string) => mkdir(path)],
    ["a named pipe (FIFO)", (path: string) => Promise.resolve(void execFileSync("mkfifo", [path]))],
    [
      "a socket",
      (path: string) =>
        new Promise<void>((resolve) => {
          const server = createServer().listen(path, () => resolve());
          server.unref();
        }),
    ],
    // A device node of its own (the null device's numbers), never the machine's /dev/null: a
    // mutant that took it for a database must not write there (docs/mutation-testing.md).
  ];
  if (isRoot) kinds.push(["a device", (path: string) => Promise.resolve(execFileSync("mknod", [path, "c", "1", "3"]))]);
  it.each(kinds)("a --db path that is %s: exit 11 naming it, before any request", async (what, make) => {
    const w = world();
    await make(w.db);
    const r = await w.run(["--kinds", "users"]);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(`cannot use ${w.db} as the DuckDB database: it is ${what}`);
    expect(r.stderr).toContain("give --db a DuckDB file (or a path where one can be created), or postgres://…");
    expect(r.asked).toEqual([]);
  });

  it("a --db file in a directory that does not exist: exit 11 naming the directory", async () => {
    const w = world();
    const r = await w.run(["--db", join(dir.path, "no-such-dir", "r.duckdb"), "--kinds", "users"]);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(`cannot write the database into ${join(dir.path, "no-such-dir")}: `);
    expect(r.asked).toEqual([]);
  });

  it("a --db file that is not a DuckDB database: exit 11, what it is and what to check", async () => {
    const w = world();
    await writeFile(w.db, "name,score\nDana,5\n".repeat(400));
    const r = await w.run(["--kinds", "users"]);
    expect(r.exitCode).toBe(11);
    expect(r.stderr).toContain(`cannot open the DuckDB database ${w.db}: `);
    expect(r.stderr).toContain("check that the path is a DuckDB file this version can read");
    expect(r.asked).toEqual([]);
  });
});
