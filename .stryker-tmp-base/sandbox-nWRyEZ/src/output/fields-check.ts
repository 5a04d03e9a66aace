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
import { UsageError } from "../errors.js";
import { flattenRecord, type JsonRecord } from "../domain/records.js";

// --fields: one check for every format. The known names come from the data: they are
// checked against the first batch that has records (a report's first non-empty window),
// before anything of it is written; later records may still bring new columns. A result
// with no record is checked against the fields the command declares (knownFields); with
// none declared it cannot be checked and passes (docs/cli-contract.md, "Records of unknown
// shape": `--fields` is checked against the columns the service sent).

/** Checks --fields against the columns the data (or the command) knows: exit 2 listing them. */
export function checkFields(fields: string[] | undefined, known: Iterable<string>): void {
  if (stryMutAct_9fa48("6010")) {
    {}
  } else {
    stryCov_9fa48("6010");
    if (stryMutAct_9fa48("6013") ? false : stryMutAct_9fa48("6012") ? true : stryMutAct_9fa48("6011") ? fields : (stryCov_9fa48("6011", "6012", "6013"), !fields)) return;
    const knownSet = new Set(known);
    if (stryMutAct_9fa48("6016") ? knownSet.size !== 0 : stryMutAct_9fa48("6015") ? false : stryMutAct_9fa48("6014") ? true : (stryCov_9fa48("6014", "6015", "6016"), knownSet.size === 0)) return; // nothing to check against (e.g. an empty report)
    const unknown = stryMutAct_9fa48("6017") ? fields : (stryCov_9fa48("6017"), fields.filter(stryMutAct_9fa48("6018") ? () => undefined : (stryCov_9fa48("6018"), field => stryMutAct_9fa48("6019") ? knownSet.has(field) : (stryCov_9fa48("6019"), !knownSet.has(field)))));
    if (stryMutAct_9fa48("6023") ? unknown.length <= 0 : stryMutAct_9fa48("6022") ? unknown.length >= 0 : stryMutAct_9fa48("6021") ? false : stryMutAct_9fa48("6020") ? true : (stryCov_9fa48("6020", "6021", "6022", "6023"), unknown.length > 0)) {
      if (stryMutAct_9fa48("6024")) {
        {}
      } else {
        stryCov_9fa48("6024");
        throw new UsageError(stryMutAct_9fa48("6025") ? `` : (stryCov_9fa48("6025"), `unknown field${(stryMutAct_9fa48("6029") ? unknown.length <= 1 : stryMutAct_9fa48("6028") ? unknown.length >= 1 : stryMutAct_9fa48("6027") ? false : stryMutAct_9fa48("6026") ? true : (stryCov_9fa48("6026", "6027", "6028", "6029"), unknown.length > 1)) ? stryMutAct_9fa48("6030") ? "" : (stryCov_9fa48("6030"), "s") : stryMutAct_9fa48("6031") ? "Stryker was here!" : (stryCov_9fa48("6031"), "")} for --fields: ${unknown.join(stryMutAct_9fa48("6032") ? "" : (stryCov_9fa48("6032"), ", "))}; known fields: ${(stryMutAct_9fa48("6033") ? [] : (stryCov_9fa48("6033"), [...knownSet])).join(stryMutAct_9fa48("6034") ? "" : (stryCov_9fa48("6034"), ", "))}`));
      }
    }
  }
}

/** For JSON with --fields: keep the named (possibly dotted) fields, in order. */
export function pickFields(record: JsonRecord, fields: string[]): JsonRecord {
  if (stryMutAct_9fa48("6035")) {
    {}
  } else {
    stryCov_9fa48("6035");
    const flat = flattenRecord(record);
    const out: JsonRecord = {};
    for (const field of fields) out[field] = field in record ? record[field] : stryMutAct_9fa48("6036") ? flat[field] && null : (stryCov_9fa48("6036"), flat[field] ?? null);
    return out;
  }
}

/** The one --fields check: once, against the first batch that has records (or at the end). */
export class FieldsGate {
  private checked = stryMutAct_9fa48("6037") ? true : (stryCov_9fa48("6037"), false);
  constructor(private readonly fields: string[] | undefined, private readonly knownFields: string[] | undefined, /** json can also pick a whole nested object by its top-level key. */
  private readonly topLevelKeys: boolean) {}
  check(records: readonly JsonRecord[]): void {
    if (stryMutAct_9fa48("6038")) {
      {}
    } else {
      stryCov_9fa48("6038");
      if (stryMutAct_9fa48("6041") ? (this.checked || !this.fields) && records.length === 0 : stryMutAct_9fa48("6040") ? false : stryMutAct_9fa48("6039") ? true : (stryCov_9fa48("6039", "6040", "6041"), (stryMutAct_9fa48("6043") ? this.checked && !this.fields : stryMutAct_9fa48("6042") ? false : (stryCov_9fa48("6042", "6043"), this.checked || (stryMutAct_9fa48("6044") ? this.fields : (stryCov_9fa48("6044"), !this.fields)))) || (stryMutAct_9fa48("6046") ? records.length !== 0 : stryMutAct_9fa48("6045") ? false : (stryCov_9fa48("6045", "6046"), records.length === 0)))) return;
      this.checked = stryMutAct_9fa48("6047") ? false : (stryCov_9fa48("6047"), true);
      const known = new Set(stryMutAct_9fa48("6048") ? this.knownFields && [] : (stryCov_9fa48("6048"), this.knownFields ?? (stryMutAct_9fa48("6049") ? ["Stryker was here"] : (stryCov_9fa48("6049"), []))));
      for (const record of records) {
        if (stryMutAct_9fa48("6050")) {
          {}
        } else {
          stryCov_9fa48("6050");
          if (stryMutAct_9fa48("6052") ? false : stryMutAct_9fa48("6051") ? true : (stryCov_9fa48("6051", "6052"), this.topLevelKeys)) for (const key of Object.keys(record)) known.add(key);
          for (const key of Object.keys(flattenRecord(record))) known.add(key);
        }
      }
      checkFields(this.fields, known);
    }
  }

  /** No record came: only the command's declared fields can be checked. */
  finish(): void {
    if (stryMutAct_9fa48("6053")) {
      {}
    } else {
      stryCov_9fa48("6053");
      if (stryMutAct_9fa48("6056") ? this.checked && !this.fields : stryMutAct_9fa48("6055") ? false : stryMutAct_9fa48("6054") ? true : (stryCov_9fa48("6054", "6055", "6056"), this.checked || (stryMutAct_9fa48("6057") ? this.fields : (stryCov_9fa48("6057"), !this.fields)))) return;
      this.checked = stryMutAct_9fa48("6058") ? false : (stryCov_9fa48("6058"), true);
      checkFields(this.fields, stryMutAct_9fa48("6059") ? this.knownFields && [] : (stryCov_9fa48("6059"), this.knownFields ?? (stryMutAct_9fa48("6060") ? ["Stryker was here"] : (stryCov_9fa48("6060"), []))));
    }
  }
}