import type { Cell } from "../domain/records.js";
import { escapeForLine } from "../text/sanitize.js";
import { cellText } from "./table-columns.js";

// Text for people at a terminal that never cuts what they may copy: one
// object as `key: value` lines at full length (as gh prints one item), and table cells wrapped
// onto more lines instead of shortened with "…".

/**
 * `key: value` lines, keys aligned, values whole whatever the terminal width: a link or a
 * token must survive a copy from the terminal.
 */
export function keyValueText(pairs: readonly (readonly [string, string])[], color = false): string {
  const width = pairs.reduce((widest, [key]) => Math.max(widest, key.length), 0);
  const cyan = (text: string): string => (color ? `\u001b[36m${text}\u001b[39m` : text);
  return pairs
    .map(([key, value]) => `${cyan(`${escapeForLine(key)}:`)}${" ".repeat(width - key.length + 1)}${escapeForLine(value)}\n`)
    .join("");
}

/**
 * One column's values under a table, whole, one a line after the row's `labels` (its first
 * columns, so each line says whose it is), aligned under a header line; rows without a value
 * are left out, and with none nothing is printed. A line may be longer than the terminal:
 * the terminal wraps it, and a copy still takes it whole.
 */
export function valuesBelow(
  labels: readonly string[],
  column: string,
  rows: readonly Record<string, Cell>[],
  color = false,
): string {
  const lines = rows
    .filter((row) => cellText(row[column]) !== "")
    .map((row) => [...labels.map((label) => escapeForLine(cellText(row[label]))), escapeForLine(cellText(row[column]))]);
  if (lines.length === 0) return "";
  const header = [...labels, column].map(escapeForLine);
  const widths = labels.map((_, i) => Math.max(header[i]!.length, ...lines.map((line) => line[i]!.length)));
  const cyan = (text: string): string => (color ? `\u001b[36m${text}\u001b[39m` : text);
  const join = (cells: string[]): string =>
    cells.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell)).join("  ");
  return `\n${cyan(join(header).trimEnd())}\n${lines.map((line) => `${join(line)}\n`).join("")}`;
}

/**
 * Breaks a cell's text into lines of at most `width` characters, at spaces where it can and
 * inside a word only when one word is longer than the line. Nothing is dropped.
 */
export function wrapCell(text: string, width: number): string {
  if (width < 1 || text.length <= width) return text;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    let rest = word;
    if (line !== "" && line.length + 1 + rest.length <= width) {
      line += ` ${rest}`;
      continue;
    }
    if (line !== "") lines.push(line);
    while (rest.length > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    line = rest;
  }
  lines.push(line);
  return lines.join("\n");
}
