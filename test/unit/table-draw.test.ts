import { describe, expect, it } from "vitest";
import { fitWidths, renderTable } from "../../src/output/table.js";

// How a table is drawn at a width (issue 21 item 1, issue 26 item 6; issue 27 item 3: each
// case pins a width, a border or a line a mutant changed and no test noticed).

/** `count` one-letter words: "a a a …" (2 × count − 1 characters), so a wrapped line fills an odd width exactly. */
const words = (letter: string, count: number): string => Array<string>(count).fill(letter).join(" ");

/** A top border for columns of these drawn widths (each plus one space either side). */
const top = (...widths: number[]): string => `┌${widths.map((w) => "─".repeat(w + 2)).join("┬")}┐`;

describe("fitWidths", () => {
  it("narrows the widest to one common cap, the room exactly", () => {
    // cap 18: 10 + 4 + 18 + 18 = 50; cap 19 would be 52
    expect(fitWidths([10, 4, 60, 40], 50)).toEqual([10, 4, 18, 18]);
  });

  it("gives the room left under the cap to the first columns it cut", () => {
    expect(fitWidths([10, 4, 60, 40], 51)).toEqual([10, 4, 19, 18]);
    // cap 4 (3 + 4 + 4 = 11): the spare character goes to the first cut column, not to the 3.
    expect(fitWidths([3, 9, 9], 12)).toEqual([3, 5, 4]);
  });

  it("keeps natural widths that fill the room exactly", () => {
    expect(fitWidths([10, 5], 15)).toEqual([10, 5]);
  });
});

describe("renderTable", () => {
  const title = words("a", 16); // 31 characters
  const desc = words("b", 50); // 99 characters

  it("without a flex column narrows the widest first, down to a common width", async () => {
    // room 61 - 1 - 6 = 54: desc gives up characters until both are 27 wide.
    const text = await renderTable(["title", "desc"], [{ title, desc }], { width: 61 });
    expect(text.split("\n")[0]).toBe(top(27, 27));
  });

  it("gives the flex column what the others leave", async () => {
    const text = await renderTable(["title", "desc"], [{ title, desc }], { width: 61, flexColumn: "desc" });
    expect(text.split("\n")[0]).toBe(top(31, 23));
  });

  it("gives the flex column what the others leave when it is the first column", async () => {
    // room 54: desc keeps 40 (its cap), title gets 14 and wraps at 13 ("a a …").
    const text = await renderTable(["title", "desc"], [{ title, desc }], { width: 61, flexColumn: "title" });
    expect(text.split("\n")[0]).toBe(top(13, 39));
  });

  it("keeps a fixed column at most 40 wide beside the flex column", async () => {
    const long = `${"x".repeat(40)} ${"y".repeat(10)}`; // 51: wraps after the 40 x's
    const text = await renderTable(["title", "desc"], [{ title: long, desc }], { width: 68, flexColumn: "desc" });
    // room 68 - 7 = 61: title 40, desc 21
    expect(text.split("\n")[0]).toBe(top(40, 21));
  });

  it("gives a flex column at least 10, and then ignores it when that overflows", async () => {
    const long = `${"x".repeat(40)} ${"y".repeat(10)}`;
    // room 52 - 7 = 45: the flex share would be 5, raised to 10, 50 > 45: the common fit instead.
    const text = await renderTable(["title", "desc"], [{ title: long, desc }], { width: 52, flexColumn: "desc" });
    expect(text.split("\n")[0]).toBe(top(40, 5));
  });

  it("ignores a flex column the table does not show", async () => {
    const text = await renderTable(["title", "desc"], [{ title, desc }], { width: 61, flexColumn: "nope" });
    expect(text.split("\n")[0]).toBe(top(27, 27));
  });

  it("draws one character a column when that is exactly the room", async () => {
    // 4 columns at width 17: room 17 - 1 - 12 = 4
    const text = await renderTable(["a", "b", "c", "d"], [{ a: "x", b: "y", c: "z", d: "w" }], { width: 17 });
    expect(text).toBe(
      ["┌───┬───┬───┬───┐", "│ a │ b │ c │ d │", "├───┼───┼───┼───┤", "│ x │ y │ z │ w │", "└───┴───┴───┴───┘", ""].join("\n"),
    );
  });

  it("says in one line that the columns do not fit one character each", async () => {
    const text = await renderTable(["a", "b", "c", "d"], [{ a: "x", b: "y", c: "z", d: "w" }], { width: 16 });
    expect(text).toBe("(4 columns do not fit 16 columns, even one character each: choose fewer with --fields, or use -o csv)\n");
  });

  it("with no terminal width keeps 30 columns at their width past 120 characters", async () => {
    const columns = Array.from({ length: 30 }, (_, i) => `c${String(i).padStart(2, "0")}`);
    const row = Object.fromEntries(columns.map((c) => [c, "v"]));
    const text = await renderTable(columns, [row], {});
    expect(text.split("\n")[0]).toBe(top(...columns.map(() => 3)));
    expect(text.split("\n")[0]).toHaveLength(181);
  });

  it("draws a line under the header only, between rows none", async () => {
    const text = await renderTable(
      ["a", "b"],
      [
        { a: "x", b: "y" },
        { a: "z", b: "w" },
      ],
      {},
    );
    expect(text).toBe(["┌───┬───┐", "│ a │ b │", "├───┼───┤", "│ x │ y │", "│ z │ w │", "└───┴───┘", ""].join("\n"));
  });

  it("keeps the lines between rows when a cell wrapped", async () => {
    const text = await renderTable(
      ["a", "b"],
      [
        { a: "x", b: "y" },
        { a: "z w", b: "w" },
      ],
      { width: 10 },
    );
    expect(text).toBe(
      ["┌───┬───┐", "│ a │ b │", "├───┼───┤", "│ x │ y │", "├───┼───┤", "│ z │ w │", "│ w │   │", "└───┴───┘", ""].join("\n"),
    );
  });

  it("paints the header cyan and the borders grey, one grey run per border line, and drops the row lines", async () => {
    const grey = (text: string): string => `\u001b[90m${text}\u001b[39m`;
    const cyan = (text: string): string => `\u001b[36m${text}\u001b[39m`;
    const text = await renderTable(
      ["a", "b"],
      [
        { a: "x", b: "y" },
        { a: "z", b: "w" },
      ],
      { color: true },
    );
    expect(text).toBe(
      [
        grey("┌───┬───┐"),
        `${grey("│")} ${cyan("a")} ${grey("│")} ${cyan("b")} ${grey("│")}`,
        grey("├───┼───┤"),
        `${grey("│")} x ${grey("│")} y ${grey("│")}`,
        `${grey("│")} z ${grey("│")} w ${grey("│")}`,
        grey("└───┴───┘"),
        "",
      ].join("\n"),
    );
  });

  it("wraps a header wider than its column, painting each of its lines", async () => {
    const cyan = (text: string): string => `\u001b[36m${text}\u001b[39m`;
    const text = await renderTable(["ab cd"], [{ "ab cd": "x" }], { width: 6, color: true });
    const lines = text.split("\n");
    expect(lines[1]).toContain(`${cyan("ab")} `);
    expect(lines[2]).toContain(`${cyan("cd")} `);
  });

  it("does not cut a word to make room when a wider column can give", async () => {
    // room 27 - 7 = 20 for 12 + 19: the note wraps at its spaces, the id stays whole (a
    // common cap of 10 would cut it).
    const id = "0123456789ab";
    const note = "aaaa bbbb cccc dddd";
    const text = await renderTable(["id", "note"], [{ id, note }], { width: 27 });
    expect(text.split("\n").slice(3)).toEqual([
      `│ ${id} │ aaaa │`,
      "│              │ bbbb │",
      "│              │ cccc │",
      "│              │ dddd │",
      "└──────────────┴──────┘",
      "",
    ]);
  });
});

describe("renderTable: which column gives up width", () => {
  it("keeps a header's longest word whole, then wraps inside words when words alone do not fit", async () => {
    // natural 10 and 10 in room 15; the header words hold the first column at 7, the second at 10:
    // words cannot fit, so the widest give up characters in turn (7 and 8; values keep their
    // one-character words); "aa bbbbbbb" wraps to 7 drawn, "cccccccccc" inside its word.
    const text = await renderTable(["aa bbbbbbb", "cccccccccc"], [{ "aa bbbbbbb": "x", cccccccccc: "y" }], { width: 22 });
    expect(text.split("\n")[0]).toBe(top(7, 8));
  });

  it("narrows the first of two equally wide columns first", async () => {
    const cell = "xxxx yyyyy";
    // room 19: the first is narrowed to 9, where "xxxx yyyyy" wraps to 5 drawn.
    const text = await renderTable(["a", "b"], [{ a: cell, b: cell }], { width: 26 });
    expect(text.split("\n")[0]).toBe(top(5, 10));
  });

  it("fits 120 characters when no width is known", async () => {
    const text = await renderTable(["a"], [{ a: "x".repeat(130) }], {});
    expect(text.split("\n")[0]).toBe(top(116));
  });

  it("leaves a flex column's neighbours whole when everything fits, to the last character", async () => {
    const row = { a: "x".repeat(50), f: "y" };
    expect((await renderTable(["a", "f"], [row], { width: 120, flexColumn: "f" })).split("\n")[0]).toBe(top(50, 1));
    expect((await renderTable(["a", "f"], [row], { width: 58, flexColumn: "f" })).split("\n")[0]).toBe(top(50, 1));
  });

  it("without a flex column, wraps a long word to the room, not to the flex cap of 40", async () => {
    const text = await renderTable(["a", "f"], [{ a: "x".repeat(50), f: "y" }], { width: 50 });
    expect(text.split("\n")[0]).toBe(top(42, 1));
  });
});
