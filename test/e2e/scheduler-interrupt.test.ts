import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, binaryEnv, startTestEnv, tempDir, type TestEnv } from "../helpers/cli.js";

// Ctrl-C during a request or during a budget wait: the run stops at once, exits 130 and
// leaves no output file, complete or partial (cli-contract exit 130: "stops within a second,
// leaves no partial output file"). The bound asserted is a generous sanity limit for a busy
// test machine, not the promise itself.

const STOPS_WITHIN_MS = 3000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup(options: Parameters<typeof startTestEnv>[0]): Promise<{ t: TestEnv; dir: string }> {
  const t = await startTestEnv(options);
  const dir = await tempDir();
  cleanups.push(
    () => t.close(),
    () => dir.remove(),
  );
  return { t, dir: dir.path };
}

interface Spawned {
  child: ResultPromise;
  stderr(): string;
}

function spawn(t: TestEnv, args: string[], env: Record<string, string>): Spawned {
  const child = execa(process.execPath, [BIN, ...args], {
    env: binaryEnv({ ...t.env, ...env }),
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: 30_000,
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await child;
  });
  return { child, stderr: () => stderr };
}

async function until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function interrupt(spawned: Spawned): Promise<{ exitCode: number | undefined; stderr: string; elapsedMs: number }> {
  const sent = Date.now();
  spawned.child.kill("SIGINT");
  const result = await spawned.child;
  return { exitCode: result.exitCode, stderr: spawned.stderr(), elapsedMs: Date.now() - sent };
}

describe("Ctrl-C", () => {
  it("during a request the service is slow to answer: exits 130 at once and writes no --out file", async () => {
    const { t, dir } = await setup({});
    t.sandbox.faults.delayNext("/v2/access-api/user/token", 1, 10_000);
    const spawned = spawn(t, ["token", "--user", "user-demo", "--out", join(dir, "token.json")], {});
    await until(() => t.sandbox.requests.length > 0, "the request to reach the sandbox");

    const { exitCode, stderr, elapsedMs } = await interrupt(spawned);

    expect(exitCode).toBe(130);
    expect(stderr).toMatch(/interrupted/);
    expect(elapsedMs).toBeLessThan(STOPS_WITHIN_MS);
    expect(await readdir(dir)).toEqual([]);
  });

  it("while `reports` waits for budget between windows: exits 130 at once and leaves no partial --out file", async () => {
    const { t, dir } = await setup({ reportRecordsPerDay: 1 });
    // One report a minute: the first window goes at once, the second waits for the budget.
    const spawned = spawn(
      t,
      ["reports", "users", "--from", "2026-01-01", "--to", "2026-02-28", "--out", join(dir, "users.json"), "--verbose"],
      {
        SIMADMIN_RATE_LIMITS: "reports=1/60s",
      },
    );
    await until(() => /waiting \d+(\.\d+)? s \(reports rate budget\)/.test(spawned.stderr()), "the budget wait");

    const { exitCode, elapsedMs } = await interrupt(spawned);

    expect(exitCode).toBe(130);
    expect(elapsedMs).toBeLessThan(STOPS_WITHIN_MS);
    expect(t.sandbox.requests.filter((r) => r.group === "reports")).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it("while a later invocation waits for the budget an earlier one spent: exits 130 at once", async () => {
    const { t } = await setup({});
    const env = { SIMADMIN_RATE_LIMITS: "access=1/60s" };
    expect((await t.run(["token", "--user", "user-demo"], { env })).exitCode).toBe(0);
    const spawned = spawn(t, ["token", "--user", "user-demo", "--verbose"], env);
    await until(() => /waiting \d+(\.\d+)? s \(access rate budget\)/.test(spawned.stderr()), "the budget wait");

    const { exitCode, elapsedMs } = await interrupt(spawned);

    expect(exitCode).toBe(130);
    expect(elapsedMs).toBeLessThan(STOPS_WITHIN_MS);
    expect(t.sandbox.requests).toHaveLength(1);
  });

  it("gives its queued slot back: the shared ledger holds only what was sent (issue 12 item 10)", async () => {
    const { t } = await setup({});
    const env = { SIMADMIN_RATE_LIMITS: "access=1/60s" };
    expect((await t.run(["token", "--user", "user-demo"], { env })).exitCode).toBe(0);
    const spawned = spawn(t, ["token", "--user", "user-demo", "--verbose"], env);
    await until(() => /waiting \d+(\.\d+)? s \(access rate budget\)/.test(spawned.stderr()), "the budget wait");
    expect((await ledgerSends(t)).length).toBe(2);

    expect((await interrupt(spawned)).exitCode).toBe(130);

    expect(await ledgerSends(t)).toHaveLength(1);
  });
});

/** The access sends recorded in the profile's ledger for the sandbox's address. */
async function ledgerSends(t: TestEnv): Promise<number[]> {
  const { readFile } = await import("node:fs/promises");
  const { configDir } = t;
  const files = (await readdir(configDir)).filter((f) => /^rate-ledger-[0-9a-f]+\.json$/.test(f));
  expect(files).toHaveLength(1);
  const state = JSON.parse(await readFile(join(configDir, files[0] ?? ""), "utf8")) as {
    groups: { access: { sends: number[] } };
  };
  return state.groups.access.sends;
}
