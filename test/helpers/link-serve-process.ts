import { execa, type ResultPromise } from "execa";
import { BIN, binaryEnv } from "./cli.js";

// `links serve` as a process of the built binary, for what needs one: signals, a restart
// after SIGKILL, several instances. start() resolves once it prints `listening on`.

export interface LinkServeProcess {
  url: string;
  child: ResultPromise;
  stderr(): string;
  /** Sends `signal` and resolves with the exit code (or the signal's name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export async function startLinkServeProcess(args: string[], env: Record<string, string | undefined>): Promise<LinkServeProcess> {
  const child = execa(process.execPath, [BIN, "links", "serve", ...args], {
    env: binaryEnv(env),
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    timeout: 120_000,
  });
  let text = "";
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearInterval(timer);
        resolve(match[1]!);
      }
    }, 10);
    void child.then((result) => {
      clearInterval(timer);
      reject(new Error(`links serve ended (${result.exitCode ?? result.signal}) before listening:\n${text}`));
    });
  });
  return {
    url,
    child,
    stderr: () => text,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      child.kill(signal);
      const result = await child;
      return result.exitCode ?? result.signal ?? "unknown";
    },
  };
}
