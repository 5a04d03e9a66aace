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
import { CsvRows } from "./csv-rows.js";
import { JsonRecordWriter } from "./json-writer.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";
import { TableRecordWriter } from "./table-writer.js";
import { TabularRecordWriter } from "./tabular-writer.js";
import { XlsxRows } from "./xlsx-rows.js";

// The output engine: every format is written here, once (issue 11, "one output engine").
// Records arrive in batches (a report window, a page) and leave as soon as the format
// allows; a command's complete result is a stream of one batch (render.ts, writeResult).
//
// - json: one valid JSON array. Streams (reports) write one record a line — compact (a
//   million records pretty-printed would double the file) yet greppable and diffable; a
//   complete result is pretty-printed (jsonIndent), and a single object is printed bare;
// - ndjson: one record a line;
// - csv and xlsx: the header is the union of the flattened columns in first-seen order,
//   which is known only after the last record. Flattened rows therefore wait in memory up
//   to 64 KiB, then in a spool file in a private (0700) temp dir, and are written after the
//   header at the end; the spool stores each row as an array in column-discovery order, so
//   nothing is remapped and no row is held in memory. With --fields the columns are known
//   up front and rows stream straight through. CSV goes through csv-stringify (csv.ts),
//   xlsx through exceljs' streaming writer (xlsx.ts, imported only for xlsx);
// - table: collected (a table is for a terminal, where a few thousand rows is already a lot).
//
// --fields: one check for every format (fields-check.ts), against the columns of the data.
//
// One file per writer: json-writer.ts, tabular-writer.ts (csv-rows.ts, xlsx-rows.ts),
// table-writer.ts (table.ts draws, table-columns.ts chooses); their types in record-types.ts.

export function createRecordWriter(sink: ChunkSink, options: RecordStreamOptions): RecordWriter {
  if (stryMutAct_9fa48("6646")) {
    {}
  } else {
    stryCov_9fa48("6646");
    switch (options.format) {
      case stryMutAct_9fa48("6647") ? "" : (stryCov_9fa48("6647"), "json"):
      case stryMutAct_9fa48("6649") ? "" : (stryCov_9fa48("6649"), "ndjson"):
        if (stryMutAct_9fa48("6648")) {} else {
          stryCov_9fa48("6648");
          return new JsonRecordWriter(sink, options);
        }
      case stryMutAct_9fa48("6651") ? "" : (stryCov_9fa48("6651"), "csv"):
        if (stryMutAct_9fa48("6650")) {} else {
          stryCov_9fa48("6650");
          return new TabularRecordWriter(new CsvRows(sink, options), options);
        }
      case stryMutAct_9fa48("6653") ? "" : (stryCov_9fa48("6653"), "xlsx"):
        if (stryMutAct_9fa48("6652")) {} else {
          stryCov_9fa48("6652");
          return new TabularRecordWriter(new XlsxRows(sink, options), options);
        }
      case stryMutAct_9fa48("6655") ? "" : (stryCov_9fa48("6655"), "table"):
        if (stryMutAct_9fa48("6654")) {} else {
          stryCov_9fa48("6654");
          return new TableRecordWriter(sink, options);
        }
    }
  }
}