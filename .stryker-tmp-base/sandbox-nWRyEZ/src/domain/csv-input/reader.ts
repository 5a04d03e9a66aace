// @ts-nocheck
// A streamed CSV record reader for the files spreadsheets write: bytes → decoded text
// (encoding.ts) → dialect (dialect.ts) → csv-parse → records with spreadsheet row numbers.
// It knows nothing about what the columns mean: users-csv/ adds the users rules, and the
// bulk `--from-csv` files (docs/cli-contract.md "Bulk operations": "same reading rules") can
// use it as they are.
//
// Row numbers are spreadsheet row numbers: every CSV record is one row, blank lines
// included, and a quoted line break does not start a new one; Excel's `sep=` line is not a
// row (Excel hides it), so the header is row 1.
//
// Pure: the caller opens the file and hands over its chunks.
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
import { createHash } from "node:crypto";
import { parse, type Parser } from "csv-parse";
import { type Decoded, type DecodeResult, createDecoder, decodeWindows1252, sniffEncoding, UTF8, WINDOWS_1252 } from "./encoding.js";
import { csvParseOptions, type Delimiter, detectDialect, type Dialect, HEADER_SCAN_LIMIT, type LineEnding } from "./dialect.js";
import { CsvFileError, excerpt, excerptEnd } from "./errors.js";
export { CsvFileError, type CsvFileErrorCode, excerpt, EXCERPT_CHARS } from "./errors.js";
export { type Delimiter, type LineEnding, csvParseOptions, MAX_RECORD_CHARS } from "./dialect.js";
export { resolveEncoding, encodingOption, ENCODING_EXAMPLES } from "./encoding.js";
export { mapHeader, findControlCharacter, codePointName, type HeaderLayout } from "./header.js";
export interface CsvReadOptions {
  /**
   * The encoding from `--encoding`, already resolved (resolveEncoding). Without it: a BOM,
   * else the NUL pattern of UTF-16, else strict UTF-8. A BOM wins over it, with a note.
   */
  encoding?: string | undefined;
}

/** What the reader found out about the file; each field is set as soon as it is known. */
export interface CsvSourceInfo {
  /** WHATWG name: "utf-8", "utf-16le", "windows-1252", ... */
  encoding: string;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
  delimiter: Delimiter;
  lineEnding: LineEnding;
  /** Whether the file starts with Excel's `sep=` line. */
  sepLine: boolean;
  /** Things worth a warning line, e.g. a BOM that overrode --encoding. */
  notes: string[];
  /** SHA-256 (hex) of every byte of the file, BOM included; set when the stream ends. */
  sha256: string;
  /** Size of the file in bytes; set when the stream ends. */
  bytes: number;
}

/** Called for each record in file order with its spreadsheet row. Runs inside csv-parse's push: must not throw. */
export type CsvRecordSink = (cells: string[], row: number) => void;
export interface CsvStreamControl {
  /** A file-level error the sink recorded, thrown by the reader after the current chunk. */
  failure: () => Error | undefined;
  /** Filled in by the reader. */
  info: Partial<CsvSourceInfo>;
}

/**
 * The low-level reader: streams `source`, calling `sink` for every record in order (the
 * first is the first line with content or a blank line before it). Yields after each
 * chunk, so a caller can hand on what the sink collected before more is read; a sink stops
 * the run by making `control.failure()` return an error. Throws CsvFileError for a file that
 * cannot be decoded or parsed (code ENCODING or MALFORMED), naming the row and quoting at
 * most a short excerpt.
 */
export async function* streamCsvRecords(source: AsyncIterable<Uint8Array>, sink: CsvRecordSink, control: CsvStreamControl, options: CsvReadOptions = {}): AsyncGenerator<void, void, undefined> {
  if (stryMutAct_9fa48("2112")) {
    {}
  } else {
    stryCov_9fa48("2112");
    const info = control.info;
    stryMutAct_9fa48("2113") ? info.notes &&= [] : (stryCov_9fa48("2113"), info.notes ??= stryMutAct_9fa48("2114") ? ["Stryker was here"] : (stryCov_9fa48("2114"), []));
    const hash = createHash(stryMutAct_9fa48("2115") ? "" : (stryCov_9fa48("2115"), "sha256"));
    let bytes = 0;
    let rawHead: Uint8Array[] | undefined = stryMutAct_9fa48("2116") ? ["Stryker was here"] : (stryCov_9fa48("2116"), []);
    let rawHeadLength = 0;
    let decoder: ReturnType<typeof createDecoder> | undefined;
    let textHead: Decoded[] | undefined = stryMutAct_9fa48("2117") ? ["Stryker was here"] : (stryCov_9fa48("2117"), []);
    let parser: Parser | undefined;
    let parseError: unknown;
    let ended: Promise<void> | undefined;
    let rows = 0;
    /** Set while the text before an encoding error is parsed only to learn its row. */
    let flushing = stryMutAct_9fa48("2118") ? true : (stryCov_9fa48("2118"), false);
    /** The end of the text handed to the parser, for an excerpt before an encoding error. */
    let recent = stryMutAct_9fa48("2119") ? "Stryker was here!" : (stryCov_9fa48("2119"), "");
    const currentRow = stryMutAct_9fa48("2120") ? () => undefined : (stryCov_9fa48("2120"), (() => {
      const currentRow = (): number => stryMutAct_9fa48("2121") ? (parser?.info.records ?? rows) - 1 : (stryCov_9fa48("2121"), (stryMutAct_9fa48("2122") ? parser?.info.records && rows : (stryCov_9fa48("2122"), (stryMutAct_9fa48("2123") ? parser.info.records : (stryCov_9fa48("2123"), parser?.info.records)) ?? rows)) + 1);
      return currentRow;
    })());
    const check = (): void => {
      if (stryMutAct_9fa48("2124")) {
        {}
      } else {
        stryCov_9fa48("2124");
        const failure = control.failure();
        if (stryMutAct_9fa48("2127") ? failure === undefined : stryMutAct_9fa48("2126") ? false : stryMutAct_9fa48("2125") ? true : (stryCov_9fa48("2125", "2126", "2127"), failure !== undefined)) throw failure;
        if (stryMutAct_9fa48("2130") ? parseError === undefined : stryMutAct_9fa48("2129") ? false : stryMutAct_9fa48("2128") ? true : (stryCov_9fa48("2128", "2129", "2130"), parseError !== undefined)) throw malformed(parseError, currentRow());
      }
    };
    const startParser = (dialect: Dialect): void => {
      if (stryMutAct_9fa48("2131")) {
        {}
      } else {
        stryCov_9fa48("2131");
        info.delimiter = dialect.delimiter;
        info.lineEnding = dialect.lineEnding;
        info.sepLine = dialect.sepLine;
        const p = parse(csvParseOptions(dialect));
        p.on(stryMutAct_9fa48("2132") ? "" : (stryCov_9fa48("2132"), "data"), (cells: string[]) => {
          if (stryMutAct_9fa48("2133")) {
            {}
          } else {
            stryCov_9fa48("2133");
            if (stryMutAct_9fa48("2136") ? false : stryMutAct_9fa48("2135") ? true : stryMutAct_9fa48("2134") ? flushing : (stryCov_9fa48("2134", "2135", "2136"), !flushing)) sink(cells, stryMutAct_9fa48("2137") ? --rows : (stryCov_9fa48("2137"), ++rows));
          }
        });
        p.on(stryMutAct_9fa48("2138") ? "" : (stryCov_9fa48("2138"), "error"), (err: unknown) => {
          if (stryMutAct_9fa48("2139")) {
            {}
          } else {
            stryCov_9fa48("2139");
            stryMutAct_9fa48("2140") ? parseError &&= err : (stryCov_9fa48("2140"), parseError ??= err);
          }
        });
        ended = new Promise<void>(resolve => {
          if (stryMutAct_9fa48("2141")) {
            {}
          } else {
            stryCov_9fa48("2141");
            p.once(stryMutAct_9fa48("2142") ? "" : (stryCov_9fa48("2142"), "end"), resolve);
            p.once(stryMutAct_9fa48("2143") ? "" : (stryCov_9fa48("2143"), "error"), stryMutAct_9fa48("2144") ? () => undefined : (stryCov_9fa48("2144"), () => resolve()));
            p.once(stryMutAct_9fa48("2145") ? "" : (stryCov_9fa48("2145"), "close"), resolve);
          }
        });
        parser = p;
      }
    };
    const write = async (piece: Decoded): Promise<void> => {
      if (stryMutAct_9fa48("2146")) {
        {}
      } else {
        stryCov_9fa48("2146");
        const p = parser!;
        if (stryMutAct_9fa48("2149") ? piece.length !== 0 : stryMutAct_9fa48("2148") ? false : stryMutAct_9fa48("2147") ? true : (stryCov_9fa48("2147", "2148", "2149"), piece.length === 0)) return;
        const tail = (stryMutAct_9fa48("2152") ? typeof piece !== "string" : stryMutAct_9fa48("2151") ? false : stryMutAct_9fa48("2150") ? true : (stryCov_9fa48("2150", "2151", "2152"), typeof piece === (stryMutAct_9fa48("2153") ? "" : (stryCov_9fa48("2153"), "string")))) ? stryMutAct_9fa48("2154") ? piece : (stryCov_9fa48("2154"), piece.slice(stryMutAct_9fa48("2155") ? +RECENT_CHARS : (stryCov_9fa48("2155"), -RECENT_CHARS))) : piece.subarray(stryMutAct_9fa48("2156") ? -RECENT_CHARS / 3 : (stryCov_9fa48("2156"), (stryMutAct_9fa48("2157") ? +RECENT_CHARS : (stryCov_9fa48("2157"), -RECENT_CHARS)) * 3)).toString(stryMutAct_9fa48("2158") ? "" : (stryCov_9fa48("2158"), "utf8"));
        // A character cut by the subarray decodes as U+FFFD: drop it.
        recent = stryMutAct_9fa48("2159") ? recent + tail.replace(/^\uFFFD+/, "") : (stryCov_9fa48("2159"), (stryMutAct_9fa48("2160") ? recent - tail.replace(/^\uFFFD+/, "") : (stryCov_9fa48("2160"), recent + tail.replace(stryMutAct_9fa48("2162") ? /^\uFFFD/ : stryMutAct_9fa48("2161") ? /\uFFFD+/ : (stryCov_9fa48("2161", "2162"), /^\uFFFD+/), stryMutAct_9fa48("2163") ? "Stryker was here!" : (stryCov_9fa48("2163"), "")))).slice(stryMutAct_9fa48("2164") ? +RECENT_CHARS : (stryCov_9fa48("2164"), -RECENT_CHARS)));
        if (stryMutAct_9fa48("2167") ? false : stryMutAct_9fa48("2166") ? true : stryMutAct_9fa48("2165") ? p.write(piece) : (stryCov_9fa48("2165", "2166", "2167"), !p.write(piece))) {
          if (stryMutAct_9fa48("2168")) {
            {}
          } else {
            stryCov_9fa48("2168");
            await new Promise<void>(resolve => {
              if (stryMutAct_9fa48("2169")) {
                {}
              } else {
                stryCov_9fa48("2169");
                const done = (): void => {
                  if (stryMutAct_9fa48("2170")) {
                    {}
                  } else {
                    stryCov_9fa48("2170");
                    p.off(stryMutAct_9fa48("2171") ? "" : (stryCov_9fa48("2171"), "drain"), done);
                    p.off(stryMutAct_9fa48("2172") ? "" : (stryCov_9fa48("2172"), "error"), done);
                    p.off(stryMutAct_9fa48("2173") ? "" : (stryCov_9fa48("2173"), "close"), done);
                    resolve();
                  }
                };
                p.on(stryMutAct_9fa48("2174") ? "" : (stryCov_9fa48("2174"), "drain"), done);
                p.on(stryMutAct_9fa48("2175") ? "" : (stryCov_9fa48("2175"), "error"), done);
                p.on(stryMutAct_9fa48("2176") ? "" : (stryCov_9fa48("2176"), "close"), done);
              }
            });
          }
        }
        check();
      }
    };

    /** Text before the dialect is known is held until the header line is complete. */
    const accept = async (piece: Decoded, atEnd: boolean): Promise<void> => {
      if (stryMutAct_9fa48("2177")) {
        {}
      } else {
        stryCov_9fa48("2177");
        if (stryMutAct_9fa48("2180") ? textHead !== undefined : stryMutAct_9fa48("2179") ? false : stryMutAct_9fa48("2178") ? true : (stryCov_9fa48("2178", "2179", "2180"), textHead === undefined)) return write(piece);
        if (stryMutAct_9fa48("2184") ? piece.length <= 0 : stryMutAct_9fa48("2183") ? piece.length >= 0 : stryMutAct_9fa48("2182") ? false : stryMutAct_9fa48("2181") ? true : (stryCov_9fa48("2181", "2182", "2183", "2184"), piece.length > 0)) textHead.push(piece);
        const head = joinDecoded(textHead);
        const text = (stryMutAct_9fa48("2187") ? typeof head !== "string" : stryMutAct_9fa48("2186") ? false : stryMutAct_9fa48("2185") ? true : (stryCov_9fa48("2185", "2186", "2187"), typeof head === (stryMutAct_9fa48("2188") ? "" : (stryCov_9fa48("2188"), "string")))) ? head : head.toString(stryMutAct_9fa48("2189") ? "" : (stryCov_9fa48("2189"), "utf8"));
        const dialect = detectDialect(text, stryMutAct_9fa48("2192") ? atEnd && text.length >= HEADER_SCAN_LIMIT : stryMutAct_9fa48("2191") ? false : stryMutAct_9fa48("2190") ? true : (stryCov_9fa48("2190", "2191", "2192"), atEnd || (stryMutAct_9fa48("2195") ? text.length < HEADER_SCAN_LIMIT : stryMutAct_9fa48("2194") ? text.length > HEADER_SCAN_LIMIT : stryMutAct_9fa48("2193") ? false : (stryCov_9fa48("2193", "2194", "2195"), text.length >= HEADER_SCAN_LIMIT))));
        if (stryMutAct_9fa48("2198") ? dialect !== undefined : stryMutAct_9fa48("2197") ? false : stryMutAct_9fa48("2196") ? true : (stryCov_9fa48("2196", "2197", "2198"), dialect === undefined)) return;
        textHead = undefined;
        startParser(dialect);
        await write((stryMutAct_9fa48("2201") ? typeof head !== "string" : stryMutAct_9fa48("2200") ? false : stryMutAct_9fa48("2199") ? true : (stryCov_9fa48("2199", "2200", "2201"), typeof head === (stryMutAct_9fa48("2202") ? "" : (stryCov_9fa48("2202"), "string")))) ? stryMutAct_9fa48("2203") ? head : (stryCov_9fa48("2203"), head.slice(dialect.skip)) : head.subarray(dialect.skip));
      }
    };
    const take = async (result: DecodeResult, atEnd: boolean): Promise<void> => {
      if (stryMutAct_9fa48("2204")) {
        {}
      } else {
        stryCov_9fa48("2204");
        await accept(result.out, stryMutAct_9fa48("2207") ? atEnd && !result.ok : stryMutAct_9fa48("2206") ? false : stryMutAct_9fa48("2205") ? true : (stryCov_9fa48("2205", "2206", "2207"), atEnd || (stryMutAct_9fa48("2208") ? result.ok : (stryCov_9fa48("2208"), !result.ok))));
        if (stryMutAct_9fa48("2210") ? false : stryMutAct_9fa48("2209") ? true : (stryCov_9fa48("2209", "2210"), result.ok)) return;
        check();
        throw encodingError(result, info.encoding!, await rowOfEnd(), recent);
      }
    };

    /**
     * The row that the text written so far ends in: csv-parse holds back a record until it
     * sees what follows, so the parser is ended (its records no longer reach the sink) and
     * the records counted. The text's last line, unless it ended with a line break, is the
     * row of whatever comes next.
     */
    const rowOfEnd = async (): Promise<number> => {
      if (stryMutAct_9fa48("2211")) {
        {}
      } else {
        stryCov_9fa48("2211");
        const p = parser!;
        const openLine = stryMutAct_9fa48("2214") ? recent.length > 0 || !/[\r\n]$/.test(recent) : stryMutAct_9fa48("2213") ? false : stryMutAct_9fa48("2212") ? true : (stryCov_9fa48("2212", "2213", "2214"), (stryMutAct_9fa48("2217") ? recent.length <= 0 : stryMutAct_9fa48("2216") ? recent.length >= 0 : stryMutAct_9fa48("2215") ? true : (stryCov_9fa48("2215", "2216", "2217"), recent.length > 0)) && (stryMutAct_9fa48("2218") ? /[\r\n]$/.test(recent) : (stryCov_9fa48("2218"), !(stryMutAct_9fa48("2220") ? /[^\r\n]$/ : stryMutAct_9fa48("2219") ? /[\r\n]/ : (stryCov_9fa48("2219", "2220"), /[\r\n]$/)).test(recent))));
        flushing = stryMutAct_9fa48("2221") ? false : (stryCov_9fa48("2221"), true);
        p.end();
        await ended;
        const records = p.info.records;
        return (stryMutAct_9fa48("2224") ? parseError !== undefined && !openLine : stryMutAct_9fa48("2223") ? false : stryMutAct_9fa48("2222") ? true : (stryCov_9fa48("2222", "2223", "2224"), (stryMutAct_9fa48("2226") ? parseError === undefined : stryMutAct_9fa48("2225") ? false : (stryCov_9fa48("2225", "2226"), parseError !== undefined)) || (stryMutAct_9fa48("2227") ? openLine : (stryCov_9fa48("2227"), !openLine)))) ? stryMutAct_9fa48("2228") ? records - 1 : (stryCov_9fa48("2228"), records + 1) : records;
      }
    };
    const begin = async (head: Uint8Array, atEnd: boolean): Promise<boolean> => {
      if (stryMutAct_9fa48("2229")) {
        {}
      } else {
        stryCov_9fa48("2229");
        const sniffed = sniffEncoding(head, options.encoding, atEnd);
        if (stryMutAct_9fa48("2232") ? sniffed.kind !== "need-more" : stryMutAct_9fa48("2231") ? false : stryMutAct_9fa48("2230") ? true : (stryCov_9fa48("2230", "2231", "2232"), sniffed.kind === (stryMutAct_9fa48("2233") ? "" : (stryCov_9fa48("2233"), "need-more")))) return stryMutAct_9fa48("2234") ? true : (stryCov_9fa48("2234"), false);
        if (stryMutAct_9fa48("2237") ? sniffed.kind !== "unsupported" : stryMutAct_9fa48("2236") ? false : stryMutAct_9fa48("2235") ? true : (stryCov_9fa48("2235", "2236", "2237"), sniffed.kind === (stryMutAct_9fa48("2238") ? "" : (stryCov_9fa48("2238"), "unsupported")))) {
          if (stryMutAct_9fa48("2239")) {
            {}
          } else {
            stryCov_9fa48("2239");
            throw new CsvFileError(stryMutAct_9fa48("2240") ? "" : (stryCov_9fa48("2240"), "ENCODING"), stryMutAct_9fa48("2241") ? `` : (stryCov_9fa48("2241"), `the file is ${sniffed.name} (its byte-order mark says so), which cannot be read`), stryMutAct_9fa48("2242") ? {} : (stryCov_9fa48("2242"), {
              byteOffset: 0,
              hint: stryMutAct_9fa48("2243") ? "" : (stryCov_9fa48("2243"), 'save it as UTF-8 (in Excel: "CSV UTF-8")')
            }));
          }
        }
        info.encoding = sniffed.encoding;
        info.bom = stryMutAct_9fa48("2247") ? sniffed.bomBytes <= 0 : stryMutAct_9fa48("2246") ? sniffed.bomBytes >= 0 : stryMutAct_9fa48("2245") ? false : stryMutAct_9fa48("2244") ? true : (stryCov_9fa48("2244", "2245", "2246", "2247"), sniffed.bomBytes > 0);
        const name = displayName(sniffed.encoding);
        if (stryMutAct_9fa48("2250") ? sniffed.how === "bom" && options.encoding !== undefined || options.encoding !== sniffed.encoding : stryMutAct_9fa48("2249") ? false : stryMutAct_9fa48("2248") ? true : (stryCov_9fa48("2248", "2249", "2250"), (stryMutAct_9fa48("2252") ? sniffed.how === "bom" || options.encoding !== undefined : stryMutAct_9fa48("2251") ? true : (stryCov_9fa48("2251", "2252"), (stryMutAct_9fa48("2254") ? sniffed.how !== "bom" : stryMutAct_9fa48("2253") ? true : (stryCov_9fa48("2253", "2254"), sniffed.how === (stryMutAct_9fa48("2255") ? "" : (stryCov_9fa48("2255"), "bom")))) && (stryMutAct_9fa48("2257") ? options.encoding === undefined : stryMutAct_9fa48("2256") ? true : (stryCov_9fa48("2256", "2257"), options.encoding !== undefined)))) && (stryMutAct_9fa48("2259") ? options.encoding === sniffed.encoding : stryMutAct_9fa48("2258") ? true : (stryCov_9fa48("2258", "2259"), options.encoding !== sniffed.encoding)))) {
          if (stryMutAct_9fa48("2260")) {
            {}
          } else {
            stryCov_9fa48("2260");
            info.notes!.push(stryMutAct_9fa48("2261") ? `` : (stryCov_9fa48("2261"), `the file starts with a ${name} byte-order mark, so it was read as ${name}, not as ${displayName(options.encoding)} (--encoding)`));
          }
        } else if (stryMutAct_9fa48("2264") ? sniffed.how !== "nul-pattern" : stryMutAct_9fa48("2263") ? false : stryMutAct_9fa48("2262") ? true : (stryCov_9fa48("2262", "2263", "2264"), sniffed.how === (stryMutAct_9fa48("2265") ? "" : (stryCov_9fa48("2265"), "nul-pattern")))) {
          if (stryMutAct_9fa48("2266")) {
            {}
          } else {
            stryCov_9fa48("2266");
            info.notes!.push(stryMutAct_9fa48("2267") ? `` : (stryCov_9fa48("2267"), `the file has no byte-order mark but looks like ${name}; it was read as ${name}`));
          }
        }
        decoder = createDecoder(sniffed.encoding, sniffed.bomBytes);
        await take(decoder.push(head.subarray(sniffed.bomBytes)), stryMutAct_9fa48("2268") ? true : (stryCov_9fa48("2268"), false));
        return stryMutAct_9fa48("2269") ? false : (stryCov_9fa48("2269"), true);
      }
    };
    try {
      if (stryMutAct_9fa48("2270")) {
        {}
      } else {
        stryCov_9fa48("2270");
        for await (const chunk of source) {
          if (stryMutAct_9fa48("2271")) {
            {}
          } else {
            stryCov_9fa48("2271");
            hash.update(chunk);
            stryMutAct_9fa48("2272") ? bytes -= chunk.length : (stryCov_9fa48("2272"), bytes += chunk.length);
            if (stryMutAct_9fa48("2275") ? rawHead === undefined : stryMutAct_9fa48("2274") ? false : stryMutAct_9fa48("2273") ? true : (stryCov_9fa48("2273", "2274", "2275"), rawHead !== undefined)) {
              if (stryMutAct_9fa48("2276")) {
                {}
              } else {
                stryCov_9fa48("2276");
                rawHead.push(chunk);
                stryMutAct_9fa48("2277") ? rawHeadLength -= chunk.length : (stryCov_9fa48("2277"), rawHeadLength += chunk.length);
                const head = concat(rawHead, rawHeadLength);
                rawHead = stryMutAct_9fa48("2278") ? [] : (stryCov_9fa48("2278"), [head]);
                if (stryMutAct_9fa48("2280") ? false : stryMutAct_9fa48("2279") ? true : (stryCov_9fa48("2279", "2280"), await begin(head, stryMutAct_9fa48("2281") ? true : (stryCov_9fa48("2281"), false)))) rawHead = undefined;
              }
            } else {
              if (stryMutAct_9fa48("2282")) {
                {}
              } else {
                stryCov_9fa48("2282");
                await take(decoder!.push(chunk), stryMutAct_9fa48("2283") ? true : (stryCov_9fa48("2283"), false));
              }
            }
            yield;
          }
        }
        if (stryMutAct_9fa48("2286") ? rawHead === undefined : stryMutAct_9fa48("2285") ? false : stryMutAct_9fa48("2284") ? true : (stryCov_9fa48("2284", "2285", "2286"), rawHead !== undefined)) await begin(concat(rawHead, rawHeadLength), stryMutAct_9fa48("2287") ? false : (stryCov_9fa48("2287"), true));
        await take(decoder!.end(), stryMutAct_9fa48("2288") ? false : (stryCov_9fa48("2288"), true));
        if (stryMutAct_9fa48("2291") ? parser !== undefined : stryMutAct_9fa48("2290") ? false : stryMutAct_9fa48("2289") ? true : (stryCov_9fa48("2289", "2290", "2291"), parser === undefined)) startParser(detectDialect(stryMutAct_9fa48("2292") ? "Stryker was here!" : (stryCov_9fa48("2292"), ""), stryMutAct_9fa48("2293") ? false : (stryCov_9fa48("2293"), true))!);
        parser!.end();
        await ended;
        check();
        info.sha256 = hash.digest(stryMutAct_9fa48("2294") ? "" : (stryCov_9fa48("2294"), "hex"));
        info.bytes = bytes;
        yield;
      }
    } finally {
      if (stryMutAct_9fa48("2295")) {
        {}
      } else {
        stryCov_9fa48("2295");
        if (stryMutAct_9fa48("2298") ? parser !== undefined || !parser.destroyed : stryMutAct_9fa48("2297") ? false : stryMutAct_9fa48("2296") ? true : (stryCov_9fa48("2296", "2297", "2298"), (stryMutAct_9fa48("2300") ? parser === undefined : stryMutAct_9fa48("2299") ? true : (stryCov_9fa48("2299", "2300"), parser !== undefined)) && (stryMutAct_9fa48("2301") ? parser.destroyed : (stryCov_9fa48("2301"), !parser.destroyed)))) parser.destroy();
      }
    }
  }
}
export interface CsvRecord {
  /** Spreadsheet row (the header is row 1, unless blank lines precede it). */
  row: number;
  /** The cells exactly as in the file (not trimmed). */
  cells: string[];
}

/**
 * The high-level reader: every record in file order, header first (blank lines before it
 * too, as records whose cells are all empty).
 *
 *   const reader = new CsvRecordReader(createReadStream(file), { encoding });
 *   for await (const { row, cells } of reader) ...
 *   reader.info.delimiter, reader.info.sha256, reader.info.notes
 */
export class CsvRecordReader implements AsyncIterable<CsvRecord> {
  readonly info: Partial<CsvSourceInfo> = {};
  private failure: Error | undefined;
  constructor(private readonly source: AsyncIterable<Uint8Array>, private readonly options: CsvReadOptions = {}) {}

  /** Stops the run with `error`, thrown by the iteration (for use between records). */
  fail(error: Error): void {
    if (stryMutAct_9fa48("2302")) {
      {}
    } else {
      stryCov_9fa48("2302");
      stryMutAct_9fa48("2303") ? this.failure &&= error : (stryCov_9fa48("2303"), this.failure ??= error);
    }
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<CsvRecord, void, undefined> {
    if (stryMutAct_9fa48("2304")) {
      {}
    } else {
      stryCov_9fa48("2304");
      const queue: CsvRecord[] = stryMutAct_9fa48("2305") ? ["Stryker was here"] : (stryCov_9fa48("2305"), []);
      const control: CsvStreamControl = stryMutAct_9fa48("2306") ? {} : (stryCov_9fa48("2306"), {
        failure: stryMutAct_9fa48("2307") ? () => undefined : (stryCov_9fa48("2307"), () => this.failure),
        info: this.info
      });
      for await (const _ of streamCsvRecords(this.source, stryMutAct_9fa48("2308") ? () => undefined : (stryCov_9fa48("2308"), (cells, row) => queue.push(stryMutAct_9fa48("2309") ? {} : (stryCov_9fa48("2309"), {
        row,
        cells
      }))), control, this.options)) {
        if (stryMutAct_9fa48("2310")) {
          {}
        } else {
          stryCov_9fa48("2310");
          for (const record of queue) {
            if (stryMutAct_9fa48("2311")) {
              {}
            } else {
              stryCov_9fa48("2311");
              yield record;
              if (stryMutAct_9fa48("2314") ? this.failure === undefined : stryMutAct_9fa48("2313") ? false : stryMutAct_9fa48("2312") ? true : (stryCov_9fa48("2312", "2313", "2314"), this.failure !== undefined)) throw this.failure;
            }
          }
          queue.length = 0;
        }
      }
    }
  }
}

/** "UTF-8", "UTF-16LE", "windows-1252": how messages name an encoding. */
export function displayName(encoding: string): string {
  if (stryMutAct_9fa48("2315")) {
    {}
  } else {
    stryCov_9fa48("2315");
    return (stryMutAct_9fa48("2316") ? encoding.endsWith("utf-") : (stryCov_9fa48("2316"), encoding.startsWith(stryMutAct_9fa48("2317") ? "" : (stryCov_9fa48("2317"), "utf-")))) ? stryMutAct_9fa48("2318") ? encoding.toLowerCase() : (stryCov_9fa48("2318"), encoding.toUpperCase()) : encoding;
  }
}

/** How much of the text before an encoding error is kept for its excerpt. */
const RECENT_CHARS = 80;
function joinDecoded(pieces: Decoded[]): Decoded {
  if (stryMutAct_9fa48("2319")) {
    {}
  } else {
    stryCov_9fa48("2319");
    if (stryMutAct_9fa48("2322") ? pieces.length !== 0 : stryMutAct_9fa48("2321") ? false : stryMutAct_9fa48("2320") ? true : (stryCov_9fa48("2320", "2321", "2322"), pieces.length === 0)) return stryMutAct_9fa48("2323") ? "Stryker was here!" : (stryCov_9fa48("2323"), "");
    if (stryMutAct_9fa48("2326") ? pieces.length !== 1 : stryMutAct_9fa48("2325") ? false : stryMutAct_9fa48("2324") ? true : (stryCov_9fa48("2324", "2325", "2326"), pieces.length === 1)) return pieces[0]!;
    if (stryMutAct_9fa48("2329") ? typeof pieces[0] !== "string" : stryMutAct_9fa48("2328") ? false : stryMutAct_9fa48("2327") ? true : (stryCov_9fa48("2327", "2328", "2329"), typeof pieces[0] === (stryMutAct_9fa48("2330") ? "" : (stryCov_9fa48("2330"), "string")))) return pieces.join(stryMutAct_9fa48("2331") ? "Stryker was here!" : (stryCov_9fa48("2331"), ""));
    return Buffer.concat(pieces as Buffer[]);
  }
}
function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (stryMutAct_9fa48("2332")) {
    {}
  } else {
    stryCov_9fa48("2332");
    if (stryMutAct_9fa48("2335") ? parts.length !== 1 : stryMutAct_9fa48("2334") ? false : stryMutAct_9fa48("2333") ? true : (stryCov_9fa48("2333", "2334", "2335"), parts.length === 1)) return parts[0]!;
    const out = new Uint8Array(length);
    let at = 0;
    for (const part of parts) {
      if (stryMutAct_9fa48("2336")) {
        {}
      } else {
        stryCov_9fa48("2336");
        out.set(part, at);
        stryMutAct_9fa48("2337") ? at -= part.length : (stryCov_9fa48("2337"), at += part.length);
      }
    }
    return out;
  }
}
function encodingError(result: Extract<DecodeResult, {
  ok: false;
}>, encoding: string, row: number, before: string): CsvFileError {
  if (stryMutAct_9fa48("2338")) {
    {}
  } else {
    stryCov_9fa48("2338");
    const name = displayName(encoding);
    const at = stryMutAct_9fa48("2339") ? `` : (stryCov_9fa48("2339"), `${result.exact ? stryMutAct_9fa48("2340") ? "" : (stryCov_9fa48("2340"), "at") : stryMutAct_9fa48("2341") ? "" : (stryCov_9fa48("2341"), "at or after")} byte offset ${result.offset}`);
    // What precedes the bad byte on its line, so that it can be found in an editor.
    const line = stryMutAct_9fa48("2342") ? before.split(/\r\n|\r|\n/).pop() && "" : (stryCov_9fa48("2342"), before.split(/\r\n|\r|\n/).pop() ?? (stryMutAct_9fa48("2343") ? "Stryker was here!" : (stryCov_9fa48("2343"), "")));
    const after = (stryMutAct_9fa48("2346") ? line.trim() !== "" : stryMutAct_9fa48("2345") ? false : stryMutAct_9fa48("2344") ? true : (stryCov_9fa48("2344", "2345", "2346"), (stryMutAct_9fa48("2347") ? line : (stryCov_9fa48("2347"), line.trim())) === (stryMutAct_9fa48("2348") ? "Stryker was here!" : (stryCov_9fa48("2348"), "")))) ? stryMutAct_9fa48("2349") ? "Stryker was here!" : (stryCov_9fa48("2349"), "") : stryMutAct_9fa48("2350") ? `` : (stryCov_9fa48("2350"), `, after ${excerptEnd(line, 30)}`);
    if (stryMutAct_9fa48("2353") ? encoding !== UTF8 : stryMutAct_9fa48("2352") ? false : stryMutAct_9fa48("2351") ? true : (stryCov_9fa48("2351", "2352", "2353"), encoding === UTF8)) {
      if (stryMutAct_9fa48("2354")) {
        {}
      } else {
        stryCov_9fa48("2354");
        // The byte read as windows-1252 usually shows the letter it was meant to be.
        const byte = (stryMutAct_9fa48("2358") ? /^byte 0x([^0-9A-F]{2})$/ : stryMutAct_9fa48("2357") ? /^byte 0x([0-9A-F])$/ : stryMutAct_9fa48("2356") ? /^byte 0x([0-9A-F]{2})/ : stryMutAct_9fa48("2355") ? /byte 0x([0-9A-F]{2})$/ : (stryCov_9fa48("2355", "2356", "2357", "2358"), /^byte 0x([0-9A-F]{2})$/)).exec(result.what);
        const guess = byte ? stryMutAct_9fa48("2359") ? `` : (stryCov_9fa48("2359"), ` (${excerpt(decodeWindows1252(Uint8Array.of(parseInt(byte[1]!, 16))))} in windows-1252)`) : stryMutAct_9fa48("2360") ? "Stryker was here!" : (stryCov_9fa48("2360"), "");
        return new CsvFileError(stryMutAct_9fa48("2361") ? "" : (stryCov_9fa48("2361"), "ENCODING"), stryMutAct_9fa48("2362") ? `` : (stryCov_9fa48("2362"), `row ${row}: the file is not valid UTF-8: ${result.what}${guess} ${at}${after}`), stryMutAct_9fa48("2363") ? {} : (stryCov_9fa48("2363"), {
          row,
          byteOffset: result.offset,
          hint: stryMutAct_9fa48("2364") ? `` : (stryCov_9fa48("2364"), `run again with --encoding ${WINDOWS_1252} if Excel saved it as "CSV (Comma delimited)", or save it as "CSV UTF-8"`)
        }));
      }
    }
    return new CsvFileError(stryMutAct_9fa48("2365") ? "" : (stryCov_9fa48("2365"), "ENCODING"), stryMutAct_9fa48("2366") ? `` : (stryCov_9fa48("2366"), `row ${row}: the file is not valid ${name}: ${result.what} ${at}${after}`), stryMutAct_9fa48("2367") ? {} : (stryCov_9fa48("2367"), {
      row,
      byteOffset: result.offset,
      hint: stryMutAct_9fa48("2368") ? "" : (stryCov_9fa48("2368"), "check the --encoding name, or save the file as UTF-8")
    }));
  }
}
const PARSE_REASONS: Record<string, string> = stryMutAct_9fa48("2369") ? {} : (stryCov_9fa48("2369"), {
  CSV_QUOTE_NOT_CLOSED: stryMutAct_9fa48("2370") ? "" : (stryCov_9fa48("2370"), "a quoted cell is never closed"),
  CSV_INVALID_CLOSING_QUOTE: stryMutAct_9fa48("2371") ? "" : (stryCov_9fa48("2371"), 'a closing quote is followed by other text; double a quote inside a quoted cell ("")'),
  INVALID_OPENING_QUOTE: stryMutAct_9fa48("2372") ? "" : (stryCov_9fa48("2372"), "a quote appears inside an unquoted cell; quote the whole cell and double the quote"),
  CSV_MAX_RECORD_SIZE: stryMutAct_9fa48("2373") ? "" : (stryCov_9fa48("2373"), "a row is larger than 1 MiB, probably because of an unclosed quote")
});
function malformed(err: unknown, row: number): CsvFileError {
  if (stryMutAct_9fa48("2374")) {
    {}
  } else {
    stryCov_9fa48("2374");
    const code = (stryMutAct_9fa48("2377") ? typeof err === "object" && err !== null || "code" in err : stryMutAct_9fa48("2376") ? false : stryMutAct_9fa48("2375") ? true : (stryCov_9fa48("2375", "2376", "2377"), (stryMutAct_9fa48("2379") ? typeof err === "object" || err !== null : stryMutAct_9fa48("2378") ? true : (stryCov_9fa48("2378", "2379"), (stryMutAct_9fa48("2381") ? typeof err !== "object" : stryMutAct_9fa48("2380") ? true : (stryCov_9fa48("2380", "2381"), typeof err === (stryMutAct_9fa48("2382") ? "" : (stryCov_9fa48("2382"), "object")))) && (stryMutAct_9fa48("2384") ? err === null : stryMutAct_9fa48("2383") ? true : (stryCov_9fa48("2383", "2384"), err !== null)))) && (stryMutAct_9fa48("2385") ? "" : (stryCov_9fa48("2385"), "code")) in err)) ? String(err.code) : stryMutAct_9fa48("2386") ? "Stryker was here!" : (stryCov_9fa48("2386"), "");
    // csv-parse's own messages can quote a whole field: only a short excerpt of them.
    const reason = stryMutAct_9fa48("2387") ? PARSE_REASONS[code] && (code !== "" ? code : excerpt(err instanceof Error ? err.message : String(err))) : (stryCov_9fa48("2387"), PARSE_REASONS[code] ?? ((stryMutAct_9fa48("2390") ? code === "" : stryMutAct_9fa48("2389") ? false : stryMutAct_9fa48("2388") ? true : (stryCov_9fa48("2388", "2389", "2390"), code !== (stryMutAct_9fa48("2391") ? "Stryker was here!" : (stryCov_9fa48("2391"), "")))) ? code : excerpt(err instanceof Error ? err.message : String(err))));
    return new CsvFileError(stryMutAct_9fa48("2392") ? "" : (stryCov_9fa48("2392"), "MALFORMED"), stryMutAct_9fa48("2393") ? `` : (stryCov_9fa48("2393"), `row ${row}: the file is not valid CSV: ${reason}`), stryMutAct_9fa48("2394") ? {} : (stryCov_9fa48("2394"), {
      row,
      cause: err
    }));
  }
}