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
import { escapeForLine } from "../text/sanitize.js";

// Text for people at a terminal that never cuts what they may copy (issue 15 items 1, 2): one
// object as `key: value` lines at full length (as gh prints one item), and table cells wrapped
// onto more lines instead of shortened with "…".

/**
 * `key: value` lines, keys aligned, values whole whatever the terminal width: a link or a
 * token must survive a copy from the terminal.
 */
export function keyValueText(pairs: readonly (readonly [string, string])[], color = stryMutAct_9fa48("7081") ? true : (stryCov_9fa48("7081"), false)): string {
  if (stryMutAct_9fa48("7082")) {
    {}
  } else {
    stryCov_9fa48("7082");
    if (stryMutAct_9fa48("7085") ? pairs.length !== 0 : stryMutAct_9fa48("7084") ? false : stryMutAct_9fa48("7083") ? true : (stryCov_9fa48("7083", "7084", "7085"), pairs.length === 0)) return stryMutAct_9fa48("7086") ? "Stryker was here!" : (stryCov_9fa48("7086"), "");
    const width = pairs.reduce(stryMutAct_9fa48("7087") ? () => undefined : (stryCov_9fa48("7087"), (widest, [key]) => stryMutAct_9fa48("7088") ? Math.min(widest, key.length) : (stryCov_9fa48("7088"), Math.max(widest, key.length))), 0);
    const cyan = stryMutAct_9fa48("7089") ? () => undefined : (stryCov_9fa48("7089"), (() => {
      const cyan = (text: string): string => color ? stryMutAct_9fa48("7090") ? `` : (stryCov_9fa48("7090"), `\u001b[36m${text}\u001b[39m`) : text;
      return cyan;
    })());
    return pairs.map(stryMutAct_9fa48("7091") ? () => undefined : (stryCov_9fa48("7091"), ([key, value]) => stryMutAct_9fa48("7092") ? `` : (stryCov_9fa48("7092"), `${cyan(stryMutAct_9fa48("7093") ? `` : (stryCov_9fa48("7093"), `${escapeForLine(key)}:`))}${(stryMutAct_9fa48("7094") ? "" : (stryCov_9fa48("7094"), " ")).repeat(stryMutAct_9fa48("7095") ? width - key.length - 1 : (stryCov_9fa48("7095"), (stryMutAct_9fa48("7096") ? width + key.length : (stryCov_9fa48("7096"), width - key.length)) + 1))}${escapeForLine(value)}\n`))).join(stryMutAct_9fa48("7097") ? "Stryker was here!" : (stryCov_9fa48("7097"), ""));
  }
}

/**
 * Breaks a cell's text into lines of at most `width` characters, at spaces where it can and
 * inside a word only when one word is longer than the line. Nothing is dropped.
 */
export function wrapCell(text: string, width: number): string {
  if (stryMutAct_9fa48("7098")) {
    {}
  } else {
    stryCov_9fa48("7098");
    if (stryMutAct_9fa48("7101") ? width < 1 && text.length <= width : stryMutAct_9fa48("7100") ? false : stryMutAct_9fa48("7099") ? true : (stryCov_9fa48("7099", "7100", "7101"), (stryMutAct_9fa48("7104") ? width >= 1 : stryMutAct_9fa48("7103") ? width <= 1 : stryMutAct_9fa48("7102") ? false : (stryCov_9fa48("7102", "7103", "7104"), width < 1)) || (stryMutAct_9fa48("7107") ? text.length > width : stryMutAct_9fa48("7106") ? text.length < width : stryMutAct_9fa48("7105") ? false : (stryCov_9fa48("7105", "7106", "7107"), text.length <= width)))) return text;
    const lines: string[] = stryMutAct_9fa48("7108") ? ["Stryker was here"] : (stryCov_9fa48("7108"), []);
    let line = stryMutAct_9fa48("7109") ? "Stryker was here!" : (stryCov_9fa48("7109"), "");
    for (const word of text.split(stryMutAct_9fa48("7110") ? "" : (stryCov_9fa48("7110"), " "))) {
      if (stryMutAct_9fa48("7111")) {
        {}
      } else {
        stryCov_9fa48("7111");
        let rest = word;
        if (stryMutAct_9fa48("7114") ? line !== "" || line.length + 1 + rest.length <= width : stryMutAct_9fa48("7113") ? false : stryMutAct_9fa48("7112") ? true : (stryCov_9fa48("7112", "7113", "7114"), (stryMutAct_9fa48("7116") ? line === "" : stryMutAct_9fa48("7115") ? true : (stryCov_9fa48("7115", "7116"), line !== (stryMutAct_9fa48("7117") ? "Stryker was here!" : (stryCov_9fa48("7117"), "")))) && (stryMutAct_9fa48("7120") ? line.length + 1 + rest.length > width : stryMutAct_9fa48("7119") ? line.length + 1 + rest.length < width : stryMutAct_9fa48("7118") ? true : (stryCov_9fa48("7118", "7119", "7120"), (stryMutAct_9fa48("7121") ? line.length + 1 - rest.length : (stryCov_9fa48("7121"), (stryMutAct_9fa48("7122") ? line.length - 1 : (stryCov_9fa48("7122"), line.length + 1)) + rest.length)) <= width)))) {
          if (stryMutAct_9fa48("7123")) {
            {}
          } else {
            stryCov_9fa48("7123");
            line += stryMutAct_9fa48("7124") ? `` : (stryCov_9fa48("7124"), ` ${rest}`);
            continue;
          }
        }
        if (stryMutAct_9fa48("7127") ? line === "" : stryMutAct_9fa48("7126") ? false : stryMutAct_9fa48("7125") ? true : (stryCov_9fa48("7125", "7126", "7127"), line !== (stryMutAct_9fa48("7128") ? "Stryker was here!" : (stryCov_9fa48("7128"), "")))) lines.push(line);
        while (stryMutAct_9fa48("7131") ? rest.length <= width : stryMutAct_9fa48("7130") ? rest.length >= width : stryMutAct_9fa48("7129") ? false : (stryCov_9fa48("7129", "7130", "7131"), rest.length > width)) {
          if (stryMutAct_9fa48("7132")) {
            {}
          } else {
            stryCov_9fa48("7132");
            lines.push(stryMutAct_9fa48("7133") ? rest : (stryCov_9fa48("7133"), rest.slice(0, width)));
            rest = stryMutAct_9fa48("7134") ? rest : (stryCov_9fa48("7134"), rest.slice(width));
          }
        }
        line = rest;
      }
    }
    lines.push(line);
    return lines.join(stryMutAct_9fa48("7135") ? "" : (stryCov_9fa48("7135"), "\n"));
  }
}