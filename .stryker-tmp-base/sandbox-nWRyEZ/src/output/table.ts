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
import { cellText } from "./table-columns.js";
import { wrapCell } from "./table-text.js";
import type { Cell } from "../domain/records.js";

// A table for people at a terminal, drawn with cli-table3 (loaded only here).

/** The widest a non-flex column grows when one column takes the rest of the width. */
const MAX_FIXED_CELL = 40;
/** The narrowest a flex column is shortened to, even on a very narrow terminal. */
const MIN_FLEX_CELL = 10;

/** cli-table3's own border characters, named as its `chars` option names them. */
const BOX = stryMutAct_9fa48("7199") ? {} : (stryCov_9fa48("7199"), {
  top: stryMutAct_9fa48("7200") ? "" : (stryCov_9fa48("7200"), "─"),
  "top-mid": stryMutAct_9fa48("7201") ? "" : (stryCov_9fa48("7201"), "┬"),
  "top-left": stryMutAct_9fa48("7202") ? "" : (stryCov_9fa48("7202"), "┌"),
  "top-right": stryMutAct_9fa48("7203") ? "" : (stryCov_9fa48("7203"), "┐"),
  bottom: stryMutAct_9fa48("7204") ? "" : (stryCov_9fa48("7204"), "─"),
  "bottom-mid": stryMutAct_9fa48("7205") ? "" : (stryCov_9fa48("7205"), "┴"),
  "bottom-left": stryMutAct_9fa48("7206") ? "" : (stryCov_9fa48("7206"), "└"),
  "bottom-right": stryMutAct_9fa48("7207") ? "" : (stryCov_9fa48("7207"), "┘"),
  left: stryMutAct_9fa48("7208") ? "" : (stryCov_9fa48("7208"), "│"),
  "left-mid": stryMutAct_9fa48("7209") ? "" : (stryCov_9fa48("7209"), "├"),
  mid: stryMutAct_9fa48("7210") ? "" : (stryCov_9fa48("7210"), "─"),
  "mid-mid": stryMutAct_9fa48("7211") ? "" : (stryCov_9fa48("7211"), "┼"),
  right: stryMutAct_9fa48("7212") ? "" : (stryCov_9fa48("7212"), "│"),
  "right-mid": stryMutAct_9fa48("7213") ? "" : (stryCov_9fa48("7213"), "┤"),
  middle: stryMutAct_9fa48("7214") ? "" : (stryCov_9fa48("7214"), "│")
});
export async function renderTable(columns: string[], rows: Record<string, Cell>[], options: {
  color?: boolean | undefined;
  width?: number | undefined;
  flexColumn?: string | undefined;
}): Promise<string> {
  if (stryMutAct_9fa48("7215")) {
    {}
  } else {
    stryCov_9fa48("7215");
    if (stryMutAct_9fa48("7218") ? rows.length !== 0 : stryMutAct_9fa48("7217") ? false : stryMutAct_9fa48("7216") ? true : (stryCov_9fa48("7216", "7217", "7218"), rows.length === 0)) return stryMutAct_9fa48("7219") ? "" : (stryCov_9fa48("7219"), "(no results)\n");
    const {
      default: Table
    } = await import("cli-table3");
    // Every column costs 3 characters of border and padding, plus 1 for the last border.
    const width = stryMutAct_9fa48("7220") ? options.width && 120 : (stryCov_9fa48("7220"), options.width ?? 120);
    const cells = rows.map(stryMutAct_9fa48("7221") ? () => undefined : (stryCov_9fa48("7221"), row => columns.map(stryMutAct_9fa48("7222") ? () => undefined : (stryCov_9fa48("7222"), c => escapeForLine(cellText(row[c]))))));
    // reduce, not Math.max(...cells): a spread of a long report's rows would overflow the stack.
    const natural = columns.map(stryMutAct_9fa48("7223") ? () => undefined : (stryCov_9fa48("7223"), (column, i) => cells.reduce(stryMutAct_9fa48("7224") ? () => undefined : (stryCov_9fa48("7224"), (widest, line) => stryMutAct_9fa48("7225") ? Math.min(widest, line[i]?.length ?? 0) : (stryCov_9fa48("7225"), Math.max(widest, stryMutAct_9fa48("7226") ? line[i]?.length && 0 : (stryCov_9fa48("7226"), (stryMutAct_9fa48("7227") ? line[i].length : (stryCov_9fa48("7227"), line[i]?.length)) ?? 0)))), column.length)));
    // A table that fits is printed whole; only one that does not is shortened, by an equal share
    // per column (or, with a flex column, by shortening that one).
    const fits = stryMutAct_9fa48("7231") ? natural.reduce((sum, w) => sum + w + 3, 1) > width : stryMutAct_9fa48("7230") ? natural.reduce((sum, w) => sum + w + 3, 1) < width : stryMutAct_9fa48("7229") ? false : stryMutAct_9fa48("7228") ? true : (stryCov_9fa48("7228", "7229", "7230", "7231"), natural.reduce(stryMutAct_9fa48("7232") ? () => undefined : (stryCov_9fa48("7232"), (sum, w) => stryMutAct_9fa48("7233") ? sum + w - 3 : (stryCov_9fa48("7233"), (stryMutAct_9fa48("7234") ? sum - w : (stryCov_9fa48("7234"), sum + w)) + 3)), 1) <= width);
    const maxCells = fits ? natural : columns.map(stryMutAct_9fa48("7235") ? () => undefined : (stryCov_9fa48("7235"), () => stryMutAct_9fa48("7236") ? Math.min(12, Math.floor((width - 1) / Math.max(1, columns.length)) - 3) : (stryCov_9fa48("7236"), Math.max(12, stryMutAct_9fa48("7237") ? Math.floor((width - 1) / Math.max(1, columns.length)) + 3 : (stryCov_9fa48("7237"), Math.floor(stryMutAct_9fa48("7238") ? (width - 1) * Math.max(1, columns.length) : (stryCov_9fa48("7238"), (stryMutAct_9fa48("7239") ? width + 1 : (stryCov_9fa48("7239"), width - 1)) / (stryMutAct_9fa48("7240") ? Math.min(1, columns.length) : (stryCov_9fa48("7240"), Math.max(1, columns.length))))) - 3)))));
    const flexIndex = (stryMutAct_9fa48("7243") ? options.flexColumn !== undefined : stryMutAct_9fa48("7242") ? false : stryMutAct_9fa48("7241") ? true : (stryCov_9fa48("7241", "7242", "7243"), options.flexColumn === undefined)) ? stryMutAct_9fa48("7244") ? +1 : (stryCov_9fa48("7244"), -1) : columns.indexOf(options.flexColumn);
    if (stryMutAct_9fa48("7247") ? flexIndex >= 0 || !fits : stryMutAct_9fa48("7246") ? false : stryMutAct_9fa48("7245") ? true : (stryCov_9fa48("7245", "7246", "7247"), (stryMutAct_9fa48("7250") ? flexIndex < 0 : stryMutAct_9fa48("7249") ? flexIndex > 0 : stryMutAct_9fa48("7248") ? true : (stryCov_9fa48("7248", "7249", "7250"), flexIndex >= 0)) && (stryMutAct_9fa48("7251") ? fits : (stryCov_9fa48("7251"), !fits)))) {
      if (stryMutAct_9fa48("7252")) {
        {}
      } else {
        stryCov_9fa48("7252");
        let used = 1;
        columns.forEach((_column, i) => {
          if (stryMutAct_9fa48("7253")) {
            {}
          } else {
            stryCov_9fa48("7253");
            if (stryMutAct_9fa48("7256") ? i !== flexIndex : stryMutAct_9fa48("7255") ? false : stryMutAct_9fa48("7254") ? true : (stryCov_9fa48("7254", "7255", "7256"), i === flexIndex)) return;
            maxCells[i] = stryMutAct_9fa48("7257") ? Math.max(natural[i] ?? 0, MAX_FIXED_CELL) : (stryCov_9fa48("7257"), Math.min(stryMutAct_9fa48("7258") ? natural[i] && 0 : (stryCov_9fa48("7258"), natural[i] ?? 0), MAX_FIXED_CELL));
            stryMutAct_9fa48("7259") ? used -= (maxCells[i] ?? 0) + 3 : (stryCov_9fa48("7259"), used += stryMutAct_9fa48("7260") ? (maxCells[i] ?? 0) - 3 : (stryCov_9fa48("7260"), (stryMutAct_9fa48("7261") ? maxCells[i] && 0 : (stryCov_9fa48("7261"), maxCells[i] ?? 0)) + 3));
          }
        });
        maxCells[flexIndex] = stryMutAct_9fa48("7262") ? Math.min(MIN_FLEX_CELL, width - used - 3) : (stryCov_9fa48("7262"), Math.max(MIN_FLEX_CELL, stryMutAct_9fa48("7263") ? width - used + 3 : (stryCov_9fa48("7263"), (stryMutAct_9fa48("7264") ? width + used : (stryCov_9fa48("7264"), width - used)) - 3)));
      }
    }
    // Colour codes are written here, not through cli-table3's `style` (the colors package): that
    // one decides by itself from process.argv, TERM, CI and FORCE_COLOR, so a table could lose or
    // keep its colour whatever --no-color, NO_COLOR and the terminal test said (context.ts).
    const paint = stryMutAct_9fa48("7265") ? () => undefined : (stryCov_9fa48("7265"), (() => {
      const paint = (code: number) => stryMutAct_9fa48("7266") ? () => undefined : (stryCov_9fa48("7266"), (text: string) => options.color ? stryMutAct_9fa48("7267") ? `` : (stryCov_9fa48("7267"), `\u001b[${code}m${text}\u001b[39m`) : text);
      return paint;
    })());
    const cyan = paint(36);
    const grey = paint(90);
    const table = new Table(stryMutAct_9fa48("7268") ? {} : (stryCov_9fa48("7268"), {
      head: columns.map(stryMutAct_9fa48("7269") ? () => undefined : (stryCov_9fa48("7269"), c => cyan(escapeForLine(c)))),
      chars: Object.fromEntries(Object.entries(BOX).map(stryMutAct_9fa48("7270") ? () => undefined : (stryCov_9fa48("7270"), ([name, char]) => stryMutAct_9fa48("7271") ? [] : (stryCov_9fa48("7271"), [name, grey(char)])))),
      style: stryMutAct_9fa48("7272") ? {} : (stryCov_9fa48("7272"), {
        head: stryMutAct_9fa48("7273") ? ["Stryker was here"] : (stryCov_9fa48("7273"), []),
        border: stryMutAct_9fa48("7274") ? ["Stryker was here"] : (stryCov_9fa48("7274"), [])
      }),
      wordWrap: stryMutAct_9fa48("7275") ? true : (stryCov_9fa48("7275"), false)
    }));
    // A cell wider than its share is wrapped onto more lines, never cut: a validation message,
    // an id or a link stays whole (issue 15 items 1, 2).
    for (const line of cells) table.push(line.map(stryMutAct_9fa48("7276") ? () => undefined : (stryCov_9fa48("7276"), (text, i) => wrapCell(text, stryMutAct_9fa48("7277") ? maxCells[i] && MAX_FIXED_CELL : (stryCov_9fa48("7277"), maxCells[i] ?? MAX_FIXED_CELL)))));
    // Neighbouring border characters share one grey run instead of a pair of codes each.
    return stryMutAct_9fa48("7278") ? `` : (stryCov_9fa48("7278"), `${table.toString().replaceAll(stryMutAct_9fa48("7279") ? "" : (stryCov_9fa48("7279"), "\u001b[39m\u001b[90m"), stryMutAct_9fa48("7280") ? "Stryker was here!" : (stryCov_9fa48("7280"), ""))}\n`);
  }
}