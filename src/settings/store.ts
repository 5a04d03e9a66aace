import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock, type Clock } from "../clock.js";
import { LocalFileError, UsageError } from "../errors.js";
import { makeDirectory } from "../output/atomic-file.js";
import { acquireWaitingLock } from "../output/file-lock.js";
import { SETTINGS_FILE_NAME } from "./paths.js";
import { firstIssue, SettingsFile, type ProfileSettings } from "./schema.js";
import { readSettingsFile } from "./values.js";

// The settings file holds the API key, so it is the owner's only: file 0600 in a directory
// 0700 (docs/cli-contract.md, "Secrets") — also when it already existed with looser modes.
// Reads parse the JSON directly; writes are a locked read-modify-write, written atomically
// with the mode we ask for (updateProfile).
//
// Settings you can trust, as ssh treats ~/.ssh/config: a directory or
// file owned by another user is refused — whoever owns it decides where the key is sent
// (baseUrl); one that others could write is tightened, with a warning naming what changed;
// one owned by root after a `sudo simadmin …` is reported as the permission problem it is.

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** How the store learns who owns what: the real file system, or a fake in tests (which may run as root). */
export interface OwnershipProbe {
  /** This process's user id; undefined where POSIX ownership does not apply (Windows). */
  uid: number | undefined;
  stat(path: string): { uid: number; mode: number };
}

const systemProbe: OwnershipProbe = {
  uid: process.platform === "win32" ? undefined : process.getuid?.(),
  stat: (path) => statSync(path),
};

export interface SettingsStoreOptions {
  /** Where "tightened the mode of …" goes (stderr, through the context's warn). */
  warn?: ((text: string) => void) | undefined;
  probe?: OwnershipProbe | undefined;
  /** Names this run in the lock file ("auth login", "config set"). */
  command?: string | undefined;
  /** Real time by default: the lock is shared with other processes. */
  lockClock?: Clock | undefined;
  /** How long a live run's lock is waited for (LOCK_MAX_WAIT_MS); tests shorten it. */
  lockMaxWaitMs?: number | undefined;
}

/** Writes take milliseconds (a keychain prompt longer): a live owner holding the lock this long is stuck. */
const LOCK_MAX_WAIT_MS = 30_000;

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

export class SettingsStore {
  readonly path: string;

  private readonly probe: OwnershipProbe;
  private readonly warn: (text: string) => void;
  private readonly command: string;
  private readonly lockClock: Clock;
  private readonly lockMaxWaitMs: number;

  constructor(
    readonly dir: string,
    options: SettingsStoreOptions = {},
  ) {
    this.path = join(dir, SETTINGS_FILE_NAME);
    this.probe = options.probe ?? systemProbe;
    this.warn = options.warn ?? (() => undefined);
    this.command = options.command ?? "simadmin";
    this.lockClock = options.lockClock ?? systemClock;
    this.lockMaxWaitMs = options.lockMaxWaitMs ?? LOCK_MAX_WAIT_MS;
  }

  /**
   * Refuses a path owned by someone else; tightens one that is too open, and says so when
   * others could write it. Missing paths pass (nothing to trust yet).
   */
  private secure(path: string, kind: "directory" | "file", mode: number): void {
    const uid = this.probe.uid;
    if (uid === undefined) return; // POSIX ownership and modes do not apply
    let info: { uid: number; mode: number };
    try {
      info = this.probe.stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw LocalFileError.fromSystem(error, path, "check the settings");
    }
    if (info.uid !== uid) {
      const what = `the settings ${kind} ${path}`;
      if (info.uid === 0) {
        throw new LocalFileError(
          `${what} is owned by root, not by you (uid ${uid}): it was probably written by \`sudo simadmin …\``,
          {
            path,
            code: "EACCES",
            hint: `give it back with \`sudo chown -R ${uid} ${this.dir}\` (settings are per user; run simadmin without sudo)`,
          },
        );
      }
      throw new LocalFileError(`${what} belongs to another user (uid ${info.uid}, you are ${uid}); it is not used`, {
        path,
        code: "EPERM",
        hint: `whoever owns it decides where your API key is sent: use your own (set SIMADMIN_CONFIG_DIR), or \`chown\` it to yourself after checking its contents`,
      });
    }
    if ((info.mode & 0o777) === mode) return;
    try {
      chmodSync(path, mode);
    } catch (error) {
      throw LocalFileError.fromSystem(error, path, `tighten the mode of the settings ${kind}`);
    }
    if (info.mode & 0o022) {
      this.warn(
        `the settings ${kind} ${path} was writable by ${info.mode & 0o002 ? "every user" : "its group"} (mode ${octal(info.mode)}); ` +
          `changed to ${octal(mode)}. Someone could have changed its settings: check \`simadmin config list\` (baseUrl above all)`,
      );
    }
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  /** The whole file, validated. A corrupted file is reported, never overwritten. */
  read(): SettingsFile {
    if (!this.exists()) return { profiles: {} };
    this.secure(this.dir, "directory", DIR_MODE);
    this.secure(this.path, "file", FILE_MODE);
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      // Unreadable is a permission (or file system) problem, not "not valid JSON".
      throw LocalFileError.fromSystem(error, this.path, "read the settings file", "check its owner and permissions");
    }
    let raw: unknown;
    try {
      raw = text.trim() === "" ? {} : JSON.parse(text);
    } catch (error) {
      throw new UsageError(`the settings file ${this.path} is not valid JSON (${(error as Error).message})`, {
        hint: "fix it by hand, or move it away and run `simadmin auth login` again; it was left untouched",
      });
    }
    // By hand first (values.ts); the schema, loaded only then, says what is wrong.
    const known = readSettingsFile(raw);
    if (known) return known;
    const parsed = SettingsFile.safeParse(raw);
    if (!parsed.success) {
      throw new UsageError(`the settings file ${this.path} has an invalid value: ${firstIssue(parsed.error)}`, {
        hint: "fix it with `simadmin config set`/`unset`, or by hand; it was left untouched",
      });
    }
    return parsed.data;
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles);
  }

  getProfile(name: string): ProfileSettings | undefined {
    return this.read().profiles[name];
  }

  /**
   * Applies `mutate` to one profile (created when missing) and saves the file. Concurrent
   * runs never lose one another's changes (docs/cli-contract.md "Settings"):
   * the read-modify-write runs under a lock file beside the settings (`settings.json.lock`,
   * holding the owner's pid; a dead owner's lock is taken over), the file is read again under
   * the lock, and written whole to a temp file renamed into place. `mutate` may be async: it
   * runs under the lock, so `auth login` writes the keychain there too, and the keychain and
   * the file always end up from the same login. Resolves only once the file is in place.
   */
  async updateProfile(
    name: string,
    /** The profile's next settings; undefined: leave the file as it is. */
    mutate: (profile: ProfileSettings) => ProfileSettings | undefined | Promise<ProfileSettings | undefined>,
  ): Promise<void> {
    this.read(); // refuses to continue over a corrupted or foreign file before taking the lock
    makeDirectory(this.dir, DIR_MODE, "create the settings directory");
    this.secure(this.dir, "directory", DIR_MODE);
    const lock = await acquireWaitingLock(`${this.path}.lock`, {
      guarded: { path: this.path, action: "write the settings file" },
      command: this.command,
      now: () => this.lockClock.now(),
      sleep: (ms) => this.lockClock.sleep(ms),
      maxWaitMs: this.lockMaxWaitMs,
      onWait: (owner) =>
        this.warn(
          `waiting for ${this.path}.lock, held by another simadmin run${owner ? ` (pid ${owner.pid}, ${owner.command})` : ""}`,
        ),
    });
    try {
      const current = this.read(); // again under the lock: another run may have written meanwhile
      const next = await mutate({ ...(current.profiles[name] ?? {}) });
      if (next === undefined) return;
      const cleaned = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined));
      const whole = { ...this.readRaw(), profiles: { ...current.profiles, [name]: cleaned } };
      this.writeWhole(`${JSON.stringify(whole, undefined, "\t")}\n`);
      this.secure(this.path, "file", FILE_MODE);
    } finally {
      await lock.release();
    }
  }

  /** The file's top-level object as it is (keys this version does not know are kept). */
  private readRaw(): Record<string, unknown> {
    try {
      const raw: unknown = JSON.parse(readFileSync(this.path, "utf8"));
      return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  /** Temp file (0600) beside the settings, then rename: a reader never sees half a file. */
  private writeWhole(text: string): void {
    const temp = join(this.dir, `.${SETTINGS_FILE_NAME}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      writeFileSync(temp, text, { mode: FILE_MODE, flag: "wx" });
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw LocalFileError.fromSystem(
        error,
        this.path,
        "write the settings file",
        "free some space or fix the permissions of its directory; the settings were left as they were",
      );
    }
  }
}
