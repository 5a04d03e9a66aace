import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

// V8's compiled code for dist/bundle/cli.cjs, kept between runs on Node 20, which has no
// compile cache of its own (docs/architecture.md, Start-up). The file is code this process
// will run, so it is read only from a directory of the user's own that nobody else can
// write to, and only when it is whole and made for the same bundle: anything else is
// ignored and replaced after the run.

const MAGIC = "simadmin-code-cache 2\n";

/** What proves the code arrived whole: node:crypto is loaded at every start anyway (node:zlib's crc32 is not). */
const digest = (payload: Buffer): string => createHash("sha1").update(payload).digest("hex");

const uid = (): number | undefined => (typeof process.getuid === "function" ? process.getuid() : undefined);

/**
 * Makes `dir` (0700) if needed and says whether it is safe to keep code in: a real directory
 * (not a link), owned by this user, that no other user can read or write. One of ours with
 * a wider mode is narrowed; anything else is left alone and not used. `me`: the user's id
 * (undefined on Windows, where %LOCALAPPDATA% is the user's own).
 */
export function privateDir(dir: string, me: number | undefined = uid()): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (me === undefined) return true; // Windows: %LOCALAPPDATA% is the user's own.
    if (stat.uid !== me) return false;
    if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return (lstatSync(dir).mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The cached code in `path` when it was written for `key` (the bundle and Node it was made
 * by) and arrived whole; undefined for a missing, foreign, damaged or stale file.
 */
export function readCodeCache(path: string, key: string, me: number | undefined = uid()): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || (me !== undefined && (stat.uid !== me || (stat.mode & 0o022) !== 0))) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let at = 0;
    while (at < bytes.length) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) return undefined;
      at += read;
    }
    const header = `${MAGIC}${key}\n`;
    // The header, then the payload's SHA-1 as 40 hex digits and a newline, then the payload.
    if (bytes.length < header.length + 41 || bytes.toString("latin1", 0, header.length) !== header) return undefined;
    const payload = bytes.subarray(header.length + 41);
    const sum = bytes.toString("latin1", header.length, header.length + 40);
    return sum === digest(payload) ? payload : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `payload` for `key` to `path` (0600), whole or not at all: runs at once each see either file. */
export function writeCodeCache(path: string, key: string, payload: Buffer): void {
  const temp = `${path}.${process.pid}.tmp`;
  const sum = digest(payload);
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${MAGIC}${key}\n${sum}\n`, "latin1"), payload]), { mode: 0o600, flag: "wx" });
    renameSync(temp, path);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Nothing was written.
    }
  }
}

/** The cache file's name in the cache directory: one per Node version and architecture. */
export const codeCacheFile = (dir: string): string => join(dir, `cli-${process.version}-${process.arch}.v8`);
