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
import type { IOStreams } from "./io.js";
import { escapeForLine } from "../text/sanitize.js";

// Long work shows a spinner with counts on stderr — only when stderr is a terminal and
// --quiet is off, so cron mail and CI logs stay clean (docs/cli-contract.md, "Progress").

export interface Progress {
  /** Replaces the spinner text (starts the spinner on first use). */
  update(text: string): void;
  /** Stops the spinner, leaving `text` as a final line when given. */
  done(text?: string): void;
}
const silent: Progress = stryMutAct_9fa48("6445") ? {} : (stryCov_9fa48("6445"), {
  update() {},
  done() {}
});
export async function createProgress(io: IOStreams, options: {
  quiet: boolean;
  color: boolean;
}): Promise<Progress> {
  if (stryMutAct_9fa48("6446")) {
    {}
  } else {
    stryCov_9fa48("6446");
    if (stryMutAct_9fa48("6449") ? options.quiet && !io.stderrIsTTY : stryMutAct_9fa48("6448") ? false : stryMutAct_9fa48("6447") ? true : (stryCov_9fa48("6447", "6448", "6449"), options.quiet || (stryMutAct_9fa48("6450") ? io.stderrIsTTY : (stryCov_9fa48("6450"), !io.stderrIsTTY)))) return silent;
    // A terminal that reports 0 columns (a pty without a size) makes ora divide by zero and
    // flood the screen with cursor moves: no spinner there.
    if (stryMutAct_9fa48("6453") ? false : stryMutAct_9fa48("6452") ? true : stryMutAct_9fa48("6451") ? (io.stderr as {
      columns?: number;
    }).columns ?? 0 : (stryCov_9fa48("6451", "6452", "6453"), !(stryMutAct_9fa48("6454") ? (io.stderr as {
      columns?: number;
    }).columns && 0 : (stryCov_9fa48("6454"), (io.stderr as {
      columns?: number;
    }).columns ?? 0)))) return silent;
    const {
      default: ora
    } = await import("ora");
    const spinner = ora(stryMutAct_9fa48("6455") ? {} : (stryCov_9fa48("6455"), {
      stream: io.stderr,
      color: stryMutAct_9fa48("6456") ? "" : (stryCov_9fa48("6456"), "cyan"),
      isEnabled: stryMutAct_9fa48("6457") ? false : (stryCov_9fa48("6457"), true),
      discardStdin: stryMutAct_9fa48("6458") ? true : (stryCov_9fa48("6458"), false)
    }));
    return stryMutAct_9fa48("6459") ? {} : (stryCov_9fa48("6459"), {
      // Spinner lines carry taskIds and labels from the service and file names: escaped.
      update(text) {
        if (stryMutAct_9fa48("6460")) {
          {}
        } else {
          stryCov_9fa48("6460");
          spinner.text = escapeForLine(text);
          if (stryMutAct_9fa48("6463") ? false : stryMutAct_9fa48("6462") ? true : stryMutAct_9fa48("6461") ? spinner.isSpinning : (stryCov_9fa48("6461", "6462", "6463"), !spinner.isSpinning)) spinner.start();
        }
      },
      done(text) {
        if (stryMutAct_9fa48("6464")) {
          {}
        } else {
          stryCov_9fa48("6464");
          if (stryMutAct_9fa48("6466") ? false : stryMutAct_9fa48("6465") ? true : (stryCov_9fa48("6465", "6466"), text)) spinner.stopAndPersist(stryMutAct_9fa48("6467") ? {} : (stryCov_9fa48("6467"), {
            symbol: options.color ? stryMutAct_9fa48("6468") ? "" : (stryCov_9fa48("6468"), "\u001b[32m✔\u001b[39m") : stryMutAct_9fa48("6469") ? "" : (stryCov_9fa48("6469"), "✔"),
            text: escapeForLine(text)
          }));else spinner.stop();
        }
      }
    });
  }
}