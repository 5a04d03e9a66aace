// @ts-nocheck
// Duplicate-email detection for files of a million rows within the memory budget
// (issue 7: < 150 MiB peak for 1,000,000 rows). A Set<string> of a million emails costs
// well over 100 MB; this index keeps each lowercased ASCII address as length-prefixed
// bytes in 1 MiB pages (about 22 bytes for a typical address) plus about 20 bytes of
// typed-array bookkeeping (under 45 MB for a million), and still compares addresses
// exactly, so a hash collision never reports a false duplicate.
//
// Emails are compared ignoring case: mailbox providers treat A@x.com and a@x.com as one
// user, and the service would see two rows for one person.
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
const PAGE_BITS = 20;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = stryMutAct_9fa48("4343") ? PAGE_SIZE + 1 : (stryCov_9fa48("4343"), PAGE_SIZE - 1);
/** Longer keys (or non-ASCII ones) go to the exact fallback map; they are rare. */
const MAX_PACKED_LENGTH = 255;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
export class EmailIndex {
  private readonly pages: Uint8Array[] = stryMutAct_9fa48("4344") ? ["Stryker was here"] : (stryCov_9fa48("4344"), []);
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
    if (stryMutAct_9fa48("4345")) {
      {}
    } else {
      stryCov_9fa48("4345");
      return stryMutAct_9fa48("4346") ? this.count - this.fallback.size : (stryCov_9fa48("4346"), this.count + this.fallback.size);
    }
  }

  /**
   * Records `email` as seen on `row`. Returns the row where the same address (ignoring
   * case) was first seen, or 0 when it is new — the caller reports the later row.
   */
  add(email: string, row: number): number {
    if (stryMutAct_9fa48("4347")) {
      {}
    } else {
      stryCov_9fa48("4347");
      const n = email.length;
      if (stryMutAct_9fa48("4351") ? n <= MAX_PACKED_LENGTH : stryMutAct_9fa48("4350") ? n >= MAX_PACKED_LENGTH : stryMutAct_9fa48("4349") ? false : stryMutAct_9fa48("4348") ? true : (stryCov_9fa48("4348", "4349", "4350", "4351"), n > MAX_PACKED_LENGTH)) return this.addToFallback(stryMutAct_9fa48("4352") ? email.toUpperCase() : (stryCov_9fa48("4352"), email.toLowerCase()), row);
      let h = FNV_OFFSET;
      for (let i = 0; stryMutAct_9fa48("4355") ? i >= n : stryMutAct_9fa48("4354") ? i <= n : stryMutAct_9fa48("4353") ? false : (stryCov_9fa48("4353", "4354", "4355"), i < n); stryMutAct_9fa48("4356") ? i-- : (stryCov_9fa48("4356"), i++)) {
        if (stryMutAct_9fa48("4357")) {
          {}
        } else {
          stryCov_9fa48("4357");
          let c = email.charCodeAt(i);
          if (stryMutAct_9fa48("4361") ? c < 0x80 : stryMutAct_9fa48("4360") ? c > 0x80 : stryMutAct_9fa48("4359") ? false : stryMutAct_9fa48("4358") ? true : (stryCov_9fa48("4358", "4359", "4360", "4361"), c >= 0x80)) return this.addNonAscii(email, row);
          if (stryMutAct_9fa48("4364") ? c >= 0x41 || c <= 0x5a : stryMutAct_9fa48("4363") ? false : stryMutAct_9fa48("4362") ? true : (stryCov_9fa48("4362", "4363", "4364"), (stryMutAct_9fa48("4367") ? c < 0x41 : stryMutAct_9fa48("4366") ? c > 0x41 : stryMutAct_9fa48("4365") ? true : (stryCov_9fa48("4365", "4366", "4367"), c >= 0x41)) && (stryMutAct_9fa48("4370") ? c > 0x5a : stryMutAct_9fa48("4369") ? c < 0x5a : stryMutAct_9fa48("4368") ? true : (stryCov_9fa48("4368", "4369", "4370"), c <= 0x5a)))) stryMutAct_9fa48("4371") ? c -= 0x20 : (stryCov_9fa48("4371"), c += 0x20);
          h = Math.imul(h ^ c, FNV_PRIME);
        }
      }
      h >>>= 0;
      const slots = this.slots;
      const mask = stryMutAct_9fa48("4372") ? slots.length + 1 : (stryCov_9fa48("4372"), slots.length - 1);
      let i = h & mask;
      for (let s = slots[i]!; stryMutAct_9fa48("4374") ? s === 0 : stryMutAct_9fa48("4373") ? false : (stryCov_9fa48("4373", "4374"), s !== 0); s = slots[i]!) {
        if (stryMutAct_9fa48("4375")) {
          {}
        } else {
          stryCov_9fa48("4375");
          if (stryMutAct_9fa48("4377") ? false : stryMutAct_9fa48("4376") ? true : (stryCov_9fa48("4376", "4377"), this.keyEquals(stryMutAct_9fa48("4378") ? s + 1 : (stryCov_9fa48("4378"), s - 1), email))) return this.rows[stryMutAct_9fa48("4379") ? s + 1 : (stryCov_9fa48("4379"), s - 1)]!;
          i = (stryMutAct_9fa48("4380") ? i - 1 : (stryCov_9fa48("4380"), i + 1)) & mask;
        }
      }
      this.insert(i, email, row, h);
      return 0;
    }
  }
  private addNonAscii(email: string, row: number): number {
    if (stryMutAct_9fa48("4381")) {
      {}
    } else {
      stryCov_9fa48("4381");
      const lower = stryMutAct_9fa48("4382") ? email.toUpperCase() : (stryCov_9fa48("4382"), email.toLowerCase());
      // Some non-ASCII letters lowercase to ASCII (KELVIN SIGN → "k"); those must meet their
      // ASCII twins in the packed table.
      // eslint-disable-next-line no-control-regex -- the ASCII range is the point here
      if (stryMutAct_9fa48("4384") ? false : stryMutAct_9fa48("4383") ? true : (stryCov_9fa48("4383", "4384"), (stryMutAct_9fa48("4388") ? /^[^\x00-\x7f]*$/ : stryMutAct_9fa48("4387") ? /^[\x00-\x7f]$/ : stryMutAct_9fa48("4386") ? /^[\x00-\x7f]*/ : stryMutAct_9fa48("4385") ? /[\x00-\x7f]*$/ : (stryCov_9fa48("4385", "4386", "4387", "4388"), /^[\x00-\x7f]*$/)).test(lower))) return this.add(lower, row);
      return this.addToFallback(lower, row);
    }
  }
  private addToFallback(lower: string, row: number): number {
    if (stryMutAct_9fa48("4389")) {
      {}
    } else {
      stryCov_9fa48("4389");
      const first = this.fallback.get(lower);
      if (stryMutAct_9fa48("4392") ? first === undefined : stryMutAct_9fa48("4391") ? false : stryMutAct_9fa48("4390") ? true : (stryCov_9fa48("4390", "4391", "4392"), first !== undefined)) return first;
      this.fallback.set(lower, row);
      return 0;
    }
  }

  /** Whether entry `e` holds `email` lowercased; `email` is ASCII here. */
  private keyEquals(e: number, email: string): boolean {
    if (stryMutAct_9fa48("4393")) {
      {}
    } else {
      stryCov_9fa48("4393");
      const at = this.keyAt[e]!;
      const page = this.pages[at >>> PAGE_BITS]!;
      let p = at & PAGE_MASK;
      const n = email.length;
      if (stryMutAct_9fa48("4396") ? page[p] === n : stryMutAct_9fa48("4395") ? false : stryMutAct_9fa48("4394") ? true : (stryCov_9fa48("4394", "4395", "4396"), page[p] !== n)) return stryMutAct_9fa48("4397") ? true : (stryCov_9fa48("4397"), false);
      stryMutAct_9fa48("4398") ? p-- : (stryCov_9fa48("4398"), p++);
      for (let i = 0; stryMutAct_9fa48("4401") ? i >= n : stryMutAct_9fa48("4400") ? i <= n : stryMutAct_9fa48("4399") ? false : (stryCov_9fa48("4399", "4400", "4401"), i < n); stryMutAct_9fa48("4402") ? i-- : (stryCov_9fa48("4402"), i++)) {
        if (stryMutAct_9fa48("4403")) {
          {}
        } else {
          stryCov_9fa48("4403");
          let c = email.charCodeAt(i);
          if (stryMutAct_9fa48("4406") ? c >= 0x41 || c <= 0x5a : stryMutAct_9fa48("4405") ? false : stryMutAct_9fa48("4404") ? true : (stryCov_9fa48("4404", "4405", "4406"), (stryMutAct_9fa48("4409") ? c < 0x41 : stryMutAct_9fa48("4408") ? c > 0x41 : stryMutAct_9fa48("4407") ? true : (stryCov_9fa48("4407", "4408", "4409"), c >= 0x41)) && (stryMutAct_9fa48("4412") ? c > 0x5a : stryMutAct_9fa48("4411") ? c < 0x5a : stryMutAct_9fa48("4410") ? true : (stryCov_9fa48("4410", "4411", "4412"), c <= 0x5a)))) stryMutAct_9fa48("4413") ? c -= 0x20 : (stryCov_9fa48("4413"), c += 0x20);
          if (stryMutAct_9fa48("4416") ? page[p + i] === c : stryMutAct_9fa48("4415") ? false : stryMutAct_9fa48("4414") ? true : (stryCov_9fa48("4414", "4415", "4416"), page[stryMutAct_9fa48("4417") ? p - i : (stryCov_9fa48("4417"), p + i)] !== c)) return stryMutAct_9fa48("4418") ? true : (stryCov_9fa48("4418"), false);
        }
      }
      return stryMutAct_9fa48("4419") ? false : (stryCov_9fa48("4419"), true);
    }
  }
  private insert(slot: number, email: string, row: number, hash: number): void {
    if (stryMutAct_9fa48("4420")) {
      {}
    } else {
      stryCov_9fa48("4420");
      const n = email.length;
      if (stryMutAct_9fa48("4424") ? this.pageUsed + n + 1 <= PAGE_SIZE : stryMutAct_9fa48("4423") ? this.pageUsed + n + 1 >= PAGE_SIZE : stryMutAct_9fa48("4422") ? false : stryMutAct_9fa48("4421") ? true : (stryCov_9fa48("4421", "4422", "4423", "4424"), (stryMutAct_9fa48("4425") ? this.pageUsed + n - 1 : (stryCov_9fa48("4425"), (stryMutAct_9fa48("4426") ? this.pageUsed - n : (stryCov_9fa48("4426"), this.pageUsed + n)) + 1)) > PAGE_SIZE)) {
        if (stryMutAct_9fa48("4427")) {
          {}
        } else {
          stryCov_9fa48("4427");
          this.pages.push(new Uint8Array(PAGE_SIZE));
          this.pageUsed = 0;
        }
      }
      const pageIndex = stryMutAct_9fa48("4428") ? this.pages.length + 1 : (stryCov_9fa48("4428"), this.pages.length - 1);
      const page = this.pages[pageIndex]!;
      let p = this.pageUsed;
      page[stryMutAct_9fa48("4429") ? p-- : (stryCov_9fa48("4429"), p++)] = n;
      for (let i = 0; stryMutAct_9fa48("4432") ? i >= n : stryMutAct_9fa48("4431") ? i <= n : stryMutAct_9fa48("4430") ? false : (stryCov_9fa48("4430", "4431", "4432"), i < n); stryMutAct_9fa48("4433") ? i-- : (stryCov_9fa48("4433"), i++)) {
        if (stryMutAct_9fa48("4434")) {
          {}
        } else {
          stryCov_9fa48("4434");
          const c = email.charCodeAt(i);
          page[stryMutAct_9fa48("4435") ? p-- : (stryCov_9fa48("4435"), p++)] = (stryMutAct_9fa48("4438") ? c >= 0x41 || c <= 0x5a : stryMutAct_9fa48("4437") ? false : stryMutAct_9fa48("4436") ? true : (stryCov_9fa48("4436", "4437", "4438"), (stryMutAct_9fa48("4441") ? c < 0x41 : stryMutAct_9fa48("4440") ? c > 0x41 : stryMutAct_9fa48("4439") ? true : (stryCov_9fa48("4439", "4440", "4441"), c >= 0x41)) && (stryMutAct_9fa48("4444") ? c > 0x5a : stryMutAct_9fa48("4443") ? c < 0x5a : stryMutAct_9fa48("4442") ? true : (stryCov_9fa48("4442", "4443", "4444"), c <= 0x5a)))) ? stryMutAct_9fa48("4445") ? c - 0x20 : (stryCov_9fa48("4445"), c + 0x20) : c;
        }
      }
      const e = this.count;
      if (stryMutAct_9fa48("4448") ? e !== this.rows.length : stryMutAct_9fa48("4447") ? false : stryMutAct_9fa48("4446") ? true : (stryCov_9fa48("4446", "4447", "4448"), e === this.rows.length)) {
        if (stryMutAct_9fa48("4449")) {
          {}
        } else {
          stryCov_9fa48("4449");
          this.rows = grow(this.rows);
          this.keyAt = grow(this.keyAt);
          this.hashes = grow(this.hashes);
        }
      }
      this.rows[e] = row;
      this.hashes[e] = hash;
      this.keyAt[e] = (stryMutAct_9fa48("4450") ? pageIndex * PAGE_SIZE - this.pageUsed : (stryCov_9fa48("4450"), (stryMutAct_9fa48("4451") ? pageIndex / PAGE_SIZE : (stryCov_9fa48("4451"), pageIndex * PAGE_SIZE)) + this.pageUsed)) >>> 0;
      this.pageUsed = p;
      this.slots[slot] = stryMutAct_9fa48("4452") ? e - 1 : (stryCov_9fa48("4452"), e + 1);
      this.count = stryMutAct_9fa48("4453") ? e - 1 : (stryCov_9fa48("4453"), e + 1);
      if (stryMutAct_9fa48("4457") ? this.count * 2 <= this.slots.length : stryMutAct_9fa48("4456") ? this.count * 2 >= this.slots.length : stryMutAct_9fa48("4455") ? false : stryMutAct_9fa48("4454") ? true : (stryCov_9fa48("4454", "4455", "4456", "4457"), (stryMutAct_9fa48("4458") ? this.count / 2 : (stryCov_9fa48("4458"), this.count * 2)) > this.slots.length)) this.rehash();
    }
  }
  private rehash(): void {
    if (stryMutAct_9fa48("4459")) {
      {}
    } else {
      stryCov_9fa48("4459");
      const slots = new Uint32Array(stryMutAct_9fa48("4460") ? this.slots.length / 2 : (stryCov_9fa48("4460"), this.slots.length * 2));
      const mask = stryMutAct_9fa48("4461") ? slots.length + 1 : (stryCov_9fa48("4461"), slots.length - 1);
      for (let e = 0; stryMutAct_9fa48("4464") ? e >= this.count : stryMutAct_9fa48("4463") ? e <= this.count : stryMutAct_9fa48("4462") ? false : (stryCov_9fa48("4462", "4463", "4464"), e < this.count); stryMutAct_9fa48("4465") ? e-- : (stryCov_9fa48("4465"), e++)) {
        if (stryMutAct_9fa48("4466")) {
          {}
        } else {
          stryCov_9fa48("4466");
          let i = this.hashes[e]! & mask;
          while (stryMutAct_9fa48("4468") ? slots[i] === 0 : stryMutAct_9fa48("4467") ? false : (stryCov_9fa48("4467", "4468"), slots[i] !== 0)) i = (stryMutAct_9fa48("4469") ? i - 1 : (stryCov_9fa48("4469"), i + 1)) & mask;
          slots[i] = stryMutAct_9fa48("4470") ? e - 1 : (stryCov_9fa48("4470"), e + 1);
        }
      }
      this.slots = slots;
    }
  }
}
function grow(a: Uint32Array): Uint32Array {
  if (stryMutAct_9fa48("4471")) {
    {}
  } else {
    stryCov_9fa48("4471");
    const b = new Uint32Array(stryMutAct_9fa48("4472") ? a.length / 2 : (stryCov_9fa48("4472"), a.length * 2));
    b.set(a);
    return b;
  }
}