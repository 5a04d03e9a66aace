import type * as Jmespath from "@jmespath-community/jmespath";

// Where the bundled JMESPath library differs from jmespath.py, the implementation behind the
// AWS CLI that users copy expressions from (docs/output.md "--query"):
// - ordering comparisons (`<`, `<=`, `>`, `>=`) between two strings compare them, code point
//   by code point, as Python does (`[?date >= '2026-11-15']` keeps the later rows); the
//   library answers null, so the filter kept nothing. Between a string and a number, or any
//   other types, they stay null, as in both.
// - max_by/min_by with a string key return the record of the greatest/least key; the library
//   compares the strings with -Infinity and returns null. Keys must be all numbers or all
//   strings (jmespath.py's rule), else the expression fails.
// Applied once to the library's interpreter, which this module alone imports (query.ts).

type Library = typeof Jmespath;
type Node = { type: string; name?: string; left?: Node; right?: Node };
type Visit = (node: Node, value: unknown) => unknown;
type FunctionEntry = { _func: (args: unknown[]) => unknown };
interface PatchableInterpreter {
  visit: Visit;
  runtime: { _functionTable: Record<string, FunctionEntry> };
}

const ORDERING = new Set(["GT", "GTE", "LT", "LTE"]);
const patched = new WeakSet<object>();

/** Python's str ordering: by code point (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const left = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const right = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const d = left[i]! - right[i]!;
    if (d !== 0) return d;
  }
  return left.length - right.length;
}

function ordered(name: string, order: number): boolean {
  if (name === "GT") return order > 0;
  if (name === "GTE") return order >= 0;
  if (name === "LT") return order < 0;
  return order <= 0;
}

function byKey(interpreter: PatchableInterpreter, direction: 1 | -1, name: string) {
  return ([array, expref]: unknown[]): unknown => {
    const items = array as unknown[];
    let best: { key: number | string; item: unknown } | undefined;
    let kind: "number" | "string" | undefined;
    for (const item of items) {
      const key = interpreter.visit(expref as Node, item);
      if (typeof key !== "number" && typeof key !== "string") {
        throw new Error(`${name}(): the key must be a number or a string, not ${key === null ? "null" : typeof key}`);
      }
      if (kind !== undefined && typeof key !== kind) throw new Error(`${name}(): the keys mix numbers and strings`);
      kind = typeof key as "number" | "string";
      const order =
        best === undefined
          ? 1
          : typeof key === "number"
            ? key - (best.key as number)
            : compareCodePoints(key, best.key as string);
      if (best === undefined || order * direction > 0) best = { key, item };
    }
    return best?.item ?? null;
  };
}

export function withPythonCompatibility(library: Library): void {
  const interpreter = library.TreeInterpreter as unknown as PatchableInterpreter;
  if (patched.has(interpreter)) return;
  patched.add(interpreter);
  const visit = interpreter.visit.bind(interpreter);
  interpreter.visit = (node, value) => {
    if (node.type === "Comparator" && node.name && ORDERING.has(node.name) && node.left && node.right) {
      const left = visit(node.left, value);
      const right = visit(node.right, value);
      if (typeof left === "string" && typeof right === "string") return ordered(node.name, compareCodePoints(left, right));
    }
    return visit(node, value);
  };
  const table = interpreter.runtime._functionTable;
  if (table.max_by) table.max_by._func = byKey(interpreter, 1, "max_by");
  if (table.min_by) table.min_by._func = byKey(interpreter, -1, "min_by");
}
