// A private PostgreSQL cluster for bench/kill-points.mjs (the same recipe as
// test/helpers/postgres.ts): Debian's binaries, a cluster in a temp dir, trust
// authentication, a free loopback port; as root the cluster belongs to `postgres` (or
// `nobody`). `fresh()` creates an empty database for one kill point.
import { spawnSync } from "node:child_process";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin", ""];

function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function ids(name) {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : undefined;
}

export async function postgresDatabase() {
  const bin = CANDIDATES.find((d) => spawnSync(join(d, "initdb"), ["--version"], { stdio: "ignore" }).status === 0);
  if (bin === undefined) throw new Error("PostgreSQL is not installed: `apt-get install -y postgresql`");
  const tool = (name) => (bin ? join(bin, name) : name);
  const dir = await mkdtemp(join(tmpdir(), "simadmin-bench-pg-"));
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? (ids("postgres") ? "postgres" : "nobody") : undefined;
  if (user) {
    const owner = ids(user);
    await chown(dir, owner.uid, owner.gid);
  }
  await chmod(dir, 0o700);
  const exec = (args) => {
    const command = user ? ["runuser", "-u", user, "--", ...args] : args;
    const result = spawnSync(command[0], command.slice(1), { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr || result.stdout}`);
  };
  const data = join(dir, "data");
  const port = await freePort();
  exec([tool("initdb"), "-D", data, "-A", "trust", "-U", "simadmin", "--no-sync", "-E", "UTF8"]);
  exec([tool("pg_ctl"), "-D", data, "-l", join(dir, "log"), "-w", "-o", `-k ${dir} -p ${port} -h 127.0.0.1 -F`, "start"]);
  const url = `postgres://simadmin@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    async fresh() {
      const name = `kill_${++databases}`;
      exec([
        tool("psql"),
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "simadmin",
        "-d",
        "postgres",
        "-c",
        `CREATE DATABASE ${name}`,
      ]);
      return url.replace(/\/postgres$/, `/${name}`);
    },
    async stop() {
      try {
        exec([tool("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
