import { describe, expect, it } from "vitest";
import { columnTypeOf, q } from "../../src/commands/reports-sync/connection.js";

// What `reports sync` reads back of an existing table (docs/reports-sync.md): the column type
// each database's information_schema spelling stands for, and identifiers quoted for both.

describe("columnTypeOf", () => {
  it.each([
    ["BOOLEAN", "boolean"],
    ["boolean", "boolean"],
    ["BIGINT", "bigint"],
    ["INTEGER", "bigint"],
    ["integer", "bigint"],
    ["DOUBLE", "double"],
    ["double precision", "double"],
    ["DATE", "date"],
    ["TIMESTAMP", "timestamp"],
    ["TIMESTAMP WITH TIME ZONE", "timestamp"],
    ["timestamp with time zone", "timestamp"],
    ["timestamp without time zone", "timestamp"],
    ["VARCHAR", "text"],
    ["text", "text"],
    ["JSON", "text"],
    ["jsonb", "text"],
    ["real", "text"],
    ["smallint", "text"],
    ["time", "text"],
    ["a timestamp", "text"],
  ])("%s is %s", (dataType, expected) => {
    expect(columnTypeOf(dataType)).toBe(expected);
  });
});

describe("q", () => {
  it("quotes a name, doubling its quotes", () => {
    expect(q("user")).toBe('"user"');
    expect(q("a b")).toBe('"a b"');
    expect(q('say "hi"')).toBe('"say ""hi"""');
    expect(q('"')).toBe('""""');
    expect(q("")).toBe('""');
  });
});
