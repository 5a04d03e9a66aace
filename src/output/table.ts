import { escapeForLine } from "../text/sanitize.js";
import { cellText } from "./table-columns.js";
import { wrapCell } from "./table-text.js";
import type { Cell } from "../domain/records.js";

// A table for people at a terminal, drawn with cli-table3 (loaded only here).

/** The widest a non-flex column grows when one column takes the rest of the width. */
const MAX_FIXED_CELL = 40;
/** The narrowest a flex column is shortened to, even on a very narrow terminal. */
const MIN_FLEX_CELL = 10;

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

/** Per column, the longest run without a space: what a wrapped cell cannot go below without cutting a word. */
function longestWords(columns: readonly string[], cells: readonly string[][]): number[] {
  return columns.map((column, i) =>
    cells.reduce(
      (widest, line) => (line[i] ?? "").split(" ").reduce((w, word) => Math.max(w, word.length), widest),
      Math.max(...column.split(" ").map((w) => w.length)),
    ),
  );
}

/**
 * Column widths for a table wider than `width`: the widest columns give up characters first,
 * down to their longest word, so that ids, dates and scores stay whole and prose wraps at
 * spaces (issue 26 item 6: the completion table split values mid-word). Only when the words
 * alone do not fit are the columns cut to an equal share, as before.
 */
function shareWidth(natural: readonly number[], words: readonly number[], width: number): number[] {
  const budget = width - 1 - 3 * natural.length;
  const widths = [...natural];
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > budget) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > (words[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) break;
    widths[widest]!--;
    total--;
  }
  if (total <= budget) return widths;
  return natural.map(() => Math.max(12, Math.floor((width - 1) / Math.max(1, natural.length)) - 3));
}

export async function renderTable(
  columns: string[],
  rows: Record<string, Cell>[],
  options: { color?: boolean | undefined; width?: number | undefined; flexColumn?: string | undefined },
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
  const maxCells = fits ? natural : shareWidth(natural, longestWords(columns, cells), width);
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
  const text = table.toString().replaceAll("\u001b[39m\u001b[90m", "");
  // The line under the header stays; those between rows go (issue 26 item 6: a list of a
  // hundred simulations read as a hundred boxes). cli-table3 draws both alike.
  let separators = 0;
  const isSeparator = (line: string): boolean => (line.startsWith(GREY) ? line.slice(GREY.length) : line).startsWith("├");
  const lines = text.split("\n").filter((line) => !isSeparator(line) || separators++ === 0);
  return `${lines.join("\n")}\n`;
}
