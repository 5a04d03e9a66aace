// @ts-nocheck
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
import { throwIfAborted } from "../errors.js";
import type { ChunkSink } from "./record-types.js";
import { escapeControlChars } from "../text/sanitize.js";

/** How much text is gathered before one write (and how much of a spool is read at a time). */
export const FLUSH_AT = stryMutAct_9fa48("5953") ? 64 / 1024 : (stryCov_9fa48("5953"), 64 * 1024);

/** Collects small pieces into ~64 KiB writes; escapes control characters for a terminal. */
export class BufferedChunkWriter {
  private buffer = stryMutAct_9fa48("5954") ? "Stryker was here!" : (stryCov_9fa48("5954"), "");
  constructor(private readonly sink: ChunkSink, private readonly signal?: AbortSignal) {}
  async write(text: string): Promise<void> {
    if (stryMutAct_9fa48("5955")) {
      {}
    } else {
      stryCov_9fa48("5955");
      stryMutAct_9fa48("5956") ? this.buffer -= text : (stryCov_9fa48("5956"), this.buffer += text);
      if (stryMutAct_9fa48("5960") ? this.buffer.length < FLUSH_AT : stryMutAct_9fa48("5959") ? this.buffer.length > FLUSH_AT : stryMutAct_9fa48("5958") ? false : stryMutAct_9fa48("5957") ? true : (stryCov_9fa48("5957", "5958", "5959", "5960"), this.buffer.length >= FLUSH_AT)) await this.flush();
    }
  }
  async flush(): Promise<void> {
    if (stryMutAct_9fa48("5961")) {
      {}
    } else {
      stryCov_9fa48("5961");
      throwIfAborted(this.signal);
      if (stryMutAct_9fa48("5964") ? this.buffer !== "" : stryMutAct_9fa48("5963") ? false : stryMutAct_9fa48("5962") ? true : (stryCov_9fa48("5962", "5963", "5964"), this.buffer === (stryMutAct_9fa48("5965") ? "Stryker was here!" : (stryCov_9fa48("5965"), "")))) return;
      const text = this.sink.toTerminal ? escapeControlChars(this.buffer) : this.buffer;
      this.buffer = stryMutAct_9fa48("5966") ? "Stryker was here!" : (stryCov_9fa48("5966"), "");
      await this.sink.write(text);
    }
  }
}