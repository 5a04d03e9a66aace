import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { compileQuery, renderQueried, resultJson } from "../../src/output/query.js";

// --query (docs/cli-contract.md, global options; issue 16 item 3): compiled before anything is
// sent, applied to what `-o json` would print, the answer printed by its shape.

async function usageError(run: () => unknown): Promise<UsageError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error("expected a usage error");
}

describe("compileQuery", () => {
  it.each(["", "   "])("refuses an empty expression %j", async (expression) => {
    const error = await usageError(() => compileQuery(expression));
    expect(error.message).toBe("--query: the expression is empty; e.g. --query '[].id'");
  });

  it("refuses invalid syntax with the library's reason and where to read the syntax", async () => {
    const error = await usageError(() => compileQuery("a.b."));
    expect(error.message).toBe("--query: not a valid JMESPath expression (Syntax error, unexpected token: (EOF))");
    expect(error.hint).toBe("see https://jmespath.site for the syntax; quote the expression for the shell");
  });

  it("applies the expression to the value and keeps the expression", async () => {
    const query = await compileQuery("[].id");
    expect(query.expression).toBe("[].id");
    expect(query.apply([{ id: "a" }, { id: "b", x: 1 }])).toEqual(["a", "b"]);
  });

  it("applies to plain JSON: a date as its ISO text, nothing as null", async () => {
    expect((await compileQuery("at")).apply({ at: new Date("2026-10-01T08:30:00Z") })).toBe("2026-10-01T08:30:00.000Z");
    expect((await compileQuery("@")).apply(undefined)).toBeNull();
  });

  it("turns an expression the data cannot satisfy into a usage error", async () => {
    const query = await compileQuery("length(@)");
    const error = await usageError(() => query.apply(5));
    expect(error.message).toBe(
      "--query: Invalid type: length() expected argument 1 to be type (string | array | object) but received type number instead.",
    );
    expect(error.hint).toBe("check the expression against `-o json` output");
  });
});

describe("resultJson", () => {
  it("is what -o json prints: the records, the object, the answer, or null", () => {
    expect(resultJson({ kind: "records", records: [{ a: 1 }] })).toEqual([{ a: 1 }]);
    expect(resultJson({ kind: "object", value: { a: 1 } })).toEqual({ a: 1 });
    expect(resultJson({ kind: "answer", value: [1, 2] })).toEqual([1, 2]);
    expect(resultJson({ kind: "none" })).toBeNull();
  });
});

describe("renderQueried", () => {
  const list = [
    { id: "a", n: 1 },
    { id: "b", n: 2 },
  ];

  it("prints a list of objects as records in any format, and as one JSON line each for text", async () => {
    expect(await renderQueried(list, { format: "csv" })).toBe("id,n\na,1\nb,2\n");
    expect(await renderQueried(list, { format: "text" })).toBe('{"id":"a","n":1}\n{"id":"b","n":2}\n');
  });

  it("prints an object as one object, and as one JSON line for text", async () => {
    expect(await renderQueried({ id: "a" }, { format: "json" })).toBe('{\n  "id": "a"\n}\n');
    expect(await renderQueried({ id: "a" }, { format: "text" })).toBe('{"id":"a"}\n');
  });

  it("prints other values as JSON for json", async () => {
    expect(await renderQueried(["a", 1], { format: "json" })).toBe('[\n  "a",\n  1\n]\n');
    expect(await renderQueried("a", { format: "json" })).toBe('"a"\n');
  });

  it("prints one value a line for ndjson (as JSON, null too) and text (strings bare, no null)", async () => {
    const values = ["a", 1, null, [2]];
    expect(await renderQueried(values, { format: "ndjson" })).toBe('"a"\n1\nnull\n[2]\n');
    expect(await renderQueried(values, { format: "text" })).toBe("a\n1\n[2]\n");
    expect(await renderQueried("x", { format: "text" })).toBe("x\n");
  });

  it("prints other values in a value column for csv, and null as an empty result", async () => {
    expect(await renderQueried(["a", 1], { format: "csv" })).toBe("value\na\n1\n");
    expect(await renderQueried(7, { format: "csv" })).toBe("value\n7\n");
    expect(await renderQueried(null, { format: "csv" })).toBe("value\n");
    expect(await renderQueried(null, { format: "table" })).toBe("(no results)\n");
  });

  it("puts a list mixing objects and other values in a value column", async () => {
    expect(await renderQueried([{ id: "a" }, 1], { format: "csv" })).toBe("value.id,value\na,\n,1\n");
  });

  it("checks --fields of a null answer against the value column", async () => {
    const error = await usageError(() => renderQueried(null, { format: "csv", fields: ["nope"] }));
    expect(error.message).toBe("unknown field for --fields: nope; known fields: value");
  });

  it("prints an empty list as no records", async () => {
    expect(await renderQueried([], { format: "csv" })).toBe("");
    expect(await renderQueried([], { format: "json" })).toBe("[]\n");
  });
});
