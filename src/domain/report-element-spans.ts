// Where each record of a report answer lies in its text, as pass 1 of the record scanner
// found it (report-record-scanner.ts), so that pass 2 slices the records out instead of
// scanning the text a second time (docs/architecture.md, Exports: the second scan cost as
// much as JSON.parse of the whole answer). Offsets count UTF-16 code units of the text as
// TextDecoder decodes it, the one decoder both passes use.
//
// Bounded: past MAX_ELEMENTS elements a container keeps no spans (its records are then
// found by scanning, as before), so an answer of millions of tiny elements costs no memory.
// Pure.

/** Elements indexed per container at most (~17 bytes each). */
export const MAX_ELEMENTS = 1 << 20;

/** The direct elements of one array: [start, end) offsets in the text, whether each needs the exact parser, and its tag. */
export class ElementSpans {
  count = 0;
  /** More elements than MAX_ELEMENTS: the spans are incomplete and must not be used. */
  overflowed = false;
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private exacts = new Uint8Array(1024);
  /** Per element: a number the reader of the element gave it while scanning (-1: none; report-record-scanner.ts `elements`). */
  private tags = new Int32Array(1024);

  add(start: number, end: number, exact: boolean, tag = -1): void {
    if (this.overflowed) return;
    if (this.count === MAX_ELEMENTS) {
      this.overflowed = true;
      this.starts = this.ends = new Float64Array(0);
      this.exacts = new Uint8Array(0);
      this.tags = new Int32Array(0);
      return;
    }
    if (this.count === this.starts.length) {
      const size = this.count * 2;
      const grow = <T extends Float64Array | Uint8Array | Int32Array>(from: T, to: T): T => (to.set(from), to);
      this.starts = grow(this.starts, new Float64Array(size));
      this.ends = grow(this.ends, new Float64Array(size));
      this.exacts = grow(this.exacts, new Uint8Array(size));
      this.tags = grow(this.tags, new Int32Array(size));
    }
    this.starts[this.count] = start;
    this.ends[this.count] = end;
    this.exacts[this.count] = exact ? 1 : 0;
    this.tags[this.count] = tag;
    this.count++;
  }

  /** The i-th element's start, end and tag. */
  start(i: number): number {
    return this.starts[i]!;
  }

  end(i: number): number {
    return this.ends[i]!;
  }

  tag(i: number): number {
    return this.tags[i]!;
  }

  /**
   * Cuts the elements out of the text, given chunk after chunk from its start: each element
   * in order, with its exact flag. `done()` says whether every element was found (a text
   * shorter than the spans is not the text they were made from).
   */
  cutter(onElement: (text: string, exact: boolean, tag: number) => void): { feed(chunk: string): void; done(): boolean } {
    let next = 0;
    let at = 0;
    let carry = "";
    const { starts, ends, exacts, tags, count } = this;
    return {
      feed(chunk: string): void {
        const end = at + chunk.length;
        while (next < count) {
          const start = starts[next]!;
          if (start >= end) break;
          const from = start > at ? start - at : 0;
          const stop = ends[next]!;
          if (stop > end) {
            carry += chunk.slice(from);
            break;
          }
          const piece = chunk.slice(from, stop - at);
          onElement(carry === "" ? piece : carry + piece, exacts[next] === 1, tags[next]!);
          carry = "";
          next++;
        }
        at = end;
      },
      done: () => next === count,
    };
  }
}
