import { PassThrough, Readable, Writable } from "node:stream";
import { systemClock, type Clock } from "../../src/clock.js";
import { run } from "../../src/main.js";
import { cleanEnv } from "./cli.js";

// `links serve` run in this process through the real program (src/main.ts's run), with a
// stderr the test reads as it comes: start() resolves once the server prints `listening on`,
// stop() fires the run's signal (what SIGTERM does) and resolves with its exit code.

export interface ServingLinks {
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  stop(): Promise<{ exitCode: number; stderr: string }>;
}

export async function serveLinks(
  args: string[],
  env: Record<string, string | undefined>,
  options: { clock?: Clock } = {},
): Promise<ServingLinks> {
  const controller = new AbortController();
  let text = "";
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString("utf8");
      callback();
    },
  });
  const stdout = new PassThrough();
  stdout.resume();
  const exit = run(["links", "serve", ...args], {
    io: {
      stdout,
      stderr,
      stdin: Readable.from([]),
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: undefined,
    },
    env: cleanEnv(env),
    clock: options.clock ?? systemClock,
    signal: controller.signal,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 10);
    void exit.then((code) => {
      clearInterval(timer);
      reject(new Error(`links serve ended with ${code} before listening:\n${text}`));
    });
  });
  return {
    url,
    stderr: () => text,
    async stop() {
      controller.abort();
      const exitCode = await exit;
      return { exitCode, stderr: text };
    },
  };
}
