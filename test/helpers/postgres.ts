import { freePort } from "./ports.js";
import { spawnSync } from "node:child_process";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A private PostgreSQL server for the `reports sync` tests (issue 24): Debian's binaries,
// a cluster in a temp dir, trust authentication, a unix socket in that dir and a free
// loopback port; stopped and removed by the test. initdb refuses to run as root, so as root
// the cluster belongs to the `postgres` user (or `nobody`) and the tools run through runuser.
// .ci/run installs the Debian package postgresql when it is missing.

const CANDIDATES = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];

function binDir(): string | undefined {
  for (const dir of CANDIDATES) if (spawnSync(join(dir, "initdb"), ["--version"], { stdio: "ignore" }).status === 0) return dir;
  return spawnSync("initdb", ["--version"], { stdio: "ignore" }).status === 0 ? "" : undefined;
}

export function postgresAvailable(): boolean {
  return binDir() !== undefined;
}

export interface TestPostgres {
  /** postgres://simadmin@127.0.0.1:<port>/postgres */
  url: string;
  /** With `tls`: the self-signed certificate the server presents (CN localhost, SAN localhost and 127.0.0.1). */
  certFile?: string;
  /** Stops the server (its data stays) — PostgreSQL going away mid-run. */
  pause(): void;
  /** Starts it again on the same port. */
  resume(): void;
  stop(): Promise<void>;
}

function userId(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * `tls`: the server also speaks TLS, with a self-signed certificate made by openssl
 * (psql's and libpq's sslmode tests need one).
 */
export async function startPostgres(options: { tls?: boolean } = {}): Promise<TestPostgres> {
  const bin = binDir();
  if (bin === undefined) throw new Error("PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does it)");
  const tool = (name: string): string => (bin ? join(bin, name) : name);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-pg-"));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? (userId("postgres") ?? userId("nobody")) : undefined;
  const user = asRoot ? (userId("postgres") ? "postgres" : "nobody") : undefined;
  if (owner) await chown(dir, owner.uid, owner.gid);
  await chmod(dir, 0o700);
  const exec = (args: string[]): void => {
    const command = user ? ["runuser", "-u", user, "--", ...args] : args;
    const result = spawnSync(command[0]!, command.slice(1), { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  const data = join(dir, "data");
  const port = await freePort();
  exec([tool("initdb"), "-D", data, "-A", "trust", "-U", "simadmin", "--no-sync", "-E", "UTF8"]);
  let tlsFlags = "";
  let certFile: string | undefined;
  if (options.tls) {
    certFile = join(dir, "server.crt");
    const keyFile = join(dir, "server.key");
    exec([
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ]);
    await chmod(keyFile, 0o600);
    tlsFlags = ` -c ssl=on -c ssl_cert_file=${certFile} -c ssl_key_file=${keyFile}`;
  }
  const start = (): void =>
    exec([
      tool("pg_ctl"),
      "-D",
      data,
      "-l",
      join(dir, "log"),
      "-w",
      "-o",
      `-k ${dir} -p ${port} -h 127.0.0.1 -F -c fsync=off -c full_page_writes=off${tlsFlags}`,
      "start",
    ]);
  start();
  return {
    url: `postgres://simadmin@127.0.0.1:${port}/postgres`,
    ...(certFile ? { certFile } : {}),
    pause: () => exec([tool("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]),
    resume: start,
    stop: async () => {
      try {
        exec([tool("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
