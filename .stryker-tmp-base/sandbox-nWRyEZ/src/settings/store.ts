// @ts-nocheck
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { LocalFileError, UsageError } from "../errors.js";
import { SETTINGS_FILE_NAME } from "./paths.js";
import { firstIssue, SettingsFile, type ProfileSettings } from "./schema.js";

// The settings file holds the API key, so it is the owner's only: file 0600 in a directory
// 0700 (docs/cli-contract.md, "Secrets") — also when it already existed with looser modes.
// Reads parse the JSON directly (conf costs ~90 ms to import and reads need none of it);
// writes go through conf, which writes atomically with the mode we ask for.
//
// Settings you can trust (issue 13 item 8), as ssh treats ~/.ssh/config: a directory or
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
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, "0")}`;
}

export class SettingsStore {
  readonly path: string;

  private readonly probe: OwnershipProbe;
  private readonly warn: (text: string) => void;

  constructor(
    readonly dir: string,
    options: SettingsStoreOptions = {},
  ) {
    this.path = join(dir, SETTINGS_FILE_NAME);
    this.probe = options.probe ?? systemProbe;
    this.warn = options.warn ?? (() => undefined);
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
      throw LocalFileError.fromSystem(error, path, "tighten the mode of");
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

  /** Applies `mutate` to one profile (created when missing) and saves through conf. */
  async updateProfile(name: string, mutate: (profile: ProfileSettings) => ProfileSettings): Promise<void> {
    const current = this.read(); // refuses to continue over a corrupted file
    const next = mutate({ ...(current.profiles[name] ?? {}) });
    try {
      mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    } catch (error) {
      throw LocalFileError.fromSystem(error, this.dir, "create the settings directory");
    }
    this.secure(this.dir, "directory", DIR_MODE);
    const { default: Conf } = await import("conf");
    const conf = new Conf<Record<string, unknown>>({
      cwd: this.dir,
      configName: SETTINGS_FILE_NAME.replace(/\.json$/, ""),
      projectName: "simadmin",
      configFileMode: FILE_MODE,
      clearInvalidConfig: false,
    });
    const cleaned = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined));
    conf.set("profiles", { ...current.profiles, [name]: cleaned });
    this.secure(this.path, "file", FILE_MODE);
  }
}
