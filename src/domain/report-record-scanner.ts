import { parseExactJson } from "./exact-json.js";
import { isPlainObject, type JsonRecord } from "./records.js";
import { ElementSpans } from "./report-element-spans.js";

// records.ts's extractRecords for answers too large to parse at once (a report window of a
// busy organisation is tens of megabytes; a million records must fit in < 200 MiB, docs/development.md).
// Same rule, applied to JSON text fed in chunks:
//
// - a top-level array is the record list (non-objects become `{ value }`);
// - an object with exactly one non-empty array of objects holds the record list (an empty
//   array beside it is not a second list), or with one array of objects, empty: no records;
// - otherwise the whole answer is one record (or none, for null and "").
//
// Two passes over the text, both without building the document:
// 1. `JsonShapeScanner` checks the structure (brackets, strings, commas) and learns the
//    shape: which top-level member, if any, is the one array of objects;
// 2. the same scanner, told which container holds the records, hands over each record's
//    text, which is then parsed alone (JSON.parse checks every record in full). Or, where
//    pass 1 was asked to `index`, no second scan: pass 1 noted where each element of each
//    candidate list lies (report-element-spans.ts), and the records are cut out of the text.
// Scalars outside the records are checked loosely (a run of number/literal characters);
// whatever JSON.parse does not see in pass 2 is not part of the output.
//
// Pure: the caller reads the file or the network and feeds strings — decoded text, or with
// `bytes` the UTF-8 bytes themselves one per character (a Buffer read as `latin1`: no
// decoding, and the offsets count bytes; `reports sync` copies records byte for byte).

export type ResponseShape =
  /** Nothing but whitespace: no records. */
  | { kind: "empty" }
  /** A top-level array: its elements are the records. */
  | { kind: "array" }
  /** An object with exactly one array of objects: member number `member` (in text order) holds the records. */
  | { kind: "object-with-list"; member: number }
  /** Anything else (an object without exactly one list, a string, a number): parse it whole. */
  | { kind: "whole" };

export class MalformedJsonError extends Error {}

/**
 * Real report records nest a few levels. A document nested deeper is refused here: the
 * records would be parsed, but walking them (flattening for CSV, printing) would overflow
 * the stack. Same limit as api/answers.ts's MAX_JSON_DEPTH.
 */
export const MAX_DEPTH = 256;

const OBJ = 1;
const ARR = 2;

// What may come next.
const VALUE = 0; // a value (at the top, after ":" or after "," in an array)
const VALUE_OR_CLOSE = 1; // right after "[": a value or "]"
const KEY = 2; // after "," in an object: a key
const KEY_OR_CLOSE = 3; // right after "{": a key or "}"
const COLON = 4;
const AFTER = 5; // after a value: "," or the container's close (or the end at the top)

/** A control character, which JSON allows in no string. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/g;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Characters of numbers and of true, false, null. */
function isScalarChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2b || c === 0x2d || c === 0x2e
  );
}

interface Member {
  key: string;
  isArray: boolean;
  allObjects: boolean;
  /** How many elements the array has (0: empty, not a second record list). */
  elements: number;
}

export interface ScannerOptions {
  /** Pass 2: the container whose direct elements are wanted, and where each one goes. */
  capture?:
    | {
        target: "top-array" | { member: number };
        /** `exact`: the element holds a number JSON.parse may change (a long one, or one with an exponent). */
        onElement: (text: string, exact: boolean) => void;
      }
    | undefined;
  /** Pass 1: note where the direct elements of the top-level array, or of each top-level array member, lie (elementSpans). */
  index?: boolean;
  /**
   * The text is UTF-8 bytes, one per character (0–255): offsets count bytes, keys are
   * decoded from UTF-8, and the byte-order mark is its three bytes.
   */
  bytes?: boolean;
  /**
   * Pass 1 with `index`: a reader that may check an object element of a list in full on its
   * own, in this one pass (`reports sync` reads records by their layout, domain/record-layout.ts
   * LayoutBook): given the chunk and where the element's "{" is, where it ends in the chunk
   * (its span is noted with the reader's `tag`), or -1 — then the scanner reads it as usual.
   */
  elements?: { read(chunk: string, at: number): number; readonly tag: number } | undefined;
}

/** The byte-order mark as UTF-8 bytes (`bytes`). */
const BOM_BYTES = [0xef, 0xbb, 0xbf];

export class JsonShapeScanner {
  private readonly stack: number[] = [];
  private expect = VALUE;
  private inString = false;
  private escaped = false;
  private inScalar = false;
  /** Where the scalar being read began (counted over the whole text), and its first character. */
  private scalarStart = 0;
  private scalarFirst = 0;
  /** The element being captured holds a number exact-json.ts must read (see scalarEnds). */
  private elementExact = false;
  // Stryker disable next-line BooleanLiteral: set each time a string opens, before it is read
  private stringIsKey = false;
  /** Whether the document is an array; undefined until it begins (an object and a scalar are read alike). */
  private topIsArray: boolean | undefined;
  private done = false;
  private offset = 0;

  // Top-level members (when the top is an object).
  private readonly members: Member[] = [];
  private memberIndex = -1;
  // Empty whenever no top-level key is being read (emptied when a key ends).
  private keyPieces: string[] = [];
  private keyStart = 0; // set when a key opens
  // Stryker disable next-line StringLiteral: set by the key that precedes every member's value
  private pendingKey = "";

  // Capture of the target container's elements (pass 2).
  private readonly target: "top-array" | { member: number } | undefined;
  private readonly onElement: (text: string, exact: boolean) => void;
  private capturing = false;
  // Empty whenever no element is being captured (emptied when an element is handed over).
  private capturePieces: string[] = [];
  private captureStart = 0;

  // The element spans of pass 1 (`index`): per top-level member (-1: the top-level array).
  private readonly indexing: boolean;
  private readonly spans = new Map<number, ElementSpans>();
  /** The list whose element is open, its level, and where that element began (over the whole text). */
  private indexOpen: ElementSpans | undefined;
  private indexLevel = 0;
  private indexStart = 0;

  private readonly bytes: boolean;
  /** `bytes`: how many bytes of a byte-order mark began the text (-1: none can any more). */
  private bom = 0;
  private readonly reader: ScannerOptions["elements"];
  /** The tag of the element being indexed (-1 unless the reader read it). */
  private elementTag = -1;

  constructor(options: ScannerOptions = {}) {
    this.target = options.capture?.target;
    this.onElement = options.capture?.onElement ?? ((): void => undefined);
    this.indexing = options.index === true;
    this.bytes = options.bytes === true;
    this.reader = this.indexing ? options.elements : undefined;
  }

  /** The character at `index` for a message: a byte beyond ASCII by its value when the text is bytes. */
  private shown(chunk: string, index: number): string {
    const c = chunk.charCodeAt(index);
    return this.bytes && c >= 0x80 ? `byte 0x${c.toString(16)}` : JSON.stringify(chunk[index]);
  }

  /** Pass 1 with `index`, after end(): where the records of `shape` lie; undefined when not known. */
  elementSpans(shape: ResponseShape): ElementSpans | undefined {
    const key = shape.kind === "array" ? -1 : shape.kind === "object-with-list" ? shape.member : undefined;
    if (!this.indexing || key === undefined) return undefined;
    // A list without elements has no spans of its own.
    const spans = this.spans.get(key) ?? new ElementSpans();
    return spans.overflowed ? undefined : spans;
  }

  /** `index`: an element of a list begins at `index` (level: the stack's depth before it). */
  private indexElement(level: number, index: number): void {
    let key: number | undefined;
    if (level === 1 && this.stack[0] === ARR) key = -1;
    else if (level === 2 && this.stack[0] === OBJ && this.stack[1] === ARR) key = this.memberIndex;
    if (key === undefined) return;
    let spans = this.spans.get(key);
    if (!spans) this.spans.set(key, (spans = new ElementSpans()));
    this.indexOpen = spans;
    this.indexLevel = level;
    this.indexStart = this.offset + index;
    this.elementExact = false;
    this.elementTag = -1;
  }

  private fail(message: string, index: number): never {
    throw new MalformedJsonError(`${message} at ${this.bytes ? "byte" : "character"} ${this.offset + index + 1}`);
  }

  /** Whether values at the current level are the elements to capture. */
  private atCaptureLevel(): boolean {
    const target = this.target;
    if (target === "top-array") return this.stack.length === 1 && this.stack[0] === ARR;
    // memberIndex counts the members of a top-level object only (none when the top is an array).
    return target !== undefined && this.stack.length === 2 && this.stack[1] === ARR && this.memberIndex === target.member;
  }

  /** A value begins at `index` (its first character is `c`). */
  private valueStarts(c: number, index: number): void {
    const level = this.stack.length;
    // Inside a record (a value nested deeper than the list's elements) nothing is noted.
    if (level > 2) return;
    if (level === 0) {
      this.topIsArray = c === 0x5b;
    } else if (level === 1 && this.stack[0] === OBJ) {
      this.memberIndex++;
      this.members.push({ key: this.pendingKey, isArray: c === 0x5b, allObjects: true, elements: 0 });
    } else if (level === 2) {
      // A value inside a top-level member (there are none under a top-level array); only
      // array members are looked at by end().
      const member = this.members[this.memberIndex];
      if (member) {
        member.elements++;
        if (c !== 0x7b) member.allObjects = false;
      }
    }
    if (this.atCaptureLevel()) {
      this.capturing = true;
      this.captureStart = index;
      this.elementExact = false;
    }
    if (this.indexing) this.indexElement(level, index);
  }

  /** A value ended; `end` is the index just after its last character in the current chunk. */
  private valueEnds(chunk: string, end: number): void {
    if (this.stack.length === 0) this.done = true;
    this.expect = AFTER;
    if (this.indexOpen !== undefined && this.stack.length === this.indexLevel) {
      this.indexOpen.add(this.indexStart, this.offset + end, this.elementExact, this.elementTag);
      this.indexOpen = undefined;
    }
    if (this.capturing && this.atCaptureLevel()) {
      this.capturing = false;
      this.capturePieces.push(chunk.slice(this.captureStart, end));
      const text = this.capturePieces.join("");
      this.capturePieces = [];
      this.onElement(text, this.elementExact);
    }
  }

  feed(chunk: string): void {
    const length = chunk.length;
    // Where the next quote, backslash and control character are in this chunk, at or after
    // the place they were last looked for from (-1: none left): each is looked for again only
    // once passed, so that the text between is read by indexOf, not by this loop.
    let quote = -2;
    let backslash = -2;
    let control = -2;
    for (let i = 0; i < length; i++) {
      if (this.inString && !this.escaped) {
        // Most of a report's text is inside strings: skip the plain run at once, to the
        // quote, backslash or control character (a regular expression per string cost more:
        // its strings are short, docs/architecture.md "Exports").
        if (quote !== -1 && quote < i) quote = chunk.indexOf('"', i);
        if (backslash !== -1 && backslash < i) backslash = chunk.indexOf("\\", i);
        if (control !== -1 && control < i) {
          CONTROL.lastIndex = i;
          control = CONTROL.exec(chunk)?.index ?? -1;
        }
        let stop = quote === -1 ? length : quote;
        if (backslash !== -1 && backslash < stop) stop = backslash;
        if (control !== -1 && control < stop) stop = control;
        i = stop;
        if (i >= length) break;
      }
      let c = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.stringIsKey) {
            // Only top-level keys are kept (to tell which member holds the records).
            if (this.stack.length === 1) {
              this.keyPieces.push(chunk.slice(this.keyStart, i));
              this.pendingKey = decodeKey(this.keyPieces.join(""), this.bytes);
              this.keyPieces = [];
            }
            this.expect = COLON;
          } else {
            this.valueEnds(chunk, i + 1);
          }
        } else if (c < 0x20) {
          this.fail("control character inside a string", i);
        }
        continue;
      }
      if (this.inScalar) {
        if (isScalarChar(c)) {
          // The rest of the number (or word) at once.
          while (++i < length && isScalarChar((c = chunk.charCodeAt(i))));
          if (i >= length) break;
        }
        this.inScalar = false;
        if (this.capturing || this.indexOpen !== undefined) this.scalarEnds(chunk, i);
        this.valueEnds(chunk, i);
        // fall through: this character is handled below
      }
      if (this.bytes && this.bom >= 0 && this.offset + i < 3) {
        // A byte-order mark's three bytes before the document (TextDecoder drops them).
        if (c === BOM_BYTES[this.offset + i]) {
          this.bom++;
          continue;
        }
        if (this.bom > 0) this.fail("an incomplete byte-order mark", i);
        this.bom = -1;
      }
      if (isWhitespace(c)) continue;
      if (c === 0xfeff && this.offset + i === 0) continue; // a byte-order mark before the document
      if (this.done) this.fail("unexpected text after the document", i);

      switch (this.expect) {
        case VALUE:
        case VALUE_OR_CLOSE:
          if (c === 0x5d && this.expect === VALUE_OR_CLOSE) {
            this.close(chunk, i);
          } else if (c === 0x7b) {
            this.valueStarts(c, i);
            const end =
              this.indexOpen !== undefined && this.stack.length === this.indexLevel ? (this.reader?.read(chunk, i) ?? -1) : -1;
            if (end > i) {
              // The element read whole by the reader: noted, and the scan goes on after it.
              this.elementTag = this.reader!.tag;
              this.valueEnds(chunk, end);
              i = end - 1;
              break;
            }
            if (this.stack.length >= MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`, i);
            this.stack.push(OBJ);
            this.expect = KEY_OR_CLOSE;
          } else if (c === 0x5b) {
            this.valueStarts(c, i);
            if (this.stack.length >= MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH} levels`, i);
            this.stack.push(ARR);
            this.expect = VALUE_OR_CLOSE;
          } else if (c === 0x22) {
            this.valueStarts(c, i);
            this.inString = true;
            this.stringIsKey = false;
          } else if (isScalarChar(c)) {
            this.valueStarts(c, i);
            this.inScalar = true;
            this.scalarStart = this.offset + i;
            this.scalarFirst = c;
          } else {
            this.fail(`unexpected ${this.shown(chunk, i)}`, i);
          }
          break;
        case KEY:
        case KEY_OR_CLOSE:
          if (c === 0x7d && this.expect === KEY_OR_CLOSE) {
            this.close(chunk, i);
          } else if (c === 0x22) {
            this.inString = true;
            this.stringIsKey = true;
            this.keyStart = i + 1;
          } else {
            this.fail(`expected a key, got ${this.shown(chunk, i)}`, i);
          }
          break;
        case COLON:
          if (c !== 0x3a) this.fail(`expected ":", got ${this.shown(chunk, i)}`, i);
          this.expect = VALUE;
          break;
        case AFTER: {
          const top = this.stack[this.stack.length - 1];
          // (At the top, `done` has already refused anything after the value.)
          if (c === 0x2c) {
            this.expect = top === OBJ ? KEY : VALUE;
          } else if ((c === 0x7d && top === OBJ) || (c === 0x5d && top === ARR)) {
            this.close(chunk, i);
          } else {
            this.fail(`unexpected ${this.shown(chunk, i)}`, i);
          }
          break;
        }
      }
    }
    // Carry partial captures over to the next chunk.
    if (this.capturing) {
      this.capturePieces.push(chunk.slice(this.captureStart));
      this.captureStart = 0;
    }
    if (this.inString && this.stringIsKey && this.stack.length === 1) {
      this.keyPieces.push(chunk.slice(this.keyStart));
      this.keyStart = 0;
    }
    this.offset += length;
  }

  /**
   * A number of a captured element ended before `end`: one JSON.parse may round (16 or more
   * characters) or turn into Infinity or 0 (an exponent) marks the element, whose text is
   * then read by exact-json.ts. Found here, on the scan the text gets anyway: a regular
   * expression over every record's text cost a quarter of JSON.parse's time.
   */
  private scalarEnds(chunk: string, end: number): void {
    const length = this.offset + end - this.scalarStart;
    const first = this.scalarFirst;
    if (length < 5 || first > 0x39 || (first < 0x30 && first !== 0x2d)) return;
    if (length >= 16) {
      this.elementExact = true;
      return;
    }
    const start = this.scalarStart - this.offset;
    // Begun in an earlier chunk: its characters are gone, so take the careful path.
    if (start < 0) {
      this.elementExact = true;
      return;
    }
    for (let i = start; i < end; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 0x65 || c === 0x45) {
        this.elementExact = true;
        return;
      }
    }
  }

  // Callers close only the container on top of the stack ("]" and "}" are checked against it).
  private close(chunk: string, index: number): void {
    this.stack.pop();
    this.valueEnds(chunk, index + 1);
  }

  /** Ends the text: checks that the document is complete and says where the records are. */
  end(): ResponseShape {
    // A scalar at the very end of the text ends with it; one inside a container is cut off (and
    // is not handed over as an element).
    if (this.inScalar && this.stack.length === 0) this.done = true;
    // An open string or container means the value that began has not ended.
    if (this.topIsArray !== undefined && !this.done) {
      throw new MalformedJsonError(`the document ends too early (after ${this.offset} ${this.bytes ? "bytes" : "characters"})`);
    }
    if (this.topIsArray === undefined) return { kind: "empty" };
    if (this.topIsArray) return { kind: "array" };
    // An object (a scalar has no members: whole). As JSON.parse does, a repeated key keeps its
    // last value.
    const last = new Map<string, number>();
    this.members.forEach((member, index) => last.set(member.key, index));
    const lists: number[] = [];
    const filled: number[] = [];
    this.members.forEach((member, index) => {
      if (last.get(member.key) !== index || !member.isArray || !member.allObjects) return;
      lists.push(index);
      if (member.elements > 0) filled.push(index);
    });
    const [list, another] = filled.length > 0 ? filled : lists;
    if (list !== undefined && another === undefined) return { kind: "object-with-list", member: list };
    return { kind: "whole" };
  }
}

const UTF8 = new TextDecoder("utf-8");

function decodeKey(raw: string, bytes: boolean): string {
  try {
    return JSON.parse(`"${bytes ? UTF8.decode(Uint8Array.from(raw, (c) => c.charCodeAt(0))) : raw}"`) as string;
  } catch {
    throw new MalformedJsonError(`malformed key ${JSON.stringify(raw.slice(0, 40))}`);
  }
}

/** One record from an element of the record list, as extractRecords makes it. */
export function elementRecord(text: string, exact = true): JsonRecord {
  const value: unknown = exact ? parseExactJson(text) : JSON.parse(text);
  return isPlainObject(value) ? value : { value };
}
