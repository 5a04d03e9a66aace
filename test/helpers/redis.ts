import { answers, freePort } from "./ports.js";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A real redis-server for the tests of the Redis budget store (issue 17 item 4): on a free
// loopback port, with its own temporary directory and no persistence, stopped by the test.
// .ci/run installs the Debian package redis-server when it is missing.

export interface TestRedis {
  port: number;
  /** redis://127.0.0.1:<port>/0, with the password when one was set. */
  url: string;
  /** Stops it at once (SIGKILL) — "Redis disappears mid-run". */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export function redisServerAvailable(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

export async function startRedis(options: { password?: string } = {}): Promise<TestRedis> {
  if (!redisServerAvailable()) {
    throw new Error("redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it)");
  }
  const dir = await mkdtemp(join(tmpdir(), "simadmin-redis-"));
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"];
  if (options.password) args.push("--requirepass", options.password);
  const child: ChildProcess = spawn("redis-server", args, { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !(await answers(port)); i++) {
    if (i > 200 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : "";
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}/0`,
    kill: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
  };
}
