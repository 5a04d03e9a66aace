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
import { randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import { link, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { isErrnoError, LocalFileError, UsageError } from "../errors.js";
import { processAlive } from "./atomic-file.js";

// An exclusive lock on a local file, for runs that must not overlap: `users import` of one
// CSV and the bulk operations of one `--from-csv` file (docs/cli-contract.md "Concurrency":
// two runs never upload the same batch twice). Issue 12 item 3.
//
// Decisions:
// - A second run does not wait: it stops at once with exit 2 naming the other run's pid
//   (and host), having sent nothing. Waiting would leave a cron job hanging behind a run that
//   may itself be waiting for a --wait timeout; and once the first run is done, the second
//   must be refused by the manifest anyway ("already imported"), so waiting buys nothing.
// - The lock is a small JSON file (pid, host, start time, command) made complete in a temp
//   file and hard-linked into place: link() fails if the lock exists, so exactly one run wins
//   and a reader never sees half an owner.
// - A lock whose owner died (same host, pid no longer running: SIGKILL, power loss) is taken
//   over. The takeover renames the lock aside first and checks that what it moved is still
//   the dead owner's, so two runs taking over at once cannot both win, and a live run's
//   fresh lock is put back if it was moved by mistake.
// - A lock of another host (a settings or project directory shared between machines) is
//   never taken over automatically: its pid means nothing here. The message says which file
//   to remove once that run is known to be gone.
// - Released at the end of the run, and synchronously on process.exit (the Ctrl-C path).

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  /** Distinguishes our own lock from a later one of a reused pid. */
  nonce: string;
}
export interface FileLock {
  readonly path: string;
  release(): Promise<void>;
}
function parseOwner(text: string): LockOwner | undefined {
  if (stryMutAct_9fa48("6061")) {
    {}
  } else {
    stryCov_9fa48("6061");
    try {
      if (stryMutAct_9fa48("6062")) {
        {}
      } else {
        stryCov_9fa48("6062");
        const value = JSON.parse(text) as Partial<LockOwner>;
        if (stryMutAct_9fa48("6065") ? typeof value.pid === "number" || typeof value.host === "string" : stryMutAct_9fa48("6064") ? false : stryMutAct_9fa48("6063") ? true : (stryCov_9fa48("6063", "6064", "6065"), (stryMutAct_9fa48("6067") ? typeof value.pid !== "number" : stryMutAct_9fa48("6066") ? true : (stryCov_9fa48("6066", "6067"), typeof value.pid === (stryMutAct_9fa48("6068") ? "" : (stryCov_9fa48("6068"), "number")))) && (stryMutAct_9fa48("6070") ? typeof value.host !== "string" : stryMutAct_9fa48("6069") ? true : (stryCov_9fa48("6069", "6070"), typeof value.host === (stryMutAct_9fa48("6071") ? "" : (stryCov_9fa48("6071"), "string")))))) {
          if (stryMutAct_9fa48("6072")) {
            {}
          } else {
            stryCov_9fa48("6072");
            return stryMutAct_9fa48("6073") ? {} : (stryCov_9fa48("6073"), {
              pid: value.pid,
              host: value.host,
              startedAt: String(stryMutAct_9fa48("6074") ? value.startedAt && "" : (stryCov_9fa48("6074"), value.startedAt ?? (stryMutAct_9fa48("6075") ? "Stryker was here!" : (stryCov_9fa48("6075"), "")))),
              command: String(stryMutAct_9fa48("6076") ? value.command && "" : (stryCov_9fa48("6076"), value.command ?? (stryMutAct_9fa48("6077") ? "Stryker was here!" : (stryCov_9fa48("6077"), "")))),
              nonce: String(stryMutAct_9fa48("6078") ? value.nonce && "" : (stryCov_9fa48("6078"), value.nonce ?? (stryMutAct_9fa48("6079") ? "Stryker was here!" : (stryCov_9fa48("6079"), ""))))
            });
          }
        }
      }
    } catch {
      // Not ours, or cut short by a crash: handled by the caller.
    }
    return undefined;
  }
}
async function readOwner(path: string): Promise<LockOwner | undefined | "gone"> {
  if (stryMutAct_9fa48("6080")) {
    {}
  } else {
    stryCov_9fa48("6080");
    try {
      if (stryMutAct_9fa48("6081")) {
        {}
      } else {
        stryCov_9fa48("6081");
        return parseOwner(await readFile(path, stryMutAct_9fa48("6082") ? "" : (stryCov_9fa48("6082"), "utf8")));
      }
    } catch (error) {
      if (stryMutAct_9fa48("6083")) {
        {}
      } else {
        stryCov_9fa48("6083");
        if (stryMutAct_9fa48("6086") ? isErrnoError(error) || error.code === "ENOENT" : stryMutAct_9fa48("6085") ? false : stryMutAct_9fa48("6084") ? true : (stryCov_9fa48("6084", "6085", "6086"), isErrnoError(error) && (stryMutAct_9fa48("6088") ? error.code !== "ENOENT" : stryMutAct_9fa48("6087") ? true : (stryCov_9fa48("6087", "6088"), error.code === (stryMutAct_9fa48("6089") ? "" : (stryCov_9fa48("6089"), "ENOENT")))))) return stryMutAct_9fa48("6090") ? "" : (stryCov_9fa48("6090"), "gone");
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("6091") ? "" : (stryCov_9fa48("6091"), "read the lock file"));
      }
    }
  }
}
function ownerIsDead(owner: LockOwner): boolean {
  if (stryMutAct_9fa48("6092")) {
    {}
  } else {
    stryCov_9fa48("6092");
    return stryMutAct_9fa48("6095") ? owner.host === hostname() || !processAlive(owner.pid) : stryMutAct_9fa48("6094") ? false : stryMutAct_9fa48("6093") ? true : (stryCov_9fa48("6093", "6094", "6095"), (stryMutAct_9fa48("6097") ? owner.host !== hostname() : stryMutAct_9fa48("6096") ? true : (stryCov_9fa48("6096", "6097"), owner.host === hostname())) && (stryMutAct_9fa48("6098") ? processAlive(owner.pid) : (stryCov_9fa48("6098"), !processAlive(owner.pid))));
  }
}

/** A lock file that holds no owner: left by a crash between create and write (never by link()). */
async function unreadableAndOld(path: string, nowMs: number): Promise<boolean> {
  if (stryMutAct_9fa48("6099")) {
    {}
  } else {
    stryCov_9fa48("6099");
    try {
      if (stryMutAct_9fa48("6100")) {
        {}
      } else {
        stryCov_9fa48("6100");
        return stryMutAct_9fa48("6104") ? nowMs - (await stat(path)).mtimeMs <= 60_000 : stryMutAct_9fa48("6103") ? nowMs - (await stat(path)).mtimeMs >= 60_000 : stryMutAct_9fa48("6102") ? false : stryMutAct_9fa48("6101") ? true : (stryCov_9fa48("6101", "6102", "6103", "6104"), (stryMutAct_9fa48("6105") ? nowMs + (await stat(path)).mtimeMs : (stryCov_9fa48("6105"), nowMs - (await stat(path)).mtimeMs)) > 60_000);
      }
    } catch {
      if (stryMutAct_9fa48("6106")) {
        {}
      } else {
        stryCov_9fa48("6106");
        return stryMutAct_9fa48("6107") ? true : (stryCov_9fa48("6107"), false);
      }
    }
  }
}

/**
 * Takes the lock at `path`, or throws UsageError (exit 2) naming the run that holds it.
 * `what` names the locked work for the message, e.g. "an import of staff.csv".
 */
export async function acquireFileLock(path: string, options: {
  what: string;
  command: string;
  now: () => number;
}): Promise<FileLock> {
  if (stryMutAct_9fa48("6108")) {
    {}
  } else {
    stryCov_9fa48("6108");
    const owner: LockOwner = stryMutAct_9fa48("6109") ? {} : (stryCov_9fa48("6109"), {
      pid: process.pid,
      host: hostname(),
      startedAt: new Date(options.now()).toISOString(),
      command: options.command,
      nonce: randomBytes(8).toString(stryMutAct_9fa48("6110") ? "" : (stryCov_9fa48("6110"), "hex"))
    });
    const temp = stryMutAct_9fa48("6111") ? `` : (stryCov_9fa48("6111"), `${path}.${process.pid}.${owner.nonce}.tmp`);
    try {
      if (stryMutAct_9fa48("6112")) {
        {}
      } else {
        stryCov_9fa48("6112");
        await writeFile(temp, stryMutAct_9fa48("6113") ? `` : (stryCov_9fa48("6113"), `${JSON.stringify(owner)}\n`), stryMutAct_9fa48("6114") ? {} : (stryCov_9fa48("6114"), {
          mode: 0o600,
          flag: stryMutAct_9fa48("6115") ? "" : (stryCov_9fa48("6115"), "wx")
        }));
      }
    } catch (error) {
      if (stryMutAct_9fa48("6116")) {
        {}
      } else {
        stryCov_9fa48("6116");
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("6117") ? "" : (stryCov_9fa48("6117"), "create the lock file"));
      }
    }
    try {
      if (stryMutAct_9fa48("6118")) {
        {}
      } else {
        stryCov_9fa48("6118");
        for (let attempt = 0; stryMutAct_9fa48("6121") ? attempt >= 5 : stryMutAct_9fa48("6120") ? attempt <= 5 : stryMutAct_9fa48("6119") ? false : (stryCov_9fa48("6119", "6120", "6121"), attempt < 5); stryMutAct_9fa48("6122") ? attempt-- : (stryCov_9fa48("6122"), attempt++)) {
          if (stryMutAct_9fa48("6123")) {
            {}
          } else {
            stryCov_9fa48("6123");
            if (stryMutAct_9fa48("6125") ? false : stryMutAct_9fa48("6124") ? true : (stryCov_9fa48("6124", "6125"), await tryLink(temp, path))) return held(path, owner);
            const current = await readOwner(path);
            if (stryMutAct_9fa48("6128") ? current !== "gone" : stryMutAct_9fa48("6127") ? false : stryMutAct_9fa48("6126") ? true : (stryCov_9fa48("6126", "6127", "6128"), current === (stryMutAct_9fa48("6129") ? "" : (stryCov_9fa48("6129"), "gone")))) continue;
            if (stryMutAct_9fa48("6131") ? false : stryMutAct_9fa48("6130") ? true : (stryCov_9fa48("6130", "6131"), (stryMutAct_9fa48("6134") ? current !== undefined : stryMutAct_9fa48("6133") ? false : stryMutAct_9fa48("6132") ? true : (stryCov_9fa48("6132", "6133", "6134"), current === undefined)) ? await unreadableAndOld(path, options.now()) : ownerIsDead(current))) {
              if (stryMutAct_9fa48("6135")) {
                {}
              } else {
                stryCov_9fa48("6135");
                await takeOver(path, current);
                continue;
              }
            }
            throw busy(path, options.what, current);
          }
        }
        throw new UsageError(stryMutAct_9fa48("6136") ? `` : (stryCov_9fa48("6136"), `${options.what} is being started by other simadmin runs at this moment; nothing was sent`), stryMutAct_9fa48("6137") ? {} : (stryCov_9fa48("6137"), {
          hint: stryMutAct_9fa48("6138") ? "" : (stryCov_9fa48("6138"), "run it again once they are done")
        }));
      }
    } finally {
      if (stryMutAct_9fa48("6139")) {
        {}
      } else {
        stryCov_9fa48("6139");
        await rm(temp, stryMutAct_9fa48("6140") ? {} : (stryCov_9fa48("6140"), {
          force: stryMutAct_9fa48("6141") ? false : (stryCov_9fa48("6141"), true)
        }));
      }
    }
  }
}
async function tryLink(temp: string, path: string): Promise<boolean> {
  if (stryMutAct_9fa48("6142")) {
    {}
  } else {
    stryCov_9fa48("6142");
    try {
      if (stryMutAct_9fa48("6143")) {
        {}
      } else {
        stryCov_9fa48("6143");
        await link(temp, path);
        return stryMutAct_9fa48("6144") ? false : (stryCov_9fa48("6144"), true);
      }
    } catch (error) {
      if (stryMutAct_9fa48("6145")) {
        {}
      } else {
        stryCov_9fa48("6145");
        if (stryMutAct_9fa48("6148") ? isErrnoError(error) || error.code === "EEXIST" : stryMutAct_9fa48("6147") ? false : stryMutAct_9fa48("6146") ? true : (stryCov_9fa48("6146", "6147", "6148"), isErrnoError(error) && (stryMutAct_9fa48("6150") ? error.code !== "EEXIST" : stryMutAct_9fa48("6149") ? true : (stryCov_9fa48("6149", "6150"), error.code === (stryMutAct_9fa48("6151") ? "" : (stryCov_9fa48("6151"), "EEXIST")))))) return stryMutAct_9fa48("6152") ? true : (stryCov_9fa48("6152"), false);
        // File systems without hard links: an exclusive create does the same, less atomically.
        if (stryMutAct_9fa48("6155") ? isErrnoError(error) || error.code === "EPERM" || error.code === "ENOTSUP" || error.code === "EOPNOTSUPP" : stryMutAct_9fa48("6154") ? false : stryMutAct_9fa48("6153") ? true : (stryCov_9fa48("6153", "6154", "6155"), isErrnoError(error) && (stryMutAct_9fa48("6157") ? (error.code === "EPERM" || error.code === "ENOTSUP") && error.code === "EOPNOTSUPP" : stryMutAct_9fa48("6156") ? true : (stryCov_9fa48("6156", "6157"), (stryMutAct_9fa48("6159") ? error.code === "EPERM" && error.code === "ENOTSUP" : stryMutAct_9fa48("6158") ? false : (stryCov_9fa48("6158", "6159"), (stryMutAct_9fa48("6161") ? error.code !== "EPERM" : stryMutAct_9fa48("6160") ? false : (stryCov_9fa48("6160", "6161"), error.code === (stryMutAct_9fa48("6162") ? "" : (stryCov_9fa48("6162"), "EPERM")))) || (stryMutAct_9fa48("6164") ? error.code !== "ENOTSUP" : stryMutAct_9fa48("6163") ? false : (stryCov_9fa48("6163", "6164"), error.code === (stryMutAct_9fa48("6165") ? "" : (stryCov_9fa48("6165"), "ENOTSUP")))))) || (stryMutAct_9fa48("6167") ? error.code !== "EOPNOTSUPP" : stryMutAct_9fa48("6166") ? false : (stryCov_9fa48("6166", "6167"), error.code === (stryMutAct_9fa48("6168") ? "" : (stryCov_9fa48("6168"), "EOPNOTSUPP")))))))) {
          if (stryMutAct_9fa48("6169")) {
            {}
          } else {
            stryCov_9fa48("6169");
            try {
              if (stryMutAct_9fa48("6170")) {
                {}
              } else {
                stryCov_9fa48("6170");
                await writeFile(path, await readFile(temp), stryMutAct_9fa48("6171") ? {} : (stryCov_9fa48("6171"), {
                  mode: 0o600,
                  flag: stryMutAct_9fa48("6172") ? "" : (stryCov_9fa48("6172"), "wx")
                }));
                return stryMutAct_9fa48("6173") ? false : (stryCov_9fa48("6173"), true);
              }
            } catch (inner) {
              if (stryMutAct_9fa48("6174")) {
                {}
              } else {
                stryCov_9fa48("6174");
                if (stryMutAct_9fa48("6177") ? isErrnoError(inner) || inner.code === "EEXIST" : stryMutAct_9fa48("6176") ? false : stryMutAct_9fa48("6175") ? true : (stryCov_9fa48("6175", "6176", "6177"), isErrnoError(inner) && (stryMutAct_9fa48("6179") ? inner.code !== "EEXIST" : stryMutAct_9fa48("6178") ? true : (stryCov_9fa48("6178", "6179"), inner.code === (stryMutAct_9fa48("6180") ? "" : (stryCov_9fa48("6180"), "EEXIST")))))) return stryMutAct_9fa48("6181") ? true : (stryCov_9fa48("6181"), false);
                throw LocalFileError.fromSystem(inner, path, stryMutAct_9fa48("6182") ? "" : (stryCov_9fa48("6182"), "create the lock file"));
              }
            }
          }
        }
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("6183") ? "" : (stryCov_9fa48("6183"), "create the lock file"));
      }
    }
  }
}

/** Moves a dead run's lock aside; puts it back if what was moved is a live run's after all. */
async function takeOver(path: string, judged: LockOwner | undefined): Promise<void> {
  if (stryMutAct_9fa48("6184")) {
    {}
  } else {
    stryCov_9fa48("6184");
    const aside = stryMutAct_9fa48("6185") ? `` : (stryCov_9fa48("6185"), `${path}.stale.${process.pid}.${randomBytes(4).toString(stryMutAct_9fa48("6186") ? "" : (stryCov_9fa48("6186"), "hex"))}`);
    try {
      if (stryMutAct_9fa48("6187")) {
        {}
      } else {
        stryCov_9fa48("6187");
        await rename(path, aside);
      }
    } catch (error) {
      if (stryMutAct_9fa48("6188")) {
        {}
      } else {
        stryCov_9fa48("6188");
        if (stryMutAct_9fa48("6191") ? isErrnoError(error) || error.code === "ENOENT" : stryMutAct_9fa48("6190") ? false : stryMutAct_9fa48("6189") ? true : (stryCov_9fa48("6189", "6190", "6191"), isErrnoError(error) && (stryMutAct_9fa48("6193") ? error.code !== "ENOENT" : stryMutAct_9fa48("6192") ? true : (stryCov_9fa48("6192", "6193"), error.code === (stryMutAct_9fa48("6194") ? "" : (stryCov_9fa48("6194"), "ENOENT")))))) return; // another run took it first
        throw LocalFileError.fromSystem(error, path, stryMutAct_9fa48("6195") ? "" : (stryCov_9fa48("6195"), "take over the stale lock file"));
      }
    }
    const moved = await readOwner(aside);
    const stillStale = stryMutAct_9fa48("6198") ? moved !== "gone" || (moved === undefined ? judged === undefined : judged !== undefined && moved.nonce === judged.nonce) : stryMutAct_9fa48("6197") ? false : stryMutAct_9fa48("6196") ? true : (stryCov_9fa48("6196", "6197", "6198"), (stryMutAct_9fa48("6200") ? moved === "gone" : stryMutAct_9fa48("6199") ? true : (stryCov_9fa48("6199", "6200"), moved !== (stryMutAct_9fa48("6201") ? "" : (stryCov_9fa48("6201"), "gone")))) && ((stryMutAct_9fa48("6204") ? moved !== undefined : stryMutAct_9fa48("6203") ? false : stryMutAct_9fa48("6202") ? true : (stryCov_9fa48("6202", "6203", "6204"), moved === undefined)) ? stryMutAct_9fa48("6207") ? judged !== undefined : stryMutAct_9fa48("6206") ? false : stryMutAct_9fa48("6205") ? true : (stryCov_9fa48("6205", "6206", "6207"), judged === undefined) : stryMutAct_9fa48("6210") ? judged !== undefined || moved.nonce === judged.nonce : stryMutAct_9fa48("6209") ? false : stryMutAct_9fa48("6208") ? true : (stryCov_9fa48("6208", "6209", "6210"), (stryMutAct_9fa48("6212") ? judged === undefined : stryMutAct_9fa48("6211") ? true : (stryCov_9fa48("6211", "6212"), judged !== undefined)) && (stryMutAct_9fa48("6214") ? moved.nonce !== judged.nonce : stryMutAct_9fa48("6213") ? true : (stryCov_9fa48("6213", "6214"), moved.nonce === judged.nonce)))));
    if (stryMutAct_9fa48("6217") ? false : stryMutAct_9fa48("6216") ? true : stryMutAct_9fa48("6215") ? stillStale : (stryCov_9fa48("6215", "6216", "6217"), !stillStale)) {
      if (stryMutAct_9fa48("6218")) {
        {}
      } else {
        stryCov_9fa48("6218");
        // A live run locked it between our look and our move: give it back (never overwriting).
        await link(aside, path).catch(() => undefined);
      }
    }
    await rm(aside, stryMutAct_9fa48("6219") ? {} : (stryCov_9fa48("6219"), {
      force: stryMutAct_9fa48("6220") ? false : (stryCov_9fa48("6220"), true)
    }));
  }
}
function busy(path: string, what: string, owner: LockOwner | undefined): UsageError {
  if (stryMutAct_9fa48("6221")) {
    {}
  } else {
    stryCov_9fa48("6221");
    if (stryMutAct_9fa48("6224") ? owner !== undefined : stryMutAct_9fa48("6223") ? false : stryMutAct_9fa48("6222") ? true : (stryCov_9fa48("6222", "6223", "6224"), owner === undefined)) {
      if (stryMutAct_9fa48("6225")) {
        {}
      } else {
        stryCov_9fa48("6225");
        return new UsageError(stryMutAct_9fa48("6226") ? `` : (stryCov_9fa48("6226"), `${what} is locked by ${path}, which names no owner; nothing was sent`), stryMutAct_9fa48("6227") ? {} : (stryCov_9fa48("6227"), {
          hint: stryMutAct_9fa48("6228") ? `` : (stryCov_9fa48("6228"), `if no other simadmin run is working on it, remove ${path}`)
        }));
      }
    }
    const where = (stryMutAct_9fa48("6231") ? owner.host !== hostname() : stryMutAct_9fa48("6230") ? false : stryMutAct_9fa48("6229") ? true : (stryCov_9fa48("6229", "6230", "6231"), owner.host === hostname())) ? stryMutAct_9fa48("6232") ? `` : (stryCov_9fa48("6232"), `pid ${owner.pid}`) : stryMutAct_9fa48("6233") ? `` : (stryCov_9fa48("6233"), `pid ${owner.pid} on host ${owner.host}`);
    return new UsageError(stryMutAct_9fa48("6234") ? `` : (stryCov_9fa48("6234"), `${what} is already running in another simadmin process (${where}, started ${owner.startedAt}); nothing was sent`), stryMutAct_9fa48("6235") ? {} : (stryCov_9fa48("6235"), {
      hint: (stryMutAct_9fa48("6238") ? owner.host !== hostname() : stryMutAct_9fa48("6237") ? false : stryMutAct_9fa48("6236") ? true : (stryCov_9fa48("6236", "6237", "6238"), owner.host === hostname())) ? stryMutAct_9fa48("6239") ? "" : (stryCov_9fa48("6239"), "wait for it to finish, then run the command again") : stryMutAct_9fa48("6240") ? `` : (stryCov_9fa48("6240"), `wait for it to finish; if that run is gone, remove ${path} and run the command again`)
    }));
  }
}
function held(path: string, owner: LockOwner): FileLock {
  if (stryMutAct_9fa48("6241")) {
    {}
  } else {
    stryCov_9fa48("6241");
    let released = stryMutAct_9fa48("6242") ? true : (stryCov_9fa48("6242"), false);
    const releaseSync = (): void => {
      if (stryMutAct_9fa48("6243")) {
        {}
      } else {
        stryCov_9fa48("6243");
        if (stryMutAct_9fa48("6245") ? false : stryMutAct_9fa48("6244") ? true : (stryCov_9fa48("6244", "6245"), released)) return;
        released = stryMutAct_9fa48("6246") ? false : (stryCov_9fa48("6246"), true);
        try {
          if (stryMutAct_9fa48("6247")) {
            {}
          } else {
            stryCov_9fa48("6247");
            unlinkSync(path);
          }
        } catch {
          // Already gone.
        }
      }
    };
    process.once(stryMutAct_9fa48("6248") ? "" : (stryCov_9fa48("6248"), "exit"), releaseSync);
    return stryMutAct_9fa48("6249") ? {} : (stryCov_9fa48("6249"), {
      path,
      async release() {
        if (stryMutAct_9fa48("6250")) {
          {}
        } else {
          stryCov_9fa48("6250");
          if (stryMutAct_9fa48("6252") ? false : stryMutAct_9fa48("6251") ? true : (stryCov_9fa48("6251", "6252"), released)) return;
          process.off(stryMutAct_9fa48("6253") ? "" : (stryCov_9fa48("6253"), "exit"), releaseSync);
          const current = await readOwner(path).catch(() => undefined);
          released = stryMutAct_9fa48("6254") ? false : (stryCov_9fa48("6254"), true);
          // Only our own lock: never one a later run holds.
          if (stryMutAct_9fa48("6257") ? current !== "gone" && current !== undefined || current.nonce === owner.nonce : stryMutAct_9fa48("6256") ? false : stryMutAct_9fa48("6255") ? true : (stryCov_9fa48("6255", "6256", "6257"), (stryMutAct_9fa48("6259") ? current !== "gone" || current !== undefined : stryMutAct_9fa48("6258") ? true : (stryCov_9fa48("6258", "6259"), (stryMutAct_9fa48("6261") ? current === "gone" : stryMutAct_9fa48("6260") ? true : (stryCov_9fa48("6260", "6261"), current !== (stryMutAct_9fa48("6262") ? "" : (stryCov_9fa48("6262"), "gone")))) && (stryMutAct_9fa48("6264") ? current === undefined : stryMutAct_9fa48("6263") ? true : (stryCov_9fa48("6263", "6264"), current !== undefined)))) && (stryMutAct_9fa48("6266") ? current.nonce !== owner.nonce : stryMutAct_9fa48("6265") ? true : (stryCov_9fa48("6265", "6266"), current.nonce === owner.nonce)))) await rm(path, stryMutAct_9fa48("6267") ? {} : (stryCov_9fa48("6267"), {
            force: stryMutAct_9fa48("6268") ? false : (stryCov_9fa48("6268"), true)
          }));
        }
      }
    });
  }
}