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
import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";
import type { Cell } from "../domain/records.js";

// `-o xlsx` (docs/cli-contract.md, Global options `-o`): a real workbook written with
// exceljs' streaming WorkbookWriter, so a million report records never sit in memory. This
// module is imported only for the xlsx format: exceljs and its zip stack cost start-up
// time that `--help` and `token` must not pay.
//
// - the header row is bold, frozen (it stays on screen while scrolling) and carries an
//   auto-filter over every column;
// - numbers are number cells; ISO dates (`2026-10-01`) and timestamps
//   (`2026-10-01T08:30:00Z`) are date cells, timestamps in UTC (a workbook has no time
//   zones); booleans are boolean cells; everything else is a string cell. A string is never
//   a formula (exceljs writes formulas only from `{ formula }` values), so the CSV's `'`
//   guard is not needed and the text stays exactly as the service sent it;
// - columns are the flattened dotted names, as in CSV.

/** Where the workbook's bytes go (an OutputSink: stdout is refused earlier, see Context.format). */
export interface BinarySink {
  write(chunk: Uint8Array): Promise<void>;
}
export interface XlsxSheet {
  /** The header row; call once, before the first row. */
  header(columns: readonly string[]): Promise<void>;
  row(cells: readonly (Cell | undefined)[]): Promise<void>;
  /** Completes the sheet (auto-filter, closing tags). */
  end(): Promise<void>;
}
export interface XlsxWorkbook {
  /** Sheets are written one after the other: end the previous one first. */
  addSheet(name: string): XlsxSheet;
  /** Completes the workbook and waits until the sink has every byte. */
  commit(): Promise<void>;
  /** Stops without completing (the caller discards the file). */
  abort(): void;
}
const ISO_DATE = stryMutAct_9fa48("7407") ? /^(\d{4})-(\d{2})-(\D{2})$/ : stryMutAct_9fa48("7406") ? /^(\d{4})-(\d{2})-(\d)$/ : stryMutAct_9fa48("7405") ? /^(\d{4})-(\D{2})-(\d{2})$/ : stryMutAct_9fa48("7404") ? /^(\d{4})-(\d)-(\d{2})$/ : stryMutAct_9fa48("7403") ? /^(\D{4})-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("7402") ? /^(\d)-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("7401") ? /^(\d{4})-(\d{2})-(\d{2})/ : stryMutAct_9fa48("7400") ? /(\d{4})-(\d{2})-(\d{2})$/ : (stryCov_9fa48("7400", "7401", "7402", "7403", "7404", "7405", "7406", "7407"), /^(\d{4})-(\d{2})-(\d{2})$/);
const ISO_TIMESTAMP = stryMutAct_9fa48("7433") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\D{2})?$/ : stryMutAct_9fa48("7432") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d)?$/ : stryMutAct_9fa48("7431") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?$/ : stryMutAct_9fa48("7430") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\D{2}:?\d{2})?$/ : stryMutAct_9fa48("7429") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d:?\d{2})?$/ : stryMutAct_9fa48("7428") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[^+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7427") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/ : stryMutAct_9fa48("7426") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\D{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7425") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d)?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7424") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9}))?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7423") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\D{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7422") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7421") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7420") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\D{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7419") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7418") ? /^\d{4}-\d{2}-\d{2}[T ]\D{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7417") ? /^\d{4}-\d{2}-\d{2}[T ]\d:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7416") ? /^\d{4}-\d{2}-\d{2}[^T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7415") ? /^\d{4}-\d{2}-\D{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7414") ? /^\d{4}-\d{2}-\d[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7413") ? /^\d{4}-\D{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7412") ? /^\d{4}-\d-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7411") ? /^\D{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7410") ? /^\d-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : stryMutAct_9fa48("7409") ? /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?/ : stryMutAct_9fa48("7408") ? /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/ : (stryCov_9fa48("7408", "7409", "7410", "7411", "7412", "7413", "7414", "7415", "7416", "7417", "7418", "7419", "7420", "7421", "7422", "7423", "7424", "7425", "7426", "7427", "7428", "7429", "7430", "7431", "7432", "7433"), /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/);
const DATE_FORMAT = stryMutAct_9fa48("7434") ? "" : (stryCov_9fa48("7434"), "yyyy-mm-dd");
const TIMESTAMP_FORMAT = stryMutAct_9fa48("7435") ? "" : (stryCov_9fa48("7435"), "yyyy-mm-dd hh:mm:ss");
// One style object per kind of cell, shared by every cell of that kind: exceljs caches the
// style id per object, so a fresh style per cell (its default) cost most of an export's time.
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
const DATE_STYLE: Partial<ExcelJS.Style> = stryMutAct_9fa48("7436") ? {} : (stryCov_9fa48("7436"), {
  numFmt: DATE_FORMAT
});
const TIMESTAMP_STYLE: Partial<ExcelJS.Style> = stryMutAct_9fa48("7437") ? {} : (stryCov_9fa48("7437"), {
  numFmt: TIMESTAMP_FORMAT
});
const HEADER_STYLE: Partial<ExcelJS.Style> = stryMutAct_9fa48("7438") ? {} : (stryCov_9fa48("7438"), {
  font: stryMutAct_9fa48("7439") ? {} : (stryCov_9fa48("7439"), {
    bold: stryMutAct_9fa48("7440") ? false : (stryCov_9fa48("7440"), true)
  })
});

/** A date cell for an ISO date or timestamp string; undefined for anything else (2026-02-30 included). */
export function isoDateValue(text: string): {
  date: Date;
  numFmt: string;
} | undefined {
  if (stryMutAct_9fa48("7441")) {
    {}
  } else {
    stryCov_9fa48("7441");
    const day = ISO_DATE.exec(text);
    if (stryMutAct_9fa48("7443") ? false : stryMutAct_9fa48("7442") ? true : (stryCov_9fa48("7442", "7443"), day)) {
      if (stryMutAct_9fa48("7444")) {
        {}
      } else {
        stryCov_9fa48("7444");
        const [year, month, date] = stryMutAct_9fa48("7445") ? [] : (stryCov_9fa48("7445"), [Number(day[1]), Number(day[2]), Number(day[3])]);
        const value = new Date(Date.UTC(year, stryMutAct_9fa48("7446") ? month + 1 : (stryCov_9fa48("7446"), month - 1), date));
        // Date.UTC rolls 2026-02-30 over to March: not a real date, so it stays text.
        if (stryMutAct_9fa48("7449") ? (value.getUTCFullYear() !== year || value.getUTCMonth() !== month - 1) && value.getUTCDate() !== date : stryMutAct_9fa48("7448") ? false : stryMutAct_9fa48("7447") ? true : (stryCov_9fa48("7447", "7448", "7449"), (stryMutAct_9fa48("7451") ? value.getUTCFullYear() !== year && value.getUTCMonth() !== month - 1 : stryMutAct_9fa48("7450") ? false : (stryCov_9fa48("7450", "7451"), (stryMutAct_9fa48("7453") ? value.getUTCFullYear() === year : stryMutAct_9fa48("7452") ? false : (stryCov_9fa48("7452", "7453"), value.getUTCFullYear() !== year)) || (stryMutAct_9fa48("7455") ? value.getUTCMonth() === month - 1 : stryMutAct_9fa48("7454") ? false : (stryCov_9fa48("7454", "7455"), value.getUTCMonth() !== (stryMutAct_9fa48("7456") ? month + 1 : (stryCov_9fa48("7456"), month - 1)))))) || (stryMutAct_9fa48("7458") ? value.getUTCDate() === date : stryMutAct_9fa48("7457") ? false : (stryCov_9fa48("7457", "7458"), value.getUTCDate() !== date)))) return undefined;
        return stryMutAct_9fa48("7459") ? {} : (stryCov_9fa48("7459"), {
          date: value,
          numFmt: DATE_FORMAT
        });
      }
    }
    if (stryMutAct_9fa48("7462") ? false : stryMutAct_9fa48("7461") ? true : stryMutAct_9fa48("7460") ? ISO_TIMESTAMP.test(text) : (stryCov_9fa48("7460", "7461", "7462"), !ISO_TIMESTAMP.test(text))) return undefined;
    // Without an offset the time is read as UTC, as the service's timestamps are.
    const zoned = (stryMutAct_9fa48("7469") ? /(?:Z|[+-]\d{2}:?\D{2})$/ : stryMutAct_9fa48("7468") ? /(?:Z|[+-]\d{2}:?\d)$/ : stryMutAct_9fa48("7467") ? /(?:Z|[+-]\d{2}:\d{2})$/ : stryMutAct_9fa48("7466") ? /(?:Z|[+-]\D{2}:?\d{2})$/ : stryMutAct_9fa48("7465") ? /(?:Z|[+-]\d:?\d{2})$/ : stryMutAct_9fa48("7464") ? /(?:Z|[^+-]\d{2}:?\d{2})$/ : stryMutAct_9fa48("7463") ? /(?:Z|[+-]\d{2}:?\d{2})/ : (stryCov_9fa48("7463", "7464", "7465", "7466", "7467", "7468", "7469"), /(?:Z|[+-]\d{2}:?\d{2})$/)).test(text) ? text : stryMutAct_9fa48("7470") ? `` : (stryCov_9fa48("7470"), `${text}Z`);
    const ms = Date.parse(zoned.replace(stryMutAct_9fa48("7471") ? "" : (stryCov_9fa48("7471"), " "), stryMutAct_9fa48("7472") ? "" : (stryCov_9fa48("7472"), "T")).replace(stryMutAct_9fa48("7478") ? /([+-]\d{2})(\D{2})$/ : stryMutAct_9fa48("7477") ? /([+-]\d{2})(\d)$/ : stryMutAct_9fa48("7476") ? /([+-]\D{2})(\d{2})$/ : stryMutAct_9fa48("7475") ? /([+-]\d)(\d{2})$/ : stryMutAct_9fa48("7474") ? /([^+-]\d{2})(\d{2})$/ : stryMutAct_9fa48("7473") ? /([+-]\d{2})(\d{2})/ : (stryCov_9fa48("7473", "7474", "7475", "7476", "7477", "7478"), /([+-]\d{2})(\d{2})$/), stryMutAct_9fa48("7479") ? "" : (stryCov_9fa48("7479"), "$1:$2")));
    if (stryMutAct_9fa48("7482") ? Number.isNaN(ms) && isoDateValue(text.slice(0, 10)) === undefined : stryMutAct_9fa48("7481") ? false : stryMutAct_9fa48("7480") ? true : (stryCov_9fa48("7480", "7481", "7482"), Number.isNaN(ms) || (stryMutAct_9fa48("7484") ? isoDateValue(text.slice(0, 10)) !== undefined : stryMutAct_9fa48("7483") ? false : (stryCov_9fa48("7483", "7484"), isoDateValue(stryMutAct_9fa48("7485") ? text : (stryCov_9fa48("7485"), text.slice(0, 10))) === undefined)))) return undefined;
    return stryMutAct_9fa48("7486") ? {} : (stryCov_9fa48("7486"), {
      date: new Date(ms),
      numFmt: TIMESTAMP_FORMAT
    });
  }
}

// XML 1.0 cannot carry these; exceljs would drop them silently. Made visible instead, as
// everywhere else service text is shown (sanitize.ts).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_INVALID = stryMutAct_9fa48("7487") ? /[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g : (stryCov_9fa48("7487"), /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g);
function cellValue(cell: Cell | undefined): {
  value: ExcelJS.CellValue;
  style: Partial<ExcelJS.Style>;
} {
  if (stryMutAct_9fa48("7488")) {
    {}
  } else {
    stryCov_9fa48("7488");
    if (stryMutAct_9fa48("7491") ? cell === null && cell === undefined : stryMutAct_9fa48("7490") ? false : stryMutAct_9fa48("7489") ? true : (stryCov_9fa48("7489", "7490", "7491"), (stryMutAct_9fa48("7493") ? cell !== null : stryMutAct_9fa48("7492") ? false : (stryCov_9fa48("7492", "7493"), cell === null)) || (stryMutAct_9fa48("7495") ? cell !== undefined : stryMutAct_9fa48("7494") ? false : (stryCov_9fa48("7494", "7495"), cell === undefined)))) return stryMutAct_9fa48("7496") ? {} : (stryCov_9fa48("7496"), {
      value: null,
      style: PLAIN_STYLE
    });
    if (stryMutAct_9fa48("7499") ? typeof cell !== "number" : stryMutAct_9fa48("7498") ? false : stryMutAct_9fa48("7497") ? true : (stryCov_9fa48("7497", "7498", "7499"), typeof cell === (stryMutAct_9fa48("7500") ? "" : (stryCov_9fa48("7500"), "number")))) return stryMutAct_9fa48("7501") ? {} : (stryCov_9fa48("7501"), {
      value: Number.isFinite(cell) ? cell : String(cell),
      style: PLAIN_STYLE
    });
    if (stryMutAct_9fa48("7504") ? typeof cell !== "boolean" : stryMutAct_9fa48("7503") ? false : stryMutAct_9fa48("7502") ? true : (stryCov_9fa48("7502", "7503", "7504"), typeof cell === (stryMutAct_9fa48("7505") ? "" : (stryCov_9fa48("7505"), "boolean")))) return stryMutAct_9fa48("7506") ? {} : (stryCov_9fa48("7506"), {
      value: cell,
      style: PLAIN_STYLE
    });
    const date = (stryMutAct_9fa48("7510") ? cell.length > 35 : stryMutAct_9fa48("7509") ? cell.length < 35 : stryMutAct_9fa48("7508") ? false : stryMutAct_9fa48("7507") ? true : (stryCov_9fa48("7507", "7508", "7509", "7510"), cell.length <= 35)) ? isoDateValue(cell) : undefined;
    if (stryMutAct_9fa48("7512") ? false : stryMutAct_9fa48("7511") ? true : (stryCov_9fa48("7511", "7512"), date)) return stryMutAct_9fa48("7513") ? {} : (stryCov_9fa48("7513"), {
      value: date.date,
      style: (stryMutAct_9fa48("7516") ? date.numFmt !== DATE_FORMAT : stryMutAct_9fa48("7515") ? false : stryMutAct_9fa48("7514") ? true : (stryCov_9fa48("7514", "7515", "7516"), date.numFmt === DATE_FORMAT)) ? DATE_STYLE : TIMESTAMP_STYLE
    });
    return stryMutAct_9fa48("7517") ? {} : (stryCov_9fa48("7517"), {
      value: cell.replace(XML_INVALID, stryMutAct_9fa48("7518") ? () => undefined : (stryCov_9fa48("7518"), ch => stryMutAct_9fa48("7519") ? `` : (stryCov_9fa48("7519"), `\\u${ch.charCodeAt(0).toString(16).padStart(4, stryMutAct_9fa48("7520") ? "" : (stryCov_9fa48("7520"), "0"))}`))),
      style: PLAIN_STYLE
    });
  }
}

/** Excel's sheet-name rules: at most 31 characters, none of `[]:*?/\`, not empty. */
export function sheetName(name: string): string {
  if (stryMutAct_9fa48("7521")) {
    {}
  } else {
    stryCov_9fa48("7521");
    const cleaned = stryMutAct_9fa48("7523") ? name.replace(/[[\]:*?/\\]/g, "_").trim() : stryMutAct_9fa48("7522") ? name.replace(/[[\]:*?/\\]/g, "_").slice(0, 31) : (stryCov_9fa48("7522", "7523"), name.replace(stryMutAct_9fa48("7524") ? /[^[\]:*?/\\]/g : (stryCov_9fa48("7524"), /[[\]:*?/\\]/g), stryMutAct_9fa48("7525") ? "" : (stryCov_9fa48("7525"), "_")).slice(0, 31).trim());
    return (stryMutAct_9fa48("7528") ? cleaned !== "" : stryMutAct_9fa48("7527") ? false : stryMutAct_9fa48("7526") ? true : (stryCov_9fa48("7526", "7527", "7528"), cleaned === (stryMutAct_9fa48("7529") ? "Stryker was here!" : (stryCov_9fa48("7529"), "")))) ? stryMutAct_9fa48("7530") ? "" : (stryCov_9fa48("7530"), "Sheet1") : cleaned;
  }
}
const WIDEST_COLUMN = 60;
/** How much of the sheet's XML may wait for the zip before rows pause (measured: a million rows stay < 250 MiB). */
const MAX_BACKLOG = stryMutAct_9fa48("7531") ? 4 * 1024 / 1024 : (stryCov_9fa48("7531"), (stryMutAct_9fa48("7532") ? 4 / 1024 : (stryCov_9fa48("7532"), 4 * 1024)) * 1024);

/** exceljs' StreamBuf (utils/stream-buf.js), the sheet's XML on its way into the zip: internals read, not changed. */
interface SheetStream {
  buffers?: {
    length: number;
  }[];
  /**
   * archiver wraps the StreamBuf in a PassThrough (readable-stream 2, which has no
   * writableLength/readableLength getters) that buffers whatever deflate has not taken yet.
   */
  pipes?: {
    _writableState?: {
      length?: number;
    };
    _readableState?: {
      length?: number;
    };
  }[];
}

/**
 * exceljs does not apply backpressure: the sheet's XML piles up in its buffers (and in the
 * zip entry's) whenever rows come faster than deflate and the disk take them. Rows wait
 * here until the backlog is below MAX_BACKLOG, so a long export streams in bounded memory.
 */
async function drain(sheet: ExcelJS.Worksheet, out: PassThrough, failed: () => Error | undefined): Promise<void> {
  if (stryMutAct_9fa48("7533")) {
    {}
  } else {
    stryCov_9fa48("7533");
    const stream = (sheet as unknown as {
      stream?: SheetStream;
    }).stream;
    const backlog = stryMutAct_9fa48("7534") ? () => undefined : (stryCov_9fa48("7534"), (() => {
      const backlog = (): number => stryMutAct_9fa48("7535") ? (stream?.buffers ?? []).reduce((sum, buffer) => sum + buffer.length, 0) + (stream?.pipes ?? []).reduce((sum, pipe) => sum + (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0), 0) - out.readableLength : (stryCov_9fa48("7535"), (stryMutAct_9fa48("7536") ? (stream?.buffers ?? []).reduce((sum, buffer) => sum + buffer.length, 0) - (stream?.pipes ?? []).reduce((sum, pipe) => sum + (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0), 0) : (stryCov_9fa48("7536"), (stryMutAct_9fa48("7537") ? stream?.buffers && [] : (stryCov_9fa48("7537"), (stryMutAct_9fa48("7538") ? stream.buffers : (stryCov_9fa48("7538"), stream?.buffers)) ?? (stryMutAct_9fa48("7539") ? ["Stryker was here"] : (stryCov_9fa48("7539"), [])))).reduce(stryMutAct_9fa48("7540") ? () => undefined : (stryCov_9fa48("7540"), (sum, buffer) => stryMutAct_9fa48("7541") ? sum - buffer.length : (stryCov_9fa48("7541"), sum + buffer.length)), 0) + (stryMutAct_9fa48("7542") ? stream?.pipes && [] : (stryCov_9fa48("7542"), (stryMutAct_9fa48("7543") ? stream.pipes : (stryCov_9fa48("7543"), stream?.pipes)) ?? (stryMutAct_9fa48("7544") ? ["Stryker was here"] : (stryCov_9fa48("7544"), [])))).reduce(stryMutAct_9fa48("7545") ? () => undefined : (stryCov_9fa48("7545"), (sum, pipe) => stryMutAct_9fa48("7546") ? sum + (pipe._writableState?.length ?? 0) - (pipe._readableState?.length ?? 0) : (stryCov_9fa48("7546"), (stryMutAct_9fa48("7547") ? sum - (pipe._writableState?.length ?? 0) : (stryCov_9fa48("7547"), sum + (stryMutAct_9fa48("7548") ? pipe._writableState?.length && 0 : (stryCov_9fa48("7548"), (stryMutAct_9fa48("7549") ? pipe._writableState.length : (stryCov_9fa48("7549"), pipe._writableState?.length)) ?? 0)))) + (stryMutAct_9fa48("7550") ? pipe._readableState?.length && 0 : (stryCov_9fa48("7550"), (stryMutAct_9fa48("7551") ? pipe._readableState.length : (stryCov_9fa48("7551"), pipe._readableState?.length)) ?? 0)))), 0))) + out.readableLength);
      return backlog;
    })());
    while (stryMutAct_9fa48("7554") ? backlog() <= MAX_BACKLOG : stryMutAct_9fa48("7553") ? backlog() >= MAX_BACKLOG : stryMutAct_9fa48("7552") ? false : (stryCov_9fa48("7552", "7553", "7554"), backlog() > MAX_BACKLOG)) {
      if (stryMutAct_9fa48("7555")) {
        {}
      } else {
        stryCov_9fa48("7555");
        // The output failed (disk full, a closed pipe): nothing will drain any more.
        const failure = failed();
        if (stryMutAct_9fa48("7557") ? false : stryMutAct_9fa48("7556") ? true : (stryCov_9fa48("7556", "7557"), failure)) throw failure;
        await new Promise<void>(stryMutAct_9fa48("7558") ? () => undefined : (stryCov_9fa48("7558"), resolve => setTimeout(resolve, 2)));
      }
    }
  }
}
export async function openXlsxWorkbook(sink: BinarySink): Promise<XlsxWorkbook> {
  if (stryMutAct_9fa48("7559")) {
    {}
  } else {
    stryCov_9fa48("7559");
    const {
      default: excel
    } = (await import("exceljs")) as unknown as {
      default: typeof ExcelJS;
    };
    const out = new PassThrough();
    const workbook = new excel.stream.xlsx.WorkbookWriter(stryMutAct_9fa48("7560") ? {} : (stryCov_9fa48("7560"), {
      stream: out,
      useStyles: stryMutAct_9fa48("7561") ? false : (stryCov_9fa48("7561"), true),
      useSharedStrings: stryMutAct_9fa48("7562") ? true : (stryCov_9fa48("7562"), false)
    }));
    const pumped = (async () => {
      if (stryMutAct_9fa48("7563")) {
        {}
      } else {
        stryCov_9fa48("7563");
        for await (const chunk of out as AsyncIterable<Uint8Array>) await sink.write(chunk);
      }
    })();
    let failure: Error | undefined;
    pumped.catch((error: unknown) => {
      if (stryMutAct_9fa48("7564")) {
        {}
      } else {
        stryCov_9fa48("7564");
        failure = error instanceof Error ? error : new Error(stryMutAct_9fa48("7565") ? `` : (stryCov_9fa48("7565"), `xlsx output failed: ${String(error)}`));
      }
    });
    let written = 0;
    return stryMutAct_9fa48("7566") ? {} : (stryCov_9fa48("7566"), {
      addSheet(name: string): XlsxSheet {
        if (stryMutAct_9fa48("7567")) {
          {}
        } else {
          stryCov_9fa48("7567");
          const sheet = workbook.addWorksheet(sheetName(name), stryMutAct_9fa48("7568") ? {} : (stryCov_9fa48("7568"), {
            views: stryMutAct_9fa48("7569") ? [] : (stryCov_9fa48("7569"), [stryMutAct_9fa48("7570") ? {} : (stryCov_9fa48("7570"), {
              state: stryMutAct_9fa48("7571") ? "" : (stryCov_9fa48("7571"), "frozen"),
              ySplit: 1
            })])
          }));
          let width = 0;
          return stryMutAct_9fa48("7572") ? {} : (stryCov_9fa48("7572"), {
            async header(columns) {
              if (stryMutAct_9fa48("7573")) {
                {}
              } else {
                stryCov_9fa48("7573");
                width = columns.length;
                // Widths from the header names: a reader sees each name whole without resizing.
                sheet.columns = columns.map(stryMutAct_9fa48("7574") ? () => undefined : (stryCov_9fa48("7574"), column => stryMutAct_9fa48("7575") ? {} : (stryCov_9fa48("7575"), {
                  width: stryMutAct_9fa48("7576") ? Math.max(WIDEST_COLUMN, Math.max(10, column.length + 2)) : (stryCov_9fa48("7576"), Math.min(WIDEST_COLUMN, stryMutAct_9fa48("7577") ? Math.min(10, column.length + 2) : (stryCov_9fa48("7577"), Math.max(10, stryMutAct_9fa48("7578") ? column.length - 2 : (stryCov_9fa48("7578"), column.length + 2)))))
                })));
                const row = sheet.addRow(stryMutAct_9fa48("7579") ? ["Stryker was here"] : (stryCov_9fa48("7579"), []));
                columns.forEach((column, i) => {
                  if (stryMutAct_9fa48("7580")) {
                    {}
                  } else {
                    stryCov_9fa48("7580");
                    const cell = row.getCell(stryMutAct_9fa48("7581") ? i - 1 : (stryCov_9fa48("7581"), i + 1));
                    cell.value = column;
                    cell.style = HEADER_STYLE;
                  }
                });
                row.commit();
                if (stryMutAct_9fa48("7585") ? width <= 0 : stryMutAct_9fa48("7584") ? width >= 0 : stryMutAct_9fa48("7583") ? false : stryMutAct_9fa48("7582") ? true : (stryCov_9fa48("7582", "7583", "7584", "7585"), width > 0)) sheet.autoFilter = stryMutAct_9fa48("7586") ? {} : (stryCov_9fa48("7586"), {
                  from: stryMutAct_9fa48("7587") ? {} : (stryCov_9fa48("7587"), {
                    row: 1,
                    column: 1
                  }),
                  to: stryMutAct_9fa48("7588") ? {} : (stryCov_9fa48("7588"), {
                    row: 1,
                    column: width
                  })
                });
              }
            },
            async row(cells) {
              if (stryMutAct_9fa48("7589")) {
                {}
              } else {
                stryCov_9fa48("7589");
                if (stryMutAct_9fa48("7592") ? failure === undefined : stryMutAct_9fa48("7591") ? false : stryMutAct_9fa48("7590") ? true : (stryCov_9fa48("7590", "7591", "7592"), failure !== undefined)) throw failure;
                const row = sheet.addRow(stryMutAct_9fa48("7593") ? ["Stryker was here"] : (stryCov_9fa48("7593"), []));
                for (let i = 0; stryMutAct_9fa48("7596") ? i >= cells.length : stryMutAct_9fa48("7595") ? i <= cells.length : stryMutAct_9fa48("7594") ? false : (stryCov_9fa48("7594", "7595", "7596"), i < cells.length); stryMutAct_9fa48("7597") ? i-- : (stryCov_9fa48("7597"), i++)) {
                  if (stryMutAct_9fa48("7598")) {
                    {}
                  } else {
                    stryCov_9fa48("7598");
                    const {
                      value,
                      style
                    } = cellValue(cells[i]);
                    if (stryMutAct_9fa48("7601") ? value !== null : stryMutAct_9fa48("7600") ? false : stryMutAct_9fa48("7599") ? true : (stryCov_9fa48("7599", "7600", "7601"), value === null)) continue;
                    const target = row.getCell(stryMutAct_9fa48("7602") ? i - 1 : (stryCov_9fa48("7602"), i + 1));
                    target.value = value;
                    target.style = style;
                  }
                }
                row.commit();
                if (stryMutAct_9fa48("7605") ? ++written % 500 !== 0 : stryMutAct_9fa48("7604") ? false : stryMutAct_9fa48("7603") ? true : (stryCov_9fa48("7603", "7604", "7605"), (stryMutAct_9fa48("7606") ? ++written * 500 : (stryCov_9fa48("7606"), (stryMutAct_9fa48("7607") ? --written : (stryCov_9fa48("7607"), ++written)) % 500)) === 0)) await drain(sheet, out, stryMutAct_9fa48("7608") ? () => undefined : (stryCov_9fa48("7608"), () => failure));
              }
            },
            async end() {
              if (stryMutAct_9fa48("7609")) {
                {}
              } else {
                stryCov_9fa48("7609");
                if (stryMutAct_9fa48("7612") ? failure === undefined : stryMutAct_9fa48("7611") ? false : stryMutAct_9fa48("7610") ? true : (stryCov_9fa48("7610", "7611", "7612"), failure !== undefined)) throw failure;
                // The sheet's closing XML goes to the zip; the next sheet may start at once.
                sheet.commit();
              }
            }
          });
        }
      },
      async commit() {
        if (stryMutAct_9fa48("7613")) {
          {}
        } else {
          stryCov_9fa48("7613");
          if (stryMutAct_9fa48("7616") ? failure === undefined : stryMutAct_9fa48("7615") ? false : stryMutAct_9fa48("7614") ? true : (stryCov_9fa48("7614", "7615", "7616"), failure !== undefined)) throw failure;
          await workbook.commit();
          await pumped;
        }
      },
      abort() {
        if (stryMutAct_9fa48("7617")) {
          {}
        } else {
          stryCov_9fa48("7617");
          out.destroy();
          pumped.catch(() => {});
        }
      }
    });
  }
}