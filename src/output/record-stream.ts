import { CsvRows } from "./csv-rows.js";
import { JsonRecordWriter } from "./json-writer.js";
import type { ChunkSink, RecordStreamOptions, RecordWriter } from "./record-types.js";
import { TableRecordWriter } from "./table-writer.js";
import { TabularRecordWriter } from "./tabular-writer.js";
import { XlsxRows } from "./xlsx-rows.js";

// The output engine: every format is written here, once ("one output engine").
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
  switch (options.format) {
    case "json":
    case "ndjson":
      return new JsonRecordWriter(sink, options);
    case "csv":
      return new TabularRecordWriter(new CsvRows(sink, options), options);
    case "xlsx":
      return new TabularRecordWriter(new XlsxRows(sink, options), options);
    case "table":
      return new TableRecordWriter(sink, options);
  }
}
