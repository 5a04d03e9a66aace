// The code cache of the built binary (src/boot/code-cache.ts), shared by the runs one process
// starts. A run whose XDG_CACHE_HOME is new compiles the whole bundle and saves its code at
// exit — a third more CPU than a user's second run (`config list`: 0.16 s against 0.11 s), and
// a run SIGKILLed before its exit saves nothing, so the run after it compiles again. Seeded,
// a new cache directory starts with the code this process's earlier runs saved (hard links),
// and what a run saved is linked back for the runs after it: the spawned binaries run as a
// user's do after the first time. Used by test/helpers/cli.ts (every e2e run) and
// bench/kill-points-lib.mjs (each kill point's own cache directory). What a missing, damaged
// or foreign code cache does is test/e2e/startup.test.ts's, with caches of its own.
import { linkSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let shared;
let count = 0;
/** This process's copy of the saved code, made on first use and removed at exit. */
function sharedCode() {
  if (shared === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "simadmin-code-cache-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    shared = dir;
  }
  return shared;
}
const codeDir = (xdgCacheHome) => join(xdgCacheHome, "simadmin", "code-cache");

/** Before a run: links the code earlier runs saved into `xdgCacheHome`, unless it has code of its own. */
export function seedCodeCache(xdgCacheHome) {
  const files = readdirSync(sharedCode());
  if (files.length === 0) return;
  const target = codeDir(xdgCacheHome);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const present = new Set(readdirSync(target));
  for (const file of files) if (!present.has(file)) linkSync(join(sharedCode(), file), join(target, file));
}

/** After a run: the code it saved (a file not linked from the shared copy) becomes the one later runs get. */
export function keepCodeCache(xdgCacheHome) {
  let files;
  try {
    files = readdirSync(codeDir(xdgCacheHome)).filter((file) => file.endsWith(".v8"));
  } catch {
    return; // the run saved nothing
  }
  for (const file of files) {
    const saved = join(codeDir(xdgCacheHome), file);
    if (statSync(saved).nlink > 1) continue; // the seed itself, unchanged
    const temp = join(sharedCode(), `${file}.${++count}.tmp`);
    linkSync(saved, temp);
    renameSync(temp, join(sharedCode(), file));
  }
}
