// @ts-nocheck
// The header record → where each wanted column is. Shared by the users CSV and the bulk
// `--from-csv` files (docs/cli-contract.md "Users CSV", "Bulk operations").
//
// - Names are trimmed (spreadsheets keep stray spaces, non-breaking ones included) and
//   matched ignoring case; callers use the canonical spelling.
// - A wanted column named twice is a file error: which one would count?
// - Unknown columns are ignored with ONE warning line however many there are (a header
//   that is really a whole file on one line has thousands), naming the first few; so are
//   columns with an empty name (trailing delimiters).
// - Messages quote header names cut short (excerpt()), never the whole header.
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
import { CsvFileError, excerpt } from "./errors.js";
export interface HeaderLayout {
  /** Names in file order: canonical for wanted columns, the header text (or `columnN`) otherwise. */
  columns: string[];
  /** Position of each wanted column, in the order given; every one is present. */
  positions: Int32Array;
  /** Cells in the header. */
  width: number;
  /** At most one line about unknown columns and one about unnamed ones. */
  warnings: string[];
}

/** Unknown names a warning or error names before "and N more". */
const NAMES_SHOWN = 3;
const NAME_CHARS = 30;

/** Maps `cells` (the header, spreadsheet row `row`) to the `wanted` columns, or throws CsvFileError. */
export function mapHeader(cells: readonly string[], row: number, wanted: readonly string[]): HeaderLayout {
  if (stryMutAct_9fa48("1962")) {
    {}
  } else {
    stryCov_9fa48("1962");
    const byLowercase = new Map(wanted.map(stryMutAct_9fa48("1963") ? () => undefined : (stryCov_9fa48("1963"), (c, k) => stryMutAct_9fa48("1964") ? [] : (stryCov_9fa48("1964"), [stryMutAct_9fa48("1965") ? c.toUpperCase() : (stryCov_9fa48("1965"), c.toLowerCase()), k]))));
    const positions = new Int32Array(wanted.length).fill(stryMutAct_9fa48("1966") ? +1 : (stryCov_9fa48("1966"), -1));
    const columns: string[] = stryMutAct_9fa48("1967") ? ["Stryker was here"] : (stryCov_9fa48("1967"), []);
    const unknown: string[] = stryMutAct_9fa48("1968") ? ["Stryker was here"] : (stryCov_9fa48("1968"), []);
    let unknownCount = 0;
    const unnamed: number[] = stryMutAct_9fa48("1969") ? ["Stryker was here"] : (stryCov_9fa48("1969"), []);
    const duplicates: string[] = stryMutAct_9fa48("1970") ? ["Stryker was here"] : (stryCov_9fa48("1970"), []);
    cells.forEach((raw, at) => {
      if (stryMutAct_9fa48("1971")) {
        {}
      } else {
        stryCov_9fa48("1971");
        const name = stryMutAct_9fa48("1972") ? raw : (stryCov_9fa48("1972"), raw.trim());
        const k = byLowercase.get(stryMutAct_9fa48("1973") ? name.toUpperCase() : (stryCov_9fa48("1973"), name.toLowerCase()));
        if (stryMutAct_9fa48("1976") ? k !== undefined : stryMutAct_9fa48("1975") ? false : stryMutAct_9fa48("1974") ? true : (stryCov_9fa48("1974", "1975", "1976"), k === undefined)) {
          if (stryMutAct_9fa48("1977")) {
            {}
          } else {
            stryCov_9fa48("1977");
            columns.push((stryMutAct_9fa48("1980") ? name !== "" : stryMutAct_9fa48("1979") ? false : stryMutAct_9fa48("1978") ? true : (stryCov_9fa48("1978", "1979", "1980"), name === (stryMutAct_9fa48("1981") ? "Stryker was here!" : (stryCov_9fa48("1981"), "")))) ? stryMutAct_9fa48("1982") ? `` : (stryCov_9fa48("1982"), `column${stryMutAct_9fa48("1983") ? at - 1 : (stryCov_9fa48("1983"), at + 1)}`) : name);
            if (stryMutAct_9fa48("1986") ? name !== "" : stryMutAct_9fa48("1985") ? false : stryMutAct_9fa48("1984") ? true : (stryCov_9fa48("1984", "1985", "1986"), name === (stryMutAct_9fa48("1987") ? "Stryker was here!" : (stryCov_9fa48("1987"), "")))) unnamed.push(stryMutAct_9fa48("1988") ? at - 1 : (stryCov_9fa48("1988"), at + 1));else if (stryMutAct_9fa48("1992") ? unknownCount++ >= NAMES_SHOWN : stryMutAct_9fa48("1991") ? unknownCount++ <= NAMES_SHOWN : stryMutAct_9fa48("1990") ? false : stryMutAct_9fa48("1989") ? true : (stryCov_9fa48("1989", "1990", "1991", "1992"), (stryMutAct_9fa48("1993") ? unknownCount-- : (stryCov_9fa48("1993"), unknownCount++)) < NAMES_SHOWN)) unknown.push(stryMutAct_9fa48("1994") ? `` : (stryCov_9fa48("1994"), `${excerpt(name, NAME_CHARS)} (column ${stryMutAct_9fa48("1995") ? at - 1 : (stryCov_9fa48("1995"), at + 1)})`));
            return;
          }
        }
        const canonical = wanted[k]!;
        if (stryMutAct_9fa48("1998") ? positions[k] === -1 : stryMutAct_9fa48("1997") ? false : stryMutAct_9fa48("1996") ? true : (stryCov_9fa48("1996", "1997", "1998"), positions[k] !== (stryMutAct_9fa48("1999") ? +1 : (stryCov_9fa48("1999"), -1)))) duplicates.push(stryMutAct_9fa48("2000") ? `` : (stryCov_9fa48("2000"), `${canonical} (columns ${stryMutAct_9fa48("2001") ? positions[k]! - 1 : (stryCov_9fa48("2001"), positions[k]! + 1)} and ${stryMutAct_9fa48("2002") ? at - 1 : (stryCov_9fa48("2002"), at + 1)})`));else positions[k] = at;
        columns.push(canonical);
      }
    });
    if (stryMutAct_9fa48("2006") ? duplicates.length <= 0 : stryMutAct_9fa48("2005") ? duplicates.length >= 0 : stryMutAct_9fa48("2004") ? false : stryMutAct_9fa48("2003") ? true : (stryCov_9fa48("2003", "2004", "2005", "2006"), duplicates.length > 0)) {
      if (stryMutAct_9fa48("2007")) {
        {}
      } else {
        stryCov_9fa48("2007");
        throw new CsvFileError(stryMutAct_9fa48("2008") ? "" : (stryCov_9fa48("2008"), "DUPLICATE_COLUMN"), stryMutAct_9fa48("2009") ? `` : (stryCov_9fa48("2009"), `row ${row}: duplicate column ${duplicates.join(stryMutAct_9fa48("2010") ? "" : (stryCov_9fa48("2010"), ", "))}`), stryMutAct_9fa48("2011") ? {} : (stryCov_9fa48("2011"), {
          row,
          columns: duplicates.map(stryMutAct_9fa48("2012") ? () => undefined : (stryCov_9fa48("2012"), d => stryMutAct_9fa48("2013") ? d : (stryCov_9fa48("2013"), d.slice(0, d.indexOf(stryMutAct_9fa48("2014") ? "" : (stryCov_9fa48("2014"), " ")))))),
          hint: stryMutAct_9fa48("2015") ? "" : (stryCov_9fa48("2015"), "keep one column of each name (names are compared ignoring case)")
        }));
      }
    }
    const missing = stryMutAct_9fa48("2016") ? wanted : (stryCov_9fa48("2016"), wanted.filter(stryMutAct_9fa48("2017") ? () => undefined : (stryCov_9fa48("2017"), (_, k) => stryMutAct_9fa48("2020") ? positions[k] !== -1 : stryMutAct_9fa48("2019") ? false : stryMutAct_9fa48("2018") ? true : (stryCov_9fa48("2018", "2019", "2020"), positions[k] === (stryMutAct_9fa48("2021") ? +1 : (stryCov_9fa48("2021"), -1))))));
    if (stryMutAct_9fa48("2025") ? missing.length <= 0 : stryMutAct_9fa48("2024") ? missing.length >= 0 : stryMutAct_9fa48("2023") ? false : stryMutAct_9fa48("2022") ? true : (stryCov_9fa48("2022", "2023", "2024", "2025"), missing.length > 0)) {
      if (stryMutAct_9fa48("2026")) {
        {}
      } else {
        stryCov_9fa48("2026");
        const found = stryMutAct_9fa48("2027") ? cells.map(c => c.trim()) : (stryCov_9fa48("2027"), cells.map(stryMutAct_9fa48("2028") ? () => undefined : (stryCov_9fa48("2028"), c => stryMutAct_9fa48("2029") ? c : (stryCov_9fa48("2029"), c.trim()))).filter(stryMutAct_9fa48("2030") ? () => undefined : (stryCov_9fa48("2030"), c => stryMutAct_9fa48("2033") ? c === "" : stryMutAct_9fa48("2032") ? false : stryMutAct_9fa48("2031") ? true : (stryCov_9fa48("2031", "2032", "2033"), c !== (stryMutAct_9fa48("2034") ? "Stryker was here!" : (stryCov_9fa48("2034"), ""))))));
        const shown = stryMutAct_9fa48("2035") ? found.map(c => excerpt(c, NAME_CHARS)) : (stryCov_9fa48("2035"), found.slice(0, 8).map(stryMutAct_9fa48("2036") ? () => undefined : (stryCov_9fa48("2036"), c => excerpt(c, NAME_CHARS))));
        const more = (stryMutAct_9fa48("2040") ? found.length <= shown.length : stryMutAct_9fa48("2039") ? found.length >= shown.length : stryMutAct_9fa48("2038") ? false : stryMutAct_9fa48("2037") ? true : (stryCov_9fa48("2037", "2038", "2039", "2040"), found.length > shown.length)) ? stryMutAct_9fa48("2041") ? `` : (stryCov_9fa48("2041"), ` and ${stryMutAct_9fa48("2042") ? found.length + shown.length : (stryCov_9fa48("2042"), found.length - shown.length)} more`) : stryMutAct_9fa48("2043") ? "Stryker was here!" : (stryCov_9fa48("2043"), "");
        throw new CsvFileError(stryMutAct_9fa48("2044") ? "" : (stryCov_9fa48("2044"), "MISSING_COLUMN"), (stryMutAct_9fa48("2045") ? `` : (stryCov_9fa48("2045"), `row ${row}: missing column${(stryMutAct_9fa48("2049") ? missing.length <= 1 : stryMutAct_9fa48("2048") ? missing.length >= 1 : stryMutAct_9fa48("2047") ? false : stryMutAct_9fa48("2046") ? true : (stryCov_9fa48("2046", "2047", "2048", "2049"), missing.length > 1)) ? stryMutAct_9fa48("2050") ? "" : (stryCov_9fa48("2050"), "s") : stryMutAct_9fa48("2051") ? "Stryker was here!" : (stryCov_9fa48("2051"), "")} ${missing.join(stryMutAct_9fa48("2052") ? "" : (stryCov_9fa48("2052"), ", "))} `)) + (stryMutAct_9fa48("2053") ? `` : (stryCov_9fa48("2053"), `(the header has ${(stryMutAct_9fa48("2056") ? found.length !== 0 : stryMutAct_9fa48("2055") ? false : stryMutAct_9fa48("2054") ? true : (stryCov_9fa48("2054", "2055", "2056"), found.length === 0)) ? stryMutAct_9fa48("2057") ? "" : (stryCov_9fa48("2057"), "no names") : stryMutAct_9fa48("2058") ? shown.join(", ") - more : (stryCov_9fa48("2058"), shown.join(stryMutAct_9fa48("2059") ? "" : (stryCov_9fa48("2059"), ", ")) + more)})`)), stryMutAct_9fa48("2060") ? {} : (stryCov_9fa48("2060"), {
          row,
          columns: missing,
          hint: stryMutAct_9fa48("2061") ? `` : (stryCov_9fa48("2061"), `the header needs the columns ${wanted.join(stryMutAct_9fa48("2062") ? "" : (stryCov_9fa48("2062"), ","))}, in any order`)
        }));
      }
    }
    const warnings: string[] = stryMutAct_9fa48("2063") ? ["Stryker was here"] : (stryCov_9fa48("2063"), []);
    if (stryMutAct_9fa48("2066") ? unknownCount !== 1 : stryMutAct_9fa48("2065") ? false : stryMutAct_9fa48("2064") ? true : (stryCov_9fa48("2064", "2065", "2066"), unknownCount === 1)) warnings.push(stryMutAct_9fa48("2067") ? `` : (stryCov_9fa48("2067"), `unknown column ${unknown[0]} is ignored and not uploaded`));else if (stryMutAct_9fa48("2071") ? unknownCount <= 1 : stryMutAct_9fa48("2070") ? unknownCount >= 1 : stryMutAct_9fa48("2069") ? false : stryMutAct_9fa48("2068") ? true : (stryCov_9fa48("2068", "2069", "2070", "2071"), unknownCount > 1)) {
      if (stryMutAct_9fa48("2072")) {
        {}
      } else {
        stryCov_9fa48("2072");
        const more = (stryMutAct_9fa48("2076") ? unknownCount <= unknown.length : stryMutAct_9fa48("2075") ? unknownCount >= unknown.length : stryMutAct_9fa48("2074") ? false : stryMutAct_9fa48("2073") ? true : (stryCov_9fa48("2073", "2074", "2075", "2076"), unknownCount > unknown.length)) ? stryMutAct_9fa48("2077") ? `` : (stryCov_9fa48("2077"), ` and ${stryMutAct_9fa48("2078") ? unknownCount + unknown.length : (stryCov_9fa48("2078"), unknownCount - unknown.length)} more`) : stryMutAct_9fa48("2079") ? "Stryker was here!" : (stryCov_9fa48("2079"), "");
        warnings.push(stryMutAct_9fa48("2080") ? `` : (stryCov_9fa48("2080"), `${unknownCount} unknown columns are ignored and not uploaded: ${unknown.join(stryMutAct_9fa48("2081") ? "" : (stryCov_9fa48("2081"), ", "))}${more}`));
      }
    }
    if (stryMutAct_9fa48("2084") ? unnamed.length !== 1 : stryMutAct_9fa48("2083") ? false : stryMutAct_9fa48("2082") ? true : (stryCov_9fa48("2082", "2083", "2084"), unnamed.length === 1)) warnings.push(stryMutAct_9fa48("2085") ? `` : (stryCov_9fa48("2085"), `column ${unnamed[0]} has no name; it is ignored`));else if (stryMutAct_9fa48("2089") ? unnamed.length <= 1 : stryMutAct_9fa48("2088") ? unnamed.length >= 1 : stryMutAct_9fa48("2087") ? false : stryMutAct_9fa48("2086") ? true : (stryCov_9fa48("2086", "2087", "2088", "2089"), unnamed.length > 1)) {
      if (stryMutAct_9fa48("2090")) {
        {}
      } else {
        stryCov_9fa48("2090");
        const list = stryMutAct_9fa48("2091") ? unnamed.slice(0, NAMES_SHOWN).join(", ") - (unnamed.length > NAMES_SHOWN ? ", …" : "") : (stryCov_9fa48("2091"), (stryMutAct_9fa48("2092") ? unnamed.join(", ") : (stryCov_9fa48("2092"), unnamed.slice(0, NAMES_SHOWN).join(stryMutAct_9fa48("2093") ? "" : (stryCov_9fa48("2093"), ", ")))) + ((stryMutAct_9fa48("2097") ? unnamed.length <= NAMES_SHOWN : stryMutAct_9fa48("2096") ? unnamed.length >= NAMES_SHOWN : stryMutAct_9fa48("2095") ? false : stryMutAct_9fa48("2094") ? true : (stryCov_9fa48("2094", "2095", "2096", "2097"), unnamed.length > NAMES_SHOWN)) ? stryMutAct_9fa48("2098") ? "" : (stryCov_9fa48("2098"), ", …") : stryMutAct_9fa48("2099") ? "Stryker was here!" : (stryCov_9fa48("2099"), "")));
        warnings.push(stryMutAct_9fa48("2100") ? `` : (stryCov_9fa48("2100"), `${unnamed.length} columns have no name (columns ${list}); they are ignored`));
      }
    }
    return stryMutAct_9fa48("2101") ? {} : (stryCov_9fa48("2101"), {
      columns,
      positions,
      width: cells.length,
      warnings
    });
  }
}

/**
 * Where a cell holds a character no name or id can contain: C0 controls other than tab,
 * line feed and carriage return (NUL first of all), DEL and the C1 controls (which is what
 * a wrong --encoding leaves behind). -1 when there is none.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it finds
const CONTROL = stryMutAct_9fa48("2102") ? /[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/ : (stryCov_9fa48("2102"), /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/);
export function findControlCharacter(value: string): number {
  if (stryMutAct_9fa48("2103")) {
    {}
  } else {
    stryCov_9fa48("2103");
    const m = CONTROL.exec(value);
    return (stryMutAct_9fa48("2106") ? m !== null : stryMutAct_9fa48("2105") ? false : stryMutAct_9fa48("2104") ? true : (stryCov_9fa48("2104", "2105", "2106"), m === null)) ? stryMutAct_9fa48("2107") ? +1 : (stryCov_9fa48("2107"), -1) : m.index;
  }
}

/** "U+0000" for the character at `at`. */
export function codePointName(value: string, at: number): string {
  if (stryMutAct_9fa48("2108")) {
    {}
  } else {
    stryCov_9fa48("2108");
    return stryMutAct_9fa48("2109") ? `` : (stryCov_9fa48("2109"), `U+${stryMutAct_9fa48("2110") ? value.charCodeAt(at).toString(16).toLowerCase().padStart(4, "0") : (stryCov_9fa48("2110"), value.charCodeAt(at).toString(16).toUpperCase().padStart(4, stryMutAct_9fa48("2111") ? "" : (stryCov_9fa48("2111"), "0")))}`);
  }
}