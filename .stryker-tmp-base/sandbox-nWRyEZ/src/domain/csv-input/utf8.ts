// @ts-nocheck
// Streaming UTF-8 validation. csv-parse decodes invalid bytes to U+FFFD without a word, and
// a name silently turned into "Jos�" would be uploaded; so every byte is checked before
// the parser sees it. buffer.isUtf8 (simdutf) keeps the check far below parsing cost; the
// byte-by-byte scan below runs only to locate an error already known to exist.
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
import { isUtf8 } from "node:buffer";

/**
 * Offset of the first byte that starts an invalid or truncated UTF-8 sequence in `bytes`,
 * or -1 when all of it is valid. Overlong forms, surrogates and code points above U+10FFFF
 * are invalid (RFC 3629), as for isUtf8.
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  if (stryMutAct_9fa48("2523")) {
    {}
  } else {
    stryCov_9fa48("2523");
    const n = bytes.length;
    let i = 0;
    while (stryMutAct_9fa48("2526") ? i >= n : stryMutAct_9fa48("2525") ? i <= n : stryMutAct_9fa48("2524") ? false : (stryCov_9fa48("2524", "2525", "2526"), i < n)) {
      if (stryMutAct_9fa48("2527")) {
        {}
      } else {
        stryCov_9fa48("2527");
        const b = bytes[i]!;
        if (stryMutAct_9fa48("2531") ? b >= 0x80 : stryMutAct_9fa48("2530") ? b <= 0x80 : stryMutAct_9fa48("2529") ? false : stryMutAct_9fa48("2528") ? true : (stryCov_9fa48("2528", "2529", "2530", "2531"), b < 0x80)) {
          if (stryMutAct_9fa48("2532")) {
            {}
          } else {
            stryCov_9fa48("2532");
            stryMutAct_9fa48("2533") ? i-- : (stryCov_9fa48("2533"), i++);
            continue;
          }
        }
        let need: number;
        let lo = 0x80;
        let hi = 0xbf;
        if (stryMutAct_9fa48("2536") ? b >= 0xc2 || b <= 0xdf : stryMutAct_9fa48("2535") ? false : stryMutAct_9fa48("2534") ? true : (stryCov_9fa48("2534", "2535", "2536"), (stryMutAct_9fa48("2539") ? b < 0xc2 : stryMutAct_9fa48("2538") ? b > 0xc2 : stryMutAct_9fa48("2537") ? true : (stryCov_9fa48("2537", "2538", "2539"), b >= 0xc2)) && (stryMutAct_9fa48("2542") ? b > 0xdf : stryMutAct_9fa48("2541") ? b < 0xdf : stryMutAct_9fa48("2540") ? true : (stryCov_9fa48("2540", "2541", "2542"), b <= 0xdf)))) need = 1;else if (stryMutAct_9fa48("2545") ? b !== 0xe0 : stryMutAct_9fa48("2544") ? false : stryMutAct_9fa48("2543") ? true : (stryCov_9fa48("2543", "2544", "2545"), b === 0xe0)) {
          if (stryMutAct_9fa48("2546")) {
            {}
          } else {
            stryCov_9fa48("2546");
            need = 2;
            lo = 0xa0;
          }
        } else if (stryMutAct_9fa48("2549") ? b !== 0xed : stryMutAct_9fa48("2548") ? false : stryMutAct_9fa48("2547") ? true : (stryCov_9fa48("2547", "2548", "2549"), b === 0xed)) {
          if (stryMutAct_9fa48("2550")) {
            {}
          } else {
            stryCov_9fa48("2550");
            need = 2;
            hi = 0x9f;
          }
        } else if (stryMutAct_9fa48("2553") ? b >= 0xe1 || b <= 0xef : stryMutAct_9fa48("2552") ? false : stryMutAct_9fa48("2551") ? true : (stryCov_9fa48("2551", "2552", "2553"), (stryMutAct_9fa48("2556") ? b < 0xe1 : stryMutAct_9fa48("2555") ? b > 0xe1 : stryMutAct_9fa48("2554") ? true : (stryCov_9fa48("2554", "2555", "2556"), b >= 0xe1)) && (stryMutAct_9fa48("2559") ? b > 0xef : stryMutAct_9fa48("2558") ? b < 0xef : stryMutAct_9fa48("2557") ? true : (stryCov_9fa48("2557", "2558", "2559"), b <= 0xef)))) need = 2;else if (stryMutAct_9fa48("2562") ? b !== 0xf0 : stryMutAct_9fa48("2561") ? false : stryMutAct_9fa48("2560") ? true : (stryCov_9fa48("2560", "2561", "2562"), b === 0xf0)) {
          if (stryMutAct_9fa48("2563")) {
            {}
          } else {
            stryCov_9fa48("2563");
            need = 3;
            lo = 0x90;
          }
        } else if (stryMutAct_9fa48("2566") ? b !== 0xf4 : stryMutAct_9fa48("2565") ? false : stryMutAct_9fa48("2564") ? true : (stryCov_9fa48("2564", "2565", "2566"), b === 0xf4)) {
          if (stryMutAct_9fa48("2567")) {
            {}
          } else {
            stryCov_9fa48("2567");
            need = 3;
            hi = 0x8f;
          }
        } else if (stryMutAct_9fa48("2570") ? b >= 0xf1 || b <= 0xf3 : stryMutAct_9fa48("2569") ? false : stryMutAct_9fa48("2568") ? true : (stryCov_9fa48("2568", "2569", "2570"), (stryMutAct_9fa48("2573") ? b < 0xf1 : stryMutAct_9fa48("2572") ? b > 0xf1 : stryMutAct_9fa48("2571") ? true : (stryCov_9fa48("2571", "2572", "2573"), b >= 0xf1)) && (stryMutAct_9fa48("2576") ? b > 0xf3 : stryMutAct_9fa48("2575") ? b < 0xf3 : stryMutAct_9fa48("2574") ? true : (stryCov_9fa48("2574", "2575", "2576"), b <= 0xf3)))) need = 3;else return i;
        if (stryMutAct_9fa48("2580") ? i + need < n : stryMutAct_9fa48("2579") ? i + need > n : stryMutAct_9fa48("2578") ? false : stryMutAct_9fa48("2577") ? true : (stryCov_9fa48("2577", "2578", "2579", "2580"), (stryMutAct_9fa48("2581") ? i - need : (stryCov_9fa48("2581"), i + need)) >= n)) return i;
        const second = bytes[stryMutAct_9fa48("2582") ? i - 1 : (stryCov_9fa48("2582"), i + 1)]!;
        if (stryMutAct_9fa48("2585") ? second < lo && second > hi : stryMutAct_9fa48("2584") ? false : stryMutAct_9fa48("2583") ? true : (stryCov_9fa48("2583", "2584", "2585"), (stryMutAct_9fa48("2588") ? second >= lo : stryMutAct_9fa48("2587") ? second <= lo : stryMutAct_9fa48("2586") ? false : (stryCov_9fa48("2586", "2587", "2588"), second < lo)) || (stryMutAct_9fa48("2591") ? second <= hi : stryMutAct_9fa48("2590") ? second >= hi : stryMutAct_9fa48("2589") ? false : (stryCov_9fa48("2589", "2590", "2591"), second > hi)))) return i;
        for (let k = 2; stryMutAct_9fa48("2594") ? k > need : stryMutAct_9fa48("2593") ? k < need : stryMutAct_9fa48("2592") ? false : (stryCov_9fa48("2592", "2593", "2594"), k <= need); stryMutAct_9fa48("2595") ? k-- : (stryCov_9fa48("2595"), k++)) {
          if (stryMutAct_9fa48("2596")) {
            {}
          } else {
            stryCov_9fa48("2596");
            const c = bytes[stryMutAct_9fa48("2597") ? i - k : (stryCov_9fa48("2597"), i + k)]!;
            if (stryMutAct_9fa48("2600") ? c < 0x80 && c > 0xbf : stryMutAct_9fa48("2599") ? false : stryMutAct_9fa48("2598") ? true : (stryCov_9fa48("2598", "2599", "2600"), (stryMutAct_9fa48("2603") ? c >= 0x80 : stryMutAct_9fa48("2602") ? c <= 0x80 : stryMutAct_9fa48("2601") ? false : (stryCov_9fa48("2601", "2602", "2603"), c < 0x80)) || (stryMutAct_9fa48("2606") ? c <= 0xbf : stryMutAct_9fa48("2605") ? c >= 0xbf : stryMutAct_9fa48("2604") ? false : (stryCov_9fa48("2604", "2605", "2606"), c > 0xbf)))) return i;
          }
        }
        stryMutAct_9fa48("2607") ? i -= need + 1 : (stryCov_9fa48("2607"), i += stryMutAct_9fa48("2608") ? need - 1 : (stryCov_9fa48("2608"), need + 1));
      }
    }
    return stryMutAct_9fa48("2609") ? +1 : (stryCov_9fa48("2609"), -1);
  }
}

/** Length of the sequence a lead byte announces; 0 for a continuation or invalid byte. */
function sequenceLength(b: number): number {
  if (stryMutAct_9fa48("2610")) {
    {}
  } else {
    stryCov_9fa48("2610");
    if (stryMutAct_9fa48("2614") ? b >= 0x80 : stryMutAct_9fa48("2613") ? b <= 0x80 : stryMutAct_9fa48("2612") ? false : stryMutAct_9fa48("2611") ? true : (stryCov_9fa48("2611", "2612", "2613", "2614"), b < 0x80)) return 1;
    if (stryMutAct_9fa48("2617") ? b >= 0xc2 || b <= 0xdf : stryMutAct_9fa48("2616") ? false : stryMutAct_9fa48("2615") ? true : (stryCov_9fa48("2615", "2616", "2617"), (stryMutAct_9fa48("2620") ? b < 0xc2 : stryMutAct_9fa48("2619") ? b > 0xc2 : stryMutAct_9fa48("2618") ? true : (stryCov_9fa48("2618", "2619", "2620"), b >= 0xc2)) && (stryMutAct_9fa48("2623") ? b > 0xdf : stryMutAct_9fa48("2622") ? b < 0xdf : stryMutAct_9fa48("2621") ? true : (stryCov_9fa48("2621", "2622", "2623"), b <= 0xdf)))) return 2;
    if (stryMutAct_9fa48("2626") ? b >= 0xe0 || b <= 0xef : stryMutAct_9fa48("2625") ? false : stryMutAct_9fa48("2624") ? true : (stryCov_9fa48("2624", "2625", "2626"), (stryMutAct_9fa48("2629") ? b < 0xe0 : stryMutAct_9fa48("2628") ? b > 0xe0 : stryMutAct_9fa48("2627") ? true : (stryCov_9fa48("2627", "2628", "2629"), b >= 0xe0)) && (stryMutAct_9fa48("2632") ? b > 0xef : stryMutAct_9fa48("2631") ? b < 0xef : stryMutAct_9fa48("2630") ? true : (stryCov_9fa48("2630", "2631", "2632"), b <= 0xef)))) return 3;
    if (stryMutAct_9fa48("2635") ? b >= 0xf0 || b <= 0xf4 : stryMutAct_9fa48("2634") ? false : stryMutAct_9fa48("2633") ? true : (stryCov_9fa48("2633", "2634", "2635"), (stryMutAct_9fa48("2638") ? b < 0xf0 : stryMutAct_9fa48("2637") ? b > 0xf0 : stryMutAct_9fa48("2636") ? true : (stryCov_9fa48("2636", "2637", "2638"), b >= 0xf0)) && (stryMutAct_9fa48("2641") ? b > 0xf4 : stryMutAct_9fa48("2640") ? b < 0xf4 : stryMutAct_9fa48("2639") ? true : (stryCov_9fa48("2639", "2640", "2641"), b <= 0xf4)))) return 4;
    return 0;
  }
}
export type Utf8Result = {
  ok: true;
  bytes: Uint8Array;
} | {
  ok: false;
  validPrefix: Uint8Array;
  offset: number; /** The first bad byte. */
  byte: number;
};

/**
 * Validates a byte stream chunk by chunk. A multi-byte character split across chunks is
 * held back (at most 3 bytes) until the next chunk completes it.
 */
export class Utf8StreamChecker {
  private carry: Uint8Array | undefined;
  /** File offset of the first byte not yet returned as valid. */
  private offset = 0;

  /** The validated bytes to pass on, or where the first invalid byte is. */
  push(chunk: Uint8Array): Utf8Result {
    if (stryMutAct_9fa48("2642")) {
      {}
    } else {
      stryCov_9fa48("2642");
      let bytes = chunk;
      if (stryMutAct_9fa48("2645") ? this.carry === undefined : stryMutAct_9fa48("2644") ? false : stryMutAct_9fa48("2643") ? true : (stryCov_9fa48("2643", "2644", "2645"), this.carry !== undefined)) {
        if (stryMutAct_9fa48("2646")) {
          {}
        } else {
          stryCov_9fa48("2646");
          bytes = new Uint8Array(stryMutAct_9fa48("2647") ? this.carry.length - chunk.length : (stryCov_9fa48("2647"), this.carry.length + chunk.length));
          bytes.set(this.carry, 0);
          bytes.set(chunk, this.carry.length);
          this.carry = undefined;
        }
      }
      const cut = completePrefixLength(bytes);
      const complete = (stryMutAct_9fa48("2650") ? cut !== bytes.length : stryMutAct_9fa48("2649") ? false : stryMutAct_9fa48("2648") ? true : (stryCov_9fa48("2648", "2649", "2650"), cut === bytes.length)) ? bytes : bytes.subarray(0, cut);
      if (stryMutAct_9fa48("2653") ? false : stryMutAct_9fa48("2652") ? true : stryMutAct_9fa48("2651") ? isUtf8(complete) : (stryCov_9fa48("2651", "2652", "2653"), !isUtf8(complete))) {
        if (stryMutAct_9fa48("2654")) {
          {}
        } else {
          stryCov_9fa48("2654");
          const at = findInvalidUtf8(complete);
          // isUtf8 and the scan agree on every input; should they ever not, blame the chunk start.
          const local = (stryMutAct_9fa48("2658") ? at >= 0 : stryMutAct_9fa48("2657") ? at <= 0 : stryMutAct_9fa48("2656") ? false : stryMutAct_9fa48("2655") ? true : (stryCov_9fa48("2655", "2656", "2657", "2658"), at < 0)) ? 0 : at;
          return stryMutAct_9fa48("2659") ? {} : (stryCov_9fa48("2659"), {
            ok: stryMutAct_9fa48("2660") ? true : (stryCov_9fa48("2660"), false),
            validPrefix: complete.subarray(0, local),
            offset: stryMutAct_9fa48("2661") ? this.offset - local : (stryCov_9fa48("2661"), this.offset + local),
            byte: stryMutAct_9fa48("2662") ? complete[local] && 0 : (stryCov_9fa48("2662"), complete[local] ?? 0)
          });
        }
      }
      if (stryMutAct_9fa48("2666") ? cut >= bytes.length : stryMutAct_9fa48("2665") ? cut <= bytes.length : stryMutAct_9fa48("2664") ? false : stryMutAct_9fa48("2663") ? true : (stryCov_9fa48("2663", "2664", "2665", "2666"), cut < bytes.length)) this.carry = stryMutAct_9fa48("2667") ? bytes : (stryCov_9fa48("2667"), bytes.slice(cut));
      stryMutAct_9fa48("2668") ? this.offset -= cut : (stryCov_9fa48("2668"), this.offset += cut);
      return stryMutAct_9fa48("2669") ? {} : (stryCov_9fa48("2669"), {
        ok: stryMutAct_9fa48("2670") ? false : (stryCov_9fa48("2670"), true),
        bytes: complete
      });
    }
  }

  /** At the end of the stream: -1, or the offset of a character cut off by the end. */
  end(): number {
    if (stryMutAct_9fa48("2671")) {
      {}
    } else {
      stryCov_9fa48("2671");
      return (stryMutAct_9fa48("2674") ? this.carry !== undefined : stryMutAct_9fa48("2673") ? false : stryMutAct_9fa48("2672") ? true : (stryCov_9fa48("2672", "2673", "2674"), this.carry === undefined)) ? stryMutAct_9fa48("2675") ? +1 : (stryCov_9fa48("2675"), -1) : this.offset;
    }
  }
}

/**
 * Bytes at the start of `bytes` that do not end inside a multi-byte sequence. Looks back
 * at most 3 bytes for the last lead byte; anything malformed is left to isUtf8.
 */
function completePrefixLength(bytes: Uint8Array): number {
  if (stryMutAct_9fa48("2676")) {
    {}
  } else {
    stryCov_9fa48("2676");
    const n = bytes.length;
    for (let back = 1; stryMutAct_9fa48("2678") ? back <= 3 || back <= n : stryMutAct_9fa48("2677") ? false : (stryCov_9fa48("2677", "2678"), (stryMutAct_9fa48("2681") ? back > 3 : stryMutAct_9fa48("2680") ? back < 3 : stryMutAct_9fa48("2679") ? true : (stryCov_9fa48("2679", "2680", "2681"), back <= 3)) && (stryMutAct_9fa48("2684") ? back > n : stryMutAct_9fa48("2683") ? back < n : stryMutAct_9fa48("2682") ? true : (stryCov_9fa48("2682", "2683", "2684"), back <= n))); stryMutAct_9fa48("2685") ? back-- : (stryCov_9fa48("2685"), back++)) {
      if (stryMutAct_9fa48("2686")) {
        {}
      } else {
        stryCov_9fa48("2686");
        const b = bytes[stryMutAct_9fa48("2687") ? n + back : (stryCov_9fa48("2687"), n - back)]!;
        if (stryMutAct_9fa48("2690") ? (b & 0xc0) !== 0x80 : stryMutAct_9fa48("2689") ? false : stryMutAct_9fa48("2688") ? true : (stryCov_9fa48("2688", "2689", "2690"), (b & 0xc0) === 0x80)) continue; // continuation byte: keep looking for its lead byte
        const len = sequenceLength(b);
        return (stryMutAct_9fa48("2694") ? len <= back : stryMutAct_9fa48("2693") ? len >= back : stryMutAct_9fa48("2692") ? false : stryMutAct_9fa48("2691") ? true : (stryCov_9fa48("2691", "2692", "2693", "2694"), len > back)) ? stryMutAct_9fa48("2695") ? n + back : (stryCov_9fa48("2695"), n - back) : n;
      }
    }
    return n;
  }
}