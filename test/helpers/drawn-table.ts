// Reading back a table simadmin drew (output/table.ts), for tests that check nothing was cut.

/** A cell's text with its spaces removed: wrapping may break a value at any space. */
export const squeeze = (text: string): string => text.replace(/ /g, "");

/** Each block of a drawn table (the header, then each row) as its columns' texts, wrapped lines joined, spaces removed. */
export function columnTexts(table: string): string[][] {
  const blocks: string[][] = [];
  let block: string[] | undefined;
  for (const line of table.trimEnd().split("\n")) {
    if (!line.startsWith("│")) {
      block = undefined;
      continue;
    }
    const parts = line.split("│").slice(1, -1);
    if (!block) blocks.push((block = parts.map(() => "")));
    parts.forEach((part, i) => (block![i] += squeeze(part)));
  }
  return blocks;
}
