// The sandbox in a process of its own, for benches whose client side is busy (bench/links.mjs):
// in the bench's own process the sandbox would stamp each request's arrival only when that
// process's event loop gets to it, late by however long the client side kept it — a delay no
// real service has, and one that makes a budget kept exactly look broken.
//
//   const sandbox = await startSandboxProcess({ access: { limit: 100, windowMs: 10_000 } });
//   sandbox.baseUrl, sandbox.key, sandbox.org; await sandbox.createUsers(500);
//   await sandbox.requests(from)   // [{ group, status }] of the requests since index `from`
//   await sandbox.close();
//
// Run as a child (fork): the argument is the JSON of startSandbox's rateLimits.
import { fork } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SELF = fileURLToPath(import.meta.url);

if (process.argv[2] === "--child") {
  const ROOT = fileURLToPath(new URL("../..", import.meta.url));
  const { startSandbox } = await import(pathToFileURL(join(ROOT, "dist", "sandbox", "server.js")).href);
  const sandbox = await startSandbox({ host: "127.0.0.1", port: 0, rateLimits: JSON.parse(process.argv[3]) });
  process.on("message", async (message) => {
    const { id, op } = message;
    let value;
    if (op === "createUsers") {
      value = [];
      for (let i = 1; i <= message.count; i++)
        value.push(sandbox.state.createUser(sandbox.org, { email: `${message.prefix}${i}@example.com` }).user.userId);
    } else if (op === "requests") {
      value = sandbox.requests.slice(message.from).map((r) => ({ group: r.group, status: r.status }));
    } else if (op === "count") {
      value = sandbox.requests.length;
    } else if (op === "close") {
      await sandbox.close();
      process.send({ id, value: null }, () => process.exit(0));
      return;
    }
    process.send({ id, value });
  });
  process.send({ ready: { baseUrl: sandbox.baseUrl, key: sandbox.keys.full, org: sandbox.org } });
}

export async function startSandboxProcess(rateLimits) {
  const child = fork(SELF, ["--child", JSON.stringify(rateLimits)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map();
  let next = 0;
  const ready = await new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the sandbox process ended (${code})`)));
    child.on("message", (message) => {
      if (message.ready) resolve(message.ready);
      else waiting.get(message.id)?.(message.value);
    });
  });
  const ask = (op, fields = {}) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, (value) => {
        waiting.delete(id);
        resolve(value);
      });
      child.send({ id, op, ...fields });
    });
  return {
    ...ready,
    pid: child.pid,
    createUsers: (count, prefix = "t") => ask("createUsers", { count, prefix }),
    requests: (from = 0) => ask("requests", { from }),
    count: () => ask("count"),
    close: async () => {
      child.removeAllListeners("exit");
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await ask("close");
      await exited;
    },
  };
}
