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
import type { Cell } from "../domain/records.js";
import { BufferedChunkWriter } from "./chunk-writer.js";
import type { CsvRowWriter } from "./csv.js";
import type { ChunkSink, RecordStreamOptions } from "./record-types.js";
import type { RowOutput } from "./tabular-writer.js";

// csv rows once the columns are known (tabular-writer.ts decides when), through csv-stringify.

export class CsvRows implements RowOutput {
  private readonly out: BufferedChunkWriter;
  private csv: CsvRowWriter | undefined;
  constructor(sink: ChunkSink, private readonly options: RecordStreamOptions) {
    if (stryMutAct_9fa48("5967")) {
      {}
    } else {
      stryCov_9fa48("5967");
      this.out = new BufferedChunkWriter(sink, options.signal);
    }
  }
  async begin(columns: string[]): Promise<void> {
    if (stryMutAct_9fa48("5968")) {
      {}
    } else {
      stryCov_9fa48("5968");
      // Imported here: `token` and `--help` load no CSV code (start-up, README "Development").
      const {
        CsvRowWriter
      } = await import("./csv.js");
      this.csv = new CsvRowWriter(stryMutAct_9fa48("5969") ? () => undefined : (stryCov_9fa48("5969"), text => this.out.write(text)), stryMutAct_9fa48("5970") ? {} : (stryCov_9fa48("5970"), {
        bom: this.options.bom,
        delimiter: this.options.delimiter
      }));
      // No record and no --fields: no columns to name, so the document stays empty.
      if (stryMutAct_9fa48("5974") ? columns.length <= 0 : stryMutAct_9fa48("5973") ? columns.length >= 0 : stryMutAct_9fa48("5972") ? false : stryMutAct_9fa48("5971") ? true : (stryCov_9fa48("5971", "5972", "5973", "5974"), columns.length > 0)) await this.csv.row(columns);
    }
  }
  row(cells: readonly (Cell | undefined)[]): Promise<void> {
    if (stryMutAct_9fa48("5975")) {
      {}
    } else {
      stryCov_9fa48("5975");
      return this.csv!.row(cells);
    }
  }
  async end(): Promise<void> {
    if (stryMutAct_9fa48("5976")) {
      {}
    } else {
      stryCov_9fa48("5976");
      await this.csv!.end();
      await this.out.flush();
    }
  }
  abort(): void {
    if (stryMutAct_9fa48("5977")) {
      {}
    } else {
      stryCov_9fa48("5977");
      stryMutAct_9fa48("5978") ? this.csv.abort() : (stryCov_9fa48("5978"), this.csv?.abort());
    }
  }
}