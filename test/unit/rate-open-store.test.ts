import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  emptyRateBudgetState,
  type RateBudgetState,
  type RateLimitedOutcome,
  type Reservation,
} from "../../src/api/rate/budget.js";
import type { RequestGroup } from "../../src/api/rate/limits.js";
import { FallbackBudgetStore, createRateStore, parseRateStore, sharedLedgerDirectory } from "../../src/api/rate/open-store.js";
import type { BudgetStore } from "../../src/api/rate/store.js";
import { createFakeClock } from "../../src/clock.js";
import { UsageError } from "../../src/errors.js";
import { freePort } from "../helpers/ports.js";

// SIMADMIN_RATE_STORE and the Redis-first, local-after-a-failure store (src/api/rate/open-store.ts),
// driven directly: the stores behind FallbackBudgetStore are scripted fakes that log each call,
// so what goes where after a failure is written out call by call.

const T0 = 1_800_000_000_000;
const LIMITS = { reports: { limit: 3, windowMs: 10_000 }, access: { limit: 5, windowMs: 20_000 } };

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("parseRateStore", () => {
  it("reads host, port, database and credentials; displays neither user nor password", () => {
    expect(parseRateStore(" redis://ci:p%40ss@10.0.0.5:6380/2 ")).toEqual({
      tls: false,
      host: "10.0.0.5",
      port: 6380,
      db: 2,
      username: "ci",
      password: "p@ss",
      display: "redis://10.0.0.5:6380/2",
    });
  });

  it("defaults port 6379 and database 0; rediss:// is TLS; an IPv6 host loses its brackets", () => {
    expect(parseRateStore("rediss://[::1]")).toEqual({
      tls: true,
      host: "::1",
      port: 6379,
      db: 0,
      username: undefined,
      password: undefined,
      display: "rediss://[::1]/0",
    });
    expect(parseRateStore("redis://h//")).toMatchObject({ db: 0, display: "redis://h/0" });
  });

  it("reads a database of two digits", () => {
    expect(parseRateStore("redis://h/15")).toMatchObject({ db: 15, display: "redis://h/15" });
  });

  it.each([undefined, "", "   "])("gives undefined (the local ledger) for %j", (value) => {
    expect(parseRateStore(value)).toBeUndefined();
  });

  it.each([
    ["nonsense", "SIMADMIN_RATE_STORE: not a URL"],
    ["http://host:6379", 'SIMADMIN_RATE_STORE: unsupported scheme "http:"'],
    ["redis://", "SIMADMIN_RATE_STORE: no host"],
    ["redis://host/abc", "SIMADMIN_RATE_STORE: the database after the host must be a number, e.g. /0"],
    // A refused value is never repeated: it may hold a password.
    ["redis://u:hunter2pw@host:6379/abc", "SIMADMIN_RATE_STORE: the database after the host must be a number, e.g. /0"],
    ["not a url hunter2pw", "SIMADMIN_RATE_STORE: not a URL"],
    ["redis://host/1e3", "SIMADMIN_RATE_STORE: the database after the host must be a number, e.g. /0"],
    ["redis://host/-1", "SIMADMIN_RATE_STORE: the database after the host must be a number, e.g. /0"],
    ["redis://host/99999999999999999999", "SIMADMIN_RATE_STORE: the database after the host must be a number, e.g. /0"],
  ])("refuses %j: %s", (value, message) => {
    const error = thrown(() => parseRateStore(value));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(message);
    expect((error as UsageError).hint).toBe(
      "use file:///<directory> for a ledger the accounts of one host share, redis://[user:password@]host:port[/db] " +
        "(rediss:// for TLS) for many machines, or unset it for your own budget",
    );
  });
});

describe('sharedLedgerDirectory (file://, docs/rate-limits.md "Shared hosts")', () => {
  it.each([
    ["file:///var/lib/simadmin/rate", "/var/lib/simadmin/rate"],
    ["file:///var/lib/simadmin/rate/", "/var/lib/simadmin/rate"],
    ["file://localhost/srv/rate%20ledger", "/srv/rate ledger"],
  ])("%j is the directory %j, and no Redis", (value, dir) => {
    expect(sharedLedgerDirectory(value)).toBe(dir);
    expect(parseRateStore(value)).toBeUndefined();
  });

  it.each([undefined, "", "redis://h"])("%j is no shared directory", (value) => {
    expect(sharedLedgerDirectory(value)).toBeUndefined();
  });

  it.each([
    ["file://nas.example.org/rate", "SIMADMIN_RATE_STORE: a file:// ledger is on this host, not on nas.example.org"],
    ["file:///", "SIMADMIN_RATE_STORE: file:// needs a directory, e.g. file:///var/lib/simadmin/rate"],
  ])("refuses %j: %s", (value, message) => {
    const error = thrown(() => sharedLedgerDirectory(value));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe(message);
  });
});

/** A store that answers from a script and logs every call; `fail` makes every later call throw. */
class FakeStore implements BudgetStore {
  readonly calls: string[] = [];
  failing: Error | undefined;
  closed = 0;
  nextSlot: number;
  reserved = true;

  constructor(
    readonly description: string,
    firstSlot: number,
  ) {
    this.nextSlot = firstSlot;
  }

  #call(text: string): void {
    this.calls.push(text);
    if (this.failing) throw this.failing;
  }

  async reserve(group: RequestGroup, maxWaitMs?: number): Promise<Reservation> {
    this.#call(`reserve ${group} ${maxWaitMs}`);
    const slotAt = this.nextSlot;
    this.nextSlot += 100;
    return { reserved: this.reserved, waitMs: 7, slotAt };
  }

  async settle(group: RequestGroup, slotAt: number): Promise<number> {
    this.#call(`settle ${group} ${slotAt}`);
    return slotAt + 5;
  }

  async release(group: RequestGroup, slotAt: number): Promise<void> {
    this.#call(`release ${group} ${slotAt}`);
  }

  async noteRateLimited(group: RequestGroup, sentAt: number, retryAfterMs?: number): Promise<RateLimitedOutcome> {
    this.#call(`note ${group} ${sentAt} ${retryAfterMs}`);
    return { shrunk: false, effectiveLimit: sentAt === Number.NEGATIVE_INFINITY ? 1 : 2 };
  }

  async snapshot(): Promise<RateBudgetState> {
    this.#call("snapshot");
    const state = emptyRateBudgetState();
    state.groups.reports.sends = [this.nextSlot];
    return state;
  }

  async close(): Promise<void> {
    this.closed++;
  }
}

function fallback(options: { primary?: boolean } = {}) {
  const remote = new FakeStore("redis redis://r:6379/0", T0);
  const local = new FakeStore("file /l.json", T0 + 50_000);
  const clock = createFakeClock(T0 + 90_000);
  const failures: string[] = [];
  const store = new FallbackBudgetStore(local, clock, (reason) => failures.push(reason));
  if (options.primary ?? true) store.usePrimary(remote);
  return { remote, local, store, failures, clock };
}

describe("FallbackBudgetStore", () => {
  it("uses the primary while it works: every call goes there, the local store sees none", async () => {
    const { remote, local, store, failures } = fallback();
    expect(store.description).toBe("redis redis://r:6379/0");
    expect(store.usingPrimary).toBe(true);
    expect(await store.reserve("reports", 500)).toEqual({ reserved: true, waitMs: 7, slotAt: T0 });
    expect(await store.settle("reports", T0)).toBe(T0 + 5);
    expect(await store.noteRateLimited("reports", T0 + 5, 1_000)).toEqual({ shrunk: false, effectiveLimit: 2 });
    const { slotAt } = await store.reserve("access");
    await store.release("access", slotAt);
    expect((await store.snapshot()).groups.reports.sends).toEqual([T0 + 200]);
    expect(remote.calls).toEqual([
      "reserve reports 500",
      `settle reports ${T0}`,
      `note reports ${T0 + 5} 1000`,
      "reserve access undefined",
      `release access ${T0 + 100}`,
      "snapshot",
    ]);
    expect(local.calls).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("without a primary (Redis unreachable at start) is the local store", async () => {
    const { local, store } = fallback({ primary: false });
    expect(store.usingPrimary).toBe(false);
    expect(store.description).toBe("file /l.json");
    expect(await store.reserve("reports")).toEqual({ reserved: true, waitMs: 7, slotAt: T0 + 50_000 });
    expect(await store.settle("reports", T0 + 50_000)).toBe(T0 + 50_005);
    expect(local.calls).toEqual(["reserve reports undefined", `settle reports ${T0 + 50_000}`]);
  });

  it("after the primary's first failure: one report of it (first line, 200 characters), the primary closed, the local store from then on", async () => {
    const { remote, local, store, failures } = fallback();
    remote.failing = new Error(`${"x".repeat(250)}\nsecond line`);
    expect(await store.reserve("reports", 900)).toEqual({ reserved: true, waitMs: 7, slotAt: T0 + 50_000 });
    expect(failures).toEqual(["x".repeat(200)]);
    expect(remote.closed).toBe(1);
    expect(store.usingPrimary).toBe(false);
    expect(store.description).toBe("file /l.json");
    await store.reserve("reports");
    expect(remote.calls).toEqual(["reserve reports 900"]);
    expect(local.calls).toEqual(["reserve reports 900", "reserve reports undefined"]);
    expect(failures).toHaveLength(1);
  });

  it("names an error without a message 'unknown error', and a thrown string by itself", () => {
    const first = fallback();
    first.store.primaryFailed(new Error(""));
    expect(first.failures).toEqual(["unknown error"]);
    const second = fallback();
    second.store.primaryFailed("ECONNRESET");
    expect(second.failures).toEqual(["ECONNRESET"]);
  });

  it("settles a slot the primary gave, after it failed, in the local store as a send happening now", async () => {
    const { remote, local, store, clock } = fallback();
    const { slotAt } = await store.reserve("reports");
    remote.failing = new Error("gone");
    expect(await store.settle("reports", slotAt)).toBe(clock.now() + 5);
    expect(local.calls).toEqual([`settle reports ${T0 + 90_000}`]);
  });

  it("settles a slot of the local store there, even while the primary works", async () => {
    const { remote, local, store } = fallback();
    expect(await store.settle("reports", 42)).toBe(47);
    expect(remote.calls).toEqual([]);
    expect(local.calls).toEqual(["settle reports 42"]);
  });

  it("knows a primary's send by group and time: the send it settled, not its slot, is the handle after", async () => {
    const { remote, local, store } = fallback();
    const { slotAt } = await store.reserve("reports");
    const sentAt = await store.settle("reports", slotAt);
    // The slot was settled: as a handle it is gone; the send time is the primary's.
    await store.settle("reports", slotAt);
    await store.noteRateLimited("access", sentAt);
    await store.noteRateLimited("reports", sentAt, 3_000);
    // Used once: a second note of the same send is the local store's.
    await store.noteRateLimited("reports", sentAt);
    expect(remote.calls).toEqual(["reserve reports undefined", `settle reports ${T0}`, `note reports ${T0 + 5} 3000`]);
    expect(local.calls).toEqual([`settle reports ${T0}`, `note access ${T0 + 5} undefined`, `note reports ${T0 + 5} undefined`]);
  });

  it("does not keep a handle for a slot the primary did not reserve", async () => {
    const { remote, local, store } = fallback();
    remote.reserved = false;
    const refused = await store.reserve("reports", 10);
    expect(refused).toEqual({ reserved: false, waitMs: 7, slotAt: T0 });
    await store.release("reports", T0);
    expect(remote.calls).toEqual(["reserve reports 10"]);
    expect(local.calls).toEqual([`release reports ${T0}`]);
  });

  it("releases a primary's slot there, once; after a failure the release is dropped (the slot dies with Redis)", async () => {
    const { remote, local, store, failures } = fallback();
    const a = (await store.reserve("reports")).slotAt;
    const b = (await store.reserve("reports")).slotAt;
    await store.release("reports", a);
    remote.failing = new Error("gone");
    await store.release("reports", b);
    expect(remote.calls).toEqual([
      "reserve reports undefined",
      "reserve reports undefined",
      `release reports ${a}`,
      `release reports ${b}`,
    ]);
    expect(local.calls).toEqual([]);
    expect(failures).toEqual(["gone"]);
  });

  it("a 429 on a primary's send after it failed shares only the Retry-After with the local store", async () => {
    const { remote, local, store } = fallback();
    const sentAt = await store.settle("reports", (await store.reserve("reports")).slotAt);
    remote.failing = new Error("gone");
    expect(await store.noteRateLimited("reports", sentAt, 2_000)).toEqual({ shrunk: false, effectiveLimit: 1 });
    expect(local.calls).toEqual(["note reports -Infinity 2000"]);
  });

  it("takes the snapshot from the local store once the primary fails", async () => {
    const { remote, store } = fallback();
    remote.failing = new Error("gone");
    expect((await store.snapshot()).groups.reports.sends).toEqual([T0 + 50_000]);
  });

  it("a failure of a primary already replaced is not reported again", async () => {
    const { remote, store, failures } = fallback();
    let fail!: (error: Error) => void;
    const slow = new Promise<never>((_resolve, reject) => {
      fail = reject;
    });
    remote.reserve = () => slow;
    const pending = store.reserve("reports");
    const other = new FakeStore("redis other", 1);
    store.usePrimary(other);
    fail(new Error("late"));
    await pending;
    expect(failures).toEqual([]);
    expect(store.usingPrimary).toBe(true);
    expect(store.description).toBe("redis other");
  });

  it("close ends both stores and drops the primary", async () => {
    const { remote, local, store } = fallback();
    await store.close();
    expect([remote.closed, local.closed]).toEqual([1, 1]);
    expect(store.usingPrimary).toBe(false);
  });
});

describe("createRateStore", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function options(setting: string | undefined, warnings: string[]) {
    dir = await mkdtemp(join(tmpdir(), "simadmin-open-store-"));
    return {
      setting,
      baseUrl: "https://api.example.com",
      limits: LIMITS,
      ledgerPath: join(dir, "rate-ledger.json"),
      clock: createFakeClock(T0),
      warn: (text: string) => warnings.push(text),
    };
  }

  it("without a setting is the file ledger, with no warning", async () => {
    const warnings: string[] = [];
    const opts = await options(undefined, warnings);
    const store = await createRateStore(opts);
    expect(store.description).toBe(`file ${opts.ledgerPath}`);
    expect(await store.reserve("reports")).toEqual({ reserved: true, waitMs: 0, slotAt: T0 });
    expect(warnings).toEqual([]);
  });

  it("with Redis unreachable: the file ledger and one warning naming the address and cause, never the password", async () => {
    const warnings: string[] = [];
    const port = await freePort();
    const secret = "pa/ss w0rd";
    const opts = await options(`redis://ci:${encodeURIComponent(secret)}@127.0.0.1:${port}/3`, warnings);
    const store = await createRateStore(opts);
    expect(store.description).toBe(`file ${opts.ledgerPath}`);
    expect(warnings).toEqual([
      `the shared rate budget at redis://127.0.0.1:${port}/3 cannot be used (connect ECONNREFUSED 127.0.0.1:${port}); ` +
        "this run keeps this machine's own budget instead",
    ]);
    await store.close();
  });

  it("a failure whose text quotes the password, as is or URL-encoded, names it [REDACTED]", async () => {
    const warnings: string[] = [];
    const port = await freePort();
    const opts = await options(`redis://ci:${encodeURIComponent("pa/ss w0rd")}@127.0.0.1:${port}/0`, warnings);
    const store = await createRateStore(opts);
    expect(store).toBeInstanceOf(FallbackBudgetStore);
    (store as FallbackBudgetStore).primaryFailed(new Error("AUTH pa/ss w0rd refused for redis://ci:pa%2Fss%20w0rd@host"));
    expect(warnings[1]).toBe(
      `the shared rate budget at redis://127.0.0.1:${port}/0 cannot be used (AUTH [REDACTED] refused for redis://ci:[REDACTED]@host); ` +
        "this run keeps this machine's own budget instead",
    );
    await store.close();
  });

  it("without a password, a failure's text is left whole", async () => {
    const warnings: string[] = [];
    const port = await freePort();
    const opts = await options(`redis://127.0.0.1:${port}`, warnings);
    const store = (await createRateStore(opts)) as FallbackBudgetStore;
    store.primaryFailed(new Error("Cannot read properties of undefined"));
    expect(warnings[1]).toBe(
      `the shared rate budget at redis://127.0.0.1:${port}/0 cannot be used (Cannot read properties of undefined); ` +
        "this run keeps this machine's own budget instead",
    );
    await store.close();
  });
});
