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
import type { ReadStream } from "node:tty";
import { InterruptedError } from "../errors.js";
import type { IOStreams } from "./io.js";

// Questions go to stderr so that stdout stays clean data even when a prompt is shown.

/** Reads a line without echoing it (for the API key). Requires stdin to be a terminal. */
export function promptHidden(io: IOStreams, question: string): Promise<string> {
  if (stryMutAct_9fa48("6470")) {
    {}
  } else {
    stryCov_9fa48("6470");
    const stdin = io.stdin as ReadStream;
    io.stderr.write(question);
    return new Promise((resolve, reject) => {
      if (stryMutAct_9fa48("6471")) {
        {}
      } else {
        stryCov_9fa48("6471");
        let value = stryMutAct_9fa48("6472") ? "Stryker was here!" : (stryCov_9fa48("6472"), "");
        const wasRaw = stdin.isRaw;
        stryMutAct_9fa48("6473") ? stdin.setRawMode(true) : (stryCov_9fa48("6473"), stdin.setRawMode?.(stryMutAct_9fa48("6474") ? false : (stryCov_9fa48("6474"), true)));
        stdin.resume();
        stdin.setEncoding(stryMutAct_9fa48("6475") ? "" : (stryCov_9fa48("6475"), "utf8"));
        const finish = (error?: Error): void => {
          if (stryMutAct_9fa48("6476")) {
            {}
          } else {
            stryCov_9fa48("6476");
            stdin.off(stryMutAct_9fa48("6477") ? "" : (stryCov_9fa48("6477"), "data"), onData);
            stryMutAct_9fa48("6478") ? stdin.setRawMode(wasRaw ?? false) : (stryCov_9fa48("6478"), stdin.setRawMode?.(stryMutAct_9fa48("6479") ? wasRaw && false : (stryCov_9fa48("6479"), wasRaw ?? (stryMutAct_9fa48("6480") ? true : (stryCov_9fa48("6480"), false)))));
            stdin.pause();
            io.stderr.write(stryMutAct_9fa48("6481") ? "" : (stryCov_9fa48("6481"), "\n"));
            if (stryMutAct_9fa48("6483") ? false : stryMutAct_9fa48("6482") ? true : (stryCov_9fa48("6482", "6483"), error)) reject(error);else resolve(value);
          }
        };
        const onData = (chunk: string): void => {
          if (stryMutAct_9fa48("6484")) {
            {}
          } else {
            stryCov_9fa48("6484");
            for (const ch of chunk) {
              if (stryMutAct_9fa48("6485")) {
                {}
              } else {
                stryCov_9fa48("6485");
                if (stryMutAct_9fa48("6488") ? ch === "\r" && ch === "\n" : stryMutAct_9fa48("6487") ? false : stryMutAct_9fa48("6486") ? true : (stryCov_9fa48("6486", "6487", "6488"), (stryMutAct_9fa48("6490") ? ch !== "\r" : stryMutAct_9fa48("6489") ? false : (stryCov_9fa48("6489", "6490"), ch === (stryMutAct_9fa48("6491") ? "" : (stryCov_9fa48("6491"), "\r")))) || (stryMutAct_9fa48("6493") ? ch !== "\n" : stryMutAct_9fa48("6492") ? false : (stryCov_9fa48("6492", "6493"), ch === (stryMutAct_9fa48("6494") ? "" : (stryCov_9fa48("6494"), "\n")))))) return finish();
                if (stryMutAct_9fa48("6497") ? ch !== "\u0003" : stryMutAct_9fa48("6496") ? false : stryMutAct_9fa48("6495") ? true : (stryCov_9fa48("6495", "6496", "6497"), ch === (stryMutAct_9fa48("6498") ? "" : (stryCov_9fa48("6498"), "\u0003")))) return finish(new InterruptedError()); // Ctrl-C in raw mode
                if (stryMutAct_9fa48("6501") ? ch !== "\u0004" : stryMutAct_9fa48("6500") ? false : stryMutAct_9fa48("6499") ? true : (stryCov_9fa48("6499", "6500", "6501"), ch === (stryMutAct_9fa48("6502") ? "" : (stryCov_9fa48("6502"), "\u0004")))) return finish(); // Ctrl-D
                if (stryMutAct_9fa48("6505") ? ch === "\u007f" && ch === "\b" : stryMutAct_9fa48("6504") ? false : stryMutAct_9fa48("6503") ? true : (stryCov_9fa48("6503", "6504", "6505"), (stryMutAct_9fa48("6507") ? ch !== "\u007f" : stryMutAct_9fa48("6506") ? false : (stryCov_9fa48("6506", "6507"), ch === (stryMutAct_9fa48("6508") ? "" : (stryCov_9fa48("6508"), "\u007f")))) || (stryMutAct_9fa48("6510") ? ch !== "\b" : stryMutAct_9fa48("6509") ? false : (stryCov_9fa48("6509", "6510"), ch === (stryMutAct_9fa48("6511") ? "" : (stryCov_9fa48("6511"), "\b")))))) value = stryMutAct_9fa48("6512") ? value : (stryCov_9fa48("6512"), value.slice(0, stryMutAct_9fa48("6513") ? +1 : (stryCov_9fa48("6513"), -1)));else if (stryMutAct_9fa48("6517") ? ch < " " : stryMutAct_9fa48("6516") ? ch > " " : stryMutAct_9fa48("6515") ? false : stryMutAct_9fa48("6514") ? true : (stryCov_9fa48("6514", "6515", "6516", "6517"), ch >= (stryMutAct_9fa48("6518") ? "" : (stryCov_9fa48("6518"), " ")))) stryMutAct_9fa48("6519") ? value -= ch : (stryCov_9fa48("6519"), value += ch);
              }
            }
          }
        };
        stdin.on(stryMutAct_9fa48("6520") ? "" : (stryCov_9fa48("6520"), "data"), onData);
      }
    });
  }
}

/** Reads all of stdin (for --with-key). */
export async function readAllStdin(io: IOStreams): Promise<string> {
  if (stryMutAct_9fa48("6521")) {
    {}
  } else {
    stryCov_9fa48("6521");
    const chunks: Buffer[] = stryMutAct_9fa48("6522") ? ["Stryker was here"] : (stryCov_9fa48("6522"), []);
    for await (const chunk of io.stdin) chunks.push((stryMutAct_9fa48("6525") ? typeof chunk !== "string" : stryMutAct_9fa48("6524") ? false : stryMutAct_9fa48("6523") ? true : (stryCov_9fa48("6523", "6524", "6525"), typeof chunk === (stryMutAct_9fa48("6526") ? "" : (stryCov_9fa48("6526"), "string")))) ? Buffer.from(chunk) : chunk as Buffer);
    return Buffer.concat(chunks).toString(stryMutAct_9fa48("6527") ? "" : (stryCov_9fa48("6527"), "utf8"));
  }
}

/** Asks a yes/no question on a terminal; anything but y/yes is no. */
export async function confirm(io: IOStreams, question: string): Promise<boolean> {
  if (stryMutAct_9fa48("6528")) {
    {}
  } else {
    stryCov_9fa48("6528");
    const {
      createInterface
    } = await import("node:readline/promises");
    const rl = createInterface(stryMutAct_9fa48("6529") ? {} : (stryCov_9fa48("6529"), {
      input: io.stdin,
      output: io.stderr,
      terminal: stryMutAct_9fa48("6530") ? false : (stryCov_9fa48("6530"), true)
    }));
    try {
      if (stryMutAct_9fa48("6531")) {
        {}
      } else {
        stryCov_9fa48("6531");
        const answer = await rl.question(stryMutAct_9fa48("6532") ? `` : (stryCov_9fa48("6532"), `${question} [y/N] `));
        return (stryMutAct_9fa48("6535") ? /^y(es)$/i : stryMutAct_9fa48("6534") ? /^y(es)?/i : stryMutAct_9fa48("6533") ? /y(es)?$/i : (stryCov_9fa48("6533", "6534", "6535"), /^y(es)?$/i)).test(stryMutAct_9fa48("6536") ? answer : (stryCov_9fa48("6536"), answer.trim()));
      }
    } finally {
      if (stryMutAct_9fa48("6537")) {
        {}
      } else {
        stryCov_9fa48("6537");
        rl.close();
      }
    }
  }
}