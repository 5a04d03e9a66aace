import { JsonNumber } from "../domain/exact-json.js";
import { escapeForLine } from "../text/sanitize.js";
import type { Cell } from "../domain/records.js";

// Which columns a terminal table shows when --fields is not given, chosen from the records
// themselves (docs/cli-contract.md, "Records of unknown shape"): the spec
// marks report fields "not shown", so no list of a kind's columns may decide it. Each
// column is ranked by what its values look like — a date, who or what the row is about (a
// name or title; a user or simulation id when there is no name), then numbers, then short
// words, before other ids and long text — and as many as fit the width are shown, in that
// order: a table says who and when before how much (docs/report-output.md). The rest are
// one `--fields` or `-o csv` away (tableHint).

/** What a column looks like, most telling first: the value is the rank. */
const Rank = { Date: 0, Label: 1, EntityId: 2, Number: 3, Short: 4, Id: 5, Long: 6, Empty: 7 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

/** Names and titles that lead (who and what: a trainee's name and a simulation's title); more are short text. */
const LEADING_LABELS = 2;
/** Without any name or title, the ids of what the row is about lead instead (`userId`, `simulationId`). */
const LEADING_ENTITY_IDS = 2;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:$|[T ])/;
/** The last part of a dotted name: `user.displayName` → `displayName`. */
const lastPart = (column: string): string => column.slice(column.lastIndexOf(".") + 1);
/** `name`, `title`, `userName`, `display_name`, `label`, `email`: who or what a row is about. */
const LABEL_NAME = /(?:^|[a-z_-])(?:name|title|label|email)$|^(?:name|title|label|email)/i;
/** The id of the row itself, not of what it is about: `id`, `recordId`, `row_id`, `uuid`. */
const RECORD_ID_NAME = /^(?:id|uuid|guid|record[_-]?id|recordId|row[_-]?id|rowId)$/i;
/** A name or title up to this long still leads (a simulation's title is often longer than a word). */
const LONG_LABEL = 48;
/** `id`, `userId`, `user_id`, `ID`, `uuid`, `guid`, `key` — what identifies a row, not what describes it. */
const ID_NAME = /(?:^|[._-])id$|[a-z]Id$|ID$|^(?:uuid|guid)$|[a-z](?:Uuid|Guid)$/;
/** A value shaped like an identifier: a UUID, or hex of 16 digits or more. */
const ID_VALUE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i;
/** Text longer than this is read, not scanned: it goes last (a note, a description). */
const LONG_TEXT = 32;

/** A cell as a table shows it: empty for null. */
export function cellText(value: Cell | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/**
 * An id of what the row is about rather than of the row: `userId`, `user.id`, `simulation_id`
 * (a dotted `user.id` is named by its parent). Not `id`, `recordId`, `uuid`.
 */
function isEntityId(column: string): boolean {
  const name = lastPart(column);
  if (name.toLowerCase() === "id") return column.includes(".");
  return ID_NAME.test(name) && !RECORD_ID_NAME.test(name);
}

function rankOf(column: string, values: readonly (Cell | undefined)[]): Rank {
  const present = values.filter((v) => v !== null && v !== undefined && v !== "");
  if (present.length === 0) return Rank.Empty;
  const name = lastPart(column);
  const strings = present.filter((v): v is string => typeof v === "string");
  if (strings.length === present.length && strings.every((v) => ISO_DATE.test(v))) return Rank.Date;
  const id = isEntityId(column) ? Rank.EntityId : Rank.Id;
  if (present.every((v) => typeof v === "number" || v instanceof JsonNumber)) return ID_NAME.test(name) ? id : Rank.Number;
  if (ID_NAME.test(name) || (strings.length > 0 && strings.every((v) => ID_VALUE.test(v)))) return id;
  const widest = present.reduce<number>((w, v) => Math.max(w, cellText(v).length), 0);
  if (LABEL_NAME.test(name) && strings.length === present.length && widest <= LONG_LABEL) return Rank.Label;
  if (widest > LONG_TEXT) return Rank.Long;
  return Rank.Short;
}

/**
 * The columns in the order a table should offer them: the first date, the first two names or
 * titles (or, with none, the first two user or simulation ids), the numbers, short words
 * (other dates and names among them), other ids, long text, empty columns; first-seen order
 * within each.
 */
export function rankColumns(columns: readonly string[], rows: readonly Record<string, Cell>[]): string[] {
  const ranked = columns.map((column) => ({
    column,
    rank: rankOf(
      column,
      rows.map((row) => row[column]),
    ),
  }));
  // One date and two labels lead; the others are ordinary short columns.
  for (const [lead, count] of [
    [Rank.Date, 1],
    [Rank.Label, LEADING_LABELS],
  ] as const) {
    for (const entry of ranked.filter((e) => e.rank === lead).slice(count)) entry.rank = Rank.Short;
  }
  // Ids say who the row is about only where no name does.
  const labelled = ranked.some((e) => e.rank === Rank.Label);
  for (const entry of ranked.filter((e) => e.rank === Rank.EntityId).slice(labelled ? 0 : LEADING_ENTITY_IDS)) {
    entry.rank = Rank.Id;
  }
  // Array.prototype.sort is stable (ES2019): equal ranks keep first-seen order.
  return ranked.sort((a, b) => a.rank - b.rank).map((e) => e.column);
}

export interface TableColumns {
  /** Shown, in this order. */
  shown: string[];
  /** Left out, most telling first (the first is the one a hint suggests adding). */
  hidden: string[];
  /** Each column's natural width (header or widest cell), so a hint can check what fits. */
  widths?: Record<string, number>;
}

/** A column's natural width as a table draws it: its header or its widest (escaped) cell. */
export function naturalWidth(column: string, rows: readonly Record<string, Cell>[]): number {
  // reduce, not Math.max(...cells): a spread of a long report's rows would overflow the stack.
  return rows.reduce(
    (widest, row) => Math.max(widest, escapeForLine(cellText(row[column])).length),
    escapeForLine(column).length,
  );
}

/** The width of a table of these columns at natural width: 3 per column (border, padding), plus 1. */
function tableWidth(columns: readonly string[], widths: Readonly<Record<string, number>>): number {
  return columns.reduce((sum, column) => sum + (widths[column] ?? column.length) + 3, 1);
}

/**
 * As many of the ranked columns as fit `width` with their natural width (header or widest
 * cell, plus 3 for border and padding); a column that does not fit is skipped for a
 * narrower one after it. At least one is shown (its cells wrap).
 */
export function chooseTableColumns(
  columns: readonly string[],
  rows: readonly Record<string, Cell>[],
  width: number,
): TableColumns {
  return fitColumns(rankColumns(columns, rows), rows, width);
}

/**
 * As many of `ordered` (most wanted first) as fit `width` with their natural width, as
 * chooseTableColumns; for a command that knows its columns' order of importance itself
 * (users sync's plan). The first is always shown.
 */
export function fitColumns(ordered: readonly string[], rows: readonly Record<string, Cell>[], width: number): TableColumns {
  const shown: string[] = [];
  const widths: Record<string, number> = {};
  let used = 1;
  for (const column of ordered) {
    const natural = naturalWidth(column, rows);
    widths[column] = natural;
    if (shown.length > 0 && used + natural + 3 > width) continue;
    shown.push(column);
    used += natural + 3;
  }
  return { shown, hidden: ordered.filter((column) => !shown.includes(column)), widths };
}

/**
 * The --fields a hint suggests: columns whose table fits `width` without wrapping (the hint
 * the table prints must itself work). The first hidden column that can
 * fit at all is added, and the least telling shown columns (the last, as shown is in rank
 * order) make room for it. Undefined when no hidden column fits even beside the first shown.
 */
function fittingFields(choice: TableColumns, width: number | undefined): string[] | undefined {
  const { shown, hidden } = choice;
  const widths = choice.widths ?? {};
  for (const extra of hidden) {
    for (let keep = shown.length; keep >= 1; keep--) {
      const wanted = [...shown.slice(0, keep), extra];
      if (width === undefined || tableWidth(wanted, widths) <= width) return wanted;
    }
  }
  return undefined;
}

/** A word the shell passes as it is; anything else goes in single quotes (for hints that are pasted back). */
export function shellWord(text: string): string {
  return /^[\w.,@%+=:/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The one hint line under a table that left columns out. Every command it suggests works
 * as written: `--fields` names columns the records have whose table fits the width unwrapped
 * (fittingFields; quoted for the shell when needed, and only when no name holds a comma,
 * which --fields could not express), `-o csv` and `-o json` keep every column.
 */
export function tableHint(subject: string, choice: TableColumns, width: number | undefined): string {
  const { shown, hidden } = choice;
  const total = shown.length + hidden.length;
  const fit = width === undefined ? "" : ` to fit ${width} columns`;
  const head = `${subject}: ${shown.length} of ${total} columns shown${fit}; left out: ${hidden.join(", ")}`;
  const wanted = fittingFields(choice, width);
  const fields = wanted === undefined || wanted.some((c) => c.includes(",")) ? "" : `--fields ${shellWord(wanted.join(","))} or `;
  return `${head} (${fields}-o csv / -o json for every column)`;
}
