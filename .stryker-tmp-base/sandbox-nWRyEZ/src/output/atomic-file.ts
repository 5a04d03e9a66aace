// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import { access, chmod, constants, lstat, readdir, readlink, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { isErrnoError, LocalFileError } from "../errors.js";

// Output files (docs/cli-contract.md, "Output files", "Bad input", exit codes 11 and 130).
//
// A regular file is written to a temp file in the same directory and renamed into place, so
// a reader (or the next cron run) never sees half a file, and a failed or interrupted run
// leaves the previous file untouched and no temp file behind. Around that:
// - A symlink is followed: its final target is what gets replaced, the link stays a link
//   (a dangling link gets its target created).
// - A FIFO, a character device (/dev/null, /dev/full), a socket, or anything reached through
//   /dev or /proc (/dev/stdout, /dev/fd/1, /proc/self/fd/1) is written directly, opened for
//   appending: replacing it would destroy the device or leave a waiting reader hanging, and
//   /dev/stdout may be a log file the shell opened with `>>`. Such a write cannot be undone.
// - An existing file keeps its permission bits; a new file gets `mode` (0600 for side files,
//   caches and anything holding a token or link; 0644 less the umask otherwise).
// - Temp files are named `.<name>.<pid>.<8 hex>.tmp`: a run killed by SIGKILL cannot clean
//   up, so the next run writing the same output removes temp files whose pid is dead.
// - Every file-system failure becomes a LocalFileError (exit 11) naming the path and cause.

/** Temp files not yet committed; removed synchronously if the process must exit at once. */
const pendingTempFiles = new Set<string>();
export function removePendingTempFilesSync(): void {
  if (stryMutAct_9fa48("5723")) {
    {}
  } else {
    stryCov_9fa48("5723");
    for (const path of pendingTempFiles) rmSync(path, stryMutAct_9fa48("5724") ? {} : (stryCov_9fa48("5724"), {
      force: stryMutAct_9fa48("5725") ? false : (stryCov_9fa48("5725"), true)
    }));
    pendingTempFiles.clear();
  }
}
function tempPathFor(path: string): string {
  if (stryMutAct_9fa48("5726")) {
    {}
  } else {
    stryCov_9fa48("5726");
    return join(dirname(path), stryMutAct_9fa48("5727") ? `` : (stryCov_9fa48("5727"), `.${basename(path)}.${process.pid}.${randomBytes(4).toString(stryMutAct_9fa48("5728") ? "" : (stryCov_9fa48("5728"), "hex"))}.tmp`));
  }
}
function escapeRegExp(text: string): string {
  if (stryMutAct_9fa48("5729")) {
    {}
  } else {
    stryCov_9fa48("5729");
    return text.replace(stryMutAct_9fa48("5730") ? /[^.*+?^${}()|[\]\\]/g : (stryCov_9fa48("5730"), /[.*+?^${}()|[\]\\]/g), stryMutAct_9fa48("5731") ? "" : (stryCov_9fa48("5731"), "\\$&"));
  }
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  if (stryMutAct_9fa48("5732")) {
    {}
  } else {
    stryCov_9fa48("5732");
    if (stryMutAct_9fa48("5735") ? !Number.isInteger(pid) && pid <= 0 : stryMutAct_9fa48("5734") ? false : stryMutAct_9fa48("5733") ? true : (stryCov_9fa48("5733", "5734", "5735"), (stryMutAct_9fa48("5736") ? Number.isInteger(pid) : (stryCov_9fa48("5736"), !Number.isInteger(pid))) || (stryMutAct_9fa48("5739") ? pid > 0 : stryMutAct_9fa48("5738") ? pid < 0 : stryMutAct_9fa48("5737") ? false : (stryCov_9fa48("5737", "5738", "5739"), pid <= 0)))) return stryMutAct_9fa48("5740") ? true : (stryCov_9fa48("5740"), false);
    if (stryMutAct_9fa48("5743") ? pid !== process.pid : stryMutAct_9fa48("5742") ? false : stryMutAct_9fa48("5741") ? true : (stryCov_9fa48("5741", "5742", "5743"), pid === process.pid)) return stryMutAct_9fa48("5744") ? false : (stryCov_9fa48("5744"), true);
    try {
      if (stryMutAct_9fa48("5745")) {
        {}
      } else {
        stryCov_9fa48("5745");
        process.kill(pid, 0);
        return stryMutAct_9fa48("5746") ? false : (stryCov_9fa48("5746"), true);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5747")) {
        {}
      } else {
        stryCov_9fa48("5747");
        return stryMutAct_9fa48("5750") ? isErrnoError(error) || error.code === "EPERM" : stryMutAct_9fa48("5749") ? false : stryMutAct_9fa48("5748") ? true : (stryCov_9fa48("5748", "5749", "5750"), isErrnoError(error) && (stryMutAct_9fa48("5752") ? error.code !== "EPERM" : stryMutAct_9fa48("5751") ? true : (stryCov_9fa48("5751", "5752"), error.code === (stryMutAct_9fa48("5753") ? "" : (stryCov_9fa48("5753"), "EPERM")))));
      }
    }
  }
}

/**
 * Removes temp files of `path` left by runs that died (SIGKILL, power loss): only names in
 * our own pattern, only when their pid no longer runs. Best effort: never fails the run.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  if (stryMutAct_9fa48("5754")) {
    {}
  } else {
    stryCov_9fa48("5754");
    const pattern = new RegExp(stryMutAct_9fa48("5755") ? `` : (stryCov_9fa48("5755"), `^\\.${escapeRegExp(basename(path))}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`));
    const removed: string[] = stryMutAct_9fa48("5756") ? ["Stryker was here"] : (stryCov_9fa48("5756"), []);
    let names: string[];
    try {
      if (stryMutAct_9fa48("5757")) {
        {}
      } else {
        stryCov_9fa48("5757");
        names = await readdir(dirname(path));
      }
    } catch {
      if (stryMutAct_9fa48("5758")) {
        {}
      } else {
        stryCov_9fa48("5758");
        return removed;
      }
    }
    for (const name of names) {
      if (stryMutAct_9fa48("5759")) {
        {}
      } else {
        stryCov_9fa48("5759");
        const match = pattern.exec(name);
        if (stryMutAct_9fa48("5762") ? !match && processAlive(Number(match[1])) : stryMutAct_9fa48("5761") ? false : stryMutAct_9fa48("5760") ? true : (stryCov_9fa48("5760", "5761", "5762"), (stryMutAct_9fa48("5763") ? match : (stryCov_9fa48("5763"), !match)) || processAlive(Number(match[1])))) continue;
        try {
          if (stryMutAct_9fa48("5764")) {
            {}
          } else {
            stryCov_9fa48("5764");
            await rm(join(dirname(path), name), stryMutAct_9fa48("5765") ? {} : (stryCov_9fa48("5765"), {
              force: stryMutAct_9fa48("5766") ? false : (stryCov_9fa48("5766"), true)
            }));
            removed.push(name);
          }
        } catch {
          // Not ours to remove after all (permissions): leave it.
        }
      }
    }
    return removed;
  }
}
export type OutputTarget = /** `target` is where the bytes land: the path itself, or the end of its symlinks. */
{
  kind: "missing";
  target: string;
} | {
  kind: "regular";
  target: string;
  mode: number;
} | {
  kind: "special";
  target: string;
} | {
  kind: "directory";
  target: string;
};
function throughDevOrProc(path: string): boolean {
  if (stryMutAct_9fa48("5767")) {
    {}
  } else {
    stryCov_9fa48("5767");
    return (stryMutAct_9fa48("5768") ? /\/(dev|proc)\// : (stryCov_9fa48("5768"), /^\/(dev|proc)\//)).test(resolve(path));
  }
}

/** What `path` is once its symlinks are followed (without creating anything). */
export async function resolveOutputTarget(path: string): Promise<OutputTarget> {
  if (stryMutAct_9fa48("5769")) {
    {}
  } else {
    stryCov_9fa48("5769");
    let target = path;
    for (let hops = 0; stryMutAct_9fa48("5772") ? hops > 40 : stryMutAct_9fa48("5771") ? hops < 40 : stryMutAct_9fa48("5770") ? false : (stryCov_9fa48("5770", "5771", "5772"), hops <= 40); stryMutAct_9fa48("5773") ? hops-- : (stryCov_9fa48("5773"), hops++)) {
      if (stryMutAct_9fa48("5774")) {
        {}
      } else {
        stryCov_9fa48("5774");
        if (stryMutAct_9fa48("5776") ? false : stryMutAct_9fa48("5775") ? true : (stryCov_9fa48("5775", "5776"), throughDevOrProc(target))) {
          if (stryMutAct_9fa48("5777")) {
            {}
          } else {
            stryCov_9fa48("5777");
            // /dev/stdout → /proc/self/fd/1 → "pipe:[…]": not a path to follow, and not to replace.
            try {
              if (stryMutAct_9fa48("5778")) {
                {}
              } else {
                stryCov_9fa48("5778");
                const info = await stat(target);
                if (stryMutAct_9fa48("5780") ? false : stryMutAct_9fa48("5779") ? true : (stryCov_9fa48("5779", "5780"), info.isDirectory())) return stryMutAct_9fa48("5781") ? {} : (stryCov_9fa48("5781"), {
                  kind: stryMutAct_9fa48("5782") ? "" : (stryCov_9fa48("5782"), "directory"),
                  target
                });
              }
            } catch {
              // Missing under /dev: the open reports it.
            }
            return stryMutAct_9fa48("5783") ? {} : (stryCov_9fa48("5783"), {
              kind: stryMutAct_9fa48("5784") ? "" : (stryCov_9fa48("5784"), "special"),
              target: path
            });
          }
        }
        let info;
        try {
          if (stryMutAct_9fa48("5785")) {
            {}
          } else {
            stryCov_9fa48("5785");
            info = await lstat(target);
          }
        } catch (error) {
          if (stryMutAct_9fa48("5786")) {
            {}
          } else {
            stryCov_9fa48("5786");
            if (stryMutAct_9fa48("5789") ? isErrnoError(error) || error.code === "ENOENT" : stryMutAct_9fa48("5788") ? false : stryMutAct_9fa48("5787") ? true : (stryCov_9fa48("5787", "5788", "5789"), isErrnoError(error) && (stryMutAct_9fa48("5791") ? error.code !== "ENOENT" : stryMutAct_9fa48("5790") ? true : (stryCov_9fa48("5790", "5791"), error.code === (stryMutAct_9fa48("5792") ? "" : (stryCov_9fa48("5792"), "ENOENT")))))) return stryMutAct_9fa48("5793") ? {} : (stryCov_9fa48("5793"), {
              kind: stryMutAct_9fa48("5794") ? "" : (stryCov_9fa48("5794"), "missing"),
              target
            });
            throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("5795") ? "" : (stryCov_9fa48("5795"), "write"));
          }
        }
        if (stryMutAct_9fa48("5797") ? false : stryMutAct_9fa48("5796") ? true : (stryCov_9fa48("5796", "5797"), info.isSymbolicLink())) {
          if (stryMutAct_9fa48("5798")) {
            {}
          } else {
            stryCov_9fa48("5798");
            target = resolve(dirname(target), await readlink(target));
            continue;
          }
        }
        if (stryMutAct_9fa48("5800") ? false : stryMutAct_9fa48("5799") ? true : (stryCov_9fa48("5799", "5800"), info.isDirectory())) return stryMutAct_9fa48("5801") ? {} : (stryCov_9fa48("5801"), {
          kind: stryMutAct_9fa48("5802") ? "" : (stryCov_9fa48("5802"), "directory"),
          target
        });
        if (stryMutAct_9fa48("5804") ? false : stryMutAct_9fa48("5803") ? true : (stryCov_9fa48("5803", "5804"), info.isFile())) return stryMutAct_9fa48("5805") ? {} : (stryCov_9fa48("5805"), {
          kind: stryMutAct_9fa48("5806") ? "" : (stryCov_9fa48("5806"), "regular"),
          target,
          mode: info.mode & 0o7777
        });
        return stryMutAct_9fa48("5807") ? {} : (stryCov_9fa48("5807"), {
          kind: stryMutAct_9fa48("5808") ? "" : (stryCov_9fa48("5808"), "special"),
          target
        });
      }
    }
    throw new LocalFileError(stryMutAct_9fa48("5809") ? `` : (stryCov_9fa48("5809"), `cannot write ${path}: too many symbolic links (ELOOP)`), stryMutAct_9fa48("5810") ? {} : (stryCov_9fa48("5810"), {
      path,
      code: stryMutAct_9fa48("5811") ? "" : (stryCov_9fa48("5811"), "ELOOP")
    }));
  }
}

/**
 * Checks, before anything is sent, that `path` can be written: its directory exists and is
 * writable, it is not a directory; a special file must be writable itself. Exit 11 otherwise.
 */
export async function checkOutputPath(path: string): Promise<OutputTarget> {
  if (stryMutAct_9fa48("5812")) {
    {}
  } else {
    stryCov_9fa48("5812");
    const target = await resolveOutputTarget(path);
    const fail = (code: string, cause: string): never => {
      if (stryMutAct_9fa48("5813")) {
        {}
      } else {
        stryCov_9fa48("5813");
        throw new LocalFileError(stryMutAct_9fa48("5814") ? `` : (stryCov_9fa48("5814"), `cannot write ${path}: ${cause} (${code})`), stryMutAct_9fa48("5815") ? {} : (stryCov_9fa48("5815"), {
          path,
          code
        }));
      }
    };
    if (stryMutAct_9fa48("5818") ? target.kind !== "directory" : stryMutAct_9fa48("5817") ? false : stryMutAct_9fa48("5816") ? true : (stryCov_9fa48("5816", "5817", "5818"), target.kind === (stryMutAct_9fa48("5819") ? "" : (stryCov_9fa48("5819"), "directory")))) fail(stryMutAct_9fa48("5820") ? "" : (stryCov_9fa48("5820"), "EISDIR"), stryMutAct_9fa48("5821") ? "" : (stryCov_9fa48("5821"), "is a directory"));
    if (stryMutAct_9fa48("5824") ? target.kind !== "special" : stryMutAct_9fa48("5823") ? false : stryMutAct_9fa48("5822") ? true : (stryCov_9fa48("5822", "5823", "5824"), target.kind === (stryMutAct_9fa48("5825") ? "" : (stryCov_9fa48("5825"), "special")))) {
      if (stryMutAct_9fa48("5826")) {
        {}
      } else {
        stryCov_9fa48("5826");
        try {
          if (stryMutAct_9fa48("5827")) {
            {}
          } else {
            stryCov_9fa48("5827");
            await access(target.target, constants.W_OK);
          }
        } catch (error) {
          if (stryMutAct_9fa48("5828")) {
            {}
          } else {
            stryCov_9fa48("5828");
            throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("5829") ? "" : (stryCov_9fa48("5829"), "write"));
          }
        }
        return target;
      }
    }
    const dir = dirname(target.target);
    let info;
    try {
      if (stryMutAct_9fa48("5830")) {
        {}
      } else {
        stryCov_9fa48("5830");
        info = await stat(dir);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5831")) {
        {}
      } else {
        stryCov_9fa48("5831");
        if (stryMutAct_9fa48("5834") ? isErrnoError(error) || error.code === "ENOENT" : stryMutAct_9fa48("5833") ? false : stryMutAct_9fa48("5832") ? true : (stryCov_9fa48("5832", "5833", "5834"), isErrnoError(error) && (stryMutAct_9fa48("5836") ? error.code !== "ENOENT" : stryMutAct_9fa48("5835") ? true : (stryCov_9fa48("5835", "5836"), error.code === (stryMutAct_9fa48("5837") ? "" : (stryCov_9fa48("5837"), "ENOENT")))))) fail(stryMutAct_9fa48("5838") ? "" : (stryCov_9fa48("5838"), "ENOENT"), stryMutAct_9fa48("5839") ? `` : (stryCov_9fa48("5839"), `the directory ${dir} does not exist`));
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("5840") ? "" : (stryCov_9fa48("5840"), "write"));
      }
    }
    if (stryMutAct_9fa48("5843") ? false : stryMutAct_9fa48("5842") ? true : stryMutAct_9fa48("5841") ? info.isDirectory() : (stryCov_9fa48("5841", "5842", "5843"), !info.isDirectory())) fail(stryMutAct_9fa48("5844") ? "" : (stryCov_9fa48("5844"), "ENOTDIR"), stryMutAct_9fa48("5845") ? `` : (stryCov_9fa48("5845"), `${dir} is not a directory`));
    try {
      if (stryMutAct_9fa48("5846")) {
        {}
      } else {
        stryCov_9fa48("5846");
        await access(dir, constants.W_OK);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5847")) {
        {}
      } else {
        stryCov_9fa48("5847");
        const code = isErrnoError(error) ? error.code : stryMutAct_9fa48("5848") ? "" : (stryCov_9fa48("5848"), "EACCES");
        if (stryMutAct_9fa48("5851") ? code !== "EROFS" : stryMutAct_9fa48("5850") ? false : stryMutAct_9fa48("5849") ? true : (stryCov_9fa48("5849", "5850", "5851"), code === (stryMutAct_9fa48("5852") ? "" : (stryCov_9fa48("5852"), "EROFS")))) fail(code, stryMutAct_9fa48("5853") ? `` : (stryCov_9fa48("5853"), `the directory ${dir} is on a read-only file system`));
        fail(code, stryMutAct_9fa48("5854") ? `` : (stryCov_9fa48("5854"), `the directory ${dir} is not writable`));
      }
    }
    return target;
  }
}
function fileError(error: unknown, path: string): LocalFileError {
  if (stryMutAct_9fa48("5855")) {
    {}
  } else {
    stryCov_9fa48("5855");
    return LocalFileError.fromSystem(error, path, stryMutAct_9fa48("5856") ? "" : (stryCov_9fa48("5856"), "write"));
  }
}
export interface AtomicFile {
  readonly path: string;
  readonly stream: WriteStream;
  /** Flushes, closes and renames into place (a special file: flushes and closes). */
  commit(): Promise<void>;
  /** Closes and removes the temp file; the target is left as it was. Safe to call twice. */
  abort(): Promise<void>;
  /** The first write error met (the stream's own error events are caught here). */
  failure(): LocalFileError | undefined;
}

/**
 * Ends `stream` once everything is flushed; rejects with the first error it reported while
 * open (`failure`) or the one ending it raised, as the LocalFileError naming `path`.
 */
function endStream(stream: WriteStream, path: string, failure: () => LocalFileError | undefined): Promise<void> {
  if (stryMutAct_9fa48("5857")) {
    {}
  } else {
    stryCov_9fa48("5857");
    return new Promise((resolveEnd, reject) => {
      if (stryMutAct_9fa48("5858")) {
        {}
      } else {
        stryCov_9fa48("5858");
        const fail = stryMutAct_9fa48("5859") ? () => undefined : (stryCov_9fa48("5859"), (() => {
          const fail = (error: unknown): void => reject(fileError(error, path));
          return fail;
        })());
        if (stryMutAct_9fa48("5861") ? false : stryMutAct_9fa48("5860") ? true : (stryCov_9fa48("5860", "5861"), stream.closed)) return failure() ? fail(failure()) : resolveEnd();
        stream.end(stryMutAct_9fa48("5862") ? () => undefined : (stryCov_9fa48("5862"), (error?: Error | null) => error ? fail(error) : failure() ? fail(failure()) : resolveEnd()));
      }
    });
  }
}
function openStream(path: string, flags: string, mode: number): Promise<WriteStream> {
  if (stryMutAct_9fa48("5863")) {
    {}
  } else {
    stryCov_9fa48("5863");
    const stream = createWriteStream(path, stryMutAct_9fa48("5864") ? {} : (stryCov_9fa48("5864"), {
      mode,
      flags
    }));
    return new Promise((resolveOpen, reject) => {
      if (stryMutAct_9fa48("5865")) {
        {}
      } else {
        stryCov_9fa48("5865");
        stream.once(stryMutAct_9fa48("5866") ? "" : (stryCov_9fa48("5866"), "open"), stryMutAct_9fa48("5867") ? () => undefined : (stryCov_9fa48("5867"), () => resolveOpen(stream)));
        stream.once(stryMutAct_9fa48("5868") ? "" : (stryCov_9fa48("5868"), "error"), reject);
      }
    });
  }
}

/**
 * Opens `path` for writing as the contract's *Output files* says. `mode` is for a file that
 * does not exist yet; an existing file keeps its own.
 */
export async function openAtomicFile(path: string, mode = 0o644): Promise<AtomicFile> {
  if (stryMutAct_9fa48("5869")) {
    {}
  } else {
    stryCov_9fa48("5869");
    const target = await checkOutputPath(path);
    if (stryMutAct_9fa48("5872") ? target.kind !== "special" : stryMutAct_9fa48("5871") ? false : stryMutAct_9fa48("5870") ? true : (stryCov_9fa48("5870", "5871", "5872"), target.kind === (stryMutAct_9fa48("5873") ? "" : (stryCov_9fa48("5873"), "special")))) return openDirect(path, target.target);
    await removeStaleTempFiles(target.target);
    const tempPath = tempPathFor(target.target);
    let stream: WriteStream;
    try {
      if (stryMutAct_9fa48("5874")) {
        {}
      } else {
        stryCov_9fa48("5874");
        stream = await openStream(tempPath, stryMutAct_9fa48("5875") ? "" : (stryCov_9fa48("5875"), "wx"), (stryMutAct_9fa48("5878") ? target.kind !== "regular" : stryMutAct_9fa48("5877") ? false : stryMutAct_9fa48("5876") ? true : (stryCov_9fa48("5876", "5877", "5878"), target.kind === (stryMutAct_9fa48("5879") ? "" : (stryCov_9fa48("5879"), "regular")))) ? target.mode : mode);
        pendingTempFiles.add(tempPath);
        // The umask may have taken bits away; an existing file's mode is restored exactly.
        if (stryMutAct_9fa48("5882") ? target.kind !== "regular" : stryMutAct_9fa48("5881") ? false : stryMutAct_9fa48("5880") ? true : (stryCov_9fa48("5880", "5881", "5882"), target.kind === (stryMutAct_9fa48("5883") ? "" : (stryCov_9fa48("5883"), "regular")))) await chmod(tempPath, target.mode);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5884")) {
        {}
      } else {
        stryCov_9fa48("5884");
        pendingTempFiles.delete(tempPath);
        await rm(tempPath, stryMutAct_9fa48("5885") ? {} : (stryCov_9fa48("5885"), {
          force: stryMutAct_9fa48("5886") ? false : (stryCov_9fa48("5886"), true)
        }));
        throw fileError(error, path);
      }
    }
    let failure: LocalFileError | undefined;
    stream.on(stryMutAct_9fa48("5887") ? "" : (stryCov_9fa48("5887"), "error"), stryMutAct_9fa48("5888") ? () => undefined : (stryCov_9fa48("5888"), error => stryMutAct_9fa48("5889") ? failure &&= fileError(error, path) : (stryCov_9fa48("5889"), failure ??= fileError(error, path))));
    let done = stryMutAct_9fa48("5890") ? true : (stryCov_9fa48("5890"), false);
    return stryMutAct_9fa48("5891") ? {} : (stryCov_9fa48("5891"), {
      path,
      stream,
      failure: stryMutAct_9fa48("5892") ? () => undefined : (stryCov_9fa48("5892"), () => failure),
      async commit() {
        if (stryMutAct_9fa48("5893")) {
          {}
        } else {
          stryCov_9fa48("5893");
          if (stryMutAct_9fa48("5895") ? false : stryMutAct_9fa48("5894") ? true : (stryCov_9fa48("5894", "5895"), done)) return;
          done = stryMutAct_9fa48("5896") ? false : (stryCov_9fa48("5896"), true);
          try {
            if (stryMutAct_9fa48("5897")) {
              {}
            } else {
              stryCov_9fa48("5897");
              await endStream(stream, path, stryMutAct_9fa48("5898") ? () => undefined : (stryCov_9fa48("5898"), () => failure));
              await rename(tempPath, target.target);
            }
          } catch (error) {
            if (stryMutAct_9fa48("5899")) {
              {}
            } else {
              stryCov_9fa48("5899");
              await rm(tempPath, stryMutAct_9fa48("5900") ? {} : (stryCov_9fa48("5900"), {
                force: stryMutAct_9fa48("5901") ? false : (stryCov_9fa48("5901"), true)
              }));
              throw fileError(error, path);
            }
          } finally {
            if (stryMutAct_9fa48("5902")) {
              {}
            } else {
              stryCov_9fa48("5902");
              pendingTempFiles.delete(tempPath);
            }
          }
        }
      },
      async abort() {
        if (stryMutAct_9fa48("5903")) {
          {}
        } else {
          stryCov_9fa48("5903");
          if (stryMutAct_9fa48("5905") ? false : stryMutAct_9fa48("5904") ? true : (stryCov_9fa48("5904", "5905"), done)) return;
          done = stryMutAct_9fa48("5906") ? false : (stryCov_9fa48("5906"), true);
          stream.destroy();
          await rm(tempPath, stryMutAct_9fa48("5907") ? {} : (stryCov_9fa48("5907"), {
            force: stryMutAct_9fa48("5908") ? false : (stryCov_9fa48("5908"), true)
          }));
          pendingTempFiles.delete(tempPath);
        }
      }
    });
  }
}

/** A FIFO or device: opened for appending and written in place (nothing to rename). */
async function openDirect(path: string, target: string): Promise<AtomicFile> {
  if (stryMutAct_9fa48("5909")) {
    {}
  } else {
    stryCov_9fa48("5909");
    let stream: WriteStream;
    try {
      if (stryMutAct_9fa48("5910")) {
        {}
      } else {
        stryCov_9fa48("5910");
        stream = await openStream(target, stryMutAct_9fa48("5911") ? "" : (stryCov_9fa48("5911"), "a"), 0o600);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5912")) {
        {}
      } else {
        stryCov_9fa48("5912");
        throw fileError(error, path);
      }
    }
    let failure: LocalFileError | undefined;
    stream.on(stryMutAct_9fa48("5913") ? "" : (stryCov_9fa48("5913"), "error"), stryMutAct_9fa48("5914") ? () => undefined : (stryCov_9fa48("5914"), error => stryMutAct_9fa48("5915") ? failure &&= fileError(error, path) : (stryCov_9fa48("5915"), failure ??= fileError(error, path))));
    let done = stryMutAct_9fa48("5916") ? true : (stryCov_9fa48("5916"), false);
    return stryMutAct_9fa48("5917") ? {} : (stryCov_9fa48("5917"), {
      path,
      stream,
      failure: stryMutAct_9fa48("5918") ? () => undefined : (stryCov_9fa48("5918"), () => failure),
      async commit() {
        if (stryMutAct_9fa48("5919")) {
          {}
        } else {
          stryCov_9fa48("5919");
          if (stryMutAct_9fa48("5921") ? false : stryMutAct_9fa48("5920") ? true : (stryCov_9fa48("5920", "5921"), done)) return;
          done = stryMutAct_9fa48("5922") ? false : (stryCov_9fa48("5922"), true);
          await endStream(stream, path, stryMutAct_9fa48("5923") ? () => undefined : (stryCov_9fa48("5923"), () => failure));
        }
      },
      async abort() {
        if (stryMutAct_9fa48("5924")) {
          {}
        } else {
          stryCov_9fa48("5924");
          if (stryMutAct_9fa48("5926") ? false : stryMutAct_9fa48("5925") ? true : (stryCov_9fa48("5925", "5926"), done)) return;
          done = stryMutAct_9fa48("5927") ? false : (stryCov_9fa48("5927"), true);
          stream.destroy();
        }
      }
    });
  }
}

/** Whole-content variant for small files (manifests, settings side files). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  if (stryMutAct_9fa48("5928")) {
    {}
  } else {
    stryCov_9fa48("5928");
    const target = await checkOutputPath(path);
    if (stryMutAct_9fa48("5931") ? target.kind !== "special" : stryMutAct_9fa48("5930") ? false : stryMutAct_9fa48("5929") ? true : (stryCov_9fa48("5929", "5930", "5931"), target.kind === (stryMutAct_9fa48("5932") ? "" : (stryCov_9fa48("5932"), "special")))) {
      if (stryMutAct_9fa48("5933")) {
        {}
      } else {
        stryCov_9fa48("5933");
        try {
          if (stryMutAct_9fa48("5934")) {
            {}
          } else {
            stryCov_9fa48("5934");
            await writeFile(target.target, data, stryMutAct_9fa48("5935") ? {} : (stryCov_9fa48("5935"), {
              flag: stryMutAct_9fa48("5936") ? "" : (stryCov_9fa48("5936"), "a")
            }));
          }
        } catch (error) {
          if (stryMutAct_9fa48("5937")) {
            {}
          } else {
            stryCov_9fa48("5937");
            throw fileError(error, path);
          }
        }
        return;
      }
    }
    const tempPath = tempPathFor(target.target);
    pendingTempFiles.add(tempPath);
    try {
      if (stryMutAct_9fa48("5938")) {
        {}
      } else {
        stryCov_9fa48("5938");
        await writeFile(tempPath, data, stryMutAct_9fa48("5939") ? {} : (stryCov_9fa48("5939"), {
          mode: (stryMutAct_9fa48("5942") ? target.kind !== "regular" : stryMutAct_9fa48("5941") ? false : stryMutAct_9fa48("5940") ? true : (stryCov_9fa48("5940", "5941", "5942"), target.kind === (stryMutAct_9fa48("5943") ? "" : (stryCov_9fa48("5943"), "regular")))) ? target.mode : mode,
          flag: stryMutAct_9fa48("5944") ? "" : (stryCov_9fa48("5944"), "wx")
        }));
        if (stryMutAct_9fa48("5947") ? target.kind !== "regular" : stryMutAct_9fa48("5946") ? false : stryMutAct_9fa48("5945") ? true : (stryCov_9fa48("5945", "5946", "5947"), target.kind === (stryMutAct_9fa48("5948") ? "" : (stryCov_9fa48("5948"), "regular")))) await chmod(tempPath, target.mode);
        await rename(tempPath, target.target);
      }
    } catch (error) {
      if (stryMutAct_9fa48("5949")) {
        {}
      } else {
        stryCov_9fa48("5949");
        await rm(tempPath, stryMutAct_9fa48("5950") ? {} : (stryCov_9fa48("5950"), {
          force: stryMutAct_9fa48("5951") ? false : (stryCov_9fa48("5951"), true)
        }));
        throw fileError(error, path);
      }
    } finally {
      if (stryMutAct_9fa48("5952")) {
        {}
      } else {
        stryCov_9fa48("5952");
        pendingTempFiles.delete(tempPath);
      }
    }
  }
}