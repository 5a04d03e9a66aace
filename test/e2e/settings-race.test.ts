import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, binaryEnv, cleanEnv, tempDir } from "../helpers/cli.js";

// Issue 22 item 2, docs/cli-contract.md "Settings": concurrent runs that write settings never
// lose one another's changes. Before the settings lock, `auth login --with-key` beside two
// `config set` runs lost the key in 6 of 15 rounds, and four parallel `config set` writers
// lost 16 of 40 values. Real processes race here: the binary itself for one round, and — so
// that many rounds cost a few process start-ups, not a hundred — writer processes that each
// call the built program's run() (dist/bundle/cli.cjs, what the binary runs) many times in a
// row. The bundle, not dist/main.js and its ~100 modules: a writer's start-up is ~0.16 s of
// CPU instead of ~0.27 s (docs/development.md, "How long the suite takes").

const DIST = pathToFileURL(resolve(import.meta.dirname, "../../dist")).href;
const CLI = resolve(import.meta.dirname, "../../dist/bundle/cli.cjs");

/** A process that runs `commands` (argv lists, with optional stdin) one after the other through the bundle's run(). */
function writer(configDir: string, commands: { argv: string[]; input?: string }[]) {
  const script = `
    import { createRequire } from "node:module";
    import { Readable, Writable } from "node:stream";
    const { run } = createRequire(${JSON.stringify(CLI)})(${JSON.stringify(CLI)});
    const { systemClock } = await import(${JSON.stringify(`${DIST}/clock.js`)});
    const commands = JSON.parse(process.argv[1]);
    let failed = 0;
    for (const { argv, input } of commands) {
      const err = [];
      const io = {
        stdout: new Writable({ write: (c, e, cb) => cb() }),
        stderr: new Writable({ write: (c, e, cb) => (err.push(String(c)), cb()) }),
        stdin: Readable.from(input === undefined ? [] : [Buffer.from(input)]),
        stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, columns: undefined,
      };
      const code = await run(argv, { io, env: process.env, clock: systemClock, signal: new AbortController().signal });
      if (code !== 0) { failed++; process.stderr.write(argv.join(" ") + " -> " + code + ": " + err.join("")); }
    }
    process.exitCode = failed === 0 ? 0 : 1;
  `;
  return execa(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(commands)], {
    reject: false,
    env: cleanEnv({ SIMADMIN_CONFIG_DIR: configDir }),
    extendEnv: false,
  });
}

type Profiles = Record<string, Record<string, unknown>>;

async function profiles(configDir: string): Promise<Profiles> {
  const text = await readFile(join(configDir, "settings.json"), "utf8");
  return (JSON.parse(text) as { profiles: Profiles }).profiles;
}

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  dir = await tempDir("simadmin-settings-race-");
});
afterEach(async () => {
  await dir.remove();
});

describe("settings written by concurrent processes", () => {
  it("binary: auth login --with-key beside two config set runs keeps the key and both values", async () => {
    const configDir = join(dir.path, "config");
    const env = binaryEnv({ SIMADMIN_CONFIG_DIR: configDir });
    const start = (args: string[], input?: string) =>
      execa(process.execPath, [BIN, ...args], {
        reject: false,
        env,
        extendEnv: false,
        ...(input === undefined ? { stdin: "ignore" as const } : { input }),
      });
    const results = await Promise.all([
      start(["auth", "login", "--with-key"], "key-race-4321\n"),
      start(["config", "set", "org", "org-race"]),
      start(["config", "set", "timeout", "45"]),
    ]);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    expect(results[0]?.stderr).toContain("Stored key ****4321");
    expect((await profiles(configDir)).default).toMatchObject({ apiKey: "key-race-4321", org: "org-race", timeout: 45 });
  });

  it("15 rounds of login + 2 config set in three processes: every key and value is there", async () => {
    const configDir = join(dir.path, "config");
    const rounds = Array.from({ length: 15 }, (_, r) => r);
    const results = await Promise.all([
      writer(
        configDir,
        rounds.map((r) => ({ argv: ["--profile", `p${r}`, "auth", "login", "--with-key"], input: `key-${r}-4321\n` })),
      ),
      writer(
        configDir,
        rounds.map((r) => ({ argv: ["--profile", `p${r}`, "config", "set", "org", `org-${r}`] })),
      ),
      writer(
        configDir,
        rounds.map((r) => ({ argv: ["--profile", `p${r}`, "config", "set", "timeout", String(r + 1)] })),
      ),
    ]);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    const stored = await profiles(configDir);
    for (const r of rounds) {
      expect(stored[`p${r}`], `round ${r}`).toEqual({
        apiKey: `key-${r}-4321`,
        apiKeyCreatedAt: expect.any(String),
        org: `org-${r}`,
        timeout: r + 1,
      });
    }
  });

  it("10 rounds of logout beside config set: the key is gone and the value kept in every round", async () => {
    const configDir = join(dir.path, "config");
    const rounds = Array.from({ length: 10 }, (_, r) => r);
    const setup = await writer(
      configDir,
      rounds.map((r) => ({ argv: ["--profile", `q${r}`, "auth", "login", "--with-key"], input: `key-${r}-9876\n` })),
    );
    expect(setup.exitCode, setup.stderr).toBe(0);
    const results = await Promise.all([
      writer(
        configDir,
        rounds.map((r) => ({ argv: ["--profile", `q${r}`, "auth", "logout"] })),
      ),
      writer(
        configDir,
        rounds.map((r) => ({ argv: ["--profile", `q${r}`, "config", "set", "org", `org-${r}`] })),
      ),
    ]);
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    const stored = await profiles(configDir);
    for (const r of rounds) expect(stored[`q${r}`], `round ${r}`).toEqual({ org: `org-${r}` });
  });

  it("4 processes × 10 config set each: all 40 values are there, and no lock or temp file is left", async () => {
    const configDir = join(dir.path, "config");
    const results = await Promise.all(
      [0, 1, 2, 3].map((w) =>
        writer(
          configDir,
          Array.from({ length: 10 }, (_, j) => ({ argv: ["--profile", `w${w}v${j}`, "config", "set", "org", `org-${w}-${j}`] })),
        ),
      ),
    );
    for (const result of results) expect(result.exitCode, result.stderr).toBe(0);
    const stored = await profiles(configDir);
    const missing: string[] = [];
    for (let w = 0; w < 4; w++) {
      for (let j = 0; j < 10; j++) if (stored[`w${w}v${j}`]?.org !== `org-${w}-${j}`) missing.push(`w${w}v${j}`);
    }
    expect(missing).toEqual([]);
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(configDir)).toEqual(["settings.json"]);
  });
});
