import { rm } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../../errors.js";
import type { CommandContext } from "../../context.js";
import { defineRun, type CommandOutcome } from "../types.js";
import { SandboxOptions } from "./options.js";
import { showPath } from "../../messages.js";

// `simadmin sandbox`: the local emulator in the foreground until Ctrl-C. It binds loopback
// unless told otherwise and keeps everything in memory. `--reset` forgets what `--sandbox`
// runs keep between them (docs/cli-contract.md, Sandbox).

async function resetState({ services, printer }: CommandContext): Promise<CommandOutcome> {
  const { resetSandboxState, sandboxStateDir } = await import("../../sandbox/persist.js");
  const result = await resetSandboxState(sandboxStateDir(services.env));
  if (result.heldBy !== undefined) {
    throw new UsageError(`a --sandbox run (pid ${result.heldBy}) is using the sandbox state ${result.path}`, {
      hint: "let it finish (or stop it), then run `simadmin sandbox --reset` again",
    });
  }
  // `users sync` keeps its --sandbox baselines beside that state (commands/users-sync/state.ts):
  // a baseline of users the fresh sandbox no longer has would plan Updates of nobody.
  await rm(join(sandboxStateDir(services.env), "sync"), { recursive: true, force: true });
  printer.info(
    result.removed
      ? `sandbox state reset: removed ${showPath(result.path)}; the next --sandbox run starts from the seed`
      : "sandbox state reset: nothing was saved; the next --sandbox run starts from the seed",
  );
  return { kind: "none" };
}

export const run = defineRun(SandboxOptions, async ({ options, services, printer }) => {
  if (options.reset) return resetState({ services, printer });
  const { port, host, rateScale } = options;
  const [{ startSandbox }, { dialectFromEnv }] = await Promise.all([
    import("../../sandbox/server.js"),
    import("../../sandbox/dialects.js"),
  ]);
  const dialect = dialectFromEnv(services.env);
  const sandbox = await startSandbox({
    dialect,
    host,
    port,
    rateScale,
    // Nobody reads the request log of a foreground sandbox: keep it from growing for days.
    maxRecordedRequests: 1000,
    // As under --sandbox: a started attempt completes a while after it is first looked at.
    attemptCompletesAfterMs: 45_000,
    log: printer.verbose ? (line) => printer.trace(line) : undefined,
  }).catch((error: unknown) => {
    throw listenError(error, host, port);
  });
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
    printer.warn(`the sandbox listens on ${host}: other machines can reach it (its keys are public demo keys)`);
  }
  // The connection details are the data (stdout, one per line, easy to parse in scripts),
  // printed as soon as it listens: the command then runs until Ctrl-C.
  printer.io.stdout.write(
    [
      `SIMADMIN_BASE_URL=${sandbox.baseUrl}`,
      `SIMADMIN_API_KEY=${sandbox.keys.full}`,
      `SIMADMIN_ORG=${sandbox.org}`,
      `# read-only key (reports only): ${sandbox.keys.readOnly}`,
      "",
    ].join("\n"),
  );
  printer.info(
    `sandbox listening on ${sandbox.baseUrl} (rate windows ×${rateScale}${dialect.name === "default" ? "" : `, dialect ${dialect.name}`}); Ctrl-C stops it`,
  );
  await new Promise<void>((resolve) => {
    if (services.signal.aborted) return resolve();
    services.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await sandbox.close();
  printer.info("sandbox stopped");
  return { kind: "none" };
});

/**
 * A port in use or not ours to take is the user's choice of --port/--host, not a bug:
 * exit 2 naming the address and the cause.
 */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (code === "EADDRINUSE") {
    return new UsageError(`--port ${port}: ${address} is already in use (EADDRINUSE)`, {
      hint: "pick another --port, or --port 0 for any free one",
      cause: error,
    });
  }
  if (code === "EACCES" || code === "EPERM") {
    return new UsageError(`--port ${port}: not allowed to listen on ${address} (${code})`, {
      hint: "ports below 1024 need privileges: pick a --port from 1024 up, or --port 0 for any free one",
      cause: error,
    });
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new UsageError(`--host ${host}: not an address of this machine (${code})`, {
      hint: "use --host 127.0.0.1 (the default), or an address this machine has",
      cause: error,
    });
  }
  return error;
}
