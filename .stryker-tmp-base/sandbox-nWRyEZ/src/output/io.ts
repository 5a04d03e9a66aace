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
import type { Readable, Writable } from "node:stream";

// One object knows where output goes and whether each stream is a terminal (after gh's
// IOStreams). Commands never touch process.stdout directly, so tests pass buffers.
export interface IOStreams {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width of stdout, when it is a terminal. */
  columns: number | undefined;
}

/**
 * The process's own streams. Node creates process.stdin and process.stderr when they are
 * first read (a stream object, and for a file or pipe the stream modules behind it), so
 * they are read only when a command asks: `simadmin --help` touches stdout alone (README,
 * Start-up).
 */
export function systemIO(): IOStreams {
  if (stryMutAct_9fa48("6269")) {
    {}
  } else {
    stryCov_9fa48("6269");
    return stryMutAct_9fa48("6270") ? {} : (stryCov_9fa48("6270"), {
      get stdout() {
        if (stryMutAct_9fa48("6271")) {
          {}
        } else {
          stryCov_9fa48("6271");
          return process.stdout;
        }
      },
      get stderr() {
        if (stryMutAct_9fa48("6272")) {
          {}
        } else {
          stryCov_9fa48("6272");
          return process.stderr;
        }
      },
      get stdin() {
        if (stryMutAct_9fa48("6273")) {
          {}
        } else {
          stryCov_9fa48("6273");
          return process.stdin;
        }
      },
      get stdoutIsTTY() {
        if (stryMutAct_9fa48("6274")) {
          {}
        } else {
          stryCov_9fa48("6274");
          return stryMutAct_9fa48("6277") ? process.stdout.isTTY !== true : stryMutAct_9fa48("6276") ? false : stryMutAct_9fa48("6275") ? true : (stryCov_9fa48("6275", "6276", "6277"), process.stdout.isTTY === (stryMutAct_9fa48("6278") ? false : (stryCov_9fa48("6278"), true)));
        }
      },
      get stderrIsTTY() {
        if (stryMutAct_9fa48("6279")) {
          {}
        } else {
          stryCov_9fa48("6279");
          return stryMutAct_9fa48("6282") ? process.stderr.isTTY !== true : stryMutAct_9fa48("6281") ? false : stryMutAct_9fa48("6280") ? true : (stryCov_9fa48("6280", "6281", "6282"), process.stderr.isTTY === (stryMutAct_9fa48("6283") ? false : (stryCov_9fa48("6283"), true)));
        }
      },
      get stdinIsTTY() {
        if (stryMutAct_9fa48("6284")) {
          {}
        } else {
          stryCov_9fa48("6284");
          return stryMutAct_9fa48("6287") ? process.stdin.isTTY !== true : stryMutAct_9fa48("6286") ? false : stryMutAct_9fa48("6285") ? true : (stryCov_9fa48("6285", "6286", "6287"), process.stdin.isTTY === (stryMutAct_9fa48("6288") ? false : (stryCov_9fa48("6288"), true)));
        }
      },
      get columns() {
        if (stryMutAct_9fa48("6289")) {
          {}
        } else {
          stryCov_9fa48("6289");
          return process.stdout.isTTY ? process.stdout.columns : undefined;
        }
      }
    });
  }
}

/** Writes a chunk and waits for the stream to accept more (backpressure for large outputs). */
export function writeChunk(stream: Writable, chunk: string | Uint8Array): Promise<void> {
  if (stryMutAct_9fa48("6290")) {
    {}
  } else {
    stryCov_9fa48("6290");
    return new Promise((resolve, reject) => {
      if (stryMutAct_9fa48("6291")) {
        {}
      } else {
        stryCov_9fa48("6291");
        const ok = stream.write(chunk, error => {
          if (stryMutAct_9fa48("6292")) {
            {}
          } else {
            stryCov_9fa48("6292");
            if (stryMutAct_9fa48("6294") ? false : stryMutAct_9fa48("6293") ? true : (stryCov_9fa48("6293", "6294"), error)) reject(error);
          }
        });
        if (stryMutAct_9fa48("6296") ? false : stryMutAct_9fa48("6295") ? true : (stryCov_9fa48("6295", "6296"), ok)) resolve();else stream.once(stryMutAct_9fa48("6297") ? "" : (stryCov_9fa48("6297"), "drain"), stryMutAct_9fa48("6298") ? () => undefined : (stryCov_9fa48("6298"), () => resolve()));
      }
    });
  }
}