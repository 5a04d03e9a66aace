import { execa, type ResultPromise } from "execa";
import { appendFile, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, systemClock } from "../../src/clock.js";
import { LocalFileError, UsageError } from "../../src/errors.js";
import { parseStateLocation } from "../../src/state/location.js";
import { openStateStore } from "../../src/state/open-store.js";
import type { StateStore, Tenant } from "../../src/state/store.js";
import { closedPort } from "../helpers/cli.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// The state store's contract (docs/state.md), the same tests over both backends: a directory
// and a real PostgreSQL. Where processes are the subject (claims racing, a holder in another
// process, a batch killed half-way) test/helpers/state-child.mjs runs the built modules.

const CHILD = resolve(import.meta.dirname, "../helpers/state-child.mjs");
const CHILD_TENANT: Tenant = { service: "https://child.example", organizationId: "org-child" };
const PASSWORD = "pw-Secret-4711";

let postgres: TestPostgres;
const dirs: string[] = [];
const stores: StateStore[] = [];
beforeAll(async () => {
  // Its own server: a test stops it mid-run.
  postgres = await startPostgres({ own: true });
});
afterAll(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await postgres.stop();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A database of its own, so that each test starts from an empty store. */
async function freshDatabase(): Promise<string> {
  const url = new URL(await postgres.createDatabase("state"));
  url.password = PASSWORD; // trust authentication: the password is carried, never checked
  return url.toString();
}

const backends = {
  directory: async () => {
    const dir = await mkdtemp(join(tmpdir(), "simadmin-state-"));
    dirs.push(dir);
    return join(dir, "state");
  },
  postgres: freshDatabase,
};
type Backend = keyof typeof backends;

async function open(location: string, lockClock = systemClock): Promise<StateStore> {
  const store = await openStateStore(parseStateLocation(location), systemClock, lockClock);
  stores.push(store);
  return store;
}

const tenant: Tenant = { service: "https://api.example.com", organizationId: "org-1" };
const other: Tenant = { service: "https://api.example.com", organizationId: "org-2" };

function child(location: string, ...args: string[]): ResultPromise<{ reject: false }> {
  return execa("node", [CHILD, location, ...args], { reject: false });
}

describe.runIf(postgresAvailable() || process.env.CI).each(Object.keys(backends) as Backend[])(
  "the %s state store",
  (backend) => {
    it("applies a batch whole: values set, a null deletes, tenants and kinds apart", async () => {
      const store = await open(await backends[backend]());
      await store.put(tenant, "users-sync", { a: { n: 1 }, b: [1, 2], c: "x" });
      await store.put(tenant, "users-sync", { b: null, c: "y" });
      await store.put(other, "users-sync", { a: "other org" });
      await store.put(tenant, "reminders", { a: "other kind" });
      expect(await store.get(tenant, "users-sync", "a")).toEqual({ n: 1 });
      expect(await store.get(tenant, "users-sync", "b")).toBeUndefined();
      expect([...(await store.list(tenant, "users-sync"))]).toEqual([
        ["a", { n: 1 }],
        ["c", "y"],
      ]);
      expect(await store.get(other, "users-sync", "a")).toBe("other org");
      const summary = await store.summary();
      expect(summary.map((s) => [s.tenant.organizationId, s.kind, s.entries])).toEqual(
        expect.arrayContaining([
          ["org-1", "users-sync", 2],
          ["org-2", "users-sync", 1],
          ["org-1", "reminders", 1],
        ]),
      );
      expect(summary).toHaveLength(3);
    });

    it("claim: of four processes claiming one key at once, exactly one wins and all see its value", async () => {
      const location = await backends[backend]();
      const results = await Promise.all(["v1", "v2", "v3", "v4"].map((v) => child(location, "claim", v)));
      const claims = results.map((r) => {
        expect(r.stderr).toBe("");
        return JSON.parse(r.stdout) as { inserted: boolean; value: string };
      });
      const winners = claims.filter((c) => c.inserted);
      expect(winners).toHaveLength(1);
      expect(new Set(claims.map((c) => c.value))).toEqual(new Set([winners[0]!.value]));
      expect(await (await open(location)).get(CHILD_TENANT, "links", "key")).toBe(winners[0]!.value);
    });

    it("claimMany: inserts the keys absent in one batch and reports the value held under each of the others", async () => {
      const store = await open(await backends[backend]());
      await store.put(tenant, "reminders", { held: { status: "sent" } });
      const first = await store.claimMany(tenant, "reminders", { held: { status: "sending" }, a: { n: 1 }, b: { n: 2 } });
      expect(Object.fromEntries(first)).toEqual({
        held: { inserted: false, value: { status: "sent" } },
        a: { inserted: true, value: { n: 1 } },
        b: { inserted: true, value: { n: 2 } },
      });
      const second = await store.claimMany(tenant, "reminders", { a: { n: 9 }, c: { n: 3 } });
      expect(Object.fromEntries(second)).toEqual({
        a: { inserted: false, value: { n: 1 } },
        c: { inserted: true, value: { n: 3 } },
      });
      expect(Object.fromEntries(await store.list(tenant, "reminders"))).toEqual({
        held: { status: "sent" },
        a: { n: 1 },
        b: { n: 2 },
        c: { n: 3 },
      });
    });

    it("lock: a second run waits, hears who holds it after a second, and at the timeout gets exit 2 naming the holder and --lock-timeout", async () => {
      const location = await backends[backend]();
      const holder = await open(location);
      const held = await holder.lock(tenant, "users-sync", { timeoutMs: 1000, purpose: "simadmin users sync" });
      const waiter = await open(location, createFakeClock());
      const heard: string[] = [];
      const error = await waiter
        .lock(tenant, "users-sync", { timeoutMs: 5_000, purpose: "simadmin progress", onWait: (h) => heard.push(h) })
        .catch((e: unknown) => e);
      expect(heard).toHaveLength(1);
      expect(heard[0]).toContain(`simadmin users sync (pid ${process.pid} on `);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as UsageError).message).toContain(`locked by simadmin users sync (pid ${process.pid}`);
      expect((error as UsageError).hint).toContain("--lock-timeout");
      // Another tenant's lock is not this one; and once released, the lock is free.
      await (await waiter.lock(other, "users-sync", { timeoutMs: 1000 })).release();
      await held.release();
      await (await waiter.lock(tenant, "users-sync", { timeoutMs: 1000 })).release();
    });

    it("lock: a holder process that is killed holds nothing", async () => {
      const location = await backends[backend]();
      const holder = child(location, "hold");
      await new Promise<void>((done) => holder.stdout.on("data", (d: Buffer) => d.toString().includes("held") && done()));
      const heard: string[] = [];
      const waiter = await open(location, createFakeClock());
      const busy = await waiter
        .lock(CHILD_TENANT, "users-sync", { timeoutMs: 2_000, onWait: (h) => heard.push(h) })
        .catch((e: unknown) => e);
      expect(busy).toBeInstanceOf(UsageError);
      expect(heard[0]).toContain(`simadmin child-holder (pid ${holder.pid}`);
      holder.kill("SIGKILL");
      await holder;
      const lock = await (await open(location)).lock(CHILD_TENANT, "users-sync", { timeoutMs: 30_000 });
      await lock.release();
    });

    it("a process killed in the middle of its batches leaves the last whole batch: every key holds one value", async () => {
      const location = await backends[backend]();
      const writer = child(location, "batches");
      await new Promise<void>((done) =>
        writer.stdout.on("data", (d: Buffer) => Number(d.toString().trim().split("\n").at(-1)) >= 3 && done()),
      );
      writer.kill("SIGKILL");
      await writer;
      const values = new Set((await (await open(location)).list(CHILD_TENANT, "users-sync")).values());
      expect(values.size).toBe(1);
      expect([...values][0]).toBeGreaterThanOrEqual(3);
      // And the store takes the next batch (no lock left behind).
      const store = await open(location);
      await store.put(CHILD_TENANT, "users-sync", { k0: "after" });
      expect(await store.get(CHILD_TENANT, "users-sync", "k0")).toBe("after");
    });

    it("state push's half: exportAll then importEntries into another store keeps keys, values and change times", async () => {
      const from = await open(await backends[backend]());
      await from.put(tenant, "progress-cache", { p1: { seen: true }, p2: { seen: false } });
      await from.put(other, "links", { key: "k" });
      const to = await open(await backends[backend === "directory" ? "postgres" : "directory"]());
      const exported = [];
      for await (const entry of from.exportAll()) exported.push(entry);
      for (const entry of exported) await to.importEntries(entry.tenant, entry.kind, [entry]);
      const again = [];
      for await (const entry of to.exportAll()) again.push(entry);
      const sortKey = (e: { tenant: Tenant; kind: string; key: string }) => `${e.tenant.organizationId}/${e.kind}/${e.key}`;
      expect(again.sort((a, b) => sortKey(a).localeCompare(sortKey(b)))).toEqual(
        exported.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
      );
    });
  },
);

describe.runIf(postgresAvailable() || process.env.CI)("the directory state store on disk", () => {
  it("makes its directories 0700 and its files 0600, and names no customer in a path", async () => {
    const location = await backends.directory();
    const store = await open(location);
    await store.put(tenant, "links", { key: "secret" });
    expect((await stat(location)).mode & 0o777).toBe(0o700);
    const [tenantDir] = await readdir(location);
    expect(tenantDir).not.toContain("org-1");
    expect((await stat(join(location, tenantDir!))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(location, tenantDir!))).toEqual(["links.json"]);
    expect((await stat(join(location, tenantDir!, "links.json"))).mode & 0o777).toBe(0o600);
  });

  it("appends later batches to a journal folded in by every reader; a line cut short is ignored, then cut off; close() writes the file whole", async () => {
    const location = await backends.directory();
    const a = await open(location);
    const b = await open(location);
    await a.put(tenant, "reminders", { k1: 1 });
    const [tenantDir] = await readdir(location);
    const file = join(location, tenantDir!, "reminders.json");
    const journal = join(location, tenantDir!, "reminders.journal");
    await a.put(tenant, "reminders", { k2: 2, k1: null });
    expect((await stat(journal)).mode & 0o777).toBe(0o600);
    // Another process's view: the file with the journal folded over it.
    expect(Object.fromEntries(await b.list(tenant, "reminders"))).toEqual({ k2: 2 });
    // A batch cut short by a kill: no newline, never applied.
    await appendFile(journal, '{"t":"2026-11-28T00:00:00.000Z","s":{"k3":3},"d":[');
    expect(Object.fromEntries(await b.list(tenant, "reminders"))).toEqual({ k2: 2 });
    expect((await b.claimMany(tenant, "reminders", { k2: 9, k4: 4 })).get("k4")).toEqual({ inserted: true, value: 4 });
    expect(Object.fromEntries(await a.list(tenant, "reminders"))).toEqual({ k2: 2, k4: 4 });
    expect(await readFile(journal, "utf8")).not.toContain("k3");
    // One store writes the file whole (the end of its run) while the other goes on.
    await b.close();
    await expect(stat(journal)).rejects.toMatchObject({ code: "ENOENT" });
    expect(JSON.parse(await readFile(file, "utf8")).entries).toMatchObject({ k2: { value: 2 }, k4: { value: 4 } });
    await a.put(tenant, "reminders", { k5: 5 });
    expect(Object.fromEntries(await a.list(tenant, "reminders"))).toEqual({ k2: 2, k4: 4, k5: 5 });
    expect((await a.claim(tenant, "reminders", "k4", 0)).inserted).toBe(false);
    await a.close();
    expect(await readdir(join(location, tenantDir!))).toEqual(["reminders.json"]);
  });
});

describe.runIf(postgresAvailable() || process.env.CI)("the PostgreSQL state store", () => {
  it("two first runs racing on a new database both create-or-find the schema; one version row", async () => {
    const url = await freshDatabase();
    const [a, b, c] = await Promise.all([open(url), open(url), open(url)]);
    await Promise.all([a.put(tenant, "links", { a: 1 }), b.put(tenant, "links", { b: 1 }), c.summary()]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const versions = await client.query("SELECT version FROM simadmin_state.schema_version");
    await client.end();
    expect(versions.rows).toEqual([{ version: 1 }]);
    expect((await a.list(tenant, "links")).size).toBe(2);
  });

  it("never shows the URL's password: the location and a refused connection name the store with ***", async () => {
    const url = `postgres://simadmin:${PASSWORD}@127.0.0.1:${await closedPort()}/postgres`;
    const store = await open(url);
    expect(store.location).not.toContain(PASSWORD);
    expect(store.location).toContain("simadmin:***@127.0.0.1");
    const error = await store.get(tenant, "links", "k").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).exitCode).toBe(11);
    expect((error as LocalFileError).message).toMatch(
      /^the state store postgres:\/\/simadmin:\*\*\*@127\.0\.0\.1:\d+\/postgres cannot be used: /,
    );
    expect(JSON.stringify([(error as Error).message, (error as LocalFileError).hint])).not.toContain(PASSWORD);
  });

  it("a run lock whose connection is dropped while held: the next change of that state is exit 11, written nowhere; another run takes the lock", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    await store.lock(tenant, "users-sync", { timeoutMs: 5_000, purpose: "simadmin users sync" });
    await store.put(tenant, "users-sync", { before: 1 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The lock's session, ended by the server (as a restart or a dead network would): waits until it is gone.
      const ended = await admin.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(backend_pid, 10000) AS ok FROM simadmin_state.lock_holders WHERE kind = 'users-sync'`,
      );
      expect(ended.rows).toEqual([{ ok: true }]);
    } finally {
      await admin.end();
    }
    const error = await store.put(tenant, "users-sync", { during: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalFileError);
    expect((error as LocalFileError).exitCode).toBe(11);
    expect((error as Error).message).toMatch(/the connection holding this run's lock of the users-sync state was lost/);
    expect((error as Error).message).toContain(parseStateLocation(url).display);
    expect((error as Error).message).not.toContain(PASSWORD);
    const claimed = await store.claimMany(tenant, "users-sync", { other: 1 }).catch((e: unknown) => e);
    expect((claimed as LocalFileError).exitCode).toBe(11);
    // Other state of the same store is not held by that lock: still written.
    await store.put(tenant, "reminders", { fine: 1 });
    const next = await open(url);
    expect(Object.fromEntries(await next.list(tenant, "users-sync"))).toEqual({ before: 1 });
    const lock = await next.lock(tenant, "users-sync", { timeoutMs: 5_000 });
    await lock.release();
  });

  it("PostgreSQL stopped mid-run: exit 11 naming the store (password redacted); after a restart the next run has every change made before", async () => {
    const url = await freshDatabase();
    const store = await open(url);
    await store.put(tenant, "users-sync", { before: 1 });
    postgres.pause();
    try {
      const error = await store.put(tenant, "users-sync", { during: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LocalFileError);
      expect((error as LocalFileError).exitCode).toBe(11);
      expect((error as Error).message).toContain(`the state store ${parseStateLocation(url).display} cannot be used`);
      expect((error as Error).message).not.toContain(PASSWORD);
    } finally {
      postgres.resume();
    }
    const next = await open(url);
    expect([...(await next.list(tenant, "users-sync")).keys()]).toEqual(["before"]);
  });
});
