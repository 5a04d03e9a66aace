import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Clock } from "../clock.js";
import type { Env } from "../settings/paths.js";
import type { SandboxOverride } from "../settings/resolve.js";
import { dialectFromEnv } from "./dialects.js";
import { openSandboxState, sandboxStateDir } from "./persist.js";
import { startSandbox } from "./server.js";

// --sandbox (docs/cli-contract.md, Sandbox): an in-process sandbox on a free loopback port and
// a throw-away settings dir for one run of a command. Its state is kept between runs of the
// same user. services.ts imports this module only under --sandbox (the
// start-up lives in sandbox/, the services only ask for it).

/**
 * Under --sandbox a STARTED attempt completes this long after its first completion-data
 * request, so the README's `completion --wait` example finishes.
 */
const SANDBOX_ATTEMPT_COMPLETES_MS = 45_000;

/** Under --sandbox pairs without attempts progress in steps of this long (`progress`). */
const SANDBOX_SCRIPTED_STEP_MS = 30_000;

/** Starts the sandbox; `close` stops it, saves its state and removes the settings dir. */
export async function startRunSandbox(options: {
  env: Env;
  clock: Clock;
  warn: (text: string) => void;
}): Promise<{ override: SandboxOverride; close: () => Promise<void> }> {
  const { env, clock, warn } = options;
  const dialect = dialectFromEnv(env);
  const saved = await openSandboxState(sandboxStateDir(env));
  if (saved.warning) warn(saved.warning);
  if (saved.notKept) warn(saved.notKept);
  const sandbox = await startSandbox({
    host: "127.0.0.1",
    port: 0,
    now: () => clock.now(),
    ...(saved.snapshot ? { snapshot: saved.snapshot } : {}),
    attemptCompletesAfterMs: SANDBOX_ATTEMPT_COMPLETES_MS,
    scriptedAttemptStepMs: SANDBOX_SCRIPTED_STEP_MS,
    dialect,
  });
  const dir = await mkdtemp(join(tmpdir(), "simadmin-sandbox-"));
  return {
    override: {
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.keys.full,
      org: sandbox.org,
      configDir: dir,
      stateDir: sandboxStateDir(env),
    },
    close: async () => {
      await sandbox.close();
      await saved.close(sandbox.state.snapshot());
      await rm(dir, { recursive: true, force: true });
    },
  };
}
