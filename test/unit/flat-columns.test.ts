import { describe, expect, it } from "vitest";
import { JsonNumber, parseExactJson } from "../../src/domain/exact-json.js";
import { FlatColumns } from "../../src/domain/flat-columns.js";
import { flattenRecord, type Cell, type JsonRecord } from "../../src/domain/records.js";

// The csv/xlsx writer's cells (src/domain/flat-columns.ts) must be flattenRecord's, in the
// columns a flat record per record would have given them: the same names, in first-seen order.

/** The columns and rows as made before: flattenRecord per record, each name looked up. */
function byFlattening(records: JsonRecord[]): { columns: string[]; rows: Cell[][] } {
  const columns: string[] = [];
  const rows = records.map((record) => {
    const flat = flattenRecord(record);
    const row: Cell[] = [];
    for (const key in flat) {
      if (!columns.includes(key)) columns.push(key);
      row[columns.indexOf(key)] = flat[key]!;
    }
    return row;
  });
  return { columns, rows };
}

function byTree(records: JsonRecord[]): { columns: string[]; rows: Cell[][] } {
  const flat = new FlatColumns();
  const rows = records.map((record) => flat.row(record));
  return { columns: flat.columns, rows };
}

describe("FlatColumns", () => {
  it("names nested values by their dotted path, in first-seen order, holes where a record lacks one", () => {
    const got = byTree([
      { id: 1, user: { name: "Ana", team: { name: "Sales" } } },
      { user: { name: "Bo" }, score: 9 },
    ]);
    expect(got.columns).toEqual(["id", "user.name", "user.team.name", "score"]);
    expect(got.rows).toEqual([
      [1, "Ana", "Sales"],
      [undefined, "Bo", undefined, 9],
    ]);
  });

  it("gives what flattenRecord gives, for every kind of value and name", () => {
    const records = [
      ...(parseExactJson(
        '[{"a.b": 1, "a": {"b": 2}}, {"__proto__": 5, "x": {"__proto__": {"y": 1}}}, {"7": [1, "a", true], "e": {}, "l": [{"q": 1}], "n": null},' +
          '{"big": 12345678901234567890, "a": {"b": {}}, "3": {"1": "z"}}, {"a": 7, "tags": []}, {"a": {"b": 3, "c": [null]}}, {}]',
      ) as JsonRecord[]),
      { u: undefined, d: new Date(0), nested: { list: [new JsonNumber("1e400"), 2] } },
      // JSON.parse makes "__proto__" a key of its own.
      JSON.parse('{"__proto__": 5, "k": 1}') as JsonRecord,
      JSON.parse('{"__proto__": {"y": 1}, "k": {"__proto__": null}}') as JsonRecord,
    ];
    expect(byTree(records)).toEqual(byFlattening(records));
  });
});
