import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/clock.js";
import { parseStateLocation } from "../../src/state/location.js";
import { openStateStore } from "../../src/state/open-store.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// `state show` and `state push` (docs/cli-contract.md "State", docs/state.md), in-process
// against a real PostgreSQL: the local state moved into it, shown the same on both sides,
// a non-empty target refused without --force, and the URL's password never printed.

const PASSWORD = "pw-Cli-9931";
let postgres: TestPostgres;
let t: TestEnv;
let pgUrl: string;
beforeAll(async () => {
  [postgres, t] = await Promise.all([startPostgres(), startTestEnv()]);
  const url = new URL(postgres.url);
  url.password = PASSWORD; // trust authentication: carried, never checked
  pgUrl = url.toString();
});
afterAll(async () => {
  await Promise.all([postgres?.stop(), t?.close()]);
});

type Row = { service: string; organizationId: string; kind: string; entries: number };
const essentials = (rows: Row[]) => rows.map((r) => `${r.service} ${r.organizationId} ${r.kind} ${r.entries}`).sort();

describe.runIf(postgresAvailable() || process.env.CI)("state show and state push", () => {
  it("shows an empty store as nothing, then kinds, tenants and counts — never a value", async () => {
    const empty = await t.run(["state", "show", "-o", "json"]);
    expect(empty.exitCode, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
    expect(empty.stderr).toContain(`the state store ${join(t.configDir, "state")} holds nothing yet`);

    const local = await openStateStore(parseStateLocation(join(t.configDir, "state")), systemClock);
    await local.put({ service: "https://a.example", organizationId: "org-1" }, "links", { key: "THE-LINK-KEY" });
    await local.put({ service: "https://a.example", organizationId: "org-1" }, "progress-cache", { p1: 1, p2: 2, p3: 3 });
    await local.put({ service: "https://b.example", organizationId: "org-9" }, "users-sync", { "ana@example.com": {} });
    await local.close();

    const shown = await t.run(["state", "show", "-o", "json"]);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(essentials(JSON.parse(shown.stdout))).toEqual([
      "https://a.example org-1 links 1",
      "https://a.example org-1 progress-cache 3",
      "https://b.example org-9 users-sync 1",
    ]);
    expect(shown.stdout + shown.stderr).not.toContain("THE-LINK-KEY");
    expect(shown.stdout).not.toContain("ana@example.com");
    const table = await t.run(["state", "show", "-o", "table"]);
    expect(table.stdout).toContain("progress-cache");
  });

  it("pushes the local store into PostgreSQL (then shown the same there), refuses it again without --force, and never prints the password", async () => {
    const local = await t.run(["state", "show", "-o", "json"]);
    const pushed = await t.run(["state", "push", "--to", pgUrl, "-o", "json"]);
    expect(pushed.exitCode, pushed.stderr).toBe(0);
    expect(JSON.parse(pushed.stdout)).toMatchObject({ entries: 5, kinds: 3, tenants: 2 });
    const remote = await t.run(["--state", pgUrl, "state", "show", "-o", "json"]);
    expect(remote.exitCode, remote.stderr).toBe(0);
    expect(essentials(JSON.parse(remote.stdout))).toEqual(essentials(JSON.parse(local.stdout)));

    const again = await t.run(["state", "push", "--to", pgUrl]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(
      /the target state store postgres:\/\/simadmin:\*\*\*@127\.0\.0\.1:\d+\/\w+ is not empty \(5 entries in 3 kinds\); nothing was copied/,
    );
    expect(again.stderr).toContain("--force");
    const forced = await t.run(["state", "push", "--to", pgUrl, "--force"], { env: { SIMADMIN_STATE: undefined } });
    expect(forced.exitCode, forced.stderr).toBe(0);

    // Through SIMADMIN_STATE and the profile setting too: the password never shows.
    const viaEnv = await t.run(["state", "show"], { env: { SIMADMIN_STATE: pgUrl } });
    expect(viaEnv.stderr).toContain("postgres://simadmin:***@");
    const set = await t.run(["config", "set", "state", pgUrl]);
    expect(set.exitCode, set.stderr).toBe(0);
    const get = await t.run(["config", "get", "state"]);
    expect(get.stdout.trim()).toMatch(/^postgres:\/\/simadmin:\*\*\*@127\.0\.0\.1:\d+\/\w+$/);
    const viaProfile = await t.run(["state", "show", "-o", "json"]);
    expect(essentials(JSON.parse(viaProfile.stdout))).toEqual(essentials(JSON.parse(local.stdout)));
    await t.run(["config", "unset", "state"]);
    for (const r of [pushed, remote, again, forced, viaEnv, set, get, viaProfile]) {
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    }
  });

  it("refuses a bad --lock-timeout and a state URL of another scheme (exit 2)", async () => {
    const badTimeout = await t.run(["--lock-timeout", "soon", "state", "show"]);
    expect(badTimeout.exitCode).toBe(2);
    expect(badTimeout.stderr).toContain("--lock-timeout");
    const badScheme = await t.run(["--state", "mysql://db/x", "state", "show"]);
    expect(badScheme.exitCode).toBe(2);
    expect(badScheme.stderr).toContain("--state: must be a directory or a postgres://");
  });
});
