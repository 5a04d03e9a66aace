import { answers, freePort } from "./ports.js";
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, chownSync, constants, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Real proxies (Debian's squid and tinyproxy) for the tests of issue 22 item 4.
//
// squid: on a free loopback
// port, with a private configuration, password file, pid, log and cache directories in a temp
// directory of its own, stopped by the test. .ci/run installs the packages when missing.
// Its configuration: Basic authentication through squid's own basic_ncsa_auth against a
// password file made here (openssl's apr1 hash), and a deny rule for the host name "localhost"
// (checked before authentication), so that http://localhost:<port> gets squid's 403 page and
// http://127.0.0.1:<port> passes with the right credentials.

const NCSA_AUTH = ["/usr/lib/squid/basic_ncsa_auth", "/usr/lib64/squid/basic_ncsa_auth", "/usr/libexec/squid/basic_ncsa_auth"];

export interface TestSquid {
  /** http://127.0.0.1:<port>, without credentials. */
  url: string;
  /** The proxy URL with `user:password` in it. */
  withCredentials(user: string, password: string): string;
  /** squid's access log lines so far: one per request it handled. */
  accessLog(): string[];
  stop(): Promise<void>;
}

function ncsaAuth(): string | undefined {
  return NCSA_AUTH.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether squid and its basic_ncsa_auth helper are installed. */
export function squidAvailable(): boolean {
  return spawnSync("squid", ["-v"], { stdio: "ignore" }).status === 0 && ncsaAuth() !== undefined;
}

/** The uid squid drops to when started as root (it refuses to run as root). */
function proxyUser(): { name: string; uid: number; gid: number } | undefined {
  for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
    const [name, , uid, gid] = line.split(":");
    if ((name === "proxy" || name === "squid") && uid && gid) return { name, uid: Number(uid), gid: Number(gid) };
  }
  return undefined;
}

export async function startSquid(options: { users: Record<string, string> }): Promise<TestSquid> {
  const helper = ncsaAuth();
  if (!helper || !squidAvailable()) {
    throw new Error("squid is not installed: `apt-get install -y squid` (.ci/run does it)");
  }
  const dir = await mkdtemp(join(tmpdir(), "simadmin-squid-"));
  await mkdir(join(dir, "cache"));
  const port = await freePort();
  const passwd = Object.entries(options.users)
    .map(([user, password]) => `${user}:${execFileSync("openssl", ["passwd", "-apr1", password], { encoding: "utf8" }).trim()}`)
    .join("\n");
  await writeFile(join(dir, "passwd"), `${passwd}\n`);
  const runAs = process.getuid?.() === 0 ? proxyUser() : undefined;
  const config = [
    `http_port 127.0.0.1:${port}`,
    `pid_filename ${join(dir, "squid.pid")}`,
    `cache_log ${join(dir, "cache.log")}`,
    `access_log ${join(dir, "access.log")}`,
    "cache_store_log none",
    "cache deny all",
    "cache_mem 4 MB",
    `coredump_dir ${join(dir, "cache")}`,
    "pinger_enable off",
    "visible_hostname simadmin-test",
    "shutdown_lifetime 0 seconds",
    ...(runAs ? [`cache_effective_user ${runAs.name}`] : []),
    `auth_param basic program ${helper} ${join(dir, "passwd")}`,
    "auth_param basic children 1 startup=1 idle=1",
    "auth_param basic realm simadmin-test",
    "acl denied dstdomain localhost",
    "acl authed proxy_auth REQUIRED",
    "http_access deny denied",
    "http_access allow authed",
    "http_access deny all",
  ].join("\n");
  await writeFile(join(dir, "squid.conf"), `${config}\n`);
  if (runAs) {
    chownSync(dir, runAs.uid, runAs.gid);
    for (const name of readdirSync(dir)) chownSync(join(dir, name), runAs.uid, runAs.gid);
  }
  const child: ChildProcess = spawn("squid", ["-N", "-f", join(dir, "squid.conf")], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !(await answers(port)); i++) {
    if (i > 400 || child.exitCode !== null) {
      const log = readFileSync(join(dir, "cache.log"), "utf8").slice(-2000);
      throw new Error(`squid did not start on port ${port}:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    withCredentials: (user, password) => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    accessLog: () => {
      try {
        return readFileSync(join(dir, "access.log"), "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface TestTinyproxy {
  url: string;
  withCredentials(user: string, password: string): string;
  stop(): Promise<void>;
}

/** Whether tinyproxy is installed. */
export function tinyproxyAvailable(): boolean {
  return spawnSync("tinyproxy", ["-v"], { stdio: "ignore" }).status === 0;
}

/**
 * tinyproxy with BasicAuth for one user: it answers 407 without credentials and 401 (with
 * its own WWW-Authenticate) to wrong ones — to a plain request and to CONNECT alike.
 */
export async function startTinyproxy(options: { user: string; password: string }): Promise<TestTinyproxy> {
  if (!tinyproxyAvailable()) throw new Error("tinyproxy is not installed: `apt-get install -y tinyproxy` (.ci/run does it)");
  const dir = await mkdtemp(join(tmpdir(), "simadmin-tinyproxy-"));
  const port = await freePort();
  const runAs = process.getuid?.() === 0 ? "nobody" : undefined;
  const config = [
    `Port ${port}`,
    "Listen 127.0.0.1",
    "Timeout 30",
    "MaxClients 10",
    `BasicAuth ${options.user} ${options.password}`,
    "LogLevel Critical",
    ...(runAs ? [`User ${runAs}`, `Group nogroup`] : []),
  ].join("\n");
  await writeFile(join(dir, "tinyproxy.conf"), `${config}\n`);
  const child: ChildProcess = spawn("tinyproxy", ["-d", "-c", join(dir, "tinyproxy.conf")], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !(await answers(port)); i++) {
    if (i > 400 || child.exitCode !== null) throw new Error(`tinyproxy did not start on port ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    withCredentials: (user, password) => `http://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
