// @ts-nocheck
// Responses whose fields the spec marks "not shown" (reports, create, status…) are handled
// by shape, never by a guessed field name (docs/cli-contract.md, "Records of unknown shape").
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
export type JsonRecord = Record<string, unknown>;
export function isPlainObject(value: unknown): value is JsonRecord {
  if (stryMutAct_9fa48("3480")) {
    {}
  } else {
    stryCov_9fa48("3480");
    return stryMutAct_9fa48("3483") ? typeof value === "object" && value !== null || !Array.isArray(value) : stryMutAct_9fa48("3482") ? false : stryMutAct_9fa48("3481") ? true : (stryCov_9fa48("3481", "3482", "3483"), (stryMutAct_9fa48("3485") ? typeof value === "object" || value !== null : stryMutAct_9fa48("3484") ? true : (stryCov_9fa48("3484", "3485"), (stryMutAct_9fa48("3487") ? typeof value !== "object" : stryMutAct_9fa48("3486") ? true : (stryCov_9fa48("3486", "3487"), typeof value === (stryMutAct_9fa48("3488") ? "" : (stryCov_9fa48("3488"), "object")))) && (stryMutAct_9fa48("3490") ? value === null : stryMutAct_9fa48("3489") ? true : (stryCov_9fa48("3489", "3490"), value !== null)))) && (stryMutAct_9fa48("3491") ? Array.isArray(value) : (stryCov_9fa48("3491"), !Array.isArray(value))));
  }
}
function isArrayOfObjects(value: unknown): value is JsonRecord[] {
  if (stryMutAct_9fa48("3492")) {
    {}
  } else {
    stryCov_9fa48("3492");
    return stryMutAct_9fa48("3495") ? Array.isArray(value) || value.every(isPlainObject) : stryMutAct_9fa48("3494") ? false : stryMutAct_9fa48("3493") ? true : (stryCov_9fa48("3493", "3494", "3495"), Array.isArray(value) && (stryMutAct_9fa48("3496") ? value.some(isPlainObject) : (stryCov_9fa48("3496"), value.every(isPlainObject))));
  }
}

/** Non-object items of a list become `{ value }` so every record has named columns. */
function asRecord(item: unknown): JsonRecord {
  if (stryMutAct_9fa48("3497")) {
    {}
  } else {
    stryCov_9fa48("3497");
    return isPlainObject(item) ? item : stryMutAct_9fa48("3498") ? {} : (stryCov_9fa48("3498"), {
      value: item
    });
  }
}

/**
 * - a top-level array is the record list;
 * - an object with exactly one array of objects holds the record list;
 * - otherwise the object is one record.
 */
export function extractRecords(body: unknown): JsonRecord[] {
  if (stryMutAct_9fa48("3499")) {
    {}
  } else {
    stryCov_9fa48("3499");
    if (stryMutAct_9fa48("3501") ? false : stryMutAct_9fa48("3500") ? true : (stryCov_9fa48("3500", "3501"), Array.isArray(body))) return body.map(asRecord);
    if (stryMutAct_9fa48("3504") ? false : stryMutAct_9fa48("3503") ? true : stryMutAct_9fa48("3502") ? isPlainObject(body) : (stryCov_9fa48("3502", "3503", "3504"), !isPlainObject(body))) return (stryMutAct_9fa48("3507") ? (body === undefined || body === null) && body === "" : stryMutAct_9fa48("3506") ? false : stryMutAct_9fa48("3505") ? true : (stryCov_9fa48("3505", "3506", "3507"), (stryMutAct_9fa48("3509") ? body === undefined && body === null : stryMutAct_9fa48("3508") ? false : (stryCov_9fa48("3508", "3509"), (stryMutAct_9fa48("3511") ? body !== undefined : stryMutAct_9fa48("3510") ? false : (stryCov_9fa48("3510", "3511"), body === undefined)) || (stryMutAct_9fa48("3513") ? body !== null : stryMutAct_9fa48("3512") ? false : (stryCov_9fa48("3512", "3513"), body === null)))) || (stryMutAct_9fa48("3515") ? body !== "" : stryMutAct_9fa48("3514") ? false : (stryCov_9fa48("3514", "3515"), body === (stryMutAct_9fa48("3516") ? "Stryker was here!" : (stryCov_9fa48("3516"), "")))))) ? stryMutAct_9fa48("3517") ? ["Stryker was here"] : (stryCov_9fa48("3517"), []) : stryMutAct_9fa48("3518") ? [] : (stryCov_9fa48("3518"), [stryMutAct_9fa48("3519") ? {} : (stryCov_9fa48("3519"), {
      value: body
    })]);
    const lists = stryMutAct_9fa48("3520") ? Object.values(body) : (stryCov_9fa48("3520"), Object.values(body).filter(isArrayOfObjects));
    if (stryMutAct_9fa48("3523") ? lists.length === 1 || lists[0] : stryMutAct_9fa48("3522") ? false : stryMutAct_9fa48("3521") ? true : (stryCov_9fa48("3521", "3522", "3523"), (stryMutAct_9fa48("3525") ? lists.length !== 1 : stryMutAct_9fa48("3524") ? true : (stryCov_9fa48("3524", "3525"), lists.length === 1)) && lists[0])) return lists[0];
    return stryMutAct_9fa48("3526") ? [] : (stryCov_9fa48("3526"), [body]);
  }
}

/** Scalar cell values after flattening. */
export type Cell = string | number | boolean | null;

/**
 * Nested objects become dotted columns (`user.team.name`). A list of plain values (`tags`)
 * becomes one cell joined by `listJoin` — `a;b` in CSV, `a, b` in tables (issue 15 item 2);
 * other arrays are kept whole as JSON text in one cell: spreading them over numbered columns
 * would make column sets differ per record.
 */
/** A value a list cell can show as text without losing anything. */
function isListItem(value: unknown): boolean {
  if (stryMutAct_9fa48("3527")) {
    {}
  } else {
    stryCov_9fa48("3527");
    return stryMutAct_9fa48("3530") ? (typeof value === "string" || typeof value === "number") && typeof value === "boolean" : stryMutAct_9fa48("3529") ? false : stryMutAct_9fa48("3528") ? true : (stryCov_9fa48("3528", "3529", "3530"), (stryMutAct_9fa48("3532") ? typeof value === "string" && typeof value === "number" : stryMutAct_9fa48("3531") ? false : (stryCov_9fa48("3531", "3532"), (stryMutAct_9fa48("3534") ? typeof value !== "string" : stryMutAct_9fa48("3533") ? false : (stryCov_9fa48("3533", "3534"), typeof value === (stryMutAct_9fa48("3535") ? "" : (stryCov_9fa48("3535"), "string")))) || (stryMutAct_9fa48("3537") ? typeof value !== "number" : stryMutAct_9fa48("3536") ? false : (stryCov_9fa48("3536", "3537"), typeof value === (stryMutAct_9fa48("3538") ? "" : (stryCov_9fa48("3538"), "number")))))) || (stryMutAct_9fa48("3540") ? typeof value !== "boolean" : stryMutAct_9fa48("3539") ? false : (stryCov_9fa48("3539", "3540"), typeof value === (stryMutAct_9fa48("3541") ? "" : (stryCov_9fa48("3541"), "boolean")))));
  }
}
export function flattenRecord(record: JsonRecord, prefix = stryMutAct_9fa48("3542") ? "Stryker was here!" : (stryCov_9fa48("3542"), ""), out: Record<string, Cell> = {}, listJoin = stryMutAct_9fa48("3543") ? "" : (stryCov_9fa48("3543"), ";")): Record<string, Cell> {
  if (stryMutAct_9fa48("3544")) {
    {}
  } else {
    stryCov_9fa48("3544");
    for (const [key, value] of Object.entries(record)) {
      if (stryMutAct_9fa48("3545")) {
        {}
      } else {
        stryCov_9fa48("3545");
        const name = prefix ? stryMutAct_9fa48("3546") ? `` : (stryCov_9fa48("3546"), `${prefix}.${key}`) : key;
        if (stryMutAct_9fa48("3549") ? isPlainObject(value) || Object.keys(value).length > 0 : stryMutAct_9fa48("3548") ? false : stryMutAct_9fa48("3547") ? true : (stryCov_9fa48("3547", "3548", "3549"), isPlainObject(value) && (stryMutAct_9fa48("3552") ? Object.keys(value).length <= 0 : stryMutAct_9fa48("3551") ? Object.keys(value).length >= 0 : stryMutAct_9fa48("3550") ? true : (stryCov_9fa48("3550", "3551", "3552"), Object.keys(value).length > 0)))) flattenRecord(value, name, out, listJoin);else if (stryMutAct_9fa48("3554") ? false : stryMutAct_9fa48("3553") ? true : (stryCov_9fa48("3553", "3554"), isPlainObject(value))) out[name] = null;else if (stryMutAct_9fa48("3557") ? Array.isArray(value) || value.every(isListItem) : stryMutAct_9fa48("3556") ? false : stryMutAct_9fa48("3555") ? true : (stryCov_9fa48("3555", "3556", "3557"), Array.isArray(value) && (stryMutAct_9fa48("3558") ? value.some(isListItem) : (stryCov_9fa48("3558"), value.every(isListItem))))) out[name] = value.map(String).join(listJoin);else if (stryMutAct_9fa48("3560") ? false : stryMutAct_9fa48("3559") ? true : (stryCov_9fa48("3559", "3560"), Array.isArray(value))) out[name] = JSON.stringify(value);else if (stryMutAct_9fa48("3563") ? value !== undefined : stryMutAct_9fa48("3562") ? false : stryMutAct_9fa48("3561") ? true : (stryCov_9fa48("3561", "3562", "3563"), value === undefined)) out[name] = null;else if (stryMutAct_9fa48("3566") ? (typeof value === "string" || typeof value === "number" || typeof value === "boolean") && value === null : stryMutAct_9fa48("3565") ? false : stryMutAct_9fa48("3564") ? true : (stryCov_9fa48("3564", "3565", "3566"), (stryMutAct_9fa48("3568") ? (typeof value === "string" || typeof value === "number") && typeof value === "boolean" : stryMutAct_9fa48("3567") ? false : (stryCov_9fa48("3567", "3568"), (stryMutAct_9fa48("3570") ? typeof value === "string" && typeof value === "number" : stryMutAct_9fa48("3569") ? false : (stryCov_9fa48("3569", "3570"), (stryMutAct_9fa48("3572") ? typeof value !== "string" : stryMutAct_9fa48("3571") ? false : (stryCov_9fa48("3571", "3572"), typeof value === (stryMutAct_9fa48("3573") ? "" : (stryCov_9fa48("3573"), "string")))) || (stryMutAct_9fa48("3575") ? typeof value !== "number" : stryMutAct_9fa48("3574") ? false : (stryCov_9fa48("3574", "3575"), typeof value === (stryMutAct_9fa48("3576") ? "" : (stryCov_9fa48("3576"), "number")))))) || (stryMutAct_9fa48("3578") ? typeof value !== "boolean" : stryMutAct_9fa48("3577") ? false : (stryCov_9fa48("3577", "3578"), typeof value === (stryMutAct_9fa48("3579") ? "" : (stryCov_9fa48("3579"), "boolean")))))) || (stryMutAct_9fa48("3581") ? value !== null : stryMutAct_9fa48("3580") ? false : (stryCov_9fa48("3580", "3581"), value === null)))) out[name] = value;else out[name] = String(value);
      }
    }
    return out;
  }
}

/** Keeps column order stable: the union of keys in first-seen order. */
export class ColumnSet {
  private readonly seen = new Set<string>();
  readonly columns: string[] = stryMutAct_9fa48("3582") ? ["Stryker was here"] : (stryCov_9fa48("3582"), []);
  add(keys: Iterable<string>): void {
    if (stryMutAct_9fa48("3583")) {
      {}
    } else {
      stryCov_9fa48("3583");
      for (const key of keys) {
        if (stryMutAct_9fa48("3584")) {
          {}
        } else {
          stryCov_9fa48("3584");
          if (stryMutAct_9fa48("3587") ? false : stryMutAct_9fa48("3586") ? true : stryMutAct_9fa48("3585") ? this.seen.has(key) : (stryCov_9fa48("3585", "3586", "3587"), !this.seen.has(key))) {
            if (stryMutAct_9fa48("3588")) {
              {}
            } else {
              stryCov_9fa48("3588");
              this.seen.add(key);
              this.columns.push(key);
            }
          }
        }
      }
    }
  }
  has(key: string): boolean {
    if (stryMutAct_9fa48("3589")) {
      {}
    } else {
      stryCov_9fa48("3589");
      return this.seen.has(key);
    }
  }
}