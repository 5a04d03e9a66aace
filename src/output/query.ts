import { UsageError } from "../errors.js";
import { isPlainObject } from "../domain/records.js";
import { jsonText } from "./json-text.js";
import { renderResult, type CommandResult, type RenderOptions } from "./render.js";

// --query <expr>: a JMESPath expression applied to the JSON result before it is formatted, for
// every command and every format (docs/cli-contract.md, global options).
// @jmespath-community/jmespath is imported here only, and this module only when --query is
// given, so no other run pays for it.
//
// The expression is compiled before the command sends anything (a bad one is exit 2 with
// nothing sent). What it is applied to is exactly what `-o json` would print: the array of
// records, or the one object. The answer is printed by shape:
// - an array of objects, or an object: as records / one object, in any format (--fields
//   still applies, after the query);
// - anything else (a string, a number, an array of strings…): JSON for json; one value per
//   line for ndjson and text (strings bare, the rest as compact JSON); a `value` column for
//   csv and table.
// `-o text` is accepted for every command when --query is given: `--query '[].id' -o text`
// prints one id a line, like `jq -r`.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface CompiledQuery {
  readonly expression: string;
  apply(value: unknown): unknown;
}

/** One line, without the library's multi-line caret drawings. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]?.trim() || "invalid expression";
}

export async function compileQuery(expression: string): Promise<CompiledQuery> {
  if (expression.trim() === "") throw new UsageError("--query: the expression is empty; e.g. --query '[].id'");
  const library = await import("@jmespath-community/jmespath");
  const { compile, search } = library;
  (await import("./query-compat.js")).withPythonCompatibility(library);
  try {
    compile(expression);
  } catch (error) {
    throw new UsageError(`--query: not a valid JMESPath expression (${describe(error)})`, {
      hint: "see https://jmespath.site for the syntax; quote the expression for the shell",
    });
  }
  return {
    expression,
    apply(value) {
      try {
        // JSON round trip: the library wants plain JSON values (no undefined, no Dates), and
        // numbers: one JSON.parse would change (exact-json.ts) is its nearest double here —
        // 9007199254740993 compares and prints as …992, 1e400 as Infinity (docs/output.md).
        return search(JSON.parse(jsonText(value ?? null)) as Json, expression);
      } catch (error) {
        // Valid syntax that the data cannot satisfy (length() of a number…): still the
        // expression's fault, so a usage error — though the request has been made by now.
        throw new UsageError(`--query: ${describe(error)}`, { hint: "check the expression against `-o json` output" });
      }
    },
  };
}

/** The JSON value `-o json` would print for a result. */
export function resultJson(result: CommandResult): unknown {
  if (result.kind === "records") return result.records;
  if (result.kind === "object" || result.kind === "answer") return result.value;
  return null;
}

function scalarText(value: unknown): string {
  return typeof value === "string" ? value : jsonText(value);
}

/** The queried value as a result, or as finished text when it is not records-shaped. */
export async function renderQueried(value: unknown, options: RenderOptions): Promise<string> {
  const { format } = options;
  if (Array.isArray(value) && value.every(isPlainObject)) {
    if (format === "text") return value.map((v) => `${jsonText(v)}\n`).join("");
    return renderResult({ kind: "records", records: value }, options);
  }
  if (isPlainObject(value)) {
    if (format === "text") return `${jsonText(value)}\n`;
    return renderResult({ kind: "object", value }, options);
  }
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  switch (format) {
    case "json":
      return `${jsonText(value, 2)}\n`;
    case "ndjson":
    case "text":
      return items
        .filter((v) => v !== null || format !== "text")
        .map((v) => `${format === "text" ? scalarText(v) : jsonText(v)}\n`)
        .join("");
    default:
      if (value === null) return renderResult({ kind: "records", records: [], knownFields: ["value"] }, options);
      return renderResult({ kind: "records", records: items.map((v) => ({ value: v })) }, options);
  }
}
