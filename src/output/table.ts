import { escapeForLine } from "../text/sanitize.js";
import { cellText, naturalWidth } from "./table-columns.js";
import { wrapCell } from "./table-text.js";
import type { Cell } from "../domain/records.js";

// A table for people at a terminal, drawn with cli-table3 (loaded only here).

/** The widest a non-flex column grows when one column takes the rest of the width. */
const MAX_FIXED_CELL = 40;
/** The narrowest a flex column is shortened to, even on a very narrow terminal. */
const MIN_FLEX_CELL = 10;
/** The narrowest a column whose words cannot all stay whole is made (the widest give up characters first). */
const MIN_SPLIT_CELL = 3;

/** The colour code of the borders (paint(90) below). */
const GREY = "\u001b[90m";

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

const sum = (widths: readonly number[]): number => widths.reduce((total, w) => total + w, 0);

/**
 * Column widths that sum to at most `room` (the width less borders and padding): each column
 * keeps its natural width when all fit; otherwise the widest are narrowed first, to one common
 * cap, so long text wraps before a date or a number does (cells wrapped,
 * never cut). The room left under the cap goes, one character each, to the columns it cut
 * most. Needs room >= natural.length (one character a column).
 */
export function fitWidths(natural: readonly number[], room: number): number[] {
  // Stryker disable next-line EqualityOperator: when the columns fill the room exactly, the search below finds the widest as the cap and nothing is spare: the same widths.
  if (sum(natural) <= room) return [...natural];
  // The largest cap c with sum(min(w, c)) <= room; c >= 1 as room >= the number of columns.
  let cap = 1;
  for (let low = 1, high = Math.max(1, ...natural); low <= high;) {
    const mid = Math.floor((low + high) / 2);
    // Stryker disable next-line EqualityOperator: with `<` the cap is one less where the sum meets the room exactly, and the spare loop below gives each column that cap cut its character back: the same widths.
    if (sum(natural.map((w) => Math.min(w, mid))) <= room) {
      cap = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  const widths = natural.map((w) => Math.min(w, cap));
  // Some column was cut (they did not all fit), and there are fewer spare characters than cut
  // columns (one more each would have fitted under cap + 1): the loop ends within the columns.
  let spare = room - sum(widths);
  for (let i = 0; spare > 0; i++) {
    if ((natural[i] ?? 0) > (widths[i] ?? 0)) {
      widths[i] = (widths[i] ?? 0) + 1;
      spare--;
    }
  }
  return widths;
}

/** Per column, the longest run without a space: what a wrapped cell cannot go below without cutting a word. */
function longestWords(columns: readonly string[], cells: readonly string[][]): number[] {
  return columns.map((column, i) =>
    cells.reduce(
      // Stryker disable next-line StringLiteral: every line has a cell for every column; `?? ""` only satisfies the index type.
      (widest, line) => (line[i] ?? "").split(" ").reduce((w, word) => Math.max(w, word.length), widest),
      Math.max(...column.split(" ").map((w) => w.length)),
    ),
  );
}

/**
 * Widths within `room` that cut no word: the widest columns give up characters first, down to
 * their longest word, so ids, dates and scores stay whole and prose wraps at spaces (a table that
 * split values mid-word was unreadable). Undefined when the words alone do not
 * fit; fitWidths then wraps inside words too.
 */
function fitToWords(natural: readonly number[], words: readonly number[], room: number): number[] | undefined {
  const widths = [...natural];
  let total = sum(widths);
  while (total > room) {
    let widest = -1;
    widths.forEach((w, i) => {
      // Stryker disable next-line ConditionalExpression: `widest < 0` forced false compares the first candidate with widths[-1] ?? 0, and every candidate is wider than 0.
      if (w > (words[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) return undefined;
    widths[widest]!--;
    total--;
  }
  return widths;
}

/**
 * When the words of every column do not fit: as many columns as can keep their longest word
 * do — columns of one-word values first (ids, timestamps, states, numbers: a value split
 * mid-word, `exec-sim-003-sl`/`ow`, reads as two values), the shortest first — and the
 * others (a link, a long token, prose) share what is left, wrapped inside their words, the
 * widest narrowed first. `words` are the values' longest words (a header may wrap mid-word).
 */
function fitKeepingShortWords(
  natural: readonly number[],
  words: readonly number[],
  oneWord: readonly boolean[],
  room: number,
): number[] | undefined {
  const floors = natural.map((w) => Math.min(w, MIN_SPLIT_CELL));
  let used = sum(floors);
  const order = words
    .map((_, i) => i)
    .sort((a, b) => Number(oneWord[b]) - Number(oneWord[a]) || (words[a] ?? 0) - (words[b] ?? 0));
  for (const i of order) {
    const whole = Math.min(words[i] ?? 1, natural[i] ?? 1);
    const more = whole - (floors[i] ?? 1);
    if (more <= 0 || used + more > room) continue;
    floors[i] = whole;
    used += more;
  }
  return fitToWords(natural, floors, room);
}

export async function renderTable(
  columns: string[],
  rows: Record<string, Cell>[],
  options: { color?: boolean | undefined; width?: number | undefined; flexColumn?: string | undefined },
): Promise<string> {
  if (rows.length === 0) return "(no results)\n";
  // Every column costs 3 characters of border and padding, plus 1 for the last border.
  const width = options.width ?? 120;
  const cells = rows.map((row) => columns.map((c) => escapeForLine(cellText(row[c]))));
  const natural = columns.map((column) => naturalWidth(column, rows));
  const room = width - 1 - 3 * columns.length;
  // Not even one character per column at a terminal's width: a table would be unreadable, so
  // say so. With no terminal (width undefined) the columns keep their width.
  // Stryker disable next-line EqualityOperator: with no width, room = 119 - 3n never equals n (columns), so `<` and `<=` agree.
  if (room < columns.length && options.width === undefined) return drawn(columns, cells, natural, options.color);
  if (room < columns.length) {
    return `(${columns.length} columns do not fit ${width} columns, even one character each: choose fewer with --fields, or use -o csv)\n`;
  }
  const words = longestWords(columns, cells);
  // Values first: a header may wrap inside a word where an id may not.
  const valueWords = longestWords(
    columns.map(() => ""),
    cells,
  );
  const oneWord = columns.map((_, i) => cells.every((line) => !(line[i] ?? "").includes(" ")));
  const maxCells =
    fitToWords(natural, words, room) ?? fitKeepingShortWords(natural, valueWords, oneWord, room) ?? fitWidths(natural, room);
  const flexIndex = columns.findIndex((column) => column === options.flexColumn);
  if (flexIndex >= 0 && sum(natural) > room) {
    // With a flex column, the others keep their width (up to MAX_FIXED_CELL) and the flex one
    // takes what is left — unless that would push the table past the width, or split a word
    // of the flex column that could have stayed whole (a timestamp; a link is longer than
    // any column and wraps anyway).
    const flexed = natural.map((w) => Math.min(w, MAX_FIXED_CELL));
    flexed[flexIndex] = Math.max(MIN_FLEX_CELL, room - (sum(flexed) - (flexed[flexIndex] ?? 0)));
    const flexWord = words[flexIndex] ?? 0;
    const splitsFlexWord = (flexed[flexIndex] ?? 0) < flexWord && flexWord <= MAX_FIXED_CELL;
    if (sum(flexed) <= room && !splitsFlexWord) maxCells.splice(0, maxCells.length, ...flexed);
  }
  return drawn(columns, cells, maxCells, options.color);
}

async function drawn(columns: string[], cells: string[][], maxCells: number[], color: boolean | undefined): Promise<string> {
  const { default: Table } = await import("cli-table3");
  // Colour codes are written here, not through cli-table3's `style` (the colors package): that
  // one decides by itself from process.argv, TERM, CI and FORCE_COLOR, so a table could lose or
  // keep its colour whatever --no-color, NO_COLOR and the terminal test said (context.ts).
  const paint = (code: number) => (text: string) => (color ? `\u001b[${code}m${text}\u001b[39m` : text);
  const cyan = paint(36);
  const grey = paint(90);
  const table = new Table({
    // A header wider than its column wraps too, or cli-table3 would widen the column past the width.
    // Each line is painted by itself so no colour code spans a line break.
    head: columns.map((c, i) =>
      wrapCell(escapeForLine(c), maxCells[i] ?? MAX_FIXED_CELL)
        .split("\n")
        .map(cyan)
        .join("\n"),
    ),
    chars: Object.fromEntries(Object.entries(BOX).map(([name, char]) => [name, grey(char)])),
    // Stryker disable next-line ArrayDeclaration: cli-table3 paints `style` only where @colors/colors finds a colour terminal (never under test; our colour is painted above).
    style: { head: [], border: [] },
    // Stryker disable next-line BooleanLiteral: wordWrap needs colWidths, which are not given; cells are wrapped by wrapCell.
    wordWrap: false,
  });
  // A cell wider than its share is wrapped onto more lines, never cut: a validation message,
  // an id or a link stays whole.
  for (const line of cells) table.push(line.map((text, i) => wrapCell(text, maxCells[i] ?? MAX_FIXED_CELL)));
  // Neighbouring border characters share one grey run instead of a pair of codes each.
  const text = table.toString().replaceAll("\u001b[39m\u001b[90m", "");
  // The line under the header stays; those between rows go (a list of a
  // hundred simulations read as a hundred boxes) — unless a cell wrapped: then the lines
  // between rows are what tells one row from the next. cli-table3 draws both alike.
  const wrapped = cells.some((line) => line.some((text, i) => text.length > (maxCells[i] ?? MAX_FIXED_CELL)));
  if (wrapped) return `${text}\n`;
  const isSeparator = (line: string): boolean => (line.startsWith(GREY) ? line.slice(GREY.length) : line).startsWith("├");
  const all = text.split("\n");
  const underHeader = all.findIndex(isSeparator);
  const lines = all.filter((line, i) => i === underHeader || !isSeparator(line));
  return `${lines.join("\n")}\n`;
}
