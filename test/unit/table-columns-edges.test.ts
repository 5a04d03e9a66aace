import { describe, expect, it } from "vitest";
import type { Cell } from "../../src/domain/records.js";
import { cellText, fitColumns, naturalWidth, rankColumns, shellWord, tableHint } from "../../src/output/table-columns.js";

// The edges of how a table chooses its columns (issue 21 item 1; issue 27 item 3: each case is
// a boundary or a rule a mutant changed and no test noticed).

const order = (rows: Record<string, Cell>[]): string[] => rankColumns(Object.keys(rows[0]!), rows);

describe("cellText", () => {
  it.each([
    [null, ""],
    [undefined, ""],
    ["", ""],
    [0, "0"],
    [false, "false"],
    ["Ana", "Ana"],
  ] as const)("shows %j as %j", (value, text) => {
    expect(cellText(value)).toBe(text);
  });
});

describe("rankColumns: what a column's values look like", () => {
  it("takes a column of empty strings for empty: it goes after an id", () => {
    expect(order([{ blank: "", id: "x" }])).toEqual(["id", "blank"]);
  });

  it("ranks a numeric record id with the ids, after short words", () => {
    expect(order([{ recordId: 5, n: 1, word: "x" }])).toEqual(["n", "word", "recordId"]);
  });

  it("without a name, the ids of who the row is about lead before the numbers (two at most); the row's own id stays last", () => {
    expect(order([{ id: "r1", n: 1, userId: 5, "simulation.id": "s", word: "x", teamId: "t" }])).toEqual([
      "userId",
      "simulation.id",
      "n",
      "word",
      "id",
      "teamId",
    ]);
  });

  it("with a name, a user id is one of the ids again", () => {
    expect(order([{ userId: "u-1", n: 1, name: "Al" }])).toEqual(["name", "n", "userId"]);
  });

  it("does not take a column for a date when one of its values is a number", () => {
    expect(
      order([
        { word: "x", when: "2026-01-01" },
        { word: "y", when: 5 },
      ]),
    ).toEqual(["word", "when"]);
  });

  it("does not take a column for a date when one of its strings is not a date", () => {
    expect(
      order([
        { word: "x", when: "2026-01-01" },
        { word: "y", when: "soon" },
      ]),
    ).toEqual(["word", "when"]);
  });

  it("does not take a column for numbers when one value is a word", () => {
    expect(
      order([
        { word: "x", n: 5 },
        { word: "y", n: "five" },
      ]),
    ).toEqual(["word", "n"]);
  });

  it("ranks a column of 16 hex digits as an id, but not a column of booleans", () => {
    expect(order([{ ref: "0123456789abcdef", flag: true }])).toEqual(["flag", "ref"]);
  });

  it("does not take a column for ids when only some of its strings look like one", () => {
    expect(
      order([
        { id: "a", ref: "0123456789abcdef" },
        { id: "b", ref: "soon" },
      ]),
    ).toEqual(["ref", "id"]);
  });

  it("keeps text of 32 characters short and sends text of 33 after the ids", () => {
    expect(order([{ long: "x".repeat(33), short: "y".repeat(32), id: "ab" }])).toEqual(["short", "id", "long"]);
  });

  it("does not lead with a name column holding a number", () => {
    expect(
      order([
        { n: 1, name: "Ana" },
        { n: 2, name: 7 },
      ]),
    ).toEqual(["n", "name"]);
  });

  it("leads with the first two name columns (who and what); a third one is an ordinary short column", () => {
    expect(order([{ n: 1, title: "A", name: "B", "team.label": "C" }])).toEqual(["title", "name", "n", "team.label"]);
  });

  it("an email leads as a name; a title up to 48 characters still leads, a longer one is long text", () => {
    const title = "Handling Difficult Conversations With Empathy";
    expect(order([{ n: 1, email: "al@example.com", title }])).toEqual(["email", "title", "n"]);
    expect(order([{ n: 1, title: `${title} and Care` }])).toEqual(["n", "title"]);
  });

  it("ranks a column by the values it has: a missing or null cell does not stop a date column leading", () => {
    expect(order([{ word: "x", when: null }, { word: "y" }, { word: "z", when: "2026-10-01" }])).toEqual(["when", "word"]);
  });

  it("reads a dotted column by its last part: `user.title` leads as a title, `user.uuid` goes with the ids", () => {
    expect(order([{ "user.uuid": "u", note: "x", "user.title": "A" }])).toEqual(["user.title", "note", "user.uuid"]);
  });

  it("keeps first-seen order among columns of one rank", () => {
    expect(order([{ c: "x", a: "y", b: "z" }])).toEqual(["c", "a", "b"]);
  });
});

describe("naturalWidth", () => {
  it("is the widest cell as a table escapes it", () => {
    expect(naturalWidth("c", [{ c: "a\u001bb" }, { c: "abc" }])).toBe(8); // a\u001bb
  });

  it("is the header when it is wider than every cell, escaped too", () => {
    expect(naturalWidth("x\ty", [{ "x\ty": "a" }])).toBe(4); // x\ty
    expect(naturalWidth("total", [{ total: 1 }, { total: 22 }])).toBe(5);
  });
});

describe("fitColumns", () => {
  const rows = [{ a: "xxxx", wide: "w".repeat(20), b: "yy" }];

  it("fits a column that ends exactly at the width", () => {
    // 1 + (4 + 3) + (2 + 3) = 13
    expect(fitColumns(["a", "b"], rows, 13).shown).toEqual(["a", "b"]);
    expect(fitColumns(["a", "b"], rows, 12)).toEqual({ shown: ["a"], hidden: ["b"], widths: { a: 4, b: 2 } });
  });

  it("skips a column that does not fit for a narrower one after it", () => {
    expect(fitColumns(["a", "wide", "b"], rows, 14)).toEqual({
      shown: ["a", "b"],
      hidden: ["wide"],
      widths: { a: 4, wide: 20, b: 2 },
    });
  });

  it("always shows the first column", () => {
    expect(fitColumns(["wide", "a"], rows, 5)).toEqual({ shown: ["wide"], hidden: ["a"], widths: { wide: 20, a: 4 } });
  });
});

describe("tableHint's --fields", () => {
  it("counts each column's header width when no widths are known: 3 a column plus 1", () => {
    // date + name: 1 + (4 + 3) + (4 + 3) = 15
    expect(tableHint("k", { shown: ["date"], hidden: ["name"] }, 15)).toBe(
      "k: 1 of 2 columns shown to fit 15 columns; left out: name (--fields date,name or -o csv / -o json for every column)",
    );
    expect(tableHint("k", { shown: ["date"], hidden: ["name"] }, 14)).toBe(
      "k: 1 of 2 columns shown to fit 14 columns; left out: name (-o csv / -o json for every column)",
    );
  });

  it("keeps only the first shown column when that is what makes room", () => {
    const widths = { a: 10, b: 10, c: 10 };
    // a + b + c: 1 + 3 * 13 = 40 > 30; a + c: 1 + 2 * 13 = 27
    expect(tableHint("k", { shown: ["a", "b"], hidden: ["c"], widths }, 30)).toContain("(--fields a,c or ");
  });

  it("suggests the first hidden column that can fit, passing over one that cannot", () => {
    const widths = { a: 10, huge: 90, small: 5 };
    expect(tableHint("k", { shown: ["a"], hidden: ["huge", "small"], widths }, 40)).toBe(
      "k: 1 of 3 columns shown to fit 40 columns; left out: huge, small (--fields a,small or -o csv / -o json for every column)",
    );
  });

  it("without a width says nothing of fitting and adds the first hidden column to all shown", () => {
    expect(tableHint("k", { shown: ["a", "b"], hidden: ["c", "d"], widths: { a: 90, b: 90, c: 90 } }, undefined)).toBe(
      "k: 2 of 4 columns shown; left out: c, d (--fields a,b,c or -o csv / -o json for every column)",
    );
  });
});

describe("shellWord", () => {
  it("passes a word of letters, digits and . , @ % + = : / - _ as it is", () => {
    expect(shellWord("user.name,a_b@x%y+z=w:v/u-t9")).toBe("user.name,a_b@x%y+z=w:v/u-t9");
  });

  it.each([
    ["a b", "'a b'"],
    ["a$b", "'a$b'"],
    ["", "''"],
    ["it's", "'it'\\''s'"],
  ])("quotes %j as %s", (text, quoted) => {
    expect(shellWord(text)).toBe(quoted);
  });
});
