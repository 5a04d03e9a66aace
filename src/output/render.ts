import { UsageError } from "../errors.js";
import { extractRecords, type JsonRecord } from "../domain/records.js";
import { BufferedChunkWriter } from "./chunk-writer.js";
import { jsonText } from "./json-text.js";
import { createRecordWriter } from "./record-stream.js";
import type { ChunkSink } from "./record-types.js";

// A command's complete result, printed: a stream of one batch through the output engine
// (record-stream.ts), so every format is written in one place with one --fields check.
// Machine formats (json, ndjson, csv, xlsx) are stable and complete; table is for people
// and may shorten cells.

export const OUTPUT_FORMATS = ["table", "json", "csv", "ndjson", "xlsx", "text"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderOptions {
  format: OutputFormat;
  /** --fields: columns to keep, in this order. */
  fields?: string[] | undefined;
  /** --bom: UTF-8 byte-order mark before CSV, for Excel. */
  bom?: boolean;
  /** --delimiter: the CSV delimiter; default ",". */
  delimiter?: "," | ";" | "\t" | undefined;
  color?: boolean;
  /** Terminal width, to shorten table cells. */
  width?: number | undefined;
  /** xlsx: the sheet's name. */
  sheetName?: string | undefined;
}

/** What a command hands back for printing. */
export type CommandResult =
  | {
      kind: "records";
      records: JsonRecord[];
      /** Table columns when --fields is not given (json/csv keep every field). */
      tableColumns?: string[];
      /** Columns that exist even when no record came back, for --fields checks. */
      knownFields?: string[];
      /** A line for people after a table (e.g. a summary); stderr, never in machine output. */
      note?: string;
      /**
       * Table only: the one column that takes the width left over (library's description),
       * shortened to fit; the others keep their natural width. Without it every column gets
       * an equal share, which would cut short ids and titles to make room for nothing.
       */
      flexColumn?: string;
      /** Table only: a column printed whole under the table when it cannot fit (RecordStreamOptions). */
      wholeColumn?: string;
    }
  | {
      kind: "object";
      value: JsonRecord;
      /** The bare value for `-o text` (token, link); absent means text is not offered. */
      text?: string;
      /** Fields --fields may name beyond the object's own keys (printed empty). */
      knownFields?: string[];
      note?: string;
    }
  | {
      /**
       * A service answer of any shape (`simadmin api`): printed as JSON as it came unless -o
       * or --out asks for a format, and then by shape — table, csv, ndjson and xlsx take its
       * records (docs/cli-contract.md, "Records of unknown shape"), text its bare values.
       */
      kind: "answer";
      value: unknown;
    }
  | { kind: "none" };

/**
 * A JSON value (a --query answer) as a result: a list as records (non-objects in a `value`
 * column), an object as one object, any other value as one `value` record.
 */
export function resultOfJson(value: unknown): CommandResult {
  const isObject = (v: unknown): v is JsonRecord => typeof v === "object" && v !== null && !Array.isArray(v);
  if (Array.isArray(value)) return { kind: "records", records: value.map((v) => (isObject(v) ? v : { value: v })) };
  if (isObject(value)) return { kind: "object", value };
  return { kind: "records", records: value === null ? [] : [{ value }], knownFields: ["value"] };
}

/** Writes a complete result to a sink in the chosen format. */
export async function writeResult(result: CommandResult, sink: ChunkSink, options: RenderOptions): Promise<void> {
  if (result.kind === "none") return;
  if (result.kind === "answer") {
    if (options.format === "json" && !options.fields) {
      const out = new BufferedChunkWriter(sink);
      await out.write(`${jsonText(result.value, 2)}\n`);
      await out.flush();
      return;
    }
    return writeResult({ kind: "records", records: extractRecords(result.value) }, sink, options);
  }
  const { format } = options;
  if (format === "text") {
    // Stryker disable next-line ConditionalExpression: only an object result has a text (records never carry one).
    if (result.kind === "object" && result.text !== undefined) {
      const out = new BufferedChunkWriter(sink);
      await out.write(`${result.text}\n`);
      await out.flush();
      return;
    }
    throw new UsageError(
      "text prints a single value: `token`, `link`, `assign`, `config get` and `config path` offer it (and any command with --query)",
      { hint: "use -o table, json, csv or ndjson" },
    );
  }
  const records = result.kind === "records" ? result.records : [result.value];
  const knownFields = result.knownFields;
  // An object result has none of these fields, so reading them there gives undefined too.
  // Stryker disable ConditionalExpression
  const { tableColumns, flexColumn, wholeColumn } =
    result.kind === "records" ? result : ({} as Partial<typeof result & { kind: "records" }>);
  // Stryker restore ConditionalExpression
  const writer = createRecordWriter(sink, {
    format,
    fields: options.fields,
    knownFields,
    bom: options.bom,
    delimiter: options.delimiter,
    color: options.color,
    width: options.width,
    // tableColumns are for people; csv is a machine format and keeps every field (as json).
    tableColumns,
    flexColumn,
    wholeColumn,
    jsonIndent: true,
    single: result.kind === "object",
    sheetName: options.sheetName,
  });
  try {
    await writer.writeBatch(records);
    await writer.end();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** A complete result as text (every format but xlsx, whose bytes are binary). */
export async function renderResult(result: CommandResult, options: RenderOptions): Promise<string> {
  if (options.format === "xlsx") throw new TypeError("renderResult: xlsx is binary; use writeResult");
  let text = "";
  await writeResult(
    result,
    {
      toTerminal: false,
      write: async (chunk) => {
        // Text formats only (xlsx is refused above): every chunk is a string.
        text += String(chunk);
      },
    },
    options,
  );
  return text;
}
