// JSON whose numbers stay as the service wrote them (docs/output.md, "Numbers"): JSON.parse
// rounds an integer beyond 2^53 (9007199254740993 becomes …992) and turns 1e400 into
// Infinity, which JSON then writes as null. Such a number is read as a JsonNumber holding
// its text, and every JSON writer puts that text back as a number token (exactJsonText), so
// `--raw`, `-o json` and `-o ndjson` pass it on untouched; CSV, tables and xlsx show its text.
// Only texts with a long digit run or a three-digit exponent take the slower exact parser.
// Pure.

/** A number as the service wrote it, where JSON.parse would change it: its text is the value. */
export class JsonNumber {
  constructor(readonly text: string) {}

  /** Lists of plain values are joined as text (records.ts flattenRecord). */
  toString(): string {
    return this.text;
  }

  /** JSON.stringify writes a marker string, which exactJsonText turns back into the number. */
  toJSON(): string {
    markersWritten++;
    return `${MARK}${this.text}`;
  }
}

// A marker JSON.stringify writes as `"\u0000<nonce>:<text>"`: a NUL (escaped by JSON) and a
// per-process nonce, so no string of the data can pass for one.
const NONCE = Math.random().toString(36).slice(2, 12);
const MARK = `\u0000${NONCE}:`;
const MARKED = new RegExp(`"\\\\u0000${NONCE}:([-+.eE0-9]+)"`, "g");
let markersWritten = 0;

/** JSON.stringify, with JsonNumbers written as the number tokens they came as. */
export function exactJsonText(value: unknown, indent?: number): string {
  const before = markersWritten;
  const text = JSON.stringify(value, null, indent);
  // Stryker disable next-line ConditionalExpression: without markers the replace changes nothing; the check saves a pass.
  return markersWritten === before || text === undefined ? text : text.replace(MARKED, "$1");
}

/** Whether a JSON text needs the exact parser: a long digit run or a large exponent anywhere. */
function needsExactNumbers(text: string): boolean {
  return /\d{16}|[eE][+-]?\d{3}/.test(text);
}

/** Whether JSON.parse would change a number's value (not merely its spelling: `1e300` is 1e+300). */
function changedByParse(text: string): boolean {
  if (!needsExactNumbers(text)) return false;
  const value = Number(text);
  return !Number.isFinite(value) || decimalValue(String(value)) !== decimalValue(text);
}

/** A number's text as sign, significant digits and exponent: equal for equal values. */
function decimalValue(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole = "", fraction = "", exponent = "0"] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  const significant = digits.replace(/0+$/, "");
  if (significant === "") return "0";
  return `${sign}${significant}e${Number(exponent) - fraction.length + digits.length - significant.length}`;
}

/** Parses JSON text; numbers that JSON.parse would change stay as JsonNumber. */
export function parseExactJson(text: string): unknown {
  return needsExactNumbers(text) ? new ExactParser(text).parse() : JSON.parse(text);
}

/** A JSON parser that keeps numbers' text (JsonNumber); used only for records whose numbers need it. */
class ExactParser {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): unknown {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) throw new SyntaxError(`unexpected text at ${this.at}`);
    return value;
  }

  private space(): void {
    while (/\s/.test(this.text[this.at] ?? "")) this.at++;
  }

  private value(): unknown {
    this.space();
    const c = this.text[this.at];
    if (c === "{") {
      this.at++;
      const out: Record<string, unknown> = {};
      this.space();
      if (this.text[this.at] === "}") {
        this.at++;
        return out;
      }
      for (;;) {
        this.space();
        const key = this.string();
        this.space();
        if (this.text[this.at++] !== ":") throw new SyntaxError(`expected : at ${this.at}`);
        const value = this.value();
        // A "__proto__" key is data, as JSON.parse makes it: an own property, never the
        // object's prototype (which would hide the field and hand the record another's).
        if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
        this.space();
        const next = this.text[this.at++];
        if (next === "}") return out;
        if (next !== ",") throw new SyntaxError(`expected , or } at ${this.at}`);
      }
    }
    if (c === "[") {
      this.at++;
      const out: unknown[] = [];
      this.space();
      if (this.text[this.at] === "]") {
        this.at++;
        return out;
      }
      for (;;) {
        out.push(this.value());
        this.space();
        const next = this.text[this.at++];
        if (next === "]") return out;
        if (next !== ",") throw new SyntaxError(`expected , or ] at ${this.at}`);
      }
    }
    if (c === '"') return this.string();
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.at, this.at + 4096));
    if (match && match[0] !== "") {
      this.at += match[0].length;
      const text = match[0];
      // A number JSON.parse keeps exactly stays a plain number.
      return changedByParse(text) ? new JsonNumber(text) : Number(text);
    }
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    throw new SyntaxError(`unexpected ${JSON.stringify(c)} at ${this.at}`);
  }

  private string(): string {
    if (this.text[this.at] !== '"') throw new SyntaxError(`expected a string at ${this.at}`);
    let end = this.at + 1;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === "\\" ? 2 : 1;
    const value = JSON.parse(this.text.slice(this.at, end + 1)) as string;
    this.at = end + 1;
    return value;
  }
}
