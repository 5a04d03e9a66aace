import { escapeForLine } from "../text/sanitize.js";

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
