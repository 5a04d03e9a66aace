import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execa, type Options } from "execa";
import { keepCodeCache, seedCodeCache } from "../../bench/parts/code-cache-seed.mjs";
import { startSandbox, type RecordedRequest, type Sandbox, type SandboxOptions } from "../../src/sandbox/server.js";

// The e2e harness: the built binary (bin/simadmin.js over dist/, built by `npm test`) run
// through execa against a sandbox on 127.0.0.1 started by the test itself (after Vercel's
// test harness). Every run gets its own settings directory, removed afterwards.

export const BIN = resolve(import.meta.dirname, "../../bin/simadmin.js");

/**
 * The timeout of tests that run the binary many times (the kill points): a guard against a
 * hang, not a time limit. One of them takes 5 s on a quiet machine and over 30 s (vitest's
 * default here) when five people share the 2 cores; what they assert never depends on time
 * (docs/development.md, "Load").
 */
export const HANG_GUARD_MS = 10 * 60_000;

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Client budgets for tests where budgets are not the point (pair with ROOMY on the sandbox). */
export const FAST = { SIMADMIN_RATE_LIMITS: "reports=1000/1s,access=1000/1s" };
/** Sandbox limits that a test's requests never reach. */
export const ROOMY: SandboxOptions = {
  rateLimits: { reports: { limit: 10_000, windowMs: 1000 }, access: { limit: 10_000, windowMs: 1000 } },
};

type RunOptions = { env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number };

export interface TestEnv {
  sandbox: Sandbox;
  configDir: string;
  /** Environment pointing the CLI at the sandbox with the full-permission key. */
  env: Record<string, string>;
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  /** Runs with the FAST budgets and returns, besides the result, what the sandbox received. */
  capture(args: string[], options?: RunOptions): Promise<CliResult & { sent: RecordedRequest[] }>;
  close(): Promise<void>;
}

/** Proxy variables and the CA file a machine may have: tests say which they want. */
const NETWORK_VARIABLES = /^(https?_proxy|all_proxy|no_proxy|node_extra_ca_certs|node_use_env_proxy)$/i;
// `--sandbox` keeps its state between runs under $XDG_CACHE_HOME/simadmin: every run gets a
// cache directory of its own (under one per test process, removed at exit) unless the test
// passes XDG_CACHE_HOME itself to share state between its runs.
const cacheRoot = mkdtempSync(join(tmpdir(), "simadmin-test-cache-"));
process.once("exit", () => rmSync(cacheRoot, { recursive: true, force: true }));
let cacheCount = 0;

/** Environment with nothing inherited that could change the CLI's behaviour. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("SIMADMIN_") && key !== "NO_COLOR" && key !== "FORCE_COLOR" && !NETWORK_VARIABLES.test(key)) {
      env[key] = value;
    }
  }
  env.XDG_CACHE_HOME = join(cacheRoot, String(++cacheCount));
  // Never the developer's own OS keychain: tests of the keychain path start a private one
  // (helpers/secret-service.ts) and set SIMADMIN_KEYCHAIN themselves.
  return { ...env, SIMADMIN_KEYCHAIN: "off", ...extra };
}

// The runs of this process start from the code its earlier runs saved (bench/parts/code-cache-seed.mjs),
// as a user's runs do after the first; a test passing XDG_CACHE_HOME itself gets no seed.
const seeded = (env: Record<string, string | undefined>): string | undefined =>
  env.XDG_CACHE_HOME?.startsWith(cacheRoot) ? env.XDG_CACHE_HOME : undefined;

/** cleanEnv for the built binary: its new cache directory holds the code earlier runs saved. */
export function binaryEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env = cleanEnv(extra);
  const home = seeded(env);
  if (home) seedCodeCache(home);
  return env;
}

export async function runBinary(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = binaryEnv(options.env);
  const execaOptions: Options = {
    reject: false,
    env,
    extendEnv: false,
    timeout: options.timeoutMs ?? 60_000,
    cwd: options.cwd,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: "ignore" } : { input: options.input }),
  };
  const result = await execa(process.execPath, [BIN, ...args], execaOptions);
  const home = seeded(env);
  if (home) keepCodeCache(home);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout ?? ""), stderr: String(result.stderr ?? "") };
}

/**
 * A sandbox on 127.0.0.1, a temp directory holding a settings directory of its own, and the
 * environment pointing the CLI at both with the full-permission key (both harnesses use it).
 */
export async function startSandboxWithSettings(options: SandboxOptions = {}): Promise<{
  sandbox: Sandbox;
  dir: string;
  configDir: string;
  env: Record<string, string>;
}> {
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, ...options });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-test-"));
  const configDir = join(dir, "config");
  const env = {
    SIMADMIN_BASE_URL: sandbox.baseUrl,
    SIMADMIN_API_KEY: sandbox.keys.full,
    SIMADMIN_ORG: sandbox.org,
    SIMADMIN_CONFIG_DIR: configDir,
  };
  return { sandbox, dir, configDir, env };
}

export async function startTestEnv(options: SandboxOptions = {}): Promise<TestEnv> {
  const { sandbox, dir, configDir, env } = await startSandboxWithSettings(options);
  return {
    sandbox,
    configDir,
    env,
    run: (args, runOptions = {}) => runBinary(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    capture: async (args, runOptions = {}) => {
      const before = sandbox.requests.length;
      const result = await runBinary(args, { ...runOptions, env: { ...env, ...FAST, ...runOptions.env } });
      return { ...result, sent: sandbox.requests.slice(before) };
    },
    close: async () => {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh temp directory for files a test writes; remove it with the returned function. */
export async function tempDir(prefix = "simadmin-files-"): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A loopback port nobody listens on: bind one, then free it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A sandbox `log` hook for resume tests: once armed, the `users` report windows fail (500)
 * from the request after the next answered one. The hook runs as a request is answered,
 * before the client sees the answer, so the fault is in place for the very next request
 * with no race.
 */
export function usersWindowFailure(): { log: (line: string) => void; arm(sandbox: Sandbox): void; disarm(): void } {
  let armed: Sandbox | undefined;
  return {
    log: (line) => {
      if (armed && line.startsWith("POST /v2/report/users 200")) {
        armed.faults.failNext("/v2/report/users", 10, 500);
        armed = undefined;
      }
    },
    arm: (sandbox) => {
      armed = sandbox;
    },
    disarm: () => {
      armed = undefined;
    },
  };
}
