import { UsageError } from "../errors.js";
import { ColumnSet, flattenRecord, type Cell, type JsonRecord } from "../domain/records.js";
import { escapeControlChars, escapeForLine, neutralizeCsvCell } from "./sanitize.js";
import { keyValueText, wrapCell } from "./table-text.js";

// Turns a command's result into bytes for stdout or a file. Machine formats (json, ndjson,
// csv) are stable and complete; table is for people and may shorten cells.

export const OUTPUT_FORMATS = ["table", "json", "csv", "ndjson", "text"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderOptions {
  format: OutputFormat;
  /** --fields: columns to keep, in this order. */
  fields?: string[] | undefined;
  /** --bom: UTF-8 byte-order mark before CSV, for Excel. */
  bom?: boolean;
  color?: boolean;
  /** Terminal width, to shorten table cells. */
  width?: number | undefined;
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
    }
  | {
      kind: "object";
      value: JsonRecord;
      /** The bare value for `-o text` (token, link); absent means text is not offered. */
      text?: string;
      /** Print `text` when no -o was given (config get/path: a bare value is what scripts want). */
      defaultText?: boolean;
      note?: string;
    }
  | { kind: "none" };

export const BOM = "\uFEFF";

/** Checks --fields against the columns the data (or the command) knows: exit 2 listing them. */
export function checkFields(fields: string[] | undefined, known: Iterable<string>): void {
  if (!fields) return;
  const knownSet = new Set(known);
  if (knownSet.size === 0) return; // nothing to check against (e.g. an empty report)
  const unknown = fields.filter((field) => !knownSet.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown field${unknown.length > 1 ? "s" : ""} for --fields: ${unknown.join(", ")}; known fields: ${[...knownSet].join(", ")}`,
    );
  }
}

/** Flattened rows and the column order to print them in. */
export function tabulate(
  records: JsonRecord[],
  options: {
    fields?: string[] | undefined;
    defaultColumns?: string[] | undefined;
    knownFields?: string[] | undefined;
    /** How a list of values (`tags`) is joined in one cell: `;` for CSV, `, ` for tables. */
    listJoin?: string;
  },
): { columns: string[]; rows: Record<string, Cell>[] } {
  const set = new ColumnSet();
  const rows = records.map((record) => {
    const flat = flattenRecord(record, "", {}, options.listJoin);
    set.add(Object.keys(flat));
    return flat;
  });
  checkFields(options.fields, [...(options.knownFields ?? []), ...set.columns]);
  const columns = options.fields ?? options.defaultColumns?.filter((c) => set.has(c) || records.length === 0) ?? set.columns;
  return { columns: columns.length > 0 ? columns : set.columns, rows };
}

/** For JSON with --fields: keep the named (possibly dotted) fields, in order. */
export function pickFields(record: JsonRecord, fields: string[]): JsonRecord {
  const flat = flattenRecord(record);
  const out: JsonRecord = {};
  for (const field of fields) out[field] = field in record ? record[field] : (flat[field] ?? null);
  return out;
}

export function cellText(value: Cell | undefined): string {
  if (value === null || value === undefined) return "";
  return String(value);
}

export function csvLine(cells: (Cell | undefined)[]): string {
  return (
    cells
      .map((cell) => {
        const text = typeof cell === "string" ? neutralizeCsvCell(cell) : cellText(cell);
        return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
      })
      .join(",") + "\n"
  );
}

export function renderCsv(columns: string[], rows: Record<string, Cell>[], bom = false): string {
  let out = bom ? BOM : "";
  out += csvLine(columns);
  for (const row of rows) out += csvLine(columns.map((c) => row[c]));
  return out;
}

/** The widest a non-flex column grows when one column takes the rest of the width. */
const MAX_FIXED_CELL = 40;
/** The narrowest a flex column is shortened to, even on a very narrow terminal. */
const MIN_FLEX_CELL = 10;

/** cli-table3's own border characters, named as its `chars` option names them. */
const BOX = {
  top: "─",
  "top-mid": "┬",
  "top-left": "┌",
  "top-right": "┐",
  bottom: "─",
  "bottom-mid": "┴",
  "bottom-left": "└",
  "bottom-right": "┘",
  left: "│",
  "left-mid": "├",
  mid: "─",
  "mid-mid": "┼",
  right: "│",
  "right-mid": "┤",
  middle: "│",
};

export async function renderTable(
  columns: string[],
  rows: Record<string, Cell>[],
  options: { color?: boolean; width?: number | undefined; flexColumn?: string | undefined },
): Promise<string> {
  if (rows.length === 0) return "(no results)\n";
  const { default: Table } = await import("cli-table3");
  // Every column costs 3 characters of border and padding, plus 1 for the last border.
  const width = options.width ?? 120;
  const cells = rows.map((row) => columns.map((c) => escapeForLine(cellText(row[c]))));
  // reduce, not Math.max(...cells): a spread of a long report's rows would overflow the stack.
  const natural = columns.map((column, i) =>
    cells.reduce((widest, line) => Math.max(widest, line[i]?.length ?? 0), column.length),
  );
  // A table that fits is printed whole; only one that does not is shortened, by an equal share
  // per column (or, with a flex column, by shortening that one).
  const fits = natural.reduce((sum, w) => sum + w + 3, 1) <= width;
  const maxCells = fits ? natural : columns.map(() => Math.max(12, Math.floor((width - 1) / Math.max(1, columns.length)) - 3));
  const flexIndex = options.flexColumn === undefined ? -1 : columns.indexOf(options.flexColumn);
  if (flexIndex >= 0 && !fits) {
    let used = 1;
    columns.forEach((_column, i) => {
      if (i === flexIndex) return;
      maxCells[i] = Math.min(natural[i] ?? 0, MAX_FIXED_CELL);
      used += (maxCells[i] ?? 0) + 3;
    });
    maxCells[flexIndex] = Math.max(MIN_FLEX_CELL, width - used - 3);
  }
  // Colour codes are written here, not through cli-table3's `style` (the colors package): that
  // one decides by itself from process.argv, TERM, CI and FORCE_COLOR, so a table could lose or
  // keep its colour whatever --no-color, NO_COLOR and the terminal test said (context.ts).
  const paint = (code: number) => (text: string) => (options.color ? `\u001b[${code}m${text}\u001b[39m` : text);
  const cyan = paint(36);
  const grey = paint(90);
  const table = new Table({
    head: columns.map((c) => cyan(escapeForLine(c))),
    chars: Object.fromEntries(Object.entries(BOX).map(([name, char]) => [name, grey(char)])),
    style: { head: [], border: [] },
    wordWrap: false,
  });
  // A cell wider than its share is wrapped onto more lines, never cut: a validation message,
  // an id or a link stays whole (issue 15 items 1, 2).
  for (const line of cells) table.push(line.map((text, i) => wrapCell(text, maxCells[i] ?? MAX_FIXED_CELL)));
  // Neighbouring border characters share one grey run instead of a pair of codes each.
  return `${table.toString().replaceAll("\u001b[39m\u001b[90m", "")}\n`;
}

/** Renders a complete result. Streaming writers (reports) use the same pieces. */
export async function renderResult(result: CommandResult, options: RenderOptions): Promise<string> {
  if (result.kind === "none") return "";
  const { format, fields } = options;
  if (format === "text") {
    if (result.kind === "object" && result.text !== undefined) return `${result.text}\n`;
    throw new UsageError(
      "text prints a single value: `token`, `link`, `assign`, `config get` and `config path` offer it (and any command with --query)",
      { hint: "use -o table, json, csv or ndjson" },
    );
  }
  const records = result.kind === "records" ? result.records : [result.value];
  const knownFields = result.kind === "records" ? result.knownFields : undefined;
  if (format === "json" || format === "ndjson") {
    if (fields) {
      const known = new ColumnSet();
      known.add(knownFields ?? []);
      for (const record of records) known.add([...Object.keys(record), ...Object.keys(flattenRecord(record))]);
      checkFields(fields, known.columns);
    }
    const picked = fields ? records.map((r) => pickFields(r, fields)) : records;
    if (format === "ndjson") return picked.map((r) => `${jsonText(r)}\n`).join("");
    return `${jsonText(result.kind === "object" ? picked[0] : picked, 2)}\n`;
  }
  const { columns, rows } = tabulate(records, {
    fields,
    listJoin: format === "table" ? ", " : ";",
    // tableColumns are for people; CSV is a machine format and keeps every field (as JSON),
    // with the known fields as its header when no record came back.
    defaultColumns:
      result.kind !== "records"
        ? undefined
        : format === "table"
          ? result.tableColumns
          : records.length === 0
            ? knownFields
            : undefined,
    knownFields,
  });
  if (format === "csv") return renderCsv(columns, rows, options.bom);
  if (result.kind === "object") {
    // One object prints as `key: value` lines at full length (as gh prints one item): what
    // `link` and `token` exist to give must survive a copy from the terminal (issue 15 item 1).
    return keyValueText(
      columns.map((c) => [c, cellText(rows[0]?.[c])] as const),
      options.color,
    );
  }
  return renderTable(columns, rows, { ...options, flexColumn: result.kind === "records" ? result.flexColumn : undefined });
}

/**
 * JSON.stringify escapes C0 controls but leaves DEL and C1 controls (e.g. 0x9b, a CSI) raw;
 * escaping them too keeps the document valid and harmless on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\u007f-\u009f]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Escapes a line of text from the service before it is shown on a terminal. */
export function safeText(text: string): string {
  return escapeControlChars(text);
}
