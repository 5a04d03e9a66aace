// Duplicate-email detection for files of a million rows within the memory budget
// (< 150 MiB peak for 1,000,000 rows, docs/development.md). A Set<string> of a million emails costs
// well over 100 MB; this index keeps each lowercased ASCII address as length-prefixed
// bytes in 1 MiB pages (about 22 bytes for a typical address) plus about 20 bytes of
// typed-array bookkeeping (under 45 MB for a million), and still compares addresses
// exactly, so a hash collision never reports a false duplicate.
//
// Emails are compared ignoring case: mailbox providers treat A@x.com and a@x.com as one
// user, and the service would see two rows for one person.

const PAGE_BITS = 20;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;
/** Longer keys (or non-ASCII ones) go to the exact fallback map; they are rare. */
const MAX_PACKED_LENGTH = 255;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class EmailIndex {
  // Stryker disable next-line ArrayDeclaration: an initial entry is never read (pageUsed = PAGE_SIZE: the first key starts a page)
  private readonly pages: Uint8Array[] = [];
  private pageUsed = PAGE_SIZE;
  /** Spreadsheet row of each entry. */
  private rows: Uint32Array = new Uint32Array(1024);
  /** Global byte position (page << PAGE_BITS | offset) of each entry's key. */
  private keyAt: Uint32Array = new Uint32Array(1024);
  /** Hash of each entry's key, so that growing the table need not rehash the keys. */
  private hashes: Uint32Array = new Uint32Array(1024);
  private count = 0;
  /** Open addressing, linear probing; entry index + 1, 0 = empty. Load kept <= 1/2. */
  private slots: Uint32Array = new Uint32Array(2048);
  private readonly fallback = new Map<string, number>();

  get size(): number {
    return this.count + this.fallback.size;
  }

  /**
   * Records `email` as seen on `row`. Returns the row where the same address (ignoring
   * case) was first seen, or 0 when it is new — the caller reports the later row.
   */
  add(email: string, row: number): number {
    const n = email.length;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the fallback map is exact too; packing only saves memory
    if (n > MAX_PACKED_LENGTH) return this.addToFallback(email.toLowerCase(), row);
    let h = FNV_OFFSET;
    // Stryker disable next-line EqualityOperator: a step past the end hashes NaN as 0 for every key alike
    for (let i = 0; i < n; i++) {
      let c = email.charCodeAt(i);
      // Stryker disable next-line EqualityOperator: U+0080 is exact either way (one packed byte, or the fallback map)
      if (c >= 0x80) return this.addNonAscii(email, row);
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    h >>>= 0;
    const slots = this.slots;
    const mask = slots.length - 1;
    let i = h & mask;
    const hashes = this.hashes;
    for (let s = slots[i]!; s !== 0; s = slots[i]!) {
      // The stored hash first: most occupied slots a probe passes hold another key, and the
      // bytes are compared only when the hashes agree.
      if (hashes[s - 1] === h && this.keyEquals(s - 1, email)) return this.rows[s - 1]!;
      i = (i + 1) & mask;
    }
    this.insert(i, email, row, h);
    return 0;
  }

  private addNonAscii(email: string, row: number): number {
    const lower = email.toLowerCase();
    // Some non-ASCII letters lowercase to ASCII (KELVIN SIGN → "k"); those must meet their
    // ASCII twins in the packed table.
    // eslint-disable-next-line no-control-regex -- the ASCII range is the point here
    if (/^[\x00-\x7f]*$/.test(lower)) return this.add(lower, row);
    return this.addToFallback(lower, row);
  }

  private addToFallback(lower: string, row: number): number {
    const first = this.fallback.get(lower);
    if (first !== undefined) return first;
    this.fallback.set(lower, row);
    return 0;
  }

  /** Whether entry `e` holds `email` lowercased; `email` is ASCII here. */
  private keyEquals(e: number, email: string): boolean {
    const at = this.keyAt[e]!;
    const page = this.pages[at >>> PAGE_BITS]!;
    let p = at & PAGE_MASK;
    const n = email.length;
    if (page[p] !== n) return false;
    p++;
    for (let i = 0; i < n; i++) {
      let c = email.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (page[p + i] !== c) return false;
    }
    return true;
  }

  private insert(slot: number, email: string, row: number, hash: number): void {
    const n = email.length;
    if (this.pageUsed + n + 1 > PAGE_SIZE) {
      this.pages.push(new Uint8Array(PAGE_SIZE));
      this.pageUsed = 0;
    }
    const pageIndex = this.pages.length - 1;
    const page = this.pages[pageIndex]!;
    let p = this.pageUsed;
    page[p++] = n;
    // Stryker disable next-line EqualityOperator: a byte written past the key is skipped, never read
    for (let i = 0; i < n; i++) {
      const c = email.charCodeAt(i);
      page[p++] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
    }
    const e = this.count;
    if (e === this.rows.length) {
      this.rows = grow(this.rows);
      this.keyAt = grow(this.keyAt);
      this.hashes = grow(this.hashes);
    }
    this.rows[e] = row;
    this.hashes[e] = hash;
    this.keyAt[e] = (pageIndex * PAGE_SIZE + this.pageUsed) >>> 0;
    this.pageUsed = p;
    this.slots[slot] = e + 1;
    this.count = e + 1;
    // Stryker disable next-line EqualityOperator: rehashing one insert earlier changes only the table's size
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let i = this.hashes[e]! & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = e + 1;
    }
    this.slots = slots;
  }
}

function grow(a: Uint32Array): Uint32Array {
  const b = new Uint32Array(a.length * 2);
  b.set(a);
  return b;
}
