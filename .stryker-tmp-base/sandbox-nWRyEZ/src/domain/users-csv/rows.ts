// @ts-nocheck
// The rules of one users-CSV row (docs/cli-contract.md "Users CSV", docs/service-spec.md §4.8), and of the
// header that gives the cells their meaning.
//
// Decisions, each forced by one goal: what we upload is what the service will accept, and
// anything doubtful is reported rather than guessed.
// - Header names are trimmed and matched ignoring case (issue 7); the upload always uses
//   the canonical spelling. A column named twice is a file error: which one would count?
// - Unknown extra columns are ignored with a warning, so an HR export with more columns
//   imports as-is; they are never uploaded. A column with an empty name (a trailing
//   delimiter) is ignored the same way.
// - Cell values are trimmed before checking, and the trimmed value is what gets uploaded:
//   surrounding spaces are export noise, and "a@x.com " vs "a@x.com" would otherwise fail
//   the service's exact username = email rule for no visible reason.
// - role, status and action must match exactly (`trainee`, `ACTIVE`/`INACTIVE`,
//   `Add`/`Update`): the service names exact values, and forgiving case here could only
//   mean uploading a value we changed behind the user's back. The message says so.
// - username must equal email exactly (case included), as the service demands.
// - Duplicate emails are found ignoring case (see email-index.ts); the later
//   row is the error and names the first. Every row with a non-empty email takes part,
//   valid or not: "one row per email in a file" is about the file.
// - A row whose cells are all empty (a blank line, or ";;;;;;;" from a spreadsheet) is no
//   user: it keeps its row number but is skipped, with one warning for all of them.
// - A row with the wrong number of cells gets that single problem: its cells may be
//   shifted, so checking them by column would only add noise.
// - A cell holding NUL or another control character (C0 but tab and line breaks, DEL, C1:
//   what a binary file or a wrong --encoding leaves) is that column's one problem, named
//   with its code point: such a value would arrive at the service garbled or invisible.
//   Only the eight known columns are checked; ignored columns are never uploaded.
// - firstName, lastName and teamName longer than 256 characters are rejected here, where
//   the row number is known, rather than by the service mid-import (issue 14).
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
import { excerpt } from "../csv-input/errors.js";
import { codePointName, findControlCharacter, type HeaderLayout, mapHeader } from "../csv-input/header.js";
import { unguardCsvCell } from "../../text/sanitize.js";
import { EmailIndex } from "./email-index.js";
import { type InvalidRow, type RowProblem, USER_COLUMNS, type UserColumn, type UserRow, WHOLE_ROW } from "./model.js";

/** Pragmatic address check: one @, a non-empty local part, a dotted domain, no spaces. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it rejects
const EMAIL = stryMutAct_9fa48("5098") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\S@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5097") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5096") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f])+$/ : stryMutAct_9fa48("5095") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)$/ : stryMutAct_9fa48("5094") ? /^[^\s@\x00-\x1f\x7f]+@[^\S@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5093") ? /^[^\s@\x00-\x1f\x7f]+@[\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5092") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f](?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5091") ? /^[^\S@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5090") ? /^[\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5089") ? /^[^\s@\x00-\x1f\x7f]@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : stryMutAct_9fa48("5088") ? /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+/ : stryMutAct_9fa48("5087") ? /[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/ : (stryCov_9fa48("5087", "5088", "5089", "5090", "5091", "5092", "5093", "5094", "5095", "5096", "5097", "5098"), /^[^\s@\x00-\x1f\x7f]+@[^\s@.\x00-\x1f\x7f]+(?:\.[^\s@.\x00-\x1f\x7f]+)+$/);
/** RFC 5321 path limit, less the angle brackets. */
const MAX_EMAIL_LENGTH = 254;
const REQUIRED = stryMutAct_9fa48("5099") ? "" : (stryCov_9fa48("5099"), "required but empty");
/** Longest firstName, lastName or teamName accepted, in characters (code points). */
export const MAX_NAME_LENGTH = 256;
/** USER_COLUMNS positions of the name columns. */
const NAME_COLUMNS = stryMutAct_9fa48("5100") ? [] : (stryCov_9fa48("5100"), [0, 1, 5]);

/** The address rule of the users CSV, shared with `users create --email`. */
export function isValidEmailAddress(email: string): boolean {
  if (stryMutAct_9fa48("5101")) {
    {}
  } else {
    stryCov_9fa48("5101");
    return stryMutAct_9fa48("5104") ? email.length <= MAX_EMAIL_LENGTH || EMAIL.test(email) : stryMutAct_9fa48("5103") ? false : stryMutAct_9fa48("5102") ? true : (stryCov_9fa48("5102", "5103", "5104"), (stryMutAct_9fa48("5107") ? email.length > MAX_EMAIL_LENGTH : stryMutAct_9fa48("5106") ? email.length < MAX_EMAIL_LENGTH : stryMutAct_9fa48("5105") ? true : (stryCov_9fa48("5105", "5106", "5107"), email.length <= MAX_EMAIL_LENGTH)) && EMAIL.test(email));
  }
}

/**
 * A users-CSV header. `errorsFile`: the file is a `<file>.errors.csv` we wrote (its header
 * ends with `row` and `errors`): those two columns are ignored and the formula guard is
 * undone on every cell, so a corrected errors file imports the original values exactly
 * (docs/cli-contract.md "Users CSV"; issue 12 item 7).
 */
export interface UsersHeaderLayout extends HeaderLayout {
  errorsFile: boolean;
}
export type { HeaderLayout } from "../csv-input/header.js";

/** Columns our errors file adds after the user's own. */
const ERRORS_FILE_COLUMNS = stryMutAct_9fa48("5108") ? [] : (stryCov_9fa48("5108"), [stryMutAct_9fa48("5109") ? "" : (stryCov_9fa48("5109"), "row"), stryMutAct_9fa48("5110") ? "" : (stryCov_9fa48("5110"), "errors")]);

/** Maps the header record to column positions, or explains why it cannot be used (see csv-input/header.ts). */
export function readHeader(cells: readonly string[], row: number): UsersHeaderLayout {
  if (stryMutAct_9fa48("5111")) {
    {}
  } else {
    stryCov_9fa48("5111");
    const tail = stryMutAct_9fa48("5112") ? cells.map(c => c.trim()) : (stryCov_9fa48("5112"), cells.slice(stryMutAct_9fa48("5113") ? +ERRORS_FILE_COLUMNS.length : (stryCov_9fa48("5113"), -ERRORS_FILE_COLUMNS.length)).map(stryMutAct_9fa48("5114") ? () => undefined : (stryCov_9fa48("5114"), c => stryMutAct_9fa48("5115") ? c : (stryCov_9fa48("5115"), c.trim()))));
    const errorsFile = stryMutAct_9fa48("5118") ? cells.length > ERRORS_FILE_COLUMNS.length || tail.every((name, i) => name === ERRORS_FILE_COLUMNS[i]) : stryMutAct_9fa48("5117") ? false : stryMutAct_9fa48("5116") ? true : (stryCov_9fa48("5116", "5117", "5118"), (stryMutAct_9fa48("5121") ? cells.length <= ERRORS_FILE_COLUMNS.length : stryMutAct_9fa48("5120") ? cells.length >= ERRORS_FILE_COLUMNS.length : stryMutAct_9fa48("5119") ? true : (stryCov_9fa48("5119", "5120", "5121"), cells.length > ERRORS_FILE_COLUMNS.length)) && (stryMutAct_9fa48("5122") ? tail.some((name, i) => name === ERRORS_FILE_COLUMNS[i]) : (stryCov_9fa48("5122"), tail.every(stryMutAct_9fa48("5123") ? () => undefined : (stryCov_9fa48("5123"), (name, i) => stryMutAct_9fa48("5126") ? name !== ERRORS_FILE_COLUMNS[i] : stryMutAct_9fa48("5125") ? false : stryMutAct_9fa48("5124") ? true : (stryCov_9fa48("5124", "5125", "5126"), name === ERRORS_FILE_COLUMNS[i]))))));
    if (stryMutAct_9fa48("5129") ? false : stryMutAct_9fa48("5128") ? true : stryMutAct_9fa48("5127") ? errorsFile : (stryCov_9fa48("5127", "5128", "5129"), !errorsFile)) return stryMutAct_9fa48("5130") ? {} : (stryCov_9fa48("5130"), {
      ...mapHeader(cells, row, USER_COLUMNS),
      errorsFile
    });
    const layout = mapHeader(stryMutAct_9fa48("5131") ? cells : (stryCov_9fa48("5131"), cells.slice(0, stryMutAct_9fa48("5132") ? +ERRORS_FILE_COLUMNS.length : (stryCov_9fa48("5132"), -ERRORS_FILE_COLUMNS.length))), row, USER_COLUMNS);
    return stryMutAct_9fa48("5133") ? {} : (stryCov_9fa48("5133"), {
      ...layout,
      columns: stryMutAct_9fa48("5134") ? [] : (stryCov_9fa48("5134"), [...layout.columns, ...ERRORS_FILE_COLUMNS]),
      width: cells.length,
      errorsFile
    });
  }
}
export type RowVerdict = "blank" | "valid" | "invalid";

/**
 * Checks data rows one at a time, in file order (duplicate detection depends on it).
 * Valid rows allocate nothing, which keeps pass 1 close to bare parsing speed.
 */
export class RowChecker {
  /** Absent when the caller already knows the duplicates (pass 2). */
  private readonly emails: EmailIndex | undefined;
  /** Problems of the last row judged invalid. */
  problems: RowProblem[] = stryMutAct_9fa48("5135") ? ["Stryker was here"] : (stryCov_9fa48("5135"), []);
  /** Trimmed values of the last row judged valid, in USER_COLUMNS order. */
  readonly values: string[] = (stryMutAct_9fa48("5136") ? new Array() : (stryCov_9fa48("5136"), new Array<string>(USER_COLUMNS.length))).fill(stryMutAct_9fa48("5137") ? "Stryker was here!" : (stryCov_9fa48("5137"), ""));
  constructor(readonly layout: UsersHeaderLayout, options: {
    detectDuplicates: boolean;
  } = stryMutAct_9fa48("5138") ? {} : (stryCov_9fa48("5138"), {
    detectDuplicates: stryMutAct_9fa48("5139") ? false : (stryCov_9fa48("5139"), true)
  })) {
    if (stryMutAct_9fa48("5140")) {
      {}
    } else {
      stryCov_9fa48("5140");
      this.emails = options.detectDuplicates ? new EmailIndex() : undefined;
    }
  }
  check(cells: readonly string[], row: number): RowVerdict {
    if (stryMutAct_9fa48("5141")) {
      {}
    } else {
      stryCov_9fa48("5141");
      const {
        positions,
        width,
        errorsFile
      } = this.layout;
      const values = this.values;
      let blank = stryMutAct_9fa48("5142") ? false : (stryCov_9fa48("5142"), true);
      for (let k = 0; stryMutAct_9fa48("5145") ? k >= USER_COLUMNS.length : stryMutAct_9fa48("5144") ? k <= USER_COLUMNS.length : stryMutAct_9fa48("5143") ? false : (stryCov_9fa48("5143", "5144", "5145"), k < USER_COLUMNS.length); stryMutAct_9fa48("5146") ? k-- : (stryCov_9fa48("5146"), k++)) {
        if (stryMutAct_9fa48("5147")) {
          {}
        } else {
          stryCov_9fa48("5147");
          const cell = stryMutAct_9fa48("5148") ? cells[positions[k]!] && "" : (stryCov_9fa48("5148"), cells[positions[k]!] ?? (stryMutAct_9fa48("5149") ? "Stryker was here!" : (stryCov_9fa48("5149"), "")));
          const v = stryMutAct_9fa48("5150") ? errorsFile ? unguardCsvCell(cell) : cell : (stryCov_9fa48("5150"), (errorsFile ? unguardCsvCell(cell) : cell).trim());
          values[k] = v;
          if (stryMutAct_9fa48("5153") ? v === "" : stryMutAct_9fa48("5152") ? false : stryMutAct_9fa48("5151") ? true : (stryCov_9fa48("5151", "5152", "5153"), v !== (stryMutAct_9fa48("5154") ? "Stryker was here!" : (stryCov_9fa48("5154"), "")))) blank = stryMutAct_9fa48("5155") ? true : (stryCov_9fa48("5155"), false);
        }
      }
      if (stryMutAct_9fa48("5158") ? blank || cells.every(c => c.trim() === "") : stryMutAct_9fa48("5157") ? false : stryMutAct_9fa48("5156") ? true : (stryCov_9fa48("5156", "5157", "5158"), blank && (stryMutAct_9fa48("5159") ? cells.some(c => c.trim() === "") : (stryCov_9fa48("5159"), cells.every(stryMutAct_9fa48("5160") ? () => undefined : (stryCov_9fa48("5160"), c => stryMutAct_9fa48("5163") ? c.trim() !== "" : stryMutAct_9fa48("5162") ? false : stryMutAct_9fa48("5161") ? true : (stryCov_9fa48("5161", "5162", "5163"), (stryMutAct_9fa48("5164") ? c : (stryCov_9fa48("5164"), c.trim())) === (stryMutAct_9fa48("5165") ? "Stryker was here!" : (stryCov_9fa48("5165"), ""))))))))) return stryMutAct_9fa48("5166") ? "" : (stryCov_9fa48("5166"), "blank");
      if (stryMutAct_9fa48("5169") ? cells.length === width : stryMutAct_9fa48("5168") ? false : stryMutAct_9fa48("5167") ? true : (stryCov_9fa48("5167", "5168", "5169"), cells.length !== width)) {
        if (stryMutAct_9fa48("5170")) {
          {}
        } else {
          stryCov_9fa48("5170");
          this.problems = stryMutAct_9fa48("5171") ? [] : (stryCov_9fa48("5171"), [stryMutAct_9fa48("5172") ? {} : (stryCov_9fa48("5172"), {
            row,
            field: WHOLE_ROW,
            message: stryMutAct_9fa48("5173") ? `` : (stryCov_9fa48("5173"), `has ${cells.length} cell${(stryMutAct_9fa48("5176") ? cells.length !== 1 : stryMutAct_9fa48("5175") ? false : stryMutAct_9fa48("5174") ? true : (stryCov_9fa48("5174", "5175", "5176"), cells.length === 1)) ? stryMutAct_9fa48("5177") ? "Stryker was here!" : (stryCov_9fa48("5177"), "") : stryMutAct_9fa48("5178") ? "" : (stryCov_9fa48("5178"), "s")}, expected ${width} like the header`)
          })]);
          return stryMutAct_9fa48("5179") ? "" : (stryCov_9fa48("5179"), "invalid");
        }
      }

      // Indexes follow USER_COLUMNS: firstName, lastName, username, email, role, teamName, status, action.
      this.found = undefined;
      // A column with a control character gets that problem alone (bit k set: column k is done).
      let done = 0;
      const controls = hasControlCharacter(values);
      for (let k = 0; stryMutAct_9fa48("5181") ? controls || k < USER_COLUMNS.length : stryMutAct_9fa48("5180") ? false : (stryCov_9fa48("5180", "5181"), controls && (stryMutAct_9fa48("5184") ? k >= USER_COLUMNS.length : stryMutAct_9fa48("5183") ? k <= USER_COLUMNS.length : stryMutAct_9fa48("5182") ? true : (stryCov_9fa48("5182", "5183", "5184"), k < USER_COLUMNS.length))); stryMutAct_9fa48("5185") ? k-- : (stryCov_9fa48("5185"), k++)) {
        if (stryMutAct_9fa48("5186")) {
          {}
        } else {
          stryCov_9fa48("5186");
          const at = findControlCharacter(values[k]!);
          if (stryMutAct_9fa48("5190") ? at >= 0 : stryMutAct_9fa48("5189") ? at <= 0 : stryMutAct_9fa48("5188") ? false : stryMutAct_9fa48("5187") ? true : (stryCov_9fa48("5187", "5188", "5189", "5190"), at < 0)) continue;
          stryMutAct_9fa48("5191") ? done &= 1 << k : (stryCov_9fa48("5191"), done |= 1 << k);
          this.report(row, USER_COLUMNS[k]!, stryMutAct_9fa48("5192") ? `` : (stryCov_9fa48("5192"), `contains the control character ${codePointName(values[k]!, at)} at position ${stryMutAct_9fa48("5193") ? at - 1 : (stryCov_9fa48("5193"), at + 1)}; remove it (or check --encoding)`));
        }
      }
      for (let n = 0; stryMutAct_9fa48("5196") ? n >= NAME_COLUMNS.length : stryMutAct_9fa48("5195") ? n <= NAME_COLUMNS.length : stryMutAct_9fa48("5194") ? false : (stryCov_9fa48("5194", "5195", "5196"), n < NAME_COLUMNS.length); stryMutAct_9fa48("5197") ? n-- : (stryCov_9fa48("5197"), n++)) {
        if (stryMutAct_9fa48("5198")) {
          {}
        } else {
          stryCov_9fa48("5198");
          const k = NAME_COLUMNS[n]!;
          const v = values[k]!;
          if (stryMutAct_9fa48("5201") ? v.length > MAX_NAME_LENGTH && (done & 1 << k) === 0 || codePoints(v) > MAX_NAME_LENGTH : stryMutAct_9fa48("5200") ? false : stryMutAct_9fa48("5199") ? true : (stryCov_9fa48("5199", "5200", "5201"), (stryMutAct_9fa48("5203") ? v.length > MAX_NAME_LENGTH || (done & 1 << k) === 0 : stryMutAct_9fa48("5202") ? true : (stryCov_9fa48("5202", "5203"), (stryMutAct_9fa48("5206") ? v.length <= MAX_NAME_LENGTH : stryMutAct_9fa48("5205") ? v.length >= MAX_NAME_LENGTH : stryMutAct_9fa48("5204") ? true : (stryCov_9fa48("5204", "5205", "5206"), v.length > MAX_NAME_LENGTH)) && (stryMutAct_9fa48("5208") ? (done & 1 << k) !== 0 : stryMutAct_9fa48("5207") ? true : (stryCov_9fa48("5207", "5208"), (done & 1 << k) === 0)))) && (stryMutAct_9fa48("5211") ? codePoints(v) <= MAX_NAME_LENGTH : stryMutAct_9fa48("5210") ? codePoints(v) >= MAX_NAME_LENGTH : stryMutAct_9fa48("5209") ? true : (stryCov_9fa48("5209", "5210", "5211"), codePoints(v) > MAX_NAME_LENGTH)))) {
            if (stryMutAct_9fa48("5212")) {
              {}
            } else {
              stryCov_9fa48("5212");
              stryMutAct_9fa48("5213") ? done &= 1 << k : (stryCov_9fa48("5213"), done |= 1 << k);
              this.report(row, USER_COLUMNS[k]!, stryMutAct_9fa48("5214") ? `` : (stryCov_9fa48("5214"), `is ${codePoints(v)} characters long; at most ${MAX_NAME_LENGTH} are accepted`));
            }
          }
        }
      }
      // Columns already reported above are not checked again (bit k set: column k is done).
      const username = values[2]!;
      const email = values[3]!;
      const role = values[4]!;
      const status = values[6]!;
      const action = values[7]!;
      if (stryMutAct_9fa48("5217") ? (done & 1) === 0 || values[0] === "" : stryMutAct_9fa48("5216") ? false : stryMutAct_9fa48("5215") ? true : (stryCov_9fa48("5215", "5216", "5217"), (stryMutAct_9fa48("5219") ? (done & 1) !== 0 : stryMutAct_9fa48("5218") ? true : (stryCov_9fa48("5218", "5219"), (done & 1) === 0)) && (stryMutAct_9fa48("5221") ? values[0] !== "" : stryMutAct_9fa48("5220") ? true : (stryCov_9fa48("5220", "5221"), values[0] === (stryMutAct_9fa48("5222") ? "Stryker was here!" : (stryCov_9fa48("5222"), "")))))) this.report(row, stryMutAct_9fa48("5223") ? "" : (stryCov_9fa48("5223"), "firstName"), REQUIRED);
      if (stryMutAct_9fa48("5226") ? (done & 2) === 0 || values[1] === "" : stryMutAct_9fa48("5225") ? false : stryMutAct_9fa48("5224") ? true : (stryCov_9fa48("5224", "5225", "5226"), (stryMutAct_9fa48("5228") ? (done & 2) !== 0 : stryMutAct_9fa48("5227") ? true : (stryCov_9fa48("5227", "5228"), (done & 2) === 0)) && (stryMutAct_9fa48("5230") ? values[1] !== "" : stryMutAct_9fa48("5229") ? true : (stryCov_9fa48("5229", "5230"), values[1] === (stryMutAct_9fa48("5231") ? "Stryker was here!" : (stryCov_9fa48("5231"), "")))))) this.report(row, stryMutAct_9fa48("5232") ? "" : (stryCov_9fa48("5232"), "lastName"), REQUIRED);
      if (stryMutAct_9fa48("5235") ? (done & 4) !== 0 : stryMutAct_9fa48("5234") ? false : stryMutAct_9fa48("5233") ? true : (stryCov_9fa48("5233", "5234", "5235"), (done & 4) === 0)) {
        if (stryMutAct_9fa48("5236")) {
          {}
        } else {
          stryCov_9fa48("5236");
          if (stryMutAct_9fa48("5239") ? username !== "" : stryMutAct_9fa48("5238") ? false : stryMutAct_9fa48("5237") ? true : (stryCov_9fa48("5237", "5238", "5239"), username === (stryMutAct_9fa48("5240") ? "Stryker was here!" : (stryCov_9fa48("5240"), "")))) this.report(row, stryMutAct_9fa48("5241") ? "" : (stryCov_9fa48("5241"), "username"), REQUIRED);else if (stryMutAct_9fa48("5244") ? (done & 8) === 0 && email !== "" || username !== email : stryMutAct_9fa48("5243") ? false : stryMutAct_9fa48("5242") ? true : (stryCov_9fa48("5242", "5243", "5244"), (stryMutAct_9fa48("5246") ? (done & 8) === 0 || email !== "" : stryMutAct_9fa48("5245") ? true : (stryCov_9fa48("5245", "5246"), (stryMutAct_9fa48("5248") ? (done & 8) !== 0 : stryMutAct_9fa48("5247") ? true : (stryCov_9fa48("5247", "5248"), (done & 8) === 0)) && (stryMutAct_9fa48("5250") ? email === "" : stryMutAct_9fa48("5249") ? true : (stryCov_9fa48("5249", "5250"), email !== (stryMutAct_9fa48("5251") ? "Stryker was here!" : (stryCov_9fa48("5251"), "")))))) && (stryMutAct_9fa48("5253") ? username === email : stryMutAct_9fa48("5252") ? true : (stryCov_9fa48("5252", "5253"), username !== email)))) {
            if (stryMutAct_9fa48("5254")) {
              {}
            } else {
              stryCov_9fa48("5254");
              this.report(row, stryMutAct_9fa48("5255") ? "" : (stryCov_9fa48("5255"), "username"), stryMutAct_9fa48("5256") ? `` : (stryCov_9fa48("5256"), `must equal email exactly (username ${quote(username)}, email ${quote(email)})`));
            }
          }
        }
      }
      if (stryMutAct_9fa48("5259") ? (done & 8) !== 0 : stryMutAct_9fa48("5258") ? false : stryMutAct_9fa48("5257") ? true : (stryCov_9fa48("5257", "5258", "5259"), (done & 8) === 0)) {
        if (stryMutAct_9fa48("5260")) {
          {}
        } else {
          stryCov_9fa48("5260");
          if (stryMutAct_9fa48("5263") ? email !== "" : stryMutAct_9fa48("5262") ? false : stryMutAct_9fa48("5261") ? true : (stryCov_9fa48("5261", "5262", "5263"), email === (stryMutAct_9fa48("5264") ? "Stryker was here!" : (stryCov_9fa48("5264"), "")))) this.report(row, stryMutAct_9fa48("5265") ? "" : (stryCov_9fa48("5265"), "email"), REQUIRED);else if (stryMutAct_9fa48("5268") ? email.length > MAX_EMAIL_LENGTH && !EMAIL.test(email) : stryMutAct_9fa48("5267") ? false : stryMutAct_9fa48("5266") ? true : (stryCov_9fa48("5266", "5267", "5268"), (stryMutAct_9fa48("5271") ? email.length <= MAX_EMAIL_LENGTH : stryMutAct_9fa48("5270") ? email.length >= MAX_EMAIL_LENGTH : stryMutAct_9fa48("5269") ? false : (stryCov_9fa48("5269", "5270", "5271"), email.length > MAX_EMAIL_LENGTH)) || (stryMutAct_9fa48("5272") ? EMAIL.test(email) : (stryCov_9fa48("5272"), !EMAIL.test(email))))) {
            if (stryMutAct_9fa48("5273")) {
              {}
            } else {
              stryCov_9fa48("5273");
              this.report(row, stryMutAct_9fa48("5274") ? "" : (stryCov_9fa48("5274"), "email"), stryMutAct_9fa48("5275") ? `` : (stryCov_9fa48("5275"), `not a valid email address: ${quote(email)}`));
            }
          }
        }
      }
      if (stryMutAct_9fa48("5278") ? (done & 16) === 0 || role !== "trainee" : stryMutAct_9fa48("5277") ? false : stryMutAct_9fa48("5276") ? true : (stryCov_9fa48("5276", "5277", "5278"), (stryMutAct_9fa48("5280") ? (done & 16) !== 0 : stryMutAct_9fa48("5279") ? true : (stryCov_9fa48("5279", "5280"), (done & 16) === 0)) && (stryMutAct_9fa48("5282") ? role === "trainee" : stryMutAct_9fa48("5281") ? true : (stryCov_9fa48("5281", "5282"), role !== (stryMutAct_9fa48("5283") ? "" : (stryCov_9fa48("5283"), "trainee")))))) {
        if (stryMutAct_9fa48("5284")) {
          {}
        } else {
          stryCov_9fa48("5284");
          this.report(row, stryMutAct_9fa48("5285") ? "" : (stryCov_9fa48("5285"), "role"), (stryMutAct_9fa48("5288") ? role !== "" : stryMutAct_9fa48("5287") ? false : stryMutAct_9fa48("5286") ? true : (stryCov_9fa48("5286", "5287", "5288"), role === (stryMutAct_9fa48("5289") ? "Stryker was here!" : (stryCov_9fa48("5289"), "")))) ? REQUIRED : stryMutAct_9fa48("5290") ? `` : (stryCov_9fa48("5290"), `must be "trainee" (got ${quote(role)}${caseNote(role, stryMutAct_9fa48("5291") ? "" : (stryCov_9fa48("5291"), "trainee"))})`));
        }
      }
      if (stryMutAct_9fa48("5294") ? (done & 64) === 0 && status !== "ACTIVE" || status !== "INACTIVE" : stryMutAct_9fa48("5293") ? false : stryMutAct_9fa48("5292") ? true : (stryCov_9fa48("5292", "5293", "5294"), (stryMutAct_9fa48("5296") ? (done & 64) === 0 || status !== "ACTIVE" : stryMutAct_9fa48("5295") ? true : (stryCov_9fa48("5295", "5296"), (stryMutAct_9fa48("5298") ? (done & 64) !== 0 : stryMutAct_9fa48("5297") ? true : (stryCov_9fa48("5297", "5298"), (done & 64) === 0)) && (stryMutAct_9fa48("5300") ? status === "ACTIVE" : stryMutAct_9fa48("5299") ? true : (stryCov_9fa48("5299", "5300"), status !== (stryMutAct_9fa48("5301") ? "" : (stryCov_9fa48("5301"), "ACTIVE")))))) && (stryMutAct_9fa48("5303") ? status === "INACTIVE" : stryMutAct_9fa48("5302") ? true : (stryCov_9fa48("5302", "5303"), status !== (stryMutAct_9fa48("5304") ? "" : (stryCov_9fa48("5304"), "INACTIVE")))))) {
        if (stryMutAct_9fa48("5305")) {
          {}
        } else {
          stryCov_9fa48("5305");
          this.report(row, stryMutAct_9fa48("5306") ? "" : (stryCov_9fa48("5306"), "status"), (stryMutAct_9fa48("5309") ? status !== "" : stryMutAct_9fa48("5308") ? false : stryMutAct_9fa48("5307") ? true : (stryCov_9fa48("5307", "5308", "5309"), status === (stryMutAct_9fa48("5310") ? "Stryker was here!" : (stryCov_9fa48("5310"), "")))) ? REQUIRED : stryMutAct_9fa48("5311") ? `` : (stryCov_9fa48("5311"), `must be ACTIVE or INACTIVE (got ${quote(status)}${caseNote(status, stryMutAct_9fa48("5312") ? "" : (stryCov_9fa48("5312"), "ACTIVE"), stryMutAct_9fa48("5313") ? "" : (stryCov_9fa48("5313"), "INACTIVE"))})`));
        }
      }
      if (stryMutAct_9fa48("5316") ? (done & 128) === 0 && action !== "Add" || action !== "Update" : stryMutAct_9fa48("5315") ? false : stryMutAct_9fa48("5314") ? true : (stryCov_9fa48("5314", "5315", "5316"), (stryMutAct_9fa48("5318") ? (done & 128) === 0 || action !== "Add" : stryMutAct_9fa48("5317") ? true : (stryCov_9fa48("5317", "5318"), (stryMutAct_9fa48("5320") ? (done & 128) !== 0 : stryMutAct_9fa48("5319") ? true : (stryCov_9fa48("5319", "5320"), (done & 128) === 0)) && (stryMutAct_9fa48("5322") ? action === "Add" : stryMutAct_9fa48("5321") ? true : (stryCov_9fa48("5321", "5322"), action !== (stryMutAct_9fa48("5323") ? "" : (stryCov_9fa48("5323"), "Add")))))) && (stryMutAct_9fa48("5325") ? action === "Update" : stryMutAct_9fa48("5324") ? true : (stryCov_9fa48("5324", "5325"), action !== (stryMutAct_9fa48("5326") ? "" : (stryCov_9fa48("5326"), "Update")))))) {
        if (stryMutAct_9fa48("5327")) {
          {}
        } else {
          stryCov_9fa48("5327");
          this.report(row, stryMutAct_9fa48("5328") ? "" : (stryCov_9fa48("5328"), "action"), (stryMutAct_9fa48("5331") ? action !== "" : stryMutAct_9fa48("5330") ? false : stryMutAct_9fa48("5329") ? true : (stryCov_9fa48("5329", "5330", "5331"), action === (stryMutAct_9fa48("5332") ? "Stryker was here!" : (stryCov_9fa48("5332"), "")))) ? REQUIRED : stryMutAct_9fa48("5333") ? `` : (stryCov_9fa48("5333"), `must be Add or Update (got ${quote(action)}${caseNote(action, stryMutAct_9fa48("5334") ? "" : (stryCov_9fa48("5334"), "Add"), stryMutAct_9fa48("5335") ? "" : (stryCov_9fa48("5335"), "Update"))})`));
        }
      }
      if (stryMutAct_9fa48("5338") ? email !== "" || this.emails !== undefined : stryMutAct_9fa48("5337") ? false : stryMutAct_9fa48("5336") ? true : (stryCov_9fa48("5336", "5337", "5338"), (stryMutAct_9fa48("5340") ? email === "" : stryMutAct_9fa48("5339") ? true : (stryCov_9fa48("5339", "5340"), email !== (stryMutAct_9fa48("5341") ? "Stryker was here!" : (stryCov_9fa48("5341"), "")))) && (stryMutAct_9fa48("5343") ? this.emails === undefined : stryMutAct_9fa48("5342") ? true : (stryCov_9fa48("5342", "5343"), this.emails !== undefined)))) {
        if (stryMutAct_9fa48("5344")) {
          {}
        } else {
          stryCov_9fa48("5344");
          const first = this.emails.add(email, row);
          if (stryMutAct_9fa48("5347") ? first === 0 : stryMutAct_9fa48("5346") ? false : stryMutAct_9fa48("5345") ? true : (stryCov_9fa48("5345", "5346", "5347"), first !== 0)) this.report(row, stryMutAct_9fa48("5348") ? "" : (stryCov_9fa48("5348"), "email"), stryMutAct_9fa48("5349") ? `` : (stryCov_9fa48("5349"), `duplicate of row ${first}: each email may appear once (compared ignoring case)`));
        }
      }
      if (stryMutAct_9fa48("5352") ? this.found !== undefined : stryMutAct_9fa48("5351") ? false : stryMutAct_9fa48("5350") ? true : (stryCov_9fa48("5350", "5351", "5352"), this.found === undefined)) return stryMutAct_9fa48("5353") ? "" : (stryCov_9fa48("5353"), "valid");
      this.problems = this.found;
      return stryMutAct_9fa48("5354") ? "" : (stryCov_9fa48("5354"), "invalid");
    }
  }
  private found: RowProblem[] | undefined;
  private report(row: number, field: UserColumn, message: string): void {
    if (stryMutAct_9fa48("5355")) {
      {}
    } else {
      stryCov_9fa48("5355");
      (stryMutAct_9fa48("5356") ? this.found &&= [] : (stryCov_9fa48("5356"), this.found ??= stryMutAct_9fa48("5357") ? ["Stryker was here"] : (stryCov_9fa48("5357"), []))).push(stryMutAct_9fa48("5358") ? {} : (stryCov_9fa48("5358"), {
        row,
        field,
        message
      }));
    }
  }

  /** The last valid row as a UserRow. */
  userRow(row: number): UserRow {
    if (stryMutAct_9fa48("5359")) {
      {}
    } else {
      stryCov_9fa48("5359");
      const v = this.values;
      return stryMutAct_9fa48("5360") ? {} : (stryCov_9fa48("5360"), {
        firstName: v[0]!,
        lastName: v[1]!,
        username: v[2]!,
        email: v[3]!,
        role: v[4]!,
        teamName: v[5]!,
        status: v[6]!,
        action: v[7]!,
        row
      });
    }
  }

  /** The last invalid row with its original cells. */
  invalidRow(cells: readonly string[], row: number): InvalidRow {
    if (stryMutAct_9fa48("5361")) {
      {}
    } else {
      stryCov_9fa48("5361");
      const {
        columns,
        width,
        errorsFile
      } = this.layout;
      const kept: Record<string, string> = {};
      // An errors file's own `row` and `errors` are not carried into the next errors file.
      const count = errorsFile ? stryMutAct_9fa48("5362") ? columns.length + ERRORS_FILE_COLUMNS.length : (stryCov_9fa48("5362"), columns.length - ERRORS_FILE_COLUMNS.length) : columns.length;
      for (let i = 0; stryMutAct_9fa48("5365") ? i >= count : stryMutAct_9fa48("5364") ? i <= count : stryMutAct_9fa48("5363") ? false : (stryCov_9fa48("5363", "5364", "5365"), i < count); stryMutAct_9fa48("5366") ? i-- : (stryCov_9fa48("5366"), i++)) kept[columns[i]!] = errorsFile ? unguardCsvCell(stryMutAct_9fa48("5367") ? cells[i] && "" : (stryCov_9fa48("5367"), cells[i] ?? (stryMutAct_9fa48("5368") ? "Stryker was here!" : (stryCov_9fa48("5368"), "")))) : stryMutAct_9fa48("5369") ? cells[i] && "" : (stryCov_9fa48("5369"), cells[i] ?? (stryMutAct_9fa48("5370") ? "Stryker was here!" : (stryCov_9fa48("5370"), "")));
      const invalid: InvalidRow = stryMutAct_9fa48("5371") ? {} : (stryCov_9fa48("5371"), {
        row,
        cells: kept,
        problems: this.problems
      });
      if (stryMutAct_9fa48("5375") ? cells.length <= width : stryMutAct_9fa48("5374") ? cells.length >= width : stryMutAct_9fa48("5373") ? false : stryMutAct_9fa48("5372") ? true : (stryCov_9fa48("5372", "5373", "5374", "5375"), cells.length > width)) invalid.extraCells = stryMutAct_9fa48("5376") ? cells : (stryCov_9fa48("5376"), cells.slice(width));
      return invalid;
    }
  }
}

/** Points out that only the case is wrong, the commonest slip with these values. */
function caseNote(value: string, ...allowed: string[]): string {
  if (stryMutAct_9fa48("5377")) {
    {}
  } else {
    stryCov_9fa48("5377");
    const lower = stryMutAct_9fa48("5378") ? value.toUpperCase() : (stryCov_9fa48("5378"), value.toLowerCase());
    return (stryMutAct_9fa48("5379") ? allowed.every(a => a.toLowerCase() === lower) : (stryCov_9fa48("5379"), allowed.some(stryMutAct_9fa48("5380") ? () => undefined : (stryCov_9fa48("5380"), a => stryMutAct_9fa48("5383") ? a.toLowerCase() !== lower : stryMutAct_9fa48("5382") ? false : stryMutAct_9fa48("5381") ? true : (stryCov_9fa48("5381", "5382", "5383"), (stryMutAct_9fa48("5384") ? a.toUpperCase() : (stryCov_9fa48("5384"), a.toLowerCase())) === lower))))) ? stryMutAct_9fa48("5385") ? "" : (stryCov_9fa48("5385"), "; values are case-sensitive") : stryMutAct_9fa48("5386") ? "Stryker was here!" : (stryCov_9fa48("5386"), "");
  }
}

/** A value quoted for a message, cut short (60 characters) so that one bad cell cannot flood a terminal. */
export function quote(value: string): string {
  if (stryMutAct_9fa48("5387")) {
    {}
  } else {
    stryCov_9fa48("5387");
    return excerpt(value);
  }
}

/**
 * Whether any value holds a control character (see findControlCharacter): a plain loop,
 * because it runs on every cell of every row and a regex per cell costs several times more.
 */
function hasControlCharacter(values: readonly string[]): boolean {
  if (stryMutAct_9fa48("5388")) {
    {}
  } else {
    stryCov_9fa48("5388");
    for (let k = 0; stryMutAct_9fa48("5391") ? k >= values.length : stryMutAct_9fa48("5390") ? k <= values.length : stryMutAct_9fa48("5389") ? false : (stryCov_9fa48("5389", "5390", "5391"), k < values.length); stryMutAct_9fa48("5392") ? k-- : (stryCov_9fa48("5392"), k++)) {
      if (stryMutAct_9fa48("5393")) {
        {}
      } else {
        stryCov_9fa48("5393");
        const v = values[k]!;
        for (let i = 0; stryMutAct_9fa48("5396") ? i >= v.length : stryMutAct_9fa48("5395") ? i <= v.length : stryMutAct_9fa48("5394") ? false : (stryCov_9fa48("5394", "5395", "5396"), i < v.length); stryMutAct_9fa48("5397") ? i-- : (stryCov_9fa48("5397"), i++)) {
          if (stryMutAct_9fa48("5398")) {
            {}
          } else {
            stryCov_9fa48("5398");
            const c = v.charCodeAt(i);
            if (stryMutAct_9fa48("5401") ? c >= 0x20 || c < 0x7f : stryMutAct_9fa48("5400") ? false : stryMutAct_9fa48("5399") ? true : (stryCov_9fa48("5399", "5400", "5401"), (stryMutAct_9fa48("5404") ? c < 0x20 : stryMutAct_9fa48("5403") ? c > 0x20 : stryMutAct_9fa48("5402") ? true : (stryCov_9fa48("5402", "5403", "5404"), c >= 0x20)) && (stryMutAct_9fa48("5407") ? c >= 0x7f : stryMutAct_9fa48("5406") ? c <= 0x7f : stryMutAct_9fa48("5405") ? true : (stryCov_9fa48("5405", "5406", "5407"), c < 0x7f)))) continue;
            if (stryMutAct_9fa48("5409") ? false : stryMutAct_9fa48("5408") ? true : (stryCov_9fa48("5408", "5409"), (stryMutAct_9fa48("5413") ? c >= 0x20 : stryMutAct_9fa48("5412") ? c <= 0x20 : stryMutAct_9fa48("5411") ? false : stryMutAct_9fa48("5410") ? true : (stryCov_9fa48("5410", "5411", "5412", "5413"), c < 0x20)) ? stryMutAct_9fa48("5416") ? c !== 0x09 && c !== 0x0a || c !== 0x0d : stryMutAct_9fa48("5415") ? false : stryMutAct_9fa48("5414") ? true : (stryCov_9fa48("5414", "5415", "5416"), (stryMutAct_9fa48("5418") ? c !== 0x09 || c !== 0x0a : stryMutAct_9fa48("5417") ? true : (stryCov_9fa48("5417", "5418"), (stryMutAct_9fa48("5420") ? c === 0x09 : stryMutAct_9fa48("5419") ? true : (stryCov_9fa48("5419", "5420"), c !== 0x09)) && (stryMutAct_9fa48("5422") ? c === 0x0a : stryMutAct_9fa48("5421") ? true : (stryCov_9fa48("5421", "5422"), c !== 0x0a)))) && (stryMutAct_9fa48("5424") ? c === 0x0d : stryMutAct_9fa48("5423") ? true : (stryCov_9fa48("5423", "5424"), c !== 0x0d))) : stryMutAct_9fa48("5428") ? c > 0x9f : stryMutAct_9fa48("5427") ? c < 0x9f : stryMutAct_9fa48("5426") ? false : stryMutAct_9fa48("5425") ? true : (stryCov_9fa48("5425", "5426", "5427", "5428"), c <= 0x9f))) return stryMutAct_9fa48("5429") ? false : (stryCov_9fa48("5429"), true);
          }
        }
      }
    }
    return stryMutAct_9fa48("5430") ? true : (stryCov_9fa48("5430"), false);
  }
}
function codePoints(value: string): number {
  if (stryMutAct_9fa48("5431")) {
    {}
  } else {
    stryCov_9fa48("5431");
    let n = 0;
    for (const _ of value) stryMutAct_9fa48("5432") ? n-- : (stryCov_9fa48("5432"), n++);
    return n;
  }
}