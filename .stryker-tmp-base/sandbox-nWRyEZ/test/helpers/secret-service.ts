// @ts-nocheck
import { spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

// A private Secret Service for tests of the keychain path (issue 16 item 4): a D-Bus session
// bus of our own (dbus-daemon --session) and gnome-keyring-daemon on it with a fresh "login"
// keyring in a temp directory, unlocked with a throw-away password. Nothing touches the
// user's own session bus or keyrings; both daemons are ended by their pids.
//
// Needs Debian's gnome-keyring and dbus packages (.ci/run installs them); when they are
// missing or do not start, start() answers why, and the tests skip with that reason.

export interface SecretService {
  /** Environment for the CLI: the private bus, and the temp HOME of the keyring. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

function killQuietly(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already gone
  }
}

export async function startSecretService(): Promise<SecretService | string> {
  for (const tool of ["dbus-daemon", "gnome-keyring-daemon"]) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0)
      return `${tool} is not installed (apt-get install gnome-keyring dbus)`;
  }
  const home = await mkdtemp(join(tmpdir(), "simadmin-keyring-"));
  const runtime = join(home, "run");
  await mkdir(runtime, { mode: 0o700 });
  const base = { HOME: home, XDG_DATA_HOME: join(home, "data"), XDG_RUNTIME_DIR: runtime };
  const bus = spawnSync("dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"], {
    env: { ...process.env, ...base },
    encoding: "utf8",
    timeout: 10_000,
  });
  const [address, pidText] = (bus.stdout ?? "").trim().split("\n");
  const busPid = Number(pidText);
  if (bus.status !== 0 || !address || !Number.isInteger(busPid)) {
    await rm(home, { recursive: true, force: true });
    return `dbus-daemon did not start (${(bus.stderr ?? "").trim() || `exit ${bus.status}`})`;
  }
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
  const keyring = spawn("gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "ignore", "pipe"],
  });
  keyring.stdin.end("test-password");
  let keyringErr = "";
  keyring.stderr.on("data", (chunk: Buffer) => (keyringErr += chunk.toString()));
  const stop = async (): Promise<void> => {
    killQuietly(keyring.pid);
    killQuietly(busPid);
    await rm(home, { recursive: true, force: true });
  };
  // Ready when our daemon owns the Secret Service name. Asked with NameHasOwner, which never
  // starts anything: a call to the service itself would let D-Bus activation start a second,
  // locked daemon that could win the name.
  for (let i = 0; i < 100; i++) {
    if (keyring.exitCode !== null) break;
    const probe = spawnSync(
      "dbus-send",
      [
        "--session",
        "--print-reply",
        "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner",
        "string:org.freedesktop.secrets",
      ],
      { env: { ...process.env, ...env }, encoding: "utf8", timeout: 2000 },
    );
    if (probe.status === 0 && probe.stdout.includes("boolean true")) return { env, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  return `gnome-keyring-daemon did not offer the Secret Service (${keyringErr.trim().split("\n")[0] || "no answer"})`;
}
