import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { renderResult, type CommandResult } from "../../src/output/render.js";
import { escapeControlChars, neutralizeCsvCell } from "../../src/output/sanitize.js";
import { maskSecret, Redactor } from "../../src/output/redact.js";

const records: CommandResult = {
  kind: "records",
  records: [
    { id: "s1", title: '=HYPERLINK("http://evil")', meta: { level: 2 } },
    { id: "s2", title: "Plain", extra: "x\u001b[31mred" },
  ],
};

describe("renderResult", () => {
  it("json output is one valid document holding every record", async () => {
    const text = await renderResult(records, { format: "json" });
    expect(JSON.parse(text)).toEqual(records.kind === "records" ? records.records : []);
  });

  it("ndjson writes one record a line", async () => {
    const lines = (await renderResult(records, { format: "ndjson" })).trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(["s1", "s2"]);
  });

  it("csv flattens to dotted columns in first-seen order and neutralises formulas", async () => {
    const text = await renderResult(records, { format: "csv" });
    expect(text.split("\n")[0]).toBe("id,title,meta.level,extra");
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text.split("\n")[2]).toBe("s2,Plain,,x\u001b[31mred");
  });

  it("--bom starts csv with a byte-order mark", async () => {
    expect((await renderResult(records, { format: "csv", bom: true })).startsWith("\uFEFFid,")).toBe(true);
  });

  it("--fields chooses and orders columns, dotted names included", async () => {
    const text = await renderResult(records, { format: "csv", fields: ["meta.level", "id"] });
    expect(text).toBe("meta.level,id\n2,s1\n,s2\n");
    const json = JSON.parse(await renderResult(records, { format: "json", fields: ["id", "meta.level"] }));
    expect(json).toEqual([
      { id: "s1", "meta.level": 2 },
      { id: "s2", "meta.level": null },
    ]);
  });

  it("an unknown --fields name is a usage error listing the known ones", async () => {
    await expect(renderResult(records, { format: "csv", fields: ["nope"] })).rejects.toThrow(UsageError);
    await expect(renderResult(records, { format: "json", fields: ["nope"] })).rejects.toThrow(/known fields: id, title, meta/);
  });

  it("table cells escape control characters", async () => {
    const text = await renderResult(records, { format: "table", color: false, width: 200 });
    expect(text).not.toContain("\u001b");
    expect(text).toContain("\\u001b[31mred");
  });

  it("text is offered only where the command gives a bare value", async () => {
    expect(await renderResult({ kind: "object", value: { token: "t" }, text: "t" }, { format: "text" })).toBe("t\n");
    await expect(renderResult({ kind: "object", value: { a: 1 } }, { format: "text" })).rejects.toThrow(UsageError);
  });

  it("json escapes C1 control characters that JSON.stringify leaves raw", async () => {
    const text = await renderResult({ kind: "object", value: { a: "x\u009by" } }, { format: "json" });
    expect(text).not.toContain("\u009b");
    expect(JSON.parse(text)).toEqual({ a: "x\u009by" });
  });
});

describe("sanitising", () => {
  it.each(["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"])("neutralises %j", (cell) => {
    expect(neutralizeCsvCell(cell)).toBe(`'${cell}`);
  });
  it("leaves ordinary cells alone", () => {
    expect(neutralizeCsvCell("Ana")).toBe("Ana");
  });
  it("escapes ESC, BEL, DEL and C1 but keeps newlines and tabs", () => {
    expect(escapeControlChars("a\u001b[2Jb\u0007\u007f\u009b\n\t")).toBe("a\\u001b[2Jb\\u0007\\u007f\\u009b\n\t");
  });
  it("escapes the bidirectional controls (U+202E and the rest), keeps other non-ASCII text", () => {
    expect(escapeControlChars("report\u202Etxt.exe")).toBe("report\\u202etxt.exe");
    const bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    expect(escapeControlChars(bidi)).toBe("\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069");
    expect(escapeControlChars("Zoë – שלום – 日本")).toBe("Zoë – שלום – 日本");
  });
});

describe("secrets", () => {
  it("redacts every registered secret, URL-encoded forms too", () => {
    const redactor = new Redactor();
    redactor.add("sk_live_abcdefgh1234");
    redactor.add("tok+en/with=chars");
    expect(redactor.apply("key sk_live_abcdefgh1234 and tok%2Ben%2Fwith%3Dchars")).toBe("key [REDACTED] and [REDACTED]");
  });
  it("masks a key to its last 4 characters", () => {
    expect(maskSecret("sk_live_abcdefgh1234")).toBe("****1234");
  });
});
