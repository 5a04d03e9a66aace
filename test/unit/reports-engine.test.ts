import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, Endpoint } from "../../src/api/client.js";
import type { DateRange } from "../../src/domain/date-windows.js";
import type { ResponseShape } from "../../src/domain/report-record-scanner.js";
import { keyFingerprint, MAX_AGE_MS, openSpoolDir, ReportCache, type RecordBytes } from "../../src/engines/reports/cache.js";
import { ReportWindows, type WindowBatch } from "../../src/engines/reports/windows.js";
import { InterruptedError, UnexpectedResponseError } from "../../src/errors.js";
import { SecretScan } from "../../src/output/secret-scan.js";

// The report windows engine as a library (docs/architecture.md "Engines"; the resume cache of
// docs/cli-contract.md "Behaviour every command keeps"): a client that answers each window from
// a table, in pieces; a cache in a temp directory with a clock the test sets. Records, requests
// and events are written out.

const NOW = Date.UTC(2026, 10, 28, 3);
const IDENTITY = { baseUrl: "https://sim.example.com/", apiVersion: 2 as const, keyFingerprint: keyFingerprint("key-1") };
const JAN: DateRange = { startDate: "2026-01-01", endDate: "2026-01-30" };
const FEB: DateRange = { startDate: "2026-01-31", endDate: "2026-03-01" };

let root: string;
let n = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "simadmin-windows-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
const freshDir = (): string => join(root, `c${++n}`);

/** Answers "path start" from the table, cut into pieces of 7 bytes; records the requests. */
function client(answers: Record<string, string>) {
  const asked: string[] = [];
  const api = {
    postJsonStreaming: async (
      endpoint: Endpoint,
      body: { startDate: string; endDate: string },
      consume: (b: AsyncIterable<Uint8Array>) => Promise<unknown>,
    ) => {
      const key = `${endpoint.path} ${body.startDate}`;
      asked.push(`${key}..${body.endDate}`);
      const text = answers[key];
      if (text === undefined) throw new Error(`no answer for ${key}`);
      const bytes = Buffer.from(text);
      async function* pieces() {
        for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
      }
      return consume(pieces());
    },
  } as unknown as ApiClient;
  return { api, asked };
}

async function all(gen: AsyncIterable<WindowBatch>): Promise<string[]> {
  const out: string[] = [];
  for await (const b of gen)
    out.push(`${b.index} ${b.window.startDate} ${JSON.stringify(b.records)}${b.secretsAbsent ? " clean" : ""}`);
  return out;
}

/** A fresh cache directory holding the users windows an earlier run fetched for these months. */
async function leftByEarlierRun(windows: DateRange[]): Promise<string> {
  const dir = freshDir();
  const first = await ReportCache.open(dir, IDENTITY, () => NOW);
  await all(new ReportWindows(client(ANSWERS).api, first, windows, new AbortController().signal).batches("users"));
  return dir;
}

const ANSWERS = {
  "/report/users 2026-01-01": '[{"id":1},{"id":2}]',
  "/report/users 2026-01-31": '{"total":1,"items":[{"id":3}]}',
  "/report/teams-result 2026-01-01": "  ",
  "/report/teams-result 2026-01-31": '{"team":"A"}',
};

describe("ReportWindows", () => {
  it("fetches each window once, reads its records back whatever the answer's shape, and tells the progress display", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN, FEB], new AbortController().signal);
    const events: string[] = [];
    windows.report({
      window: (kind, index, count, w) => events.push(`window ${kind} ${index + 1}/${count} ${w.startDate}..${w.endDate}`),
      windowDone: (fetched) => events.push(fetched ? "fetched" : "from cache"),
      oneMoreFetch: () => events.push("one more"),
    });
    expect(await all(windows.batches("users"))).toEqual(['0 2026-01-01 [{"id":1},{"id":2}]', '1 2026-01-31 [{"id":3}]']);
    expect(await all(windows.batches("teams-result"))).toEqual(['1 2026-01-31 [{"team":"A"}]']);
    // Read again in the same run: from the files, no request, no event.
    expect(await all(windows.batches("users"))).toHaveLength(2);
    expect(asked).toEqual([
      "/report/users 2026-01-01..2026-01-30",
      "/report/users 2026-01-31..2026-03-01",
      "/report/teams-result 2026-01-01..2026-01-30",
      "/report/teams-result 2026-01-31..2026-03-01",
    ]);
    expect(events).toEqual([
      "window users 1/2 2026-01-01..2026-01-30",
      "fetched",
      "window users 2/2 2026-01-31..2026-03-01",
      "fetched",
      "window teams-result 1/2 2026-01-01..2026-01-30",
      "fetched",
      "window teams-result 2/2 2026-01-31..2026-03-01",
      "fetched",
    ]);
  });

  it("--raw: each window one record, its dates and its answer untouched", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const windows = new ReportWindows(client(ANSWERS).api, cache, [JAN, FEB], new AbortController().signal);
    expect(await all(windows.batches("teams-result", { raw: true }))).toEqual([
      '0 2026-01-01 [{"startDate":"2026-01-01","endDate":"2026-01-30","response":null}]',
      '1 2026-01-31 [{"startDate":"2026-01-31","endDate":"2026-03-01","response":{"team":"A"}}]',
    ]);
  });

  it("a later run finds the windows an earlier one left and asks only for the rest", async () => {
    const dir = await leftByEarlierRun([JAN]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW + 60_000);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN, FEB], new AbortController().signal);
    expect(await windows.findCached(["users", "syms"])).toBe(1);
    const events: string[] = [];
    windows.report({
      window: () => undefined,
      windowDone: (f) => events.push(String(f)),
      oneMoreFetch: () => events.push("one more"),
    });
    expect(await all(windows.batches("users"))).toEqual(['0 2026-01-01 [{"id":1},{"id":2}]', '1 2026-01-31 [{"id":3}]']);
    expect(asked).toEqual(["/report/users 2026-01-31..2026-03-01"]);
    expect(events).toEqual(["false", "true"]);
  });

  it("a window counted as cached but gone when read is fetched after all, and said so", async () => {
    const dir = await leftByEarlierRun([JAN]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(1);
    await cache.remove("users", JAN);
    const events: string[] = [];
    windows.report({
      window: () => undefined,
      windowDone: (f) => events.push(String(f)),
      oneMoreFetch: () => events.push("one more"),
    });
    expect(await all(windows.batches("users"))).toEqual(['0 2026-01-01 [{"id":1},{"id":2}]']);
    expect(asked).toEqual(["/report/users 2026-01-01..2026-01-30"]);
    expect(events).toEqual(["one more", "true"]);
  });

  it("a throw-away cache counts nothing and removes each window's file once read", async () => {
    const cache = await ReportCache.temporary(IDENTITY, () => NOW);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN, FEB], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(0);
    expect(await all(windows.batches("users"))).toHaveLength(2);
    expect(await readdir(cache.dir)).toEqual([]);
    // Read again: fetched again (the files are gone).
    await all(windows.batches("users"));
    expect(asked).toHaveLength(4);
    await cache.dispose();
    await expect(stat(cache.dir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("says whether the records' text was proven free of the secrets", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const answers = { "/report/users 2026-01-01": '[{"t":"plain"}]', "/report/users 2026-01-31": '[{"t":"SECRET-1"}]' };
    const windows = new ReportWindows(client(answers).api, cache, [JAN, FEB], new AbortController().signal);
    expect(await all(windows.batches("users", { scan: () => new SecretScan(["SECRET-1"]) }))).toEqual([
      '0 2026-01-01 [{"t":"plain"}] clean',
      '1 2026-01-31 [{"t":"SECRET-1"}]',
    ]);
    // An answer read whole proves nothing.
    const whole = new ReportWindows(
      client(ANSWERS).api,
      await ReportCache.open(freshDir(), IDENTITY, () => NOW),
      [FEB],
      new AbortController().signal,
    );
    expect(await all(whole.batches("teams-result", { scan: () => new SecretScan(["x-secret"]) }))).toEqual([
      '0 2026-01-31 [{"team":"A"}]',
    ]);
  });

  it("a stopped run asks for nothing more", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const controller = new AbortController();
    controller.abort();
    const { api, asked } = client(ANSWERS);
    await expect(all(new ReportWindows(api, cache, [JAN], controller.signal).batches("users"))).rejects.toBeInstanceOf(
      InterruptedError,
    );
    expect(asked).toEqual([]);
  });
});

describe("ReportWindows, edges", () => {
  it("an empty list is no batch; a window file a concurrent run cleared before it was read is fetched once more", async () => {
    const dir = await leftByEarlierRun([JAN]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api, asked } = client({ ...ANSWERS, "/report/syms 2026-01-01": "[]" });
    const windows = new ReportWindows(api, cache, [JAN], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(1);
    const events: string[] = [];
    windows.report({
      window: () => undefined,
      // Counted and checked, then cleared before its records are read: the file is gone.
      windowDone: (fetched) => {
        events.push(String(fetched));
        if (!fetched) rmSync(join(dir, readdirSync(dir)[0]!));
      },
      oneMoreFetch: () => events.push("one more"),
    });
    expect(await all(windows.batches("users"))).toEqual(['0 2026-01-01 [{"id":1},{"id":2}]']);
    expect(asked).toEqual(["/report/users 2026-01-01..2026-01-30"]);
    expect(events).toEqual(["false", "true"]);
    expect(await all(windows.batches("syms"))).toEqual([]);
  });

  it("works without a progress display, from the cache and when a counted window is gone", async () => {
    const dir = await leftByEarlierRun([JAN, FEB]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const windows = new ReportWindows(client(ANSWERS).api, cache, [JAN, FEB], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(2);
    await cache.remove("users", FEB);
    expect(await all(windows.batches("users"))).toHaveLength(2);
  });
});

describe("ReportCache, edges", () => {
  it("a window is fresh for less than a day by the cache's clock; a directory in its place is no window", async () => {
    const dir = freshDir();
    let now = NOW;
    const cache = await ReportCache.open(dir, IDENTITY, () => now);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    const mtime = (await stat(join(dir, (await readdir(dir))[0]!))).mtimeMs;
    now = mtime + MAX_AGE_MS - 1;
    expect(await cache.has("users", JAN)).toBe(true);
    now = mtime + MAX_AGE_MS;
    expect(await cache.has("users", JAN)).toBe(false);
    const other = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, other, [JAN], new AbortController().signal).batches("users"));
    const name = (await readdir(other.dir))[0]!;
    await rm(join(other.dir, name));
    await mkdir(join(other.dir, name));
    expect(await other.has("users", JAN)).toBe(false);
  });

  it("an empty answer has no records and no texts, without reading a file", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const records: unknown[] = [];
    for await (const batch of cache.records("users", JAN, { kind: "empty" }, "l")) records.push(batch);
    for await (const batch of cache.recordTexts("users", JAN, { kind: "empty" }, "l")) records.push(batch);
    expect(records).toEqual([]);
  });

  it("a window file that is missing is that error, not an unexpected answer", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const read = async () => {
      for await (const batch of cache.records("users", JAN, { kind: "array" }, "l")) void batch;
    };
    await expect(read()).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("ReportCache", () => {
  it("names a window's file by service, version, key, kind and dates, so another tenant never finds it", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    const same = await ReportCache.open(dir, { ...IDENTITY, baseUrl: "https://sim.example.com" }, () => NOW);
    expect(await same.has("users", JAN)).toBe(true);
    for (const other of [
      { ...IDENTITY, baseUrl: "https://other.example.com" },
      { ...IDENTITY, apiVersion: 1 as const },
      { ...IDENTITY, keyFingerprint: keyFingerprint("key-2") },
    ])
      expect(await (await ReportCache.open(dir, other, () => NOW)).has("users", JAN)).toBe(false);
    expect(await same.has("syms", JAN)).toBe(false);
    expect(await same.has("users", FEB)).toBe(false);
    const names = await readdir(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f]{40}\.json$/);
    expect(names[0]).not.toContain("key-1");
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, names[0]!))).mode & 0o777).toBe(0o600);
  });

  it("a window a day old is not reused, and the next open removes it and cut-off temp files", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    const [name] = await readdir(dir);
    const file = join(dir, name!);
    const mtime = (await stat(file)).mtimeMs;
    await writeFile(join(dir, "x.tmp"), "");
    await writeFile(join(dir, "notes.txt"), "");
    await utimes(join(dir, "x.tmp"), new Date(mtime), new Date(mtime));
    await utimes(join(dir, "notes.txt"), new Date(mtime - MAX_AGE_MS), new Date(mtime - MAX_AGE_MS));
    const justBefore = await ReportCache.open(dir, IDENTITY, () => mtime + MAX_AGE_MS - 1);
    expect(await justBefore.has("users", JAN)).toBe(true);
    expect((await readdir(dir)).sort()).toEqual([name, "notes.txt", "x.tmp"].sort());
    const later = await ReportCache.open(dir, IDENTITY, () => mtime + MAX_AGE_MS);
    expect(await later.has("users", JAN)).toBe(false);
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });

  it("an answer that is not JSON is never kept: the error names the window", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api } = client({ "/report/users 2026-01-01": '[{"id":1},' });
    const error = await all(new ReportWindows(api, cache, [JAN], new AbortController().signal).batches("users")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /^report users 2026-01-01\.\.2026-01-30: the service answered something unexpected \(not JSON: /,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("a stored window that cannot be read back is dropped, so the next run fetches it again", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    const [name] = await readdir(dir);
    await writeFile(join(dir, name!), '[{"id":1},{');
    const next = await ReportCache.open(dir, IDENTITY, () => NOW);
    const windows = new ReportWindows(client(ANSWERS).api, next, [JAN], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(1);
    const error = await all(windows.batches("users")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /^report users 2026-01-01\.\.2026-01-30: the service answered something unexpected \(/,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("hands records over in batches of 256, and the records' texts as the service wrote them", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    // About 1 kB each: the file is read back in pieces of 64 KiB, some 64 records a piece.
    const pad = "x".repeat(1000);
    const records = Array.from({ length: 600 }, (_, i) => `{"id":${i},"big":12345678901234567890,"pad":"${pad}"}`);
    const { api } = client({ "/report/users 2026-01-01": `[${records.join(",")}]` });
    const shape = await new ReportWindows(api, cache, [JAN], new AbortController().signal)
      .batches("users")
      .next()
      .then(() => cache.shapeOf("users", JAN, "label"));
    const sizes: number[] = [];
    for await (const batch of cache.records("users", JAN, shape, "label")) sizes.push(batch.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(600);
    expect(sizes.length).toBeGreaterThan(1);
    expect(sizes.slice(0, -1).every((s) => s >= 256 && s < 256 + 70)).toBe(true);
    const texts: string[] = [];
    for await (const batch of cache.recordTexts("users", JAN, shape, "label")) texts.push(...batch);
    expect(texts[599]).toBe(`{"id":599,"big":12345678901234567890,"pad":"${pad}"}`);
    expect(texts).toHaveLength(600);
  });

  it("cuts records out where pass 1 found them only in the file it read: a copy renamed over it is scanned", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api } = client({ "/report/users 2026-01-01": '[{"id":1},{"id":2}]' });
    const windows = new ReportWindows(api, cache, [JAN], new AbortController().signal);
    const first = windows.batches("users");
    // The window is saved (pass 1 notes where its records lie) and read by its spans.
    expect((await first.next()).value?.records).toEqual([{ id: 1 }, { id: 2 }]);
    await first.return(undefined);
    const shape = await cache.shapeOf("users", JAN, "label");
    // A concurrent run of the same command renames its fresh copy of the window into place:
    // same name, another file, its records elsewhere in the text.
    const [name] = await readdir(dir);
    await writeFile(join(dir, "fresh.tmp"), '[  {"id":"a much longer first record"} ,{"id":9}]');
    await rename(join(dir, "fresh.tmp"), join(dir, name!));
    const records: unknown[] = [];
    for await (const batch of cache.records("users", JAN, shape, "label")) records.push(...batch);
    expect(records).toEqual([{ id: "a much longer first record" }, { id: 9 }]);
  });

  it("record texts of an answer read whole, and of an empty one", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const windows = new ReportWindows(client(ANSWERS).api, cache, [JAN, FEB], new AbortController().signal);
    await all(windows.batches("teams-result"));
    const texts: string[][] = [];
    for (const w of [JAN, FEB])
      for await (const batch of cache.recordTexts("teams-result", w, await cache.shapeOf("teams-result", w, "l"), "l"))
        texts.push(batch);
    expect(texts).toEqual([['{"team":"A"}']]);
  });

  it("dispose removes an emptied persistent directory but never another run's windows", async () => {
    const dir = freshDir();
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    await cache.dispose();
    expect(await readdir(dir)).toHaveLength(1);
    await cache.remove("users", JAN);
    await cache.dispose();
    await expect(stat(dir)).rejects.toMatchObject({ code: "ENOENT" });
    // A run that saves after another removed the directory makes it again.
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    expect(await readdir(dir)).toHaveLength(1);
  });
});

describe("ReportCache, names and bytes", () => {
  it("the key's fingerprint is a salted SHA-256 (caches of earlier versions stay found), never the key", () => {
    expect(keyFingerprint("key-1")).toBe("faaa062445ac7fc3ffef6b05798f807868046f6085672cd42553145f68424cc6");
    expect(keyFingerprint("key-2")).not.toBe(keyFingerprint("key-1"));
  });

  it("another key, or a base URL written with more trailing slashes, finds the windows it should", async () => {
    const dir = freshDir();
    const identity = { ...IDENTITY, keyFingerprint: keyFingerprint("key-1") };
    const cache = await ReportCache.open(dir, identity, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    const slashes = await ReportCache.open(dir, { ...identity, baseUrl: "https://sim.example.com//" }, () => NOW);
    expect(await slashes.has("users", JAN)).toBe(true);
    const otherKey = await ReportCache.open(dir, { ...identity, keyFingerprint: keyFingerprint("key-2") }, () => NOW);
    expect(await otherKey.has("users", JAN)).toBe(false);
  });

  it("a throw-away cache is a private directory named for simadmin in the temp dir", async () => {
    const cache = await ReportCache.temporary(IDENTITY, () => NOW);
    expect(cache.dir.startsWith(join(tmpdir(), "simadmin-reports-"))).toBe(true);
    expect((await stat(cache.dir)).mode & 0o777).toBe(0o700);
    await cache.dispose();
  });

  it("record texts are the service's own text, spacing included; --raw keeps accents", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const answers = {
      "/report/users 2026-01-01": '[ { "id" : 1 , "name": "Zoë" } ,{"id":2} ]',
      "/report/teams-result 2026-01-01": '{"team":"Équipe ü","n":12}',
    };
    const windows = new ReportWindows(client(answers).api, cache, [JAN], new AbortController().signal);
    await all(windows.batches("users"));
    const texts: string[] = [];
    for await (const batch of cache.recordTexts("users", JAN, await cache.shapeOf("users", JAN, "l"), "l")) texts.push(...batch);
    expect(texts).toEqual(['{ "id" : 1 , "name": "Zoë" }', '{"id":2}']);
    const raw = await all(windows.batches("teams-result", { raw: true }));
    expect(raw).toEqual([
      '0 2026-01-01 [{"startDate":"2026-01-01","endDate":"2026-01-30","response":{"team":"Équipe ü","n":12}}]',
    ]);
  });

  it("record bytes (reports sync): each record's UTF-8 bytes, from spans counted in bytes or by a scan, whichever way it was saved", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const asBytes = (text: string): string => Buffer.from(text, "utf8").toString("latin1");
    const records = [`{"n":"Chloé","c":"中"}`, `{"n":"\ud83d\ude00"}`, `{"n":"x"}`];
    const answer = Buffer.from(`\ufeff{"généré":"é","data":[${records.join(" , ")}]}`, "utf8");
    // Chunks cut inside the characters of several bytes.
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < answer.length; at += 5) yield answer.subarray(at, at + 5);
    }
    const read = async (shape: ResponseShape, how: "bytes" | "texts"): Promise<string[]> => {
      const out: string[] = [];
      if (how === "texts") for await (const batch of cache.recordTexts("users", JAN, shape, "l")) out.push(...batch);
      else for await (const batch of cache.recordBytes("users", JAN, shape, "l")) out.push(...batch.map((r) => r.bytes));
      return out;
    };
    for (const bytes of [true, false]) {
      const shape = await cache.save("users", JAN, body(), "l", { bytes });
      expect(shape).toEqual({ kind: "object-with-list", member: 1 });
      expect(await read(shape, "bytes")).toEqual(records.map(asBytes));
      const again = await cache.save("users", JAN, body(), "l", { bytes });
      expect(await read(again, "texts")).toEqual(records);
    }
    // A reader of the elements: the records it reads are handed over with its tag (the spans kept
    // with them), the others with none; a record cut by a chunk is left to the scan.
    let tag = 0;
    const elements = {
      tag: -1,
      read(chunk: string, at: number): number {
        const end = chunk.indexOf("}", at) + 1;
        if (end === 0 || !chunk.startsWith('{"n"', at)) return -1;
        this.tag = ++tag;
        return end;
      },
    };
    async function* twoChunks(): AsyncGenerator<Uint8Array> {
      yield answer.subarray(0, 60);
      yield answer.subarray(60);
    }
    const tagged = await cache.save("users", JAN, twoChunks(), "l", { bytes: true, elements });
    const seen: RecordBytes[] = [];
    for await (const batch of cache.recordBytes("users", JAN, tagged, "l")) seen.push(...batch);
    expect(seen.map((r) => [Buffer.from(r.bytes, "latin1").toString("utf8"), r.tag])).toEqual([
      [records[0], 1],
      [records[1], -1], // cut by the chunk's end: scanned
      [records[2], 2],
    ]);
    // An answer that is one record.
    const whole = await cache.save(
      "users",
      JAN,
      (async function* () {
        yield Buffer.from('{"team":"Équipe"}');
      })(),
      "l",
      { bytes: true },
    );
    expect(await read(whole, "bytes")).toEqual([asBytes('{"team":"Équipe"}')]);
  });

  it("record blocks (reports sync): whole records' bytes read by their spans through one buffer, with their tags; else recordBytes' records", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    const big = `{"n":"${"é".repeat(150_000)}"}`; // 300 kB: longer than a block, read alone
    const records = [`{"n":"Chloé"}`, big, ...Array.from({ length: 2000 }, (_, i) => `{"n":"r${i}"}`)];
    const answer = Buffer.from(`[${records.join(",")}]`, "utf8");
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < answer.length; at += 65_536) yield answer.subarray(at, at + 65_536);
    }
    const elements = {
      tag: -1,
      read(chunk: string, at: number): number {
        const end = chunk.indexOf("}", at) + 1;
        if (end === 0 || end - at > 100) return -1;
        this.tag = 7;
        return end;
      },
    };
    const read = async (shape: ResponseShape): Promise<{ texts: string[]; tags: number[]; blocks: number }> => {
      const out = { texts: [] as string[], tags: [] as number[], blocks: 0 };
      for await (const block of cache.recordBlocks("users", JAN, shape, "l")) {
        out.blocks++;
        for (let i = 0; i < block.count; i++) {
          out.texts.push(block.bytes.toString("utf8", block.start(i), block.end(i)));
          out.tags.push(block.tag(i));
        }
      }
      return out;
    };
    const spans = await read(await cache.save("users", JAN, body(), "l", { bytes: true, elements }));
    expect(spans.texts).toEqual(records);
    expect(spans.tags).toEqual([7, -1, ...records.slice(2).map(() => 7)]);
    expect(spans.blocks).toBe(3); // before the long record, the long record alone, after it
    // Saved as text: no spans in bytes, the records of a scan, no tags.
    const scanned = await read(await cache.save("users", JAN, body(), "l"));
    expect(scanned.texts).toEqual(records);
    expect(scanned.tags.every((tag) => tag === -1)).toBe(true);
  });

  it("hands records over 256 at a time when a piece of the file ends on the 256th", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    // 255 bytes a record and its comma: the file's pieces of 64 KiB end on records 256 and 512.
    const record = (i: number) => {
      const head = `{"id":${i},"pad":"`;
      return `${head}${"x".repeat(255 - head.length - 2)}"}`;
    };
    const records = Array.from({ length: 600 }, (_, i) => record(i));
    expect(records.every((r) => r.length === 255)).toBe(true);
    const { api } = client({ "/report/users 2026-01-01": `[${records.join(",")}]` });
    await all(new ReportWindows(api, cache, [JAN], new AbortController().signal).batches("users"));
    const sizes: number[] = [];
    for await (const batch of cache.records("users", JAN, await cache.shapeOf("users", JAN, "l"), "l")) sizes.push(batch.length);
    expect(sizes).toEqual([256, 256, 88]);
  });

  it("a stored answer read whole that cannot be read back is dropped; a throw-away cache disposed twice is no error", async () => {
    const cache = await ReportCache.temporary(IDENTITY, () => NOW);
    const windows = new ReportWindows(client(ANSWERS).api, cache, [FEB], new AbortController().signal);
    const shape = await windows
      .batches("teams-result", { raw: true })
      .next()
      .then(() => cache.shapeOf("teams-result", FEB, "l"));
    await writeFile(join(cache.dir, (await readdir(cache.dir))[0]!), '{"team":');
    await expect(cache.whole("teams-result", FEB, shape, "report teams-result")).rejects.toThrow(
      /^report teams-result: the service answered something unexpected \(/,
    );
    expect(await readdir(cache.dir)).toEqual([]);
    await cache.dispose();
    await cache.dispose();
    await expect(stat(cache.dir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a stored window that turns unreadable after its check fails the run (and is dropped), it is not fetched again", async () => {
    const dir = await leftByEarlierRun([JAN]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(1);
    windows.report({
      window: () => undefined,
      windowDone: () => writeFileSync(join(dir, readdirSync(dir)[0]!), '[{"id":1},{'),
      oneMoreFetch: () => undefined,
    });
    await expect(all(windows.batches("users"))).rejects.toBeInstanceOf(UnexpectedResponseError);
    expect(asked).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it("removing a window that is not there is no error", async () => {
    const cache = await ReportCache.open(freshDir(), IDENTITY, () => NOW);
    await cache.remove("users", FEB);
    expect(await readdir(cache.dir)).toEqual([]);
  });

  it("a settings directory removed whole during the run is made again, private", async () => {
    const parent = freshDir();
    const dir = join(parent, "report-cache");
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    await rm(parent, { recursive: true });
    await all(new ReportWindows(client(ANSWERS).api, cache, [JAN], new AbortController().signal).batches("users"));
    expect(await readdir(dir)).toHaveLength(1);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("a window file cleared again after it was fetched once more: that error, no third request", async () => {
    const dir = await leftByEarlierRun([JAN]);
    const cache = await ReportCache.open(dir, IDENTITY, () => NOW);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(1);
    windows.report({
      window: () => undefined,
      // Every copy is cleared before its records are read.
      windowDone: () => rmSync(join(dir, readdirSync(dir)[0]!)),
      oneMoreFetch: () => undefined,
    });
    await expect(all(windows.batches("users"))).rejects.toMatchObject({ code: "ENOENT" });
    expect(asked).toEqual(["/report/users 2026-01-01..2026-01-30"]);
  });
});

describe("ReportCache.inRunDirectory", () => {
  it("is throw-away: windows an earlier run left there are neither counted nor reused, each file goes once read, the directory at the end", async () => {
    const dir = freshDir();
    const earlier = await ReportCache.open(dir, IDENTITY, () => NOW);
    await all(new ReportWindows(client(ANSWERS).api, earlier, [JAN], new AbortController().signal).batches("users"));
    await writeFile(join(dir, "left-by-a-killed-run.tmp"), "");
    const cache = ReportCache.inRunDirectory(dir, IDENTITY, () => NOW);
    expect(cache.dir).toBe(dir);
    const { api, asked } = client(ANSWERS);
    const windows = new ReportWindows(api, cache, [JAN, FEB], new AbortController().signal);
    expect(await windows.findCached(["users"])).toBe(0);
    expect(await all(windows.batches("users"))).toEqual(['0 2026-01-01 [{"id":1},{"id":2}]', '1 2026-01-31 [{"id":3}]']);
    expect(asked).toEqual(["/report/users 2026-01-01..2026-01-30", "/report/users 2026-01-31..2026-03-01"]);
    expect(await readdir(dir)).toEqual(["left-by-a-killed-run.tmp"]);
    await cache.dispose();
    await expect(stat(dir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("openSpoolDir", () => {
  it("makes this run's private spool and removes those of dead runs on this host and old ones of other hosts", async () => {
    const config = freshDir();
    const spools = join(config, "report-spool");
    await mkdir(join(spools, `${hostname()}-999999999`), { recursive: true });
    await mkdir(join(spools, `${hostname()}-${process.ppid}`));
    await mkdir(join(spools, "other-host-123"));
    await mkdir(join(spools, "old-host-456"));
    const old = new Date(NOW - MAX_AGE_MS);
    await utimes(join(spools, "old-host-456"), old, old);
    await utimes(join(spools, "other-host-123"), new Date(NOW - MAX_AGE_MS + 1000), new Date(NOW - MAX_AGE_MS + 1000));
    const spool = await openSpoolDir(config, () => NOW);
    expect(spool.dir).toBe(join(spools, `${hostname()}-${process.pid}`));
    expect((await readdir(spools)).sort()).toEqual(
      [`${hostname()}-${process.pid}`, `${hostname()}-${process.ppid}`, "other-host-123"].sort(),
    );
    expect((await stat(spools)).mode & 0o777).toBe(0o700);
    expect((await stat(spool.dir)).mode & 0o777).toBe(0o700);
    await spool.remove();
    expect((await readdir(spools)).sort()).toEqual([`${hostname()}-${process.ppid}`, "other-host-123"].sort());
  });

  it("spool edges: this pid's own directory left by an earlier process, a dead run's files, names that are no run's, removal with files in it", async () => {
    const config = freshDir();
    const spools = join(config, "report-spool");
    const own = join(spools, `${hostname()}-${process.pid}`);
    await mkdir(own, { recursive: true });
    await mkdir(join(spools, `${hostname()}-999999999`));
    await writeFile(join(spools, `${hostname()}-999999999`, "rows.spool"), "x");
    await mkdir(join(spools, `${hostname()}-999999999-renamed`));
    await mkdir(join(spools, "stale-directory"));
    const old = new Date(NOW - MAX_AGE_MS);
    await utimes(join(spools, "stale-directory"), old, old);
    const spool = await openSpoolDir(config, () => NOW);
    expect(spool.dir).toBe(own);
    expect((await readdir(spools)).sort()).toEqual([`${hostname()}-${process.pid}`, `${hostname()}-999999999-renamed`].sort());
    await writeFile(join(spool.dir, "rows.spool"), "x");
    await spool.remove();
    await spool.remove();
    expect(await readdir(spools)).toEqual([`${hostname()}-999999999-renamed`]);
  });
});
