// @ts-nocheck
import { homedir } from "node:os";
import { join } from "node:path";

export type Env = Record<string, string | undefined>;

/**
 * Where settings live: SIMADMIN_CONFIG_DIR, else the OS config directory (the same place
 * conf would choose, computed here so that `config path` and the rate ledger need no conf).
 */
export function configDir(env: Env): string {
  if (env.SIMADMIN_CONFIG_DIR) return env.SIMADMIN_CONFIG_DIR;
  const home = env.HOME || env.USERPROFILE || homedir();
  if (process.platform === "darwin") return join(home, "Library", "Preferences", "simadmin");
  if (process.platform === "win32") return join(env.APPDATA || join(home, "AppData", "Roaming"), "simadmin", "Config");
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "simadmin");
}

export const SETTINGS_FILE_NAME = "settings.json";
