import { posix, win32 } from "node:path";

// Where simadmin keeps what it can always rebuild: the user's own cache directory, never a
// name in a /tmp shared with every user of the machine (docs/architecture.md, Start-up).

type Env = Record<string, string | undefined>;

/**
 * The user's cache directory for simadmin: `$XDG_CACHE_HOME/simadmin` when set (absolute),
 * else `~/Library/Caches/simadmin` on macOS, `%LOCALAPPDATA%\simadmin\Cache` on Windows and
 * `~/.cache/simadmin` elsewhere. Undefined without a home directory: nothing is cached then.
 */
export function userCacheDir(env: Env, platform: NodeJS.Platform, home: string | undefined): string | undefined {
  const path = platform === "win32" ? win32 : posix;
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "simadmin");
  if (platform === "win32") {
    const local = env.LOCALAPPDATA;
    return local && path.isAbsolute(local) ? path.join(local, "simadmin", "Cache") : undefined;
  }
  if (!home || !path.isAbsolute(home)) return undefined;
  return platform === "darwin" ? path.join(home, "Library", "Caches", "simadmin") : path.join(home, ".cache", "simadmin");
}
