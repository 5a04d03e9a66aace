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
import { once } from "node:events";
import { stringify, type Stringifier } from "csv-stringify";
import type { Cell } from "../domain/records.js";
import { neutralizeCsvCell } from "../text/sanitize.js";

// Every CSV simadmin writes for people's spreadsheets (output, `<file>.errors.csv`) goes
// through csv-stringify, with the formula guard (sanitize.ts, docs/cli-contract.md "Output")
// as its cast step, one row at a time: nothing holds the whole document.

export interface CsvOptions {
  delimiter?: "," | ";" | "\t" | undefined;
  /** Start with a UTF-8 byte-order mark (--bom, for Excel). */
  bom?: boolean | undefined;
}

/** A value holding either line-break character must be quoted, whatever the record delimiter. */
export const LINE_BREAK = stryMutAct_9fa48("5979") ? /[^\r\n]/ : (stryCov_9fa48("5979"), /[\r\n]/);

/**
 * A csv-stringify stream for spreadsheet-bound CSV. Rows are arrays of cells; `null` and
 * `undefined` are empty cells, numbers and booleans their JSON text, strings pass the
 * formula guard (a real number such as -5 is not a string and stays a number).
 */
export function csvStringifier(options: CsvOptions = {}): Stringifier {
  if (stryMutAct_9fa48("5980")) {
    {}
  } else {
    stryCov_9fa48("5980");
    return stringify(stryMutAct_9fa48("5981") ? {} : (stryCov_9fa48("5981"), {
      delimiter: stryMutAct_9fa48("5982") ? options.delimiter && "," : (stryCov_9fa48("5982"), options.delimiter ?? (stryMutAct_9fa48("5983") ? "" : (stryCov_9fa48("5983"), ","))),
      bom: stryMutAct_9fa48("5986") ? options.bom !== true : stryMutAct_9fa48("5985") ? false : stryMutAct_9fa48("5984") ? true : (stryCov_9fa48("5984", "5985", "5986"), options.bom === (stryMutAct_9fa48("5987") ? false : (stryCov_9fa48("5987"), true))),
      record_delimiter: stryMutAct_9fa48("5988") ? "" : (stryCov_9fa48("5988"), "unix"),
      // csv-stringify quotes a value holding the record delimiter (LF) but not a lone CR, which
      // every reader takes for a line end: the row would split (issue 21 item 5).
      quoted_match: LINE_BREAK,
      cast: stryMutAct_9fa48("5989") ? {} : (stryCov_9fa48("5989"), {
        string: stryMutAct_9fa48("5990") ? () => undefined : (stryCov_9fa48("5990"), value => neutralizeCsvCell(value)),
        // csv-stringify's default writes true as "1" and false as "": keep the JSON words.
        boolean: stryMutAct_9fa48("5991") ? () => undefined : (stryCov_9fa48("5991"), value => String(value))
      })
    }));
  }
}

/** Where CsvRowWriter sends its text; awaited, so a slow file or pipe slows the rows. */
export type TextSink = (text: string) => Promise<void>;

/**
 * Rows in, CSV text out to an async sink, with backpressure both ways: `row()` resolves once
 * csv-stringify can take more, and its output is handed to `sink` one chunk after another.
 */
export class CsvRowWriter {
  private readonly stringifier: Stringifier;
  private readonly pumped: Promise<void>;
  private failure: Error | undefined;
  constructor(sink: TextSink, options: CsvOptions = {}) {
    if (stryMutAct_9fa48("5992")) {
      {}
    } else {
      stryCov_9fa48("5992");
      const stringifier = csvStringifier(options);
      stringifier.setEncoding(stryMutAct_9fa48("5993") ? "" : (stryCov_9fa48("5993"), "utf8"));
      this.stringifier = stringifier;
      this.pumped = (async () => {
        if (stryMutAct_9fa48("5994")) {
          {}
        } else {
          stryCov_9fa48("5994");
          for await (const chunk of stringifier as AsyncIterable<string>) await sink(chunk);
        }
      })();
      // Remembered so that a row written after the sink failed throws instead of waiting for
      // a 'drain' that will never come.
      this.pumped.catch((error: unknown) => {
        if (stryMutAct_9fa48("5995")) {
          {}
        } else {
          stryCov_9fa48("5995");
          this.failure = error instanceof Error ? error : new Error(stryMutAct_9fa48("5996") ? `` : (stryCov_9fa48("5996"), `CSV output failed: ${String(error)}`));
        }
      });
    }
  }
  private throwIfFailed(): void {
    if (stryMutAct_9fa48("5997")) {
      {}
    } else {
      stryCov_9fa48("5997");
      if (stryMutAct_9fa48("6000") ? this.failure === undefined : stryMutAct_9fa48("5999") ? false : stryMutAct_9fa48("5998") ? true : (stryCov_9fa48("5998", "5999", "6000"), this.failure !== undefined)) throw this.failure;
    }
  }
  async row(cells: readonly (Cell | undefined)[]): Promise<void> {
    if (stryMutAct_9fa48("6001")) {
      {}
    } else {
      stryCov_9fa48("6001");
      this.throwIfFailed();
      // csv-stringify reads holes and undefined as empty cells, as null.
      if (stryMutAct_9fa48("6004") ? false : stryMutAct_9fa48("6003") ? true : stryMutAct_9fa48("6002") ? this.stringifier.write(cells) : (stryCov_9fa48("6002", "6003", "6004"), !this.stringifier.write(cells))) {
        if (stryMutAct_9fa48("6005")) {
          {}
        } else {
          stryCov_9fa48("6005");
          await Promise.race(stryMutAct_9fa48("6006") ? [] : (stryCov_9fa48("6006"), [once(this.stringifier, stryMutAct_9fa48("6007") ? "" : (stryCov_9fa48("6007"), "drain")), this.pumped]));
          this.throwIfFailed();
        }
      }
    }
  }

  /** Ends the document and waits until the sink has every byte. */
  async end(): Promise<void> {
    if (stryMutAct_9fa48("6008")) {
      {}
    } else {
      stryCov_9fa48("6008");
      this.throwIfFailed();
      this.stringifier.end();
      await this.pumped;
    }
  }

  /** Stops without completing (the caller discards the output). */
  abort(): void {
    if (stryMutAct_9fa48("6009")) {
      {}
    } else {
      stryCov_9fa48("6009");
      this.stringifier.destroy();
      this.pumped.catch(() => {});
    }
  }
}