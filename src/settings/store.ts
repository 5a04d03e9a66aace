import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import { SETTINGS_FILE_NAME } from "./paths.js";
import { firstIssue, SettingsFile, type ProfileSettings } from "./schema.js";

// The settings file holds the API key, so it is the owner's only: file 0600 in a directory
// 0700 (docs/cli-contract.md, "Secrets") — also when it already existed with looser modes.
// Reads parse the JSON directly (conf costs ~90 ms to import and reads need none of it);
// writes go through conf, which writes atomically with the mode we ask for.

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

function tightenMode(path: string, mode: number): void {
  if (process.platform === "win32") return; // POSIX modes do not apply
  try {
    if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
  } catch {
    // Missing file: nothing to tighten.
  }
}

export class SettingsStore {
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = join(dir, SETTINGS_FILE_NAME);
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  /** The whole file, validated. A corrupted file is reported, never overwritten. */
  read(): SettingsFile {
    if (!this.exists()) return { profiles: {} };
    tightenMode(this.dir, DIR_MODE);
    tightenMode(this.path, FILE_MODE);
    let raw: unknown;
    try {
      const text = readFileSync(this.path, "utf8");
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
    mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
    tightenMode(this.dir, DIR_MODE);
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
    tightenMode(this.path, FILE_MODE);
  }
}
