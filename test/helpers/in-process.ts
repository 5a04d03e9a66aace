import { rm } from "node:fs/promises";
import { clearLine, cursorTo, moveCursor } from "node:readline";
import { PassThrough, Readable, Writable } from "node:stream";
import { systemClock, type Clock } from "../../src/clock.js";
import type { Deps } from "../../src/context.js";
import type { ServiceFakes } from "../../src/services.js";
import { run } from "../../src/main.js";
import type { IOStreams } from "../../src/output/io.js";
import type { RecordedRequest, Sandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { cleanEnv, FAST, startSandboxWithSettings } from "./cli.js";

// The in-process harness (issue 11 item 1; after gh's IOStreams.Test()): argv goes through the
// real program — `run(argv, deps)` from src/main.ts, the same function the binary calls — with
// in-memory stdout/stderr/stdin whose terminal-ness and width each test sets, an env object,
// a clock and an abort signal. The sandbox runs in the test process on 127.0.0.1, so a run
// costs milliseconds instead of a Node start-up, and what the sandbox received is returned.
//
// Isolation between consecutive runs in one process: run() with injected deps installs no
// signal or EPIPE handlers and never sets process.exitCode; nothing reads process.env, the
// process.stdout (each test passes its own env); a run given `cwd` changes the working
// directory only while it runs; keep-alive
// sockets are closed by each run's cleanup (idle ones only, so concurrent runs in one test
// keep theirs). test/cli/isolation.test.ts checks these properties.

export interface InProcessOptions {
  /** Added to the clean environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** stdin's whole content (then it ends); without it stdin is empty, like `< /dev/null`. */
  input?: string;
  /** A stdin the test writes to itself (a prompt's answer); wins over `input`. */
  stdin?: Readable;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdinIsTTY?: boolean;
  /** Terminal width of stdout and stderr (only meaningful on a terminal). */
  columns?: number;
  clock?: Clock;
  signal?: AbortSignal;
  /**
   * The working directory relative paths in argv resolve against. The process has one, so a
   * run with `cwd` changes it for its duration only, one such run at a time, and restores it.
   */
  cwd?: string;
  /** Stand-ins for what the services would build (an API client: src/services.ts). */
  fakes?: ServiceFakes;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface InProcessResult extends CliResult {
  /** Requests the test's sandbox received while the run went on (concurrent runs of one test share it). */
  sent: RecordedRequest[];
}

/** A writable that keeps every byte and looks like a terminal when asked to. */
class MemoryStream extends Writable {
  private readonly chunks: Buffer[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns: number | undefined,
  ) {
    super();
  }
  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    callback();
  }
  // What a spinner (ora) calls on a terminal stream, as node:tty's WriteStream has them.
  cursorTo(x: number, y?: number, callback?: () => void): boolean {
    return cursorTo(this, x, y, callback);
  }
  moveCursor(dx: number, dy: number, callback?: () => void): boolean {
    return moveCursor(this, dx, dy, callback);
  }
  clearLine(dir: -1 | 0 | 1, callback?: () => void): boolean {
    return clearLine(this, dir, callback);
  }
  /** Decoded once at the end: a character split across writes stays whole. */
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** A stdin for prompts: a stream the test writes the answer to, marked as a terminal. */
export function terminalStdin(): PassThrough & { isTTY: true } {
  return Object.assign(new PassThrough(), { isTTY: true as const });
}

let directoryLock: Promise<unknown> = Promise.resolve();

/** Runs `work` with the process in `dir`, after any other such run has finished. */
function inDirectory<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const result = directoryLock.then(async () => {
    const previous = process.cwd();
    process.chdir(dir);
    try {
      return await work();
    } finally {
      process.chdir(previous);
    }
  });
  directoryLock = result.catch(() => undefined);
  return result;
}

/** Runs `argv` through the real program in this process. No sandbox: see startInProcessEnv. */
export async function runInProcess(argv: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const columns = options.columns ?? 80;
  const stdoutIsTTY = options.stdoutIsTTY ?? false;
  const stderrIsTTY = options.stderrIsTTY ?? false;
  const stdout = new MemoryStream(stdoutIsTTY, stdoutIsTTY ? columns : undefined);
  const stderr = new MemoryStream(stderrIsTTY, stderrIsTTY ? columns : undefined);
  const stdin = options.stdin ?? Readable.from(options.input === undefined ? [] : [Buffer.from(options.input, "utf8")]);
  const io: IOStreams = {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY: options.stdinIsTTY ?? (options.stdin as { isTTY?: boolean } | undefined)?.isTTY === true,
    columns: stdoutIsTTY ? columns : undefined,
  };
  const deps: Deps = {
    io,
    env: cleanEnv(options.env),
    clock: options.clock ?? systemClock,
    signal: options.signal ?? new AbortController().signal,
    ...(options.fakes ? { fakes: options.fakes } : {}),
  };
  const exitCode = options.cwd === undefined ? await run(argv, deps) : await inDirectory(options.cwd, () => run(argv, deps));
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
}

export interface InProcessEnv {
  sandbox: Sandbox;
  configDir: string;
  /** Environment pointing the CLI at the sandbox with the full-permission key. */
  env: Record<string, string>;
  run(args: string[], options?: InProcessOptions): Promise<InProcessResult>;
  /** Runs with the FAST budgets (see cli.ts). */
  capture(args: string[], options?: InProcessOptions): Promise<InProcessResult>;
  close(): Promise<void>;
}

/** A sandbox on 127.0.0.1 and a settings directory of its own, for runs in this process. */
export async function startInProcessEnv(options: SandboxOptions = {}): Promise<InProcessEnv> {
  const { sandbox, dir, configDir, env } = await startSandboxWithSettings(options);
  const runHere = async (
    args: string[],
    runOptions: InProcessOptions,
    extra: Record<string, string>,
  ): Promise<InProcessResult> => {
    const before = sandbox.requests.length;
    const result = await runInProcess(args, { ...runOptions, env: { ...env, ...extra, ...runOptions.env } });
    return { ...result, sent: sandbox.requests.slice(before) };
  };
  return {
    sandbox,
    configDir,
    env,
    run: (args, runOptions = {}) => runHere(args, runOptions, {}),
    capture: (args, runOptions = {}) => runHere(args, runOptions, FAST),
    close: async () => {
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export { closedPort, FAST, ROOMY, tempDir } from "./cli.js";

// The names the spawning harness uses, so a test moved here changes only its import line.
export { startInProcessEnv as startTestEnv, runInProcess as runCli };
export type { InProcessEnv as TestEnv };

/**
 * The sandbox dialects the command tests run against (docs/sandbox-dialects.md): wrap a file's
 * tests in `describe.each(MATRIX_DIALECTS)` and pass `{ dialect }` to startTestEnv.
 */
export { MATRIX_DIALECTS } from "../../src/sandbox/dialects.js";
