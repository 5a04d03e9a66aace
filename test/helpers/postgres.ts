import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { chmod, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { freePort } from "./ports.js";
import { selfSignedRequest } from "./tls.js";
import { binDir, exec, initCluster, ownDirectory, portTaken, startCluster, stopCluster } from "./postgres-cluster.js";

// PostgreSQL for the tests (docs/development.md, "How long the suite takes"). By default a
// test file gets a database of its own on the one server of the whole run, started by the
// first file that asks (in the run's directory, made and cleaned up by postgres-run.ts, the
// global set-up): files stay independent and run in parallel, and the run pays for one
// initdb instead of one per file. A file that needs something of the server itself — TLS, or
// stopping it mid-run — asks for a server of its own (`own`, `tls`): a copy of the run's
// freshly made cluster, started on a port of its own. Without the global set-up (another
// vitest config) every file gets a server of its own, as before.

export function postgresAvailable(): boolean {
  return binDir() !== undefined;
}

export interface TestPostgres {
  /**
   * postgres://simadmin@127.0.0.1:<port>/<database>: on the shared server a database made for
   * this file; on a server of its own, its `postgres` database.
   */
  url: string;
  /** With `tls`: the self-signed certificate the server presents (CN localhost, SAN localhost and 127.0.0.1). */
  certFile?: string;
  /** A new empty database on the same server, named `<prefix>_<pid>_<n>`: its URL. Dropped by stop(). */
  createDatabase(prefix: string): Promise<string>;
  /** Stops the server (its data stays) — PostgreSQL going away mid-run. Only on a server of its own. */
  pause(): void;
  /** Starts it again on the same port. */
  resume(): void;
  /** Drops this file's databases from the shared server, or stops and removes its own. */
  stop(): Promise<void>;
}

const runDir = (): string | undefined => inject("postgresRunDir");
const SHARED = "shared";
/** What the shared server's starter leaves for the others: its port, or why it failed. */
const portFile = (root: string) => join(root, "shared.port");
const failedFile = (root: string) => join(root, "shared.failed");
// The shared server serves every file running at once, each with its own pools.
const SHARED_FLAGS = " -c max_connections=300";

/** Starts the cluster of `dir` on a free port; another one if that was taken meanwhile. */
async function startOnFreePort(dir: string, flags = ""): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      startCluster(dir, port, flags);
      return port;
    } catch (error) {
      if (attempt === 3 || !portTaken(dir)) throw error;
    }
  }
}

/** The template cluster (never started: copied by servers of their own) and the shared server. */
async function startShared(root: string): Promise<void> {
  const dir = join(root, SHARED);
  mkdirSync(dir);
  ownDirectory(dir);
  initCluster(root, join(root, "template"));
  exec(["cp", "-a", join(root, "template"), join(dir, "data")], root);
  const port = await startOnFreePort(dir, SHARED_FLAGS);
  writeFileSync(`${portFile(root)}.tmp`, String(port));
  renameSync(`${portFile(root)}.tmp`, portFile(root));
}

const HANG_GUARD_MS = 10 * 60_000;
let sharedPort: Promise<number> | undefined;
/** The shared server's port: started by the first worker that asks; the others wait for it. */
function sharedServer(root: string): Promise<number> {
  sharedPort ??= (async () => {
    let starter = false;
    try {
      mkdirSync(join(root, "starting"));
      starter = true;
    } catch {
      // Another worker is starting it.
    }
    if (starter) {
      try {
        await startShared(root);
      } catch (error) {
        writeFileSync(failedFile(root), String((error as Error).message));
        throw error;
      }
    }
    // A guard against a starter that died, not a time limit (docs/development.md, "Load").
    for (const since = Date.now(); Date.now() - since < HANG_GUARD_MS;) {
      if (existsSync(portFile(root))) return Number(readFileSync(portFile(root), "utf8"));
      if (existsSync(failedFile(root)))
        throw new Error(`the tests' PostgreSQL server did not start: ${readFileSync(failedFile(root), "utf8")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the tests' PostgreSQL server was not started after ${HANG_GUARD_MS / 60_000} min`);
  })();
  // A failed start fails every file that asks, each with the reason.
  return sharedPort;
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

let databases = 0;
/** `createDatabase` and the drop of what it made, for a server at `base` (its postgres database). */
function databasesOf(base: string) {
  const made: string[] = [];
  return {
    create: async (prefix: string): Promise<string> => {
      const name = `${prefix}_${process.pid}_${++databases}`;
      await admin(base, (client) => client.query(`CREATE DATABASE ${name}`));
      made.push(name);
      return base.replace(/\/postgres$/, `/${name}`);
    },
    dropAll: async (): Promise<void> => {
      const names = made.splice(0);
      if (names.length > 0)
        await admin(base, async (client) => {
          for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        });
    },
  };
}

const notOwn = (): never => {
  throw new Error("stopping the shared PostgreSQL server would stop every file's: use startPostgres({ own: true })");
};

/**
 * A database of its own on the run's shared server; with `own` (or `tls`) a server of its own.
 * `tls`: that server also speaks TLS, with a self-signed certificate made by openssl (psql's
 * and libpq's sslmode tests need one).
 */
export async function startPostgres(options: { own?: boolean; tls?: boolean } = {}): Promise<TestPostgres> {
  if (binDir() === undefined) throw new Error("PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does it)");
  const root = runDir();
  if (root && !options.own && !options.tls) {
    const base = `postgres://simadmin@127.0.0.1:${await sharedServer(root)}/postgres`;
    const own = databasesOf(base);
    return {
      url: await own.create("file"),
      createDatabase: own.create,
      pause: notOwn,
      resume: notOwn,
      stop: own.dropAll,
    };
  }
  if (root) await sharedServer(root); // its template is what a server of its own copies
  const dir = mkdtempSync(join(root ?? tmpdir(), "simadmin-pg-"));
  ownDirectory(dir);
  if (root) exec(["cp", "-a", join(root, "template"), join(dir, "data")], dir);
  else initCluster(dir, join(dir, "data"));
  let tlsFlags = "";
  let certFile: string | undefined;
  if (options.tls) {
    certFile = join(dir, "server.crt");
    const keyFile = join(dir, "server.key");
    exec(
      [
        "openssl",
        ...selfSignedRequest({ subject: "/CN=localhost", san: "subjectAltName=DNS:localhost,IP:127.0.0.1", keyFile, certFile }),
      ],
      dir,
    );
    await chmod(keyFile, 0o600);
    tlsFlags = ` -c ssl=on -c ssl_cert_file=${certFile} -c ssl_key_file=${keyFile}`;
  }
  const port = await startOnFreePort(dir, tlsFlags);
  const url = `postgres://simadmin@127.0.0.1:${port}/postgres`;
  return {
    url,
    ...(certFile ? { certFile } : {}),
    createDatabase: databasesOf(url).create,
    pause: () => stopCluster(dir),
    resume: () => startCluster(dir, port, tlsFlags),
    stop: async () => {
      try {
        stopCluster(dir);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
