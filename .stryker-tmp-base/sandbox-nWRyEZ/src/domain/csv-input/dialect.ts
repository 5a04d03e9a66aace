// @ts-nocheck
// Delimiter, line ending and Excel's `sep=` line, decided from the start of the decoded text
// (docs/cli-contract.md "Users CSV": LF, CRLF or CR line endings; `,`, `;` or tab; an Excel
// `sep=;` first line).
//
// - `sep=X` as the first line (Excel writes it, and honours it when opening a file) names
//   the delimiter: `,`, `;`, a tab, or the two characters `\t`. Excel does not show that
//   line, so it is no row: the header stays row 1. Written in quotes (`"sep=;"`, as some
//   tools re-save it) it counts too.
// - Otherwise the delimiter is whichever of `,`, `;` and tab occurs most often outside
//   quotes in the header line (the first line with content); a tie prefers `,`, then `;`.
//   Header names never contain these characters, so the count cannot be fooled by data.
// - The line ending is the one that ends the header line. LF and CRLF files are split on
//   both (a file mixing them is common after hand edits); a file whose header ends with a
//   lone CR (Excel 2008-2011 for Mac, "CSV (Macintosh)") is split on CR as well. CR is not
//   a record break in LF/CRLF files, where a stray CR inside a cell is an error instead.
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
import type { Options as CsvParseOptions } from "csv-parse";
import { CsvFileError, excerpt } from "./errors.js";
export type Delimiter = "," | ";" | "\t";
export type LineEnding = "lf" | "crlf" | "cr";
export interface Dialect {
  delimiter: Delimiter;
  lineEnding: LineEnding;
  /** Whether the file starts with Excel's `sep=` line. */
  sepLine: boolean;
  /** Characters before the first record: the `sep=` line and its line break (ASCII, so also its bytes in UTF-8). */
  skip: number;
}

/** How much text to look at for the header line's end before deciding anyway. */
export const HEADER_SCAN_LIMIT = 1 << 20;
/** Longest record csv-parse accepts: an unclosed quote would otherwise swallow a 100 MB file into one cell. */
export const MAX_RECORD_CHARS = 1 << 20;

/**
 * The csv-parse options for a dialect (exported so that the benchmark measures bare
 * csv-parse with exactly these).
 * - relax_column_count: a row with the wrong number of cells is a row error, not the end of the file.
 * - record_delimiter: see the top of this file; csv-parse's own detection locks onto the
 *   first ending it sees and would glue the lines of a mixed file together.
 * - no bom: the BOM is removed before parsing, by the decoding step.
 */
export function csvParseOptions(dialect: Pick<Dialect, "delimiter" | "lineEnding">): CsvParseOptions {
  if (stryMutAct_9fa48("1379")) {
    {}
  } else {
    stryCov_9fa48("1379");
    return stryMutAct_9fa48("1380") ? {} : (stryCov_9fa48("1380"), {
      delimiter: dialect.delimiter,
      relax_column_count: stryMutAct_9fa48("1381") ? false : (stryCov_9fa48("1381"), true),
      record_delimiter: (stryMutAct_9fa48("1384") ? dialect.lineEnding !== "cr" : stryMutAct_9fa48("1383") ? false : stryMutAct_9fa48("1382") ? true : (stryCov_9fa48("1382", "1383", "1384"), dialect.lineEnding === (stryMutAct_9fa48("1385") ? "" : (stryCov_9fa48("1385"), "cr")))) ? stryMutAct_9fa48("1386") ? [] : (stryCov_9fa48("1386"), [stryMutAct_9fa48("1387") ? "" : (stryCov_9fa48("1387"), "\r\n"), stryMutAct_9fa48("1388") ? "" : (stryCov_9fa48("1388"), "\r"), stryMutAct_9fa48("1389") ? "" : (stryCov_9fa48("1389"), "\n")]) : stryMutAct_9fa48("1390") ? [] : (stryCov_9fa48("1390"), [stryMutAct_9fa48("1391") ? "" : (stryCov_9fa48("1391"), "\r\n"), stryMutAct_9fa48("1392") ? "" : (stryCov_9fa48("1392"), "\n")]),
      max_record_size: MAX_RECORD_CHARS
    });
  }
}
const SEP_LINE = stryMutAct_9fa48("1398") ? /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[ ]*(?:\r\n|\n|\r)/i : stryMutAct_9fa48("1397") ? /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[^ ]*(?:\r\n|\n|\r|$)/i : stryMutAct_9fa48("1396") ? /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[ ](?:\r\n|\n|\r|$)/i : stryMutAct_9fa48("1395") ? /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[\r\n]))[ ]*(?:\r\n|\n|\r|$)/i : stryMutAct_9fa48("1394") ? /^(?:"sep=(\\t|[\r\n"])"|sep=(\\t|[^\r\n]))[ ]*(?:\r\n|\n|\r|$)/i : stryMutAct_9fa48("1393") ? /(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[ ]*(?:\r\n|\n|\r|$)/i : (stryCov_9fa48("1393", "1394", "1395", "1396", "1397", "1398"), /^(?:"sep=(\\t|[^\r\n"])"|sep=(\\t|[^\r\n]))[ ]*(?:\r\n|\n|\r|$)/i);

/**
 * The dialect of a file whose decoded text starts with `head`, or undefined when more
 * text is needed to see the header line's end. `atEnd`: `head` is all there is.
 */
export function detectDialect(head: string, atEnd: boolean): Dialect | undefined {
  if (stryMutAct_9fa48("1399")) {
    {}
  } else {
    stryCov_9fa48("1399");
    let skip = 0;
    let sep: Delimiter | undefined;
    const maybeSep = (stryMutAct_9fa48("1401") ? /^"sep=/i : stryMutAct_9fa48("1400") ? /"?sep=/i : (stryCov_9fa48("1400", "1401"), /^"?sep=/i)).test(head);
    // Until the first line break is seen (and a CR's possible LF after it), a sep= line may still be growing.
    if (stryMutAct_9fa48("1404") ? maybeSep && !atEnd && head.length < 64 || !/\n|\r[^\n]/.test(head) : stryMutAct_9fa48("1403") ? false : stryMutAct_9fa48("1402") ? true : (stryCov_9fa48("1402", "1403", "1404"), (stryMutAct_9fa48("1406") ? maybeSep && !atEnd || head.length < 64 : stryMutAct_9fa48("1405") ? true : (stryCov_9fa48("1405", "1406"), (stryMutAct_9fa48("1408") ? maybeSep || !atEnd : stryMutAct_9fa48("1407") ? true : (stryCov_9fa48("1407", "1408"), maybeSep && (stryMutAct_9fa48("1409") ? atEnd : (stryCov_9fa48("1409"), !atEnd)))) && (stryMutAct_9fa48("1412") ? head.length >= 64 : stryMutAct_9fa48("1411") ? head.length <= 64 : stryMutAct_9fa48("1410") ? true : (stryCov_9fa48("1410", "1411", "1412"), head.length < 64)))) && (stryMutAct_9fa48("1413") ? /\n|\r[^\n]/.test(head) : (stryCov_9fa48("1413"), !(stryMutAct_9fa48("1414") ? /\n|\r[\n]/ : (stryCov_9fa48("1414"), /\n|\r[^\n]/)).test(head))))) return undefined;
    const sepMatch = maybeSep ? SEP_LINE.exec(head) : null;
    if (stryMutAct_9fa48("1417") ? sepMatch === null : stryMutAct_9fa48("1416") ? false : stryMutAct_9fa48("1415") ? true : (stryCov_9fa48("1415", "1416", "1417"), sepMatch !== null)) {
      if (stryMutAct_9fa48("1418")) {
        {}
      } else {
        stryCov_9fa48("1418");
        const named = stryMutAct_9fa48("1419") ? sepMatch[1] && sepMatch[2]! : (stryCov_9fa48("1419"), sepMatch[1] ?? sepMatch[2]!);
        const char = (stryMutAct_9fa48("1422") ? named !== "\\t" : stryMutAct_9fa48("1421") ? false : stryMutAct_9fa48("1420") ? true : (stryCov_9fa48("1420", "1421", "1422"), named === (stryMutAct_9fa48("1423") ? "" : (stryCov_9fa48("1423"), "\\t")))) ? stryMutAct_9fa48("1424") ? "" : (stryCov_9fa48("1424"), "\t") : named;
        if (stryMutAct_9fa48("1427") ? char !== "," && char !== ";" || char !== "\t" : stryMutAct_9fa48("1426") ? false : stryMutAct_9fa48("1425") ? true : (stryCov_9fa48("1425", "1426", "1427"), (stryMutAct_9fa48("1429") ? char !== "," || char !== ";" : stryMutAct_9fa48("1428") ? true : (stryCov_9fa48("1428", "1429"), (stryMutAct_9fa48("1431") ? char === "," : stryMutAct_9fa48("1430") ? true : (stryCov_9fa48("1430", "1431"), char !== (stryMutAct_9fa48("1432") ? "" : (stryCov_9fa48("1432"), ",")))) && (stryMutAct_9fa48("1434") ? char === ";" : stryMutAct_9fa48("1433") ? true : (stryCov_9fa48("1433", "1434"), char !== (stryMutAct_9fa48("1435") ? "" : (stryCov_9fa48("1435"), ";")))))) && (stryMutAct_9fa48("1437") ? char === "\t" : stryMutAct_9fa48("1436") ? true : (stryCov_9fa48("1436", "1437"), char !== (stryMutAct_9fa48("1438") ? "" : (stryCov_9fa48("1438"), "\t")))))) {
          if (stryMutAct_9fa48("1439")) {
            {}
          } else {
            stryCov_9fa48("1439");
            throw new CsvFileError(stryMutAct_9fa48("1440") ? "" : (stryCov_9fa48("1440"), "MALFORMED"), stryMutAct_9fa48("1441") ? `` : (stryCov_9fa48("1441"), `the first line ${excerpt(stryMutAct_9fa48("1442") ? sepMatch[0].trimStart() : (stryCov_9fa48("1442"), sepMatch[0].trimEnd()))} names the delimiter ${excerpt(char)}`), stryMutAct_9fa48("1443") ? {} : (stryCov_9fa48("1443"), {
              hint: stryMutAct_9fa48("1444") ? "" : (stryCov_9fa48("1444"), "use sep=, or sep=; or sep= followed by a tab, or remove that line")
            }));
          }
        }
        sep = char;
        skip = sepMatch[0].length;
      }
    } else if (stryMutAct_9fa48("1447") ? !atEnd && head.length < 5 || "sep=".startsWith(head.toLowerCase().replace(/^"/, "")) : stryMutAct_9fa48("1446") ? false : stryMutAct_9fa48("1445") ? true : (stryCov_9fa48("1445", "1446", "1447"), (stryMutAct_9fa48("1449") ? !atEnd || head.length < 5 : stryMutAct_9fa48("1448") ? true : (stryCov_9fa48("1448", "1449"), (stryMutAct_9fa48("1450") ? atEnd : (stryCov_9fa48("1450"), !atEnd)) && (stryMutAct_9fa48("1453") ? head.length >= 5 : stryMutAct_9fa48("1452") ? head.length <= 5 : stryMutAct_9fa48("1451") ? true : (stryCov_9fa48("1451", "1452", "1453"), head.length < 5)))) && (stryMutAct_9fa48("1454") ? "sep=".endsWith(head.toLowerCase().replace(/^"/, "")) : (stryCov_9fa48("1454"), (stryMutAct_9fa48("1455") ? "" : (stryCov_9fa48("1455"), "sep=")).startsWith(stryMutAct_9fa48("1456") ? head.toUpperCase().replace(/^"/, "") : (stryCov_9fa48("1456"), head.toLowerCase().replace(stryMutAct_9fa48("1457") ? /"/ : (stryCov_9fa48("1457"), /^"/), stryMutAct_9fa48("1458") ? "Stryker was here!" : (stryCov_9fa48("1458"), "")))))))) {
      if (stryMutAct_9fa48("1459")) {
        {}
      } else {
        stryCov_9fa48("1459");
        return undefined;
      }
    }
    const line = headerLine(head, skip, atEnd);
    if (stryMutAct_9fa48("1462") ? line !== undefined : stryMutAct_9fa48("1461") ? false : stryMutAct_9fa48("1460") ? true : (stryCov_9fa48("1460", "1461", "1462"), line === undefined)) return undefined;
    const delimiter = stryMutAct_9fa48("1463") ? sep && countDelimiters(head, line.start, line.end) : (stryCov_9fa48("1463"), sep ?? countDelimiters(head, line.start, line.end));
    return stryMutAct_9fa48("1464") ? {} : (stryCov_9fa48("1464"), {
      delimiter,
      lineEnding: line.ending,
      sepLine: stryMutAct_9fa48("1467") ? sep === undefined : stryMutAct_9fa48("1466") ? false : stryMutAct_9fa48("1465") ? true : (stryCov_9fa48("1465", "1466", "1467"), sep !== undefined),
      skip
    });
  }
}

/**
 * Where the first line with content starts and ends (blank lines skipped; a line break
 * inside quotes does not end it), and the line break that ends it.
 */
function headerLine(text: string, from: number, atEnd: boolean): {
  start: number;
  end: number;
  ending: LineEnding;
} | undefined {
  if (stryMutAct_9fa48("1468")) {
    {}
  } else {
    stryCov_9fa48("1468");
    let start = from;
    let inQuotes = stryMutAct_9fa48("1469") ? true : (stryCov_9fa48("1469"), false);
    let content = stryMutAct_9fa48("1470") ? true : (stryCov_9fa48("1470"), false);
    const n = text.length;
    for (let i = from; stryMutAct_9fa48("1473") ? i >= n : stryMutAct_9fa48("1472") ? i <= n : stryMutAct_9fa48("1471") ? false : (stryCov_9fa48("1471", "1472", "1473"), i < n); stryMutAct_9fa48("1474") ? i-- : (stryCov_9fa48("1474"), i++)) {
      if (stryMutAct_9fa48("1475")) {
        {}
      } else {
        stryCov_9fa48("1475");
        const c = text.charCodeAt(i);
        if (stryMutAct_9fa48("1478") ? c !== 0x22 : stryMutAct_9fa48("1477") ? false : stryMutAct_9fa48("1476") ? true : (stryCov_9fa48("1476", "1477", "1478"), c === 0x22)) inQuotes = stryMutAct_9fa48("1479") ? inQuotes : (stryCov_9fa48("1479"), !inQuotes);
        if (stryMutAct_9fa48("1481") ? false : stryMutAct_9fa48("1480") ? true : (stryCov_9fa48("1480", "1481"), inQuotes)) {
          if (stryMutAct_9fa48("1482")) {
            {}
          } else {
            stryCov_9fa48("1482");
            content = stryMutAct_9fa48("1483") ? false : (stryCov_9fa48("1483"), true);
            continue;
          }
        }
        if (stryMutAct_9fa48("1486") ? c === 0x0a && c === 0x0d : stryMutAct_9fa48("1485") ? false : stryMutAct_9fa48("1484") ? true : (stryCov_9fa48("1484", "1485", "1486"), (stryMutAct_9fa48("1488") ? c !== 0x0a : stryMutAct_9fa48("1487") ? false : (stryCov_9fa48("1487", "1488"), c === 0x0a)) || (stryMutAct_9fa48("1490") ? c !== 0x0d : stryMutAct_9fa48("1489") ? false : (stryCov_9fa48("1489", "1490"), c === 0x0d)))) {
          if (stryMutAct_9fa48("1491")) {
            {}
          } else {
            stryCov_9fa48("1491");
            let ending: LineEnding = (stryMutAct_9fa48("1494") ? c !== 0x0a : stryMutAct_9fa48("1493") ? false : stryMutAct_9fa48("1492") ? true : (stryCov_9fa48("1492", "1493", "1494"), c === 0x0a)) ? stryMutAct_9fa48("1495") ? "" : (stryCov_9fa48("1495"), "lf") : stryMutAct_9fa48("1496") ? "" : (stryCov_9fa48("1496"), "crlf");
            let next = stryMutAct_9fa48("1497") ? i - 1 : (stryCov_9fa48("1497"), i + 1);
            if (stryMutAct_9fa48("1500") ? c !== 0x0d : stryMutAct_9fa48("1499") ? false : stryMutAct_9fa48("1498") ? true : (stryCov_9fa48("1498", "1499", "1500"), c === 0x0d)) {
              if (stryMutAct_9fa48("1501")) {
                {}
              } else {
                stryCov_9fa48("1501");
                if (stryMutAct_9fa48("1504") ? i + 1 >= n && !atEnd || n < HEADER_SCAN_LIMIT : stryMutAct_9fa48("1503") ? false : stryMutAct_9fa48("1502") ? true : (stryCov_9fa48("1502", "1503", "1504"), (stryMutAct_9fa48("1506") ? i + 1 >= n || !atEnd : stryMutAct_9fa48("1505") ? true : (stryCov_9fa48("1505", "1506"), (stryMutAct_9fa48("1509") ? i + 1 < n : stryMutAct_9fa48("1508") ? i + 1 > n : stryMutAct_9fa48("1507") ? true : (stryCov_9fa48("1507", "1508", "1509"), (stryMutAct_9fa48("1510") ? i - 1 : (stryCov_9fa48("1510"), i + 1)) >= n)) && (stryMutAct_9fa48("1511") ? atEnd : (stryCov_9fa48("1511"), !atEnd)))) && (stryMutAct_9fa48("1514") ? n >= HEADER_SCAN_LIMIT : stryMutAct_9fa48("1513") ? n <= HEADER_SCAN_LIMIT : stryMutAct_9fa48("1512") ? true : (stryCov_9fa48("1512", "1513", "1514"), n < HEADER_SCAN_LIMIT)))) return undefined;
                if (stryMutAct_9fa48("1517") ? text.charCodeAt(i + 1) !== 0x0a : stryMutAct_9fa48("1516") ? false : stryMutAct_9fa48("1515") ? true : (stryCov_9fa48("1515", "1516", "1517"), text.charCodeAt(stryMutAct_9fa48("1518") ? i - 1 : (stryCov_9fa48("1518"), i + 1)) === 0x0a)) next = stryMutAct_9fa48("1519") ? i - 2 : (stryCov_9fa48("1519"), i + 2);else ending = stryMutAct_9fa48("1520") ? "" : (stryCov_9fa48("1520"), "cr");
              }
            }
            if (stryMutAct_9fa48("1522") ? false : stryMutAct_9fa48("1521") ? true : (stryCov_9fa48("1521", "1522"), content)) return stryMutAct_9fa48("1523") ? {} : (stryCov_9fa48("1523"), {
              start,
              end: i,
              ending
            });
            start = next;
            i = stryMutAct_9fa48("1524") ? next + 1 : (stryCov_9fa48("1524"), next - 1);
            continue;
          }
        }
        if (stryMutAct_9fa48("1527") ? c !== 0x20 || c !== 0x09 : stryMutAct_9fa48("1526") ? false : stryMutAct_9fa48("1525") ? true : (stryCov_9fa48("1525", "1526", "1527"), (stryMutAct_9fa48("1529") ? c === 0x20 : stryMutAct_9fa48("1528") ? true : (stryCov_9fa48("1528", "1529"), c !== 0x20)) && (stryMutAct_9fa48("1531") ? c === 0x09 : stryMutAct_9fa48("1530") ? true : (stryCov_9fa48("1530", "1531"), c !== 0x09)))) content = stryMutAct_9fa48("1532") ? false : (stryCov_9fa48("1532"), true);
      }
    }
    if (stryMutAct_9fa48("1535") ? !atEnd || n < HEADER_SCAN_LIMIT : stryMutAct_9fa48("1534") ? false : stryMutAct_9fa48("1533") ? true : (stryCov_9fa48("1533", "1534", "1535"), (stryMutAct_9fa48("1536") ? atEnd : (stryCov_9fa48("1536"), !atEnd)) && (stryMutAct_9fa48("1539") ? n >= HEADER_SCAN_LIMIT : stryMutAct_9fa48("1538") ? n <= HEADER_SCAN_LIMIT : stryMutAct_9fa48("1537") ? true : (stryCov_9fa48("1537", "1538", "1539"), n < HEADER_SCAN_LIMIT)))) return undefined;
    return stryMutAct_9fa48("1540") ? {} : (stryCov_9fa48("1540"), {
      start,
      end: n,
      ending: stryMutAct_9fa48("1541") ? "" : (stryCov_9fa48("1541"), "lf")
    });
  }
}
function countDelimiters(text: string, start: number, end: number): Delimiter {
  if (stryMutAct_9fa48("1542")) {
    {}
  } else {
    stryCov_9fa48("1542");
    let commas = 0;
    let semicolons = 0;
    let tabs = 0;
    let inQuotes = stryMutAct_9fa48("1543") ? true : (stryCov_9fa48("1543"), false);
    for (let i = start; stryMutAct_9fa48("1546") ? i >= end : stryMutAct_9fa48("1545") ? i <= end : stryMutAct_9fa48("1544") ? false : (stryCov_9fa48("1544", "1545", "1546"), i < end); stryMutAct_9fa48("1547") ? i-- : (stryCov_9fa48("1547"), i++)) {
      if (stryMutAct_9fa48("1548")) {
        {}
      } else {
        stryCov_9fa48("1548");
        const c = text.charCodeAt(i);
        if (stryMutAct_9fa48("1551") ? c !== 0x22 : stryMutAct_9fa48("1550") ? false : stryMutAct_9fa48("1549") ? true : (stryCov_9fa48("1549", "1550", "1551"), c === 0x22)) inQuotes = stryMutAct_9fa48("1552") ? inQuotes : (stryCov_9fa48("1552"), !inQuotes);else if (stryMutAct_9fa48("1555") ? false : stryMutAct_9fa48("1554") ? true : stryMutAct_9fa48("1553") ? inQuotes : (stryCov_9fa48("1553", "1554", "1555"), !inQuotes)) {
          if (stryMutAct_9fa48("1556")) {
            {}
          } else {
            stryCov_9fa48("1556");
            if (stryMutAct_9fa48("1559") ? c !== 0x2c : stryMutAct_9fa48("1558") ? false : stryMutAct_9fa48("1557") ? true : (stryCov_9fa48("1557", "1558", "1559"), c === 0x2c)) stryMutAct_9fa48("1560") ? commas-- : (stryCov_9fa48("1560"), commas++);else if (stryMutAct_9fa48("1563") ? c !== 0x3b : stryMutAct_9fa48("1562") ? false : stryMutAct_9fa48("1561") ? true : (stryCov_9fa48("1561", "1562", "1563"), c === 0x3b)) stryMutAct_9fa48("1564") ? semicolons-- : (stryCov_9fa48("1564"), semicolons++);else if (stryMutAct_9fa48("1567") ? c !== 0x09 : stryMutAct_9fa48("1566") ? false : stryMutAct_9fa48("1565") ? true : (stryCov_9fa48("1565", "1566", "1567"), c === 0x09)) stryMutAct_9fa48("1568") ? tabs-- : (stryCov_9fa48("1568"), tabs++);
          }
        }
      }
    }
    if (stryMutAct_9fa48("1571") ? commas >= semicolons || commas >= tabs : stryMutAct_9fa48("1570") ? false : stryMutAct_9fa48("1569") ? true : (stryCov_9fa48("1569", "1570", "1571"), (stryMutAct_9fa48("1574") ? commas < semicolons : stryMutAct_9fa48("1573") ? commas > semicolons : stryMutAct_9fa48("1572") ? true : (stryCov_9fa48("1572", "1573", "1574"), commas >= semicolons)) && (stryMutAct_9fa48("1577") ? commas < tabs : stryMutAct_9fa48("1576") ? commas > tabs : stryMutAct_9fa48("1575") ? true : (stryCov_9fa48("1575", "1576", "1577"), commas >= tabs)))) return stryMutAct_9fa48("1578") ? "" : (stryCov_9fa48("1578"), ",");
    return (stryMutAct_9fa48("1582") ? semicolons < tabs : stryMutAct_9fa48("1581") ? semicolons > tabs : stryMutAct_9fa48("1580") ? false : stryMutAct_9fa48("1579") ? true : (stryCov_9fa48("1579", "1580", "1581", "1582"), semicolons >= tabs)) ? stryMutAct_9fa48("1583") ? "" : (stryCov_9fa48("1583"), ";") : stryMutAct_9fa48("1584") ? "" : (stryCov_9fa48("1584"), "\t");
  }
}