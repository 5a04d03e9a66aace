import { spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

// PostgreSQL clusters for the tests, the parts shared by the run's global set-up
// (postgres-run.ts) and the test files' helper (postgres.ts): Debian's binaries, a cluster in
// a temp dir, trust authentication, a unix socket in that dir and a loopback port. initdb
// refuses to run as root, so as root the cluster belongs to the `postgres` user (or `nobody`)
// and the tools run through runuser. .ci/run installs the Debian package postgresql when it
// is missing. Nothing here imports vitest: the global set-up runs outside the test workers.

const CANDIDATES = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"];

let found: { dir: string | undefined } | undefined;
/** Where initdb and pg_ctl are: a directory, "" for the PATH, undefined when not installed. */
export function binDir(): string | undefined {
  if (found) return found.dir;
  let dir: string | undefined;
  for (const candidate of CANDIDATES)
    if (spawnSync(join(candidate, "initdb"), ["--version"], { stdio: "ignore" }).status === 0) {
      dir = candidate;
      break;
    }
  if (dir === undefined && spawnSync("initdb", ["--version"], { stdio: "ignore" }).status === 0) dir = "";
  found = { dir };
  return dir;
}

function userId(name: string): { uid: number; gid: number } | undefined {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** As root, the user the clusters belong to; undefined otherwise (the tools run as ourselves). */
function owner(): { name: string; uid: number; gid: number } | undefined {
  // Asked once per process: every tool run (initdb, pg_ctl, cp) needs it.
  ownerFound ??= findOwner();
  return ownerFound === null ? undefined : ownerFound;
}
let ownerFound: { name: string; uid: number; gid: number } | null | undefined;

function findOwner(): { name: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  for (const name of ["postgres", "nobody"]) {
    const id = userId(name);
    if (id) return { name, ...id };
  }
  return null;
}

/** A directory the clusters' owner may use (mode 0700, theirs). */
export function ownDirectory(dir: string): void {
  const user = owner();
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
}

/** Runs a tool as the clusters' owner, in `cwd`; throws with its output when it fails. */
export function exec(args: string[], cwd: string): void {
  const user = owner();
  const command = user ? ["runuser", "-u", user.name, "--", ...args] : args;
  const result = spawnSync(command[0]!, command.slice(1), { encoding: "utf8", cwd });
  if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
}

export function tool(name: string): string {
  const bin = binDir();
  if (bin === undefined) throw new Error("PostgreSQL is not installed: `apt-get install -y postgresql` (.ci/run does it)");
  return bin ? join(bin, name) : name;
}

/** A new cluster in `data` (a path under `dir`): the superuser `simadmin`, trust authentication. */
export function initCluster(dir: string, data: string): void {
  exec([tool("initdb"), "-D", data, "-A", "trust", "-U", "simadmin", "--no-sync", "-E", "UTF8"], dir);
}

/** Starts the cluster in `dir`/data on 127.0.0.1:`port`, its socket and log in `dir`. */
export function startCluster(dir: string, port: number, flags = ""): void {
  exec(
    [
      tool("pg_ctl"),
      "-D",
      join(dir, "data"),
      "-l",
      join(dir, "log"),
      "-w",
      "-o",
      `-k ${dir} -p ${port} -h 127.0.0.1 -F -c fsync=off -c full_page_writes=off${flags}`,
      "start",
    ],
    dir,
  );
}

/** Stops the cluster in `dir`/data at once (PostgreSQL going away: no shutdown checkpoint). */
export function stopCluster(dir: string): void {
  const seconds = process.env.SIMADMIN_TEST_CPU ? serverSeconds(dir) : undefined;
  exec([tool("pg_ctl"), "-D", join(dir, "data"), "-m", "immediate", "-w", "stop"], dir);
  if (seconds !== undefined)
    appendFileSync(process.env.SIMADMIN_TEST_CPU!, `${JSON.stringify({ server: `postgres ${basename(dir)}`, seconds })}\n`);
}

const TICKS_PER_SECOND = 100;
/**
 * The CPU seconds of the cluster's server and of its backends that ended (utime, stime,
 * cutime, cstime of the postmaster's /proc/<pid>/stat), when the run measures CPU: pg_ctl
 * detaches the server, so it is no test process's child and test/cpu-probe.ts cannot count
 * it; scripts/test-cpu.mjs adds these lines apart.
 */
function serverSeconds(dir: string): number | undefined {
  try {
    const pid = readFileSync(join(dir, "data", "postmaster.pid"), "utf8")
      .split("\n")[0]!
      .trim();
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Every cluster still running under `root` (one level down), stopped; failures ignored. */
export function stopAllUnder(root: string): void {
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root)) {
    const dir = join(root, entry);
    if (!existsSync(join(dir, "data", "postmaster.pid"))) continue;
    try {
      stopCluster(dir);
    } catch {
      // Its postmaster is gone already: only the pid file was left.
    }
  }
}

/** Whether a failed start was the port taken in the meantime (worth another port). */
export function portTaken(dir: string): boolean {
  try {
    return /could not (bind|create listen socket)|Address already in use/.test(readFileSync(join(dir, "log"), "utf8"));
  } catch {
    return false;
  }
}
