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

// V8's compiled code for dist/bundle/cli.cjs, kept between runs (docs/architecture.md,
// Start-up): Node 20 has no compile cache of its own, and Node 22's saves less (boot.ts). The file is code this process
// will run, so it is read only from a directory of the user's own that nobody else can
// write to, and only when it is whole and made for the same bundle: anything else is
// ignored and replaced after the run.

const MAGIC = "simadmin-code-cache 4\n";
/** The commands whose runs the code was saved after (a line of the head): at most this many are kept. */
export const MAX_COMMANDS = 64;

/**
 * What proves the code arrived whole (a disk error, a copy cut short): two running sums of its
 * 32-bit words (Fletcher's checksum, 64 bits), so any one changed word, and any two swapped,
 * change it. Not a defence against someone who can write the file — the directory being the
 * user's own is that (privateDir) — so no cryptographic hash: node:crypto costs ~6 ms to load,
 * plain JavaScript well under one over the ~1 MB of code, and Node's own checksums of the
 * code cache are off outside debug builds.
 */
export function checksum(payload: Uint8Array): string {
  // Whole words where the bytes are 4-aligned (the payload of a file read below always is).
  const bytes = payload.byteOffset % 4 === 0 ? payload : payload.slice();
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  let low = bytes.length | 0;
  let high = 0;
  for (let i = 0; i < words.length; i++) {
    low = (low + words[i]!) | 0;
    high = (high + low) | 0;
  }
  for (let i = words.length * 4; i < bytes.length; i++) {
    low = (low + bytes[i]! + 1) | 0;
    high = (high + low) | 0;
  }
  return (high >>> 0).toString(16).padStart(8, "0") + (low >>> 0).toString(16).padStart(8, "0");
}

/** Where the payload starts after `head` (the magic line and the key line) and the checksum line: 8-aligned. */
const payloadStart = (head: string): number => Math.ceil((head.length + 17) / 8) * 8;

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

/** A cache file's code, and the commands whose runs it was saved after. */
export interface CodeCache {
  payload: Buffer;
  commands: string[];
}

/**
 * The cached code in `path` when it was written for `key` (the bundle and Node it was made
 * by) and arrived whole; undefined for a missing, foreign, damaged or stale file.
 */
export function readCodeCache(path: string, key: string, me: number | undefined = uid()): CodeCache | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || (me !== undefined && (stat.uid !== me || (stat.mode & 0o022) !== 0))) return undefined;
    // Its own memory, at offset 0, so that the payload's words are aligned (checksum).
    const bytes = Buffer.allocUnsafeSlow(stat.size);
    let at = 0;
    while (at < bytes.length) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      if (read === 0) return undefined;
      at += read;
    }
    const top = `${MAGIC}${key}\ncommands `;
    if (bytes.length < top.length || bytes.toString("latin1", 0, top.length) !== top) return undefined;
    const end = bytes.indexOf(0x0a, top.length);
    if (end === -1 || end - top.length > MAX_COMMANDS * 32) return undefined;
    const commands = bytes.toString("latin1", top.length, end).split(",").filter(Boolean);
    // The head (magic, key and commands lines), then the payload's checksum as 16 hex digits and newlines up to the payload.
    const head = bytes.toString("latin1", 0, end + 1);
    const start = payloadStart(head);
    if (bytes.length < start) return undefined;
    const payload = bytes.subarray(start);
    const sum = bytes.toString("latin1", head.length, head.length + 16);
    return sum === checksum(payload) ? { payload, commands } : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `payload` for `key` to `path` (0600), whole or not at all: runs at once each see
 * either file. `commands`: the commands whose runs compiled the code in it.
 */
export function writeCodeCache(path: string, key: string, payload: Buffer, commands: readonly string[] = []): void {
  const temp = `${path}.${process.pid}.tmp`;
  const head = `${MAGIC}${key}\ncommands ${commands.join(",")}\n`;
  const sum = checksum(payload);
  try {
    const lines = `${head}${sum}`.padEnd(payloadStart(head), "\n");
    writeFileSync(temp, Buffer.concat([Buffer.from(lines, "latin1"), payload]), { mode: 0o600, flag: "wx" });
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
