// @ts-nocheck
// Bytes → text for CSV input (docs/cli-contract.md "Users CSV": UTF-8 with or without BOM, UTF-16
// LE/BE with BOM, other encodings with --encoding).
//
// Which encoding a file is read in, in this order:
// 1. A byte-order mark: EF BB BF is UTF-8, FF FE UTF-16LE (Excel's "Unicode Text"), FE FF
//    UTF-16BE. A BOM beats --encoding (a file cannot start with one by accident: its first
//    bytes are a header name), with a note saying so. FF FE 00 00 / 00 00 FE FF is UTF-32,
//    which no spreadsheet writes for CSV and TextDecoder cannot read: a file error.
// 2. --encoding <label>: any label the WHATWG Encoding Standard knows (what TextDecoder
//    takes): windows-1252, latin1, iso-8859-15, utf-16le, macintosh, shift_jis, ...
// 3. No BOM and no --encoding, but the first bytes have the NUL pattern of ASCII text in
//    UTF-16 (`f\0i\0` or `\0f\0i`): UTF-16 without a BOM. Safe to detect, since a users
//    CSV starts with ASCII header names; read as such, with a note.
// 4. Otherwise strict UTF-8: any invalid byte is a file error naming its byte offset and
//    row and suggesting --encoding windows-1252 (Excel's "CSV (Comma delimited)"), never a
//    silent U+FFFD in a name.
//
// UTF-8 stays bytes (csv-parse decodes it, and buffer.isUtf8 checks it far faster than a
// decoder could); every other encoding becomes strings through a streaming decoder.
//
// windows-1252 (which the labels latin1, iso-8859-1, ascii, ... also name) is decoded here
// rather than by TextDecoder: Node 20's TextDecoder decodes it as ISO-8859-1, so the 27
// printable characters at 0x80–0x9F (€ ‚ „ … ’ “ ” – — Š š Ž ž Œ œ Ÿ ™ ...) came out as
// C1 control characters — "O’Brien" would have arrived as "O\u0092Brien".
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
import { TextDecoder } from "node:util";
import { UsageError } from "../../errors.js";
import { Utf8StreamChecker } from "./utf8.js";
export const UTF8 = stryMutAct_9fa48("1585") ? "" : (stryCov_9fa48("1585"), "utf-8");
export const WINDOWS_1252 = stryMutAct_9fa48("1586") ? "" : (stryCov_9fa48("1586"), "windows-1252");

/** The WHATWG name for an --encoding label (e.g. "latin1" → "windows-1252"), or undefined if unknown. */
export function resolveEncoding(label: string): string | undefined {
  if (stryMutAct_9fa48("1587")) {
    {}
  } else {
    stryCov_9fa48("1587");
    const trimmed = stryMutAct_9fa48("1588") ? label : (stryCov_9fa48("1588"), label.trim());
    if (stryMutAct_9fa48("1591") ? trimmed !== "" : stryMutAct_9fa48("1590") ? false : stryMutAct_9fa48("1589") ? true : (stryCov_9fa48("1589", "1590", "1591"), trimmed === (stryMutAct_9fa48("1592") ? "Stryker was here!" : (stryCov_9fa48("1592"), "")))) return undefined;
    try {
      if (stryMutAct_9fa48("1593")) {
        {}
      } else {
        stryCov_9fa48("1593");
        return new TextDecoder(trimmed).encoding;
      }
    } catch {
      if (stryMutAct_9fa48("1594")) {
        {}
      } else {
        stryCov_9fa48("1594");
        return undefined;
      }
    }
  }
}

/** A few labels to suggest when an --encoding name is unknown. */
export const ENCODING_EXAMPLES = stryMutAct_9fa48("1595") ? [] : (stryCov_9fa48("1595"), [stryMutAct_9fa48("1596") ? "" : (stryCov_9fa48("1596"), "utf-8"), stryMutAct_9fa48("1597") ? "" : (stryCov_9fa48("1597"), "windows-1252"), stryMutAct_9fa48("1598") ? "" : (stryCov_9fa48("1598"), "latin1"), stryMutAct_9fa48("1599") ? "" : (stryCov_9fa48("1599"), "iso-8859-15"), stryMutAct_9fa48("1600") ? "" : (stryCov_9fa48("1600"), "utf-16le"), stryMutAct_9fa48("1601") ? "" : (stryCov_9fa48("1601"), "utf-16be"), stryMutAct_9fa48("1602") ? "" : (stryCov_9fa48("1602"), "macintosh")]);

/**
 * The `--encoding <name>` option of a command that reads a CSV: undefined when not given,
 * else the resolved name; an unknown name is a usage error (exit 2), raised before the file
 * is read or anything is sent.
 */
export function encodingOption(value: unknown): string | undefined {
  if (stryMutAct_9fa48("1603")) {
    {}
  } else {
    stryCov_9fa48("1603");
    if (stryMutAct_9fa48("1606") ? value !== undefined : stryMutAct_9fa48("1605") ? false : stryMutAct_9fa48("1604") ? true : (stryCov_9fa48("1604", "1605", "1606"), value === undefined)) return undefined;
    const resolved = resolveEncoding(String(value));
    if (stryMutAct_9fa48("1609") ? resolved !== undefined : stryMutAct_9fa48("1608") ? false : stryMutAct_9fa48("1607") ? true : (stryCov_9fa48("1607", "1608", "1609"), resolved === undefined)) {
      if (stryMutAct_9fa48("1610")) {
        {}
      } else {
        stryCov_9fa48("1610");
        throw new UsageError(stryMutAct_9fa48("1611") ? `` : (stryCov_9fa48("1611"), `--encoding: unknown encoding ${JSON.stringify(String(value))}`), stryMutAct_9fa48("1612") ? {} : (stryCov_9fa48("1612"), {
          hint: stryMutAct_9fa48("1613") ? `` : (stryCov_9fa48("1613"), `use a WHATWG encoding name such as ${ENCODING_EXAMPLES.join(stryMutAct_9fa48("1614") ? "" : (stryCov_9fa48("1614"), ", "))}`)
        }));
      }
    }
    return resolved;
  }
}
export type Sniffed = {
  kind: "encoding";
  encoding: string;
  bomBytes: number;
  how: "bom" | "nul-pattern" | "option" | "default";
} | {
  kind: "unsupported";
  name: string;
} | {
  kind: "need-more";
};

/**
 * Decides the encoding from the first bytes of the file (see the rules at the top).
 * `atEnd`: `head` is the whole file, so no more bytes can change the answer.
 */
export function sniffEncoding(head: Uint8Array, option: string | undefined, atEnd: boolean): Sniffed {
  if (stryMutAct_9fa48("1615")) {
    {}
  } else {
    stryCov_9fa48("1615");
    const [b0, b1, b2, b3] = head;
    if (stryMutAct_9fa48("1618") ? head.length < 4 || !atEnd : stryMutAct_9fa48("1617") ? false : stryMutAct_9fa48("1616") ? true : (stryCov_9fa48("1616", "1617", "1618"), (stryMutAct_9fa48("1621") ? head.length >= 4 : stryMutAct_9fa48("1620") ? head.length <= 4 : stryMutAct_9fa48("1619") ? true : (stryCov_9fa48("1619", "1620", "1621"), head.length < 4)) && (stryMutAct_9fa48("1622") ? atEnd : (stryCov_9fa48("1622"), !atEnd)))) return stryMutAct_9fa48("1623") ? {} : (stryCov_9fa48("1623"), {
      kind: stryMutAct_9fa48("1624") ? "" : (stryCov_9fa48("1624"), "need-more")
    });
    if (stryMutAct_9fa48("1627") ? b0 === 0xff && b1 === 0xfe && b2 === 0 || b3 === 0 : stryMutAct_9fa48("1626") ? false : stryMutAct_9fa48("1625") ? true : (stryCov_9fa48("1625", "1626", "1627"), (stryMutAct_9fa48("1629") ? b0 === 0xff && b1 === 0xfe || b2 === 0 : stryMutAct_9fa48("1628") ? true : (stryCov_9fa48("1628", "1629"), (stryMutAct_9fa48("1631") ? b0 === 0xff || b1 === 0xfe : stryMutAct_9fa48("1630") ? true : (stryCov_9fa48("1630", "1631"), (stryMutAct_9fa48("1633") ? b0 !== 0xff : stryMutAct_9fa48("1632") ? true : (stryCov_9fa48("1632", "1633"), b0 === 0xff)) && (stryMutAct_9fa48("1635") ? b1 !== 0xfe : stryMutAct_9fa48("1634") ? true : (stryCov_9fa48("1634", "1635"), b1 === 0xfe)))) && (stryMutAct_9fa48("1637") ? b2 !== 0 : stryMutAct_9fa48("1636") ? true : (stryCov_9fa48("1636", "1637"), b2 === 0)))) && (stryMutAct_9fa48("1639") ? b3 !== 0 : stryMutAct_9fa48("1638") ? true : (stryCov_9fa48("1638", "1639"), b3 === 0)))) return stryMutAct_9fa48("1640") ? {} : (stryCov_9fa48("1640"), {
      kind: stryMutAct_9fa48("1641") ? "" : (stryCov_9fa48("1641"), "unsupported"),
      name: stryMutAct_9fa48("1642") ? "" : (stryCov_9fa48("1642"), "UTF-32LE")
    });
    if (stryMutAct_9fa48("1645") ? b0 === 0 && b1 === 0 && b2 === 0xfe || b3 === 0xff : stryMutAct_9fa48("1644") ? false : stryMutAct_9fa48("1643") ? true : (stryCov_9fa48("1643", "1644", "1645"), (stryMutAct_9fa48("1647") ? b0 === 0 && b1 === 0 || b2 === 0xfe : stryMutAct_9fa48("1646") ? true : (stryCov_9fa48("1646", "1647"), (stryMutAct_9fa48("1649") ? b0 === 0 || b1 === 0 : stryMutAct_9fa48("1648") ? true : (stryCov_9fa48("1648", "1649"), (stryMutAct_9fa48("1651") ? b0 !== 0 : stryMutAct_9fa48("1650") ? true : (stryCov_9fa48("1650", "1651"), b0 === 0)) && (stryMutAct_9fa48("1653") ? b1 !== 0 : stryMutAct_9fa48("1652") ? true : (stryCov_9fa48("1652", "1653"), b1 === 0)))) && (stryMutAct_9fa48("1655") ? b2 !== 0xfe : stryMutAct_9fa48("1654") ? true : (stryCov_9fa48("1654", "1655"), b2 === 0xfe)))) && (stryMutAct_9fa48("1657") ? b3 !== 0xff : stryMutAct_9fa48("1656") ? true : (stryCov_9fa48("1656", "1657"), b3 === 0xff)))) return stryMutAct_9fa48("1658") ? {} : (stryCov_9fa48("1658"), {
      kind: stryMutAct_9fa48("1659") ? "" : (stryCov_9fa48("1659"), "unsupported"),
      name: stryMutAct_9fa48("1660") ? "" : (stryCov_9fa48("1660"), "UTF-32BE")
    });
    if (stryMutAct_9fa48("1663") ? b0 === 0xef && b1 === 0xbb || b2 === 0xbf : stryMutAct_9fa48("1662") ? false : stryMutAct_9fa48("1661") ? true : (stryCov_9fa48("1661", "1662", "1663"), (stryMutAct_9fa48("1665") ? b0 === 0xef || b1 === 0xbb : stryMutAct_9fa48("1664") ? true : (stryCov_9fa48("1664", "1665"), (stryMutAct_9fa48("1667") ? b0 !== 0xef : stryMutAct_9fa48("1666") ? true : (stryCov_9fa48("1666", "1667"), b0 === 0xef)) && (stryMutAct_9fa48("1669") ? b1 !== 0xbb : stryMutAct_9fa48("1668") ? true : (stryCov_9fa48("1668", "1669"), b1 === 0xbb)))) && (stryMutAct_9fa48("1671") ? b2 !== 0xbf : stryMutAct_9fa48("1670") ? true : (stryCov_9fa48("1670", "1671"), b2 === 0xbf)))) return stryMutAct_9fa48("1672") ? {} : (stryCov_9fa48("1672"), {
      kind: stryMutAct_9fa48("1673") ? "" : (stryCov_9fa48("1673"), "encoding"),
      encoding: UTF8,
      bomBytes: 3,
      how: stryMutAct_9fa48("1674") ? "" : (stryCov_9fa48("1674"), "bom")
    });
    if (stryMutAct_9fa48("1677") ? b0 === 0xff || b1 === 0xfe : stryMutAct_9fa48("1676") ? false : stryMutAct_9fa48("1675") ? true : (stryCov_9fa48("1675", "1676", "1677"), (stryMutAct_9fa48("1679") ? b0 !== 0xff : stryMutAct_9fa48("1678") ? true : (stryCov_9fa48("1678", "1679"), b0 === 0xff)) && (stryMutAct_9fa48("1681") ? b1 !== 0xfe : stryMutAct_9fa48("1680") ? true : (stryCov_9fa48("1680", "1681"), b1 === 0xfe)))) return stryMutAct_9fa48("1682") ? {} : (stryCov_9fa48("1682"), {
      kind: stryMutAct_9fa48("1683") ? "" : (stryCov_9fa48("1683"), "encoding"),
      encoding: stryMutAct_9fa48("1684") ? "" : (stryCov_9fa48("1684"), "utf-16le"),
      bomBytes: 2,
      how: stryMutAct_9fa48("1685") ? "" : (stryCov_9fa48("1685"), "bom")
    });
    if (stryMutAct_9fa48("1688") ? b0 === 0xfe || b1 === 0xff : stryMutAct_9fa48("1687") ? false : stryMutAct_9fa48("1686") ? true : (stryCov_9fa48("1686", "1687", "1688"), (stryMutAct_9fa48("1690") ? b0 !== 0xfe : stryMutAct_9fa48("1689") ? true : (stryCov_9fa48("1689", "1690"), b0 === 0xfe)) && (stryMutAct_9fa48("1692") ? b1 !== 0xff : stryMutAct_9fa48("1691") ? true : (stryCov_9fa48("1691", "1692"), b1 === 0xff)))) return stryMutAct_9fa48("1693") ? {} : (stryCov_9fa48("1693"), {
      kind: stryMutAct_9fa48("1694") ? "" : (stryCov_9fa48("1694"), "encoding"),
      encoding: stryMutAct_9fa48("1695") ? "" : (stryCov_9fa48("1695"), "utf-16be"),
      bomBytes: 2,
      how: stryMutAct_9fa48("1696") ? "" : (stryCov_9fa48("1696"), "bom")
    });
    if (stryMutAct_9fa48("1699") ? option === undefined : stryMutAct_9fa48("1698") ? false : stryMutAct_9fa48("1697") ? true : (stryCov_9fa48("1697", "1698", "1699"), option !== undefined)) return stryMutAct_9fa48("1700") ? {} : (stryCov_9fa48("1700"), {
      kind: stryMutAct_9fa48("1701") ? "" : (stryCov_9fa48("1701"), "encoding"),
      encoding: option,
      bomBytes: 0,
      how: stryMutAct_9fa48("1702") ? "" : (stryCov_9fa48("1702"), "option")
    });
    if (stryMutAct_9fa48("1706") ? head.length < 4 : stryMutAct_9fa48("1705") ? head.length > 4 : stryMutAct_9fa48("1704") ? false : stryMutAct_9fa48("1703") ? true : (stryCov_9fa48("1703", "1704", "1705", "1706"), head.length >= 4)) {
      if (stryMutAct_9fa48("1707")) {
        {}
      } else {
        stryCov_9fa48("1707");
        if (stryMutAct_9fa48("1710") ? b0 !== 0 && b1 === 0 && b2 !== 0 || b3 === 0 : stryMutAct_9fa48("1709") ? false : stryMutAct_9fa48("1708") ? true : (stryCov_9fa48("1708", "1709", "1710"), (stryMutAct_9fa48("1712") ? b0 !== 0 && b1 === 0 || b2 !== 0 : stryMutAct_9fa48("1711") ? true : (stryCov_9fa48("1711", "1712"), (stryMutAct_9fa48("1714") ? b0 !== 0 || b1 === 0 : stryMutAct_9fa48("1713") ? true : (stryCov_9fa48("1713", "1714"), (stryMutAct_9fa48("1716") ? b0 === 0 : stryMutAct_9fa48("1715") ? true : (stryCov_9fa48("1715", "1716"), b0 !== 0)) && (stryMutAct_9fa48("1718") ? b1 !== 0 : stryMutAct_9fa48("1717") ? true : (stryCov_9fa48("1717", "1718"), b1 === 0)))) && (stryMutAct_9fa48("1720") ? b2 === 0 : stryMutAct_9fa48("1719") ? true : (stryCov_9fa48("1719", "1720"), b2 !== 0)))) && (stryMutAct_9fa48("1722") ? b3 !== 0 : stryMutAct_9fa48("1721") ? true : (stryCov_9fa48("1721", "1722"), b3 === 0)))) return stryMutAct_9fa48("1723") ? {} : (stryCov_9fa48("1723"), {
          kind: stryMutAct_9fa48("1724") ? "" : (stryCov_9fa48("1724"), "encoding"),
          encoding: stryMutAct_9fa48("1725") ? "" : (stryCov_9fa48("1725"), "utf-16le"),
          bomBytes: 0,
          how: stryMutAct_9fa48("1726") ? "" : (stryCov_9fa48("1726"), "nul-pattern")
        });
        if (stryMutAct_9fa48("1729") ? b0 === 0 && b1 !== 0 && b2 === 0 || b3 !== 0 : stryMutAct_9fa48("1728") ? false : stryMutAct_9fa48("1727") ? true : (stryCov_9fa48("1727", "1728", "1729"), (stryMutAct_9fa48("1731") ? b0 === 0 && b1 !== 0 || b2 === 0 : stryMutAct_9fa48("1730") ? true : (stryCov_9fa48("1730", "1731"), (stryMutAct_9fa48("1733") ? b0 === 0 || b1 !== 0 : stryMutAct_9fa48("1732") ? true : (stryCov_9fa48("1732", "1733"), (stryMutAct_9fa48("1735") ? b0 !== 0 : stryMutAct_9fa48("1734") ? true : (stryCov_9fa48("1734", "1735"), b0 === 0)) && (stryMutAct_9fa48("1737") ? b1 === 0 : stryMutAct_9fa48("1736") ? true : (stryCov_9fa48("1736", "1737"), b1 !== 0)))) && (stryMutAct_9fa48("1739") ? b2 !== 0 : stryMutAct_9fa48("1738") ? true : (stryCov_9fa48("1738", "1739"), b2 === 0)))) && (stryMutAct_9fa48("1741") ? b3 === 0 : stryMutAct_9fa48("1740") ? true : (stryCov_9fa48("1740", "1741"), b3 !== 0)))) return stryMutAct_9fa48("1742") ? {} : (stryCov_9fa48("1742"), {
          kind: stryMutAct_9fa48("1743") ? "" : (stryCov_9fa48("1743"), "encoding"),
          encoding: stryMutAct_9fa48("1744") ? "" : (stryCov_9fa48("1744"), "utf-16be"),
          bomBytes: 0,
          how: stryMutAct_9fa48("1745") ? "" : (stryCov_9fa48("1745"), "nul-pattern")
        });
      }
    }
    return stryMutAct_9fa48("1746") ? {} : (stryCov_9fa48("1746"), {
      kind: stryMutAct_9fa48("1747") ? "" : (stryCov_9fa48("1747"), "encoding"),
      encoding: UTF8,
      bomBytes: 0,
      how: stryMutAct_9fa48("1748") ? "" : (stryCov_9fa48("1748"), "default")
    });
  }
}

/** Decoded output: UTF-8 bytes (checked) or text. */
export type Decoded = Buffer | string;
export type DecodeResult = {
  ok: true;
  out: Decoded;
} | {
  ok: false;
  /** Everything decodable before the problem, to parse so that its row is known. */
  out: Decoded;
  /** File offset of the first bad byte (or, when not `exact`, of the chunk holding it). */
  offset: number;
  exact: boolean;
  /** What is wrong there, e.g. "byte 0xE9" or "a lone surrogate". */
  what: string;
};

/** Turns the file's bytes (after any BOM) into parser input, chunk by chunk. */
export interface StreamDecoder {
  readonly encoding: string;
  push(chunk: Uint8Array): DecodeResult;
  end(): DecodeResult;
}

/**
 * The decoder for `encoding` (a resolved WHATWG name). `startOffset` is the file offset of
 * the first byte it will see (the BOM's length), so that its offsets are file offsets.
 */
export function createDecoder(encoding: string, startOffset: number): StreamDecoder {
  if (stryMutAct_9fa48("1749")) {
    {}
  } else {
    stryCov_9fa48("1749");
    if (stryMutAct_9fa48("1752") ? encoding !== UTF8 : stryMutAct_9fa48("1751") ? false : stryMutAct_9fa48("1750") ? true : (stryCov_9fa48("1750", "1751", "1752"), encoding === UTF8)) return new Utf8Passthrough(startOffset);
    if (stryMutAct_9fa48("1755") ? encoding !== WINDOWS_1252 : stryMutAct_9fa48("1754") ? false : stryMutAct_9fa48("1753") ? true : (stryCov_9fa48("1753", "1754", "1755"), encoding === WINDOWS_1252)) return new Windows1252Decoder();
    if (stryMutAct_9fa48("1758") ? encoding === "utf-16le" && encoding === "utf-16be" : stryMutAct_9fa48("1757") ? false : stryMutAct_9fa48("1756") ? true : (stryCov_9fa48("1756", "1757", "1758"), (stryMutAct_9fa48("1760") ? encoding !== "utf-16le" : stryMutAct_9fa48("1759") ? false : (stryCov_9fa48("1759", "1760"), encoding === (stryMutAct_9fa48("1761") ? "" : (stryCov_9fa48("1761"), "utf-16le")))) || (stryMutAct_9fa48("1763") ? encoding !== "utf-16be" : stryMutAct_9fa48("1762") ? false : (stryCov_9fa48("1762", "1763"), encoding === (stryMutAct_9fa48("1764") ? "" : (stryCov_9fa48("1764"), "utf-16be")))))) return new Utf16Decoder(encoding, startOffset);
    return new GenericDecoder(encoding, startOffset);
  }
}
function toBuffer(chunk: Uint8Array): Buffer {
  if (stryMutAct_9fa48("1765")) {
    {}
  } else {
    stryCov_9fa48("1765");
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}
const hex = stryMutAct_9fa48("1766") ? () => undefined : (stryCov_9fa48("1766"), (() => {
  const hex = (b: number): string => stryMutAct_9fa48("1767") ? `` : (stryCov_9fa48("1767"), `0x${stryMutAct_9fa48("1768") ? b.toString(16).toLowerCase().padStart(2, "0") : (stryCov_9fa48("1768"), b.toString(16).toUpperCase().padStart(2, stryMutAct_9fa48("1769") ? "" : (stryCov_9fa48("1769"), "0")))}`);
  return hex;
})());

/** UTF-8: validated, passed on as bytes. */
class Utf8Passthrough implements StreamDecoder {
  readonly encoding = UTF8;
  private readonly checker = new Utf8StreamChecker();
  /** The checker counts from 0; the BOM (if any) came before. */
  constructor(private readonly base: number) {}
  push(chunk: Uint8Array): DecodeResult {
    if (stryMutAct_9fa48("1770")) {
      {}
    } else {
      stryCov_9fa48("1770");
      const r = this.checker.push(chunk);
      if (stryMutAct_9fa48("1772") ? false : stryMutAct_9fa48("1771") ? true : (stryCov_9fa48("1771", "1772"), r.ok)) return stryMutAct_9fa48("1773") ? {} : (stryCov_9fa48("1773"), {
        ok: stryMutAct_9fa48("1774") ? false : (stryCov_9fa48("1774"), true),
        out: toBuffer(r.bytes)
      });
      return stryMutAct_9fa48("1775") ? {} : (stryCov_9fa48("1775"), {
        ok: stryMutAct_9fa48("1776") ? true : (stryCov_9fa48("1776"), false),
        out: toBuffer(r.validPrefix),
        offset: stryMutAct_9fa48("1777") ? this.base - r.offset : (stryCov_9fa48("1777"), this.base + r.offset),
        exact: stryMutAct_9fa48("1778") ? false : (stryCov_9fa48("1778"), true),
        what: stryMutAct_9fa48("1779") ? `` : (stryCov_9fa48("1779"), `byte ${hex(r.byte)}`)
      });
    }
  }
  end(): DecodeResult {
    if (stryMutAct_9fa48("1780")) {
      {}
    } else {
      stryCov_9fa48("1780");
      const truncated = this.checker.end();
      if (stryMutAct_9fa48("1784") ? truncated >= 0 : stryMutAct_9fa48("1783") ? truncated <= 0 : stryMutAct_9fa48("1782") ? false : stryMutAct_9fa48("1781") ? true : (stryCov_9fa48("1781", "1782", "1783", "1784"), truncated < 0)) return stryMutAct_9fa48("1785") ? {} : (stryCov_9fa48("1785"), {
        ok: stryMutAct_9fa48("1786") ? false : (stryCov_9fa48("1786"), true),
        out: Buffer.alloc(0)
      });
      return stryMutAct_9fa48("1787") ? {} : (stryCov_9fa48("1787"), {
        ok: stryMutAct_9fa48("1788") ? true : (stryCov_9fa48("1788"), false),
        out: Buffer.alloc(0),
        offset: stryMutAct_9fa48("1789") ? this.base - truncated : (stryCov_9fa48("1789"), this.base + truncated),
        exact: stryMutAct_9fa48("1790") ? false : (stryCov_9fa48("1790"), true),
        what: stryMutAct_9fa48("1791") ? "" : (stryCov_9fa48("1791"), "a character cut off by the end of the file")
      });
    }
  }
}

/** windows-1252 → the 32 characters at 0x80–0x9F (WHATWG index; the 5 unassigned bytes map to C1 controls). */
const CP1252_HIGH = (stryMutAct_9fa48("1792") ? "" : (stryCov_9fa48("1792"), "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f")) + (stryMutAct_9fa48("1793") ? "" : (stryCov_9fa48("1793"), "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178"));
const C1 = stryMutAct_9fa48("1794") ? /[^\x80-\x9f]/g : (stryCov_9fa48("1794"), /[\x80-\x9f]/g);

/** Decodes windows-1252 bytes: latin1 for everything, then the 0x80–0x9F block by table. */
export function decodeWindows1252(bytes: Uint8Array): string {
  if (stryMutAct_9fa48("1795")) {
    {}
  } else {
    stryCov_9fa48("1795");
    const text = toBuffer(bytes).toString(stryMutAct_9fa48("1796") ? "" : (stryCov_9fa48("1796"), "latin1"));
    C1.lastIndex = 0;
    return C1.test(text) ? text.replace(C1, stryMutAct_9fa48("1797") ? () => undefined : (stryCov_9fa48("1797"), c => CP1252_HIGH[stryMutAct_9fa48("1798") ? c.charCodeAt(0) + 0x80 : (stryCov_9fa48("1798"), c.charCodeAt(0) - 0x80)]!)) : text;
  }
}

/** windows-1252: one byte, one character, every byte defined; nothing can fail. */
class Windows1252Decoder implements StreamDecoder {
  readonly encoding = WINDOWS_1252;
  push(chunk: Uint8Array): DecodeResult {
    if (stryMutAct_9fa48("1799")) {
      {}
    } else {
      stryCov_9fa48("1799");
      return stryMutAct_9fa48("1800") ? {} : (stryCov_9fa48("1800"), {
        ok: stryMutAct_9fa48("1801") ? false : (stryCov_9fa48("1801"), true),
        out: decodeWindows1252(chunk)
      });
    }
  }
  end(): DecodeResult {
    if (stryMutAct_9fa48("1802")) {
      {}
    } else {
      stryCov_9fa48("1802");
      return stryMutAct_9fa48("1803") ? {} : (stryCov_9fa48("1803"), {
        ok: stryMutAct_9fa48("1804") ? false : (stryCov_9fa48("1804"), true),
        out: stryMutAct_9fa48("1805") ? "Stryker was here!" : (stryCov_9fa48("1805"), "")
      });
    }
  }
}

/**
 * UTF-16 through TextDecoder (streaming, fatal). When it fails, the bad code unit is found
 * by a scan from the last byte it decoded, so the error names the exact byte and row.
 */
class Utf16Decoder implements StreamDecoder {
  private readonly decoder: TextDecoder;
  /** Bytes fed so far, and code units returned so far (each took 2 bytes). */
  private fed = 0;
  private units = 0;
  /** The last bytes fed, which the decoder may still hold (at most 3). */
  private tail = new Uint8Array(0);
  constructor(readonly encoding: "utf-16le" | "utf-16be", private readonly base: number) {
    if (stryMutAct_9fa48("1806")) {
      {}
    } else {
      stryCov_9fa48("1806");
      // The BOM was already taken off; a U+FEFF after it is content.
      this.decoder = new TextDecoder(encoding, stryMutAct_9fa48("1807") ? {} : (stryCov_9fa48("1807"), {
        fatal: stryMutAct_9fa48("1808") ? false : (stryCov_9fa48("1808"), true),
        ignoreBOM: stryMutAct_9fa48("1809") ? false : (stryCov_9fa48("1809"), true)
      }));
    }
  }
  push(chunk: Uint8Array): DecodeResult {
    if (stryMutAct_9fa48("1810")) {
      {}
    } else {
      stryCov_9fa48("1810");
      try {
        if (stryMutAct_9fa48("1811")) {
          {}
        } else {
          stryCov_9fa48("1811");
          const out = this.decoder.decode(chunk, stryMutAct_9fa48("1812") ? {} : (stryCov_9fa48("1812"), {
            stream: stryMutAct_9fa48("1813") ? false : (stryCov_9fa48("1813"), true)
          }));
          stryMutAct_9fa48("1814") ? this.fed -= chunk.length : (stryCov_9fa48("1814"), this.fed += chunk.length);
          stryMutAct_9fa48("1815") ? this.units -= out.length : (stryCov_9fa48("1815"), this.units += out.length);
          this.tail = stryMutAct_9fa48("1816") ? concat(this.tail, chunk.subarray(Math.max(0, chunk.length - 3))) : (stryCov_9fa48("1816"), concat(this.tail, chunk.subarray(stryMutAct_9fa48("1817") ? Math.min(0, chunk.length - 3) : (stryCov_9fa48("1817"), Math.max(0, stryMutAct_9fa48("1818") ? chunk.length + 3 : (stryCov_9fa48("1818"), chunk.length - 3))))).slice(stryMutAct_9fa48("1819") ? +3 : (stryCov_9fa48("1819"), -3)));
          return stryMutAct_9fa48("1820") ? {} : (stryCov_9fa48("1820"), {
            ok: stryMutAct_9fa48("1821") ? false : (stryCov_9fa48("1821"), true),
            out
          });
        }
      } catch {
        if (stryMutAct_9fa48("1822")) {
          {}
        } else {
          stryCov_9fa48("1822");
          return this.locate(chunk, stryMutAct_9fa48("1823") ? true : (stryCov_9fa48("1823"), false));
        }
      }
    }
  }
  end(): DecodeResult {
    if (stryMutAct_9fa48("1824")) {
      {}
    } else {
      stryCov_9fa48("1824");
      try {
        if (stryMutAct_9fa48("1825")) {
          {}
        } else {
          stryCov_9fa48("1825");
          return stryMutAct_9fa48("1826") ? {} : (stryCov_9fa48("1826"), {
            ok: stryMutAct_9fa48("1827") ? false : (stryCov_9fa48("1827"), true),
            out: this.decoder.decode()
          });
        }
      } catch {
        if (stryMutAct_9fa48("1828")) {
          {}
        } else {
          stryCov_9fa48("1828");
          return this.locate(new Uint8Array(0), stryMutAct_9fa48("1829") ? false : (stryCov_9fa48("1829"), true));
        }
      }
    }
  }

  /** Finds the first bad code unit in the held bytes plus `chunk`. */
  private locate(chunk: Uint8Array, atEnd: boolean): DecodeResult {
    if (stryMutAct_9fa48("1830")) {
      {}
    } else {
      stryCov_9fa48("1830");
      const held = stryMutAct_9fa48("1831") ? this.fed + 2 * this.units : (stryCov_9fa48("1831"), this.fed - (stryMutAct_9fa48("1832") ? 2 / this.units : (stryCov_9fa48("1832"), 2 * this.units)));
      const bytes = concat(this.tail.subarray(stryMutAct_9fa48("1833") ? this.tail.length + held : (stryCov_9fa48("1833"), this.tail.length - held)), chunk);
      const le = stryMutAct_9fa48("1836") ? this.encoding !== "utf-16le" : stryMutAct_9fa48("1835") ? false : stryMutAct_9fa48("1834") ? true : (stryCov_9fa48("1834", "1835", "1836"), this.encoding === (stryMutAct_9fa48("1837") ? "" : (stryCov_9fa48("1837"), "utf-16le")));
      const unit = stryMutAct_9fa48("1838") ? () => undefined : (stryCov_9fa48("1838"), (() => {
        const unit = (i: number): number => le ? bytes[i]! | bytes[stryMutAct_9fa48("1839") ? i - 1 : (stryCov_9fa48("1839"), i + 1)]! << 8 : bytes[i]! << 8 | bytes[stryMutAct_9fa48("1840") ? i - 1 : (stryCov_9fa48("1840"), i + 1)]!;
        return unit;
      })());
      let i = 0;
      let what = stryMutAct_9fa48("1841") ? "" : (stryCov_9fa48("1841"), "an odd number of bytes (a character cut off by the end of the file)");
      for (; stryMutAct_9fa48("1844") ? i + 1 >= bytes.length : stryMutAct_9fa48("1843") ? i + 1 <= bytes.length : stryMutAct_9fa48("1842") ? false : (stryCov_9fa48("1842", "1843", "1844"), (stryMutAct_9fa48("1845") ? i - 1 : (stryCov_9fa48("1845"), i + 1)) < bytes.length); stryMutAct_9fa48("1846") ? i -= 2 : (stryCov_9fa48("1846"), i += 2)) {
        if (stryMutAct_9fa48("1847")) {
          {}
        } else {
          stryCov_9fa48("1847");
          const u = unit(i);
          if (stryMutAct_9fa48("1850") ? u >= 0xdc00 || u <= 0xdfff : stryMutAct_9fa48("1849") ? false : stryMutAct_9fa48("1848") ? true : (stryCov_9fa48("1848", "1849", "1850"), (stryMutAct_9fa48("1853") ? u < 0xdc00 : stryMutAct_9fa48("1852") ? u > 0xdc00 : stryMutAct_9fa48("1851") ? true : (stryCov_9fa48("1851", "1852", "1853"), u >= 0xdc00)) && (stryMutAct_9fa48("1856") ? u > 0xdfff : stryMutAct_9fa48("1855") ? u < 0xdfff : stryMutAct_9fa48("1854") ? true : (stryCov_9fa48("1854", "1855", "1856"), u <= 0xdfff)))) {
            if (stryMutAct_9fa48("1857")) {
              {}
            } else {
              stryCov_9fa48("1857");
              what = stryMutAct_9fa48("1858") ? `` : (stryCov_9fa48("1858"), `a lone low surrogate ${hex(u)}`);
              break;
            }
          }
          if (stryMutAct_9fa48("1861") ? u >= 0xd800 || u <= 0xdbff : stryMutAct_9fa48("1860") ? false : stryMutAct_9fa48("1859") ? true : (stryCov_9fa48("1859", "1860", "1861"), (stryMutAct_9fa48("1864") ? u < 0xd800 : stryMutAct_9fa48("1863") ? u > 0xd800 : stryMutAct_9fa48("1862") ? true : (stryCov_9fa48("1862", "1863", "1864"), u >= 0xd800)) && (stryMutAct_9fa48("1867") ? u > 0xdbff : stryMutAct_9fa48("1866") ? u < 0xdbff : stryMutAct_9fa48("1865") ? true : (stryCov_9fa48("1865", "1866", "1867"), u <= 0xdbff)))) {
            if (stryMutAct_9fa48("1868")) {
              {}
            } else {
              stryCov_9fa48("1868");
              if (stryMutAct_9fa48("1872") ? i + 3 >= bytes.length : stryMutAct_9fa48("1871") ? i + 3 <= bytes.length : stryMutAct_9fa48("1870") ? false : stryMutAct_9fa48("1869") ? true : (stryCov_9fa48("1869", "1870", "1871", "1872"), (stryMutAct_9fa48("1873") ? i - 3 : (stryCov_9fa48("1873"), i + 3)) < bytes.length)) {
                if (stryMutAct_9fa48("1874")) {
                  {}
                } else {
                  stryCov_9fa48("1874");
                  const next = unit(stryMutAct_9fa48("1875") ? i - 2 : (stryCov_9fa48("1875"), i + 2));
                  if (stryMutAct_9fa48("1878") ? next >= 0xdc00 || next <= 0xdfff : stryMutAct_9fa48("1877") ? false : stryMutAct_9fa48("1876") ? true : (stryCov_9fa48("1876", "1877", "1878"), (stryMutAct_9fa48("1881") ? next < 0xdc00 : stryMutAct_9fa48("1880") ? next > 0xdc00 : stryMutAct_9fa48("1879") ? true : (stryCov_9fa48("1879", "1880", "1881"), next >= 0xdc00)) && (stryMutAct_9fa48("1884") ? next > 0xdfff : stryMutAct_9fa48("1883") ? next < 0xdfff : stryMutAct_9fa48("1882") ? true : (stryCov_9fa48("1882", "1883", "1884"), next <= 0xdfff)))) {
                    if (stryMutAct_9fa48("1885")) {
                      {}
                    } else {
                      stryCov_9fa48("1885");
                      stryMutAct_9fa48("1886") ? i -= 2 : (stryCov_9fa48("1886"), i += 2);
                      continue;
                    }
                  }
                }
              } else if (stryMutAct_9fa48("1889") ? false : stryMutAct_9fa48("1888") ? true : stryMutAct_9fa48("1887") ? atEnd : (stryCov_9fa48("1887", "1888", "1889"), !atEnd)) continue;
              what = stryMutAct_9fa48("1890") ? `` : (stryCov_9fa48("1890"), `a lone high surrogate ${hex(u)}`);
              break;
            }
          }
        }
      }
      const out = new TextDecoder(this.encoding, stryMutAct_9fa48("1891") ? {} : (stryCov_9fa48("1891"), {
        ignoreBOM: stryMutAct_9fa48("1892") ? false : (stryCov_9fa48("1892"), true)
      })).decode(bytes.subarray(0, i));
      return stryMutAct_9fa48("1893") ? {} : (stryCov_9fa48("1893"), {
        ok: stryMutAct_9fa48("1894") ? true : (stryCov_9fa48("1894"), false),
        out,
        offset: stryMutAct_9fa48("1895") ? this.base + 2 * this.units - i : (stryCov_9fa48("1895"), (stryMutAct_9fa48("1896") ? this.base - 2 * this.units : (stryCov_9fa48("1896"), this.base + (stryMutAct_9fa48("1897") ? 2 / this.units : (stryCov_9fa48("1897"), 2 * this.units)))) + i),
        exact: stryMutAct_9fa48("1898") ? false : (stryCov_9fa48("1898"), true),
        what
      });
    }
  }
}

/** Any other encoding TextDecoder knows (streaming, fatal); a failure is located to its chunk. */
class GenericDecoder implements StreamDecoder {
  private readonly decoder: TextDecoder;
  private fed = 0;
  constructor(readonly encoding: string, private readonly base: number) {
    if (stryMutAct_9fa48("1899")) {
      {}
    } else {
      stryCov_9fa48("1899");
      this.decoder = new TextDecoder(encoding, stryMutAct_9fa48("1900") ? {} : (stryCov_9fa48("1900"), {
        fatal: stryMutAct_9fa48("1901") ? false : (stryCov_9fa48("1901"), true),
        ignoreBOM: stryMutAct_9fa48("1902") ? false : (stryCov_9fa48("1902"), true)
      }));
    }
  }
  push(chunk: Uint8Array): DecodeResult {
    if (stryMutAct_9fa48("1903")) {
      {}
    } else {
      stryCov_9fa48("1903");
      try {
        if (stryMutAct_9fa48("1904")) {
          {}
        } else {
          stryCov_9fa48("1904");
          const out = this.decoder.decode(chunk, stryMutAct_9fa48("1905") ? {} : (stryCov_9fa48("1905"), {
            stream: stryMutAct_9fa48("1906") ? false : (stryCov_9fa48("1906"), true)
          }));
          stryMutAct_9fa48("1907") ? this.fed -= chunk.length : (stryCov_9fa48("1907"), this.fed += chunk.length);
          return stryMutAct_9fa48("1908") ? {} : (stryCov_9fa48("1908"), {
            ok: stryMutAct_9fa48("1909") ? false : (stryCov_9fa48("1909"), true),
            out
          });
        }
      } catch {
        if (stryMutAct_9fa48("1910")) {
          {}
        } else {
          stryCov_9fa48("1910");
          return stryMutAct_9fa48("1911") ? {} : (stryCov_9fa48("1911"), {
            ok: stryMutAct_9fa48("1912") ? true : (stryCov_9fa48("1912"), false),
            out: stryMutAct_9fa48("1913") ? "Stryker was here!" : (stryCov_9fa48("1913"), ""),
            offset: stryMutAct_9fa48("1914") ? this.base - this.fed : (stryCov_9fa48("1914"), this.base + this.fed),
            exact: stryMutAct_9fa48("1915") ? true : (stryCov_9fa48("1915"), false),
            what: stryMutAct_9fa48("1916") ? "" : (stryCov_9fa48("1916"), "a byte sequence that is not valid")
          });
        }
      }
    }
  }
  end(): DecodeResult {
    if (stryMutAct_9fa48("1917")) {
      {}
    } else {
      stryCov_9fa48("1917");
      try {
        if (stryMutAct_9fa48("1918")) {
          {}
        } else {
          stryCov_9fa48("1918");
          return stryMutAct_9fa48("1919") ? {} : (stryCov_9fa48("1919"), {
            ok: stryMutAct_9fa48("1920") ? false : (stryCov_9fa48("1920"), true),
            out: this.decoder.decode()
          });
        }
      } catch {
        if (stryMutAct_9fa48("1921")) {
          {}
        } else {
          stryCov_9fa48("1921");
          return stryMutAct_9fa48("1922") ? {} : (stryCov_9fa48("1922"), {
            ok: stryMutAct_9fa48("1923") ? true : (stryCov_9fa48("1923"), false),
            out: stryMutAct_9fa48("1924") ? "Stryker was here!" : (stryCov_9fa48("1924"), ""),
            offset: stryMutAct_9fa48("1925") ? this.base - this.fed : (stryCov_9fa48("1925"), this.base + this.fed),
            exact: stryMutAct_9fa48("1926") ? true : (stryCov_9fa48("1926"), false),
            what: stryMutAct_9fa48("1927") ? "" : (stryCov_9fa48("1927"), "a character cut off by the end of the file")
          });
        }
      }
    }
  }
}
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (stryMutAct_9fa48("1928")) {
    {}
  } else {
    stryCov_9fa48("1928");
    if (stryMutAct_9fa48("1931") ? a.length !== 0 : stryMutAct_9fa48("1930") ? false : stryMutAct_9fa48("1929") ? true : (stryCov_9fa48("1929", "1930", "1931"), a.length === 0)) return b;
    if (stryMutAct_9fa48("1934") ? b.length !== 0 : stryMutAct_9fa48("1933") ? false : stryMutAct_9fa48("1932") ? true : (stryCov_9fa48("1932", "1933", "1934"), b.length === 0)) return a;
    const out = new Uint8Array(stryMutAct_9fa48("1935") ? a.length - b.length : (stryCov_9fa48("1935"), a.length + b.length));
    out.set(a, 0);
    out.set(b, a.length);
    return out;
  }
}