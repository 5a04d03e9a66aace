import { describe, expect, it } from "vitest";
import { ColumnSet, extractRecords, flattenRecord } from "../../src/domain/records.js";

describe("extractRecords (records of unknown shape)", () => {
  it.each([
    ["a top-level array is the record list", [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }]],
    ["an object with one array of objects holds the list", { data: [{ a: 1 }], generatedAt: "x" }, [{ a: 1 }]],
    ["an object with two arrays of objects is one record", { a: [{ x: 1 }], b: [{ y: 2 }] }, [{ a: [{ x: 1 }], b: [{ y: 2 }] }]],
    ["an object with no array is one record", { total: 3 }, [{ total: 3 }]],
    ["an array of scalars is not a record list inside an object", { ids: [1, 2] }, [{ ids: [1, 2] }]],
    ["scalars in a top-level array become {value}", [1, "a"], [{ value: 1 }, { value: "a" }]],
    ["null is no records", null, []],
    ["an empty array is no records", [], []],
  ])("%s", (_name, body, expected) => {
    expect(extractRecords(body)).toEqual(expected);
  });
});

describe("flattenRecord", () => {
  it("turns nested objects into dotted columns, lists of values into a;b and other arrays into JSON text", () => {
    expect(
      flattenRecord({
        id: 1,
        user: { name: "Ana", team: { name: "Sales" } },
        tags: ["a", "b"],
        items: [{ x: 1 }],
        empty: {},
        none: null,
      }),
    ).toEqual({
      id: 1,
      "user.name": "Ana",
      "user.team.name": "Sales",
      tags: "a;b",
      items: '[{"x":1}]',
      empty: null,
      none: null,
    });
  });

  it("joins a list with the separator a table asks for", () => {
    expect(flattenRecord({ tags: ["sales", "beginner"] }, "", {}, ", ")).toEqual({ tags: "sales, beginner" });
  });
});

describe("ColumnSet", () => {
  it("keeps the union of keys in first-seen order", () => {
    const set = new ColumnSet();
    set.add(["b", "a"]);
    set.add(["a", "c", "b", "d"]);
    expect(set.columns).toEqual(["b", "a", "c", "d"]);
  });
});

describe("extractRecords on answers of odd shapes (issue 27 item 3)", () => {
  it.each([
    ["undefined is no records", undefined, []],
    ['"" is no records', "", []],
    ["a number is one {value} record", 0, [{ value: 0 }]],
    ["false is one {value} record", false, [{ value: false }]],
    ["a non-empty string is one {value} record", "done", [{ value: "done" }]],
    ["a mixed top-level array: objects kept, others wrapped", [{ a: 1 }, 2, null], [{ a: 1 }, { value: 2 }, { value: null }]],
    ["{data:[…], warnings:[]}: the empty array is not a second record list", { data: [{ a: 1 }], warnings: [] }, [{ a: 1 }]],
    ["an object whose only array of objects is empty holds no records", { data: [], total: 0 }, []],
    ["two empty arrays: no list to choose, one record", { data: [], warnings: [] }, [{ data: [], warnings: [] }]],
    [
      "two non-empty lists and an empty one: one record",
      { a: [{ x: 1 }], b: [{ y: 1 }], c: [] },
      [{ a: [{ x: 1 }], b: [{ y: 1 }], c: [] }],
    ],
    [
      "an array mixing objects and scalars inside an object is no record list",
      { data: [{ a: 1 }, 2] },
      [{ data: [{ a: 1 }, 2] }],
    ],
    ["an array of arrays inside an object is no record list", { data: [[1]] }, [{ data: [[1]] }]],
  ])("%s", (_name, body, expected) => {
    expect(extractRecords(body)).toEqual(expected);
  });

  it("returns the record list itself, not a copy, when an object holds one", () => {
    const list = [{ a: 1 }];
    expect(extractRecords({ data: list })).toBe(list);
  });
});

describe("flattenRecord and ColumnSet edges (issue 27 item 3)", () => {
  it("lists of numbers and booleans are joined; an empty list is an empty cell; a list with null is JSON", () => {
    expect(flattenRecord({ a: [1, true, "x"], b: [], c: [1, null], d: [[1]] })).toEqual({
      a: "1;true;x",
      b: "",
      c: "[1,null]",
      d: "[[1]]",
    });
  });

  it("undefined is null, other values are their text, an empty object deep down is null", () => {
    expect(flattenRecord({ u: undefined, n: 10n, deep: { a: { b: {} } }, z: 0, f: false, s: "" })).toEqual({
      u: null,
      n: "10",
      "deep.a.b": null,
      z: 0,
      f: false,
      s: "",
    });
  });

  it("puts a given prefix before every column and adds to the given cells", () => {
    const out = { first: 1 };
    expect(flattenRecord({ a: 1, b: { c: 2 } }, "p", out)).toEqual({ first: 1, "p.a": 1, "p.b.c": 2 });
  });

  it("ColumnSet tells which columns it has", () => {
    const set = new ColumnSet();
    set.add(["a"]);
    expect([set.has("a"), set.has("b")]).toEqual([true, false]);
  });
});
