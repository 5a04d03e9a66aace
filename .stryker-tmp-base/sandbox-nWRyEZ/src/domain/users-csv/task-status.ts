// @ts-nocheck
// The status of a bulk-import task from a bulk-import/status answer (docs/service-spec.md §4.9: "the task
// status, one of SCHEDULED, STARTED, COMPLETED, FAILED. The response field names: not
// shown"). service-notes.md: `status` is the natural guess, accept it by shape. So:
//
// 1. a bare string answer that is a state;
// 2. a field named like a status (`status`, `state`, `taskStatus`, `importStatus`) whose
//    value is a state — names compared ignoring case, the value too;
// 3. else the one field whose value is exactly a state, searched among the top-level fields
//    and then one level down (`{task: {…}}`). Two fields with different states is a guess
//    we refuse to make.
//
// Anything else is an UnexpectedResponseError (exit 8): the service said something we
// cannot read, which is never the user's fault — and guessing "still running" would make
// a --wait spin until its timeout for nothing.
//
// Pure: no I/O.
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
import { UnexpectedResponseError } from "../../errors.js";
import { isPlainObject, type JsonRecord } from "../records.js";

/** The states of a bulk-import task (docs/service-spec.md §4.9); api/schemas.ts builds its schema from them. */
export const IMPORT_TASK_STATES = ["SCHEDULED", "STARTED", "COMPLETED", "FAILED"] as const;
export type ImportTaskState = (typeof IMPORT_TASK_STATES)[number];
const STATUS_NAMES = stryMutAct_9fa48("5436") ? [] : (stryCov_9fa48("5436"), [stryMutAct_9fa48("5437") ? "" : (stryCov_9fa48("5437"), "status"), stryMutAct_9fa48("5438") ? "" : (stryCov_9fa48("5438"), "state"), stryMutAct_9fa48("5439") ? "" : (stryCov_9fa48("5439"), "taskstatus"), stryMutAct_9fa48("5440") ? "" : (stryCov_9fa48("5440"), "importstatus")]);
const TERMINAL: ReadonlySet<ImportTaskState> = new Set(stryMutAct_9fa48("5441") ? [] : (stryCov_9fa48("5441"), [stryMutAct_9fa48("5442") ? "" : (stryCov_9fa48("5442"), "COMPLETED"), stryMutAct_9fa48("5443") ? "" : (stryCov_9fa48("5443"), "FAILED")]));
export function isImportTaskState(value: unknown): value is ImportTaskState {
  if (stryMutAct_9fa48("5444")) {
    {}
  } else {
    stryCov_9fa48("5444");
    return stryMutAct_9fa48("5447") ? typeof value === "string" || (IMPORT_TASK_STATES as readonly string[]).includes(value) : stryMutAct_9fa48("5446") ? false : stryMutAct_9fa48("5445") ? true : (stryCov_9fa48("5445", "5446", "5447"), (stryMutAct_9fa48("5449") ? typeof value !== "string" : stryMutAct_9fa48("5448") ? true : (stryCov_9fa48("5448", "5449"), typeof value === (stryMutAct_9fa48("5450") ? "" : (stryCov_9fa48("5450"), "string")))) && (IMPORT_TASK_STATES as readonly string[]).includes(value));
  }
}
export function isTerminalState(state: ImportTaskState): boolean {
  if (stryMutAct_9fa48("5451")) {
    {}
  } else {
    stryCov_9fa48("5451");
    return TERMINAL.has(state);
  }
}
function loose(value: unknown): ImportTaskState | undefined {
  if (stryMutAct_9fa48("5452")) {
    {}
  } else {
    stryCov_9fa48("5452");
    if (stryMutAct_9fa48("5455") ? typeof value === "string" : stryMutAct_9fa48("5454") ? false : stryMutAct_9fa48("5453") ? true : (stryCov_9fa48("5453", "5454", "5455"), typeof value !== (stryMutAct_9fa48("5456") ? "" : (stryCov_9fa48("5456"), "string")))) return undefined;
    const upper = stryMutAct_9fa48("5458") ? value.toUpperCase() : stryMutAct_9fa48("5457") ? value.trim().toLowerCase() : (stryCov_9fa48("5457", "5458"), value.trim().toUpperCase());
    return isImportTaskState(upper) ? upper : undefined;
  }
}
function byName(object: JsonRecord): ImportTaskState | undefined {
  if (stryMutAct_9fa48("5459")) {
    {}
  } else {
    stryCov_9fa48("5459");
    for (const name of STATUS_NAMES) {
      if (stryMutAct_9fa48("5460")) {
        {}
      } else {
        stryCov_9fa48("5460");
        for (const [key, value] of Object.entries(object)) {
          if (stryMutAct_9fa48("5461")) {
            {}
          } else {
            stryCov_9fa48("5461");
            if (stryMutAct_9fa48("5464") ? key.toLowerCase() !== name : stryMutAct_9fa48("5463") ? false : stryMutAct_9fa48("5462") ? true : (stryCov_9fa48("5462", "5463", "5464"), (stryMutAct_9fa48("5465") ? key.toUpperCase() : (stryCov_9fa48("5465"), key.toLowerCase())) === name)) {
              if (stryMutAct_9fa48("5466")) {
                {}
              } else {
                stryCov_9fa48("5466");
                const state = loose(value);
                if (stryMutAct_9fa48("5468") ? false : stryMutAct_9fa48("5467") ? true : (stryCov_9fa48("5467", "5468"), state)) return state;
              }
            }
          }
        }
      }
    }
    return undefined;
  }
}
function distinctStates(values: unknown[]): ImportTaskState[] {
  if (stryMutAct_9fa48("5469")) {
    {}
  } else {
    stryCov_9fa48("5469");
    return stryMutAct_9fa48("5470") ? [] : (stryCov_9fa48("5470"), [...new Set(stryMutAct_9fa48("5471") ? values : (stryCov_9fa48("5471"), values.filter(isImportTaskState)))]);
  }
}

/** The task's state in a status answer of any reasonable shape; UnexpectedResponseError otherwise. */
export function taskStateOf(body: unknown, taskId?: string): ImportTaskState {
  if (stryMutAct_9fa48("5472")) {
    {}
  } else {
    stryCov_9fa48("5472");
    const fail = stryMutAct_9fa48("5473") ? () => undefined : (stryCov_9fa48("5473"), (() => {
      const fail = (why: string): UnexpectedResponseError => new UnexpectedResponseError(stryMutAct_9fa48("5474") ? `` : (stryCov_9fa48("5474"), `bulk import status${(stryMutAct_9fa48("5477") ? taskId !== undefined : stryMutAct_9fa48("5476") ? false : stryMutAct_9fa48("5475") ? true : (stryCov_9fa48("5475", "5476", "5477"), taskId === undefined)) ? stryMutAct_9fa48("5478") ? "Stryker was here!" : (stryCov_9fa48("5478"), "") : stryMutAct_9fa48("5479") ? `` : (stryCov_9fa48("5479"), ` of ${taskId}`)}: the service answered something unexpected (${why})`));
      return fail;
    })());
    const bare = loose(body);
    if (stryMutAct_9fa48("5481") ? false : stryMutAct_9fa48("5480") ? true : (stryCov_9fa48("5480", "5481"), bare)) return bare;
    if (stryMutAct_9fa48("5484") ? false : stryMutAct_9fa48("5483") ? true : stryMutAct_9fa48("5482") ? isPlainObject(body) : (stryCov_9fa48("5482", "5483", "5484"), !isPlainObject(body))) throw fail(stryMutAct_9fa48("5485") ? "" : (stryCov_9fa48("5485"), "not an object"));
    const named = byName(body);
    if (stryMutAct_9fa48("5487") ? false : stryMutAct_9fa48("5486") ? true : (stryCov_9fa48("5486", "5487"), named)) return named;
    const nested = stryMutAct_9fa48("5488") ? Object.values(body) : (stryCov_9fa48("5488"), Object.values(body).filter(isPlainObject));
    for (const object of nested) {
      if (stryMutAct_9fa48("5489")) {
        {}
      } else {
        stryCov_9fa48("5489");
        const inner = byName(object);
        if (stryMutAct_9fa48("5491") ? false : stryMutAct_9fa48("5490") ? true : (stryCov_9fa48("5490", "5491"), inner)) return inner;
      }
    }
    const top = distinctStates(Object.values(body));
    if (stryMutAct_9fa48("5495") ? top.length <= 1 : stryMutAct_9fa48("5494") ? top.length >= 1 : stryMutAct_9fa48("5493") ? false : stryMutAct_9fa48("5492") ? true : (stryCov_9fa48("5492", "5493", "5494", "5495"), top.length > 1)) throw fail(stryMutAct_9fa48("5496") ? `` : (stryCov_9fa48("5496"), `several states: ${top.join(stryMutAct_9fa48("5497") ? "" : (stryCov_9fa48("5497"), ", "))}`));
    if (stryMutAct_9fa48("5499") ? false : stryMutAct_9fa48("5498") ? true : (stryCov_9fa48("5498", "5499"), top[0])) return top[0];
    const deeper = distinctStates(nested.flatMap(stryMutAct_9fa48("5500") ? () => undefined : (stryCov_9fa48("5500"), o => Object.values(o))));
    if (stryMutAct_9fa48("5504") ? deeper.length <= 1 : stryMutAct_9fa48("5503") ? deeper.length >= 1 : stryMutAct_9fa48("5502") ? false : stryMutAct_9fa48("5501") ? true : (stryCov_9fa48("5501", "5502", "5503", "5504"), deeper.length > 1)) throw fail(stryMutAct_9fa48("5505") ? `` : (stryCov_9fa48("5505"), `several states: ${deeper.join(stryMutAct_9fa48("5506") ? "" : (stryCov_9fa48("5506"), ", "))}`));
    if (stryMutAct_9fa48("5508") ? false : stryMutAct_9fa48("5507") ? true : (stryCov_9fa48("5507", "5508"), deeper[0])) return deeper[0];
    throw fail(stryMutAct_9fa48("5509") ? `` : (stryCov_9fa48("5509"), `no ${IMPORT_TASK_STATES.join(stryMutAct_9fa48("5510") ? "" : (stryCov_9fa48("5510"), "/"))} status in the answer`));
  }
}

/**
 * One record for output: taskId and status first, then whatever else the service said
 * (by shape; a field the service calls `taskId` or `status` is not repeated).
 */
export function taskStatusRecord(taskId: string, body: unknown): JsonRecord {
  if (stryMutAct_9fa48("5511")) {
    {}
  } else {
    stryCov_9fa48("5511");
    const status = taskStateOf(body, taskId);
    const record: JsonRecord = stryMutAct_9fa48("5512") ? {} : (stryCov_9fa48("5512"), {
      taskId,
      status
    });
    if (stryMutAct_9fa48("5514") ? false : stryMutAct_9fa48("5513") ? true : (stryCov_9fa48("5513", "5514"), isPlainObject(body))) {
      if (stryMutAct_9fa48("5515")) {
        {}
      } else {
        stryCov_9fa48("5515");
        for (const [key, value] of Object.entries(body)) {
          if (stryMutAct_9fa48("5516")) {
            {}
          } else {
            stryCov_9fa48("5516");
            // The state under another name (`state`, `taskStatus`) is the `status` column already.
            if (stryMutAct_9fa48("5519") ? (key === "taskId" || key === "status") && STATUS_NAMES.includes(key.toLowerCase()) && loose(value) === status : stryMutAct_9fa48("5518") ? false : stryMutAct_9fa48("5517") ? true : (stryCov_9fa48("5517", "5518", "5519"), (stryMutAct_9fa48("5521") ? key === "taskId" && key === "status" : stryMutAct_9fa48("5520") ? false : (stryCov_9fa48("5520", "5521"), (stryMutAct_9fa48("5523") ? key !== "taskId" : stryMutAct_9fa48("5522") ? false : (stryCov_9fa48("5522", "5523"), key === (stryMutAct_9fa48("5524") ? "" : (stryCov_9fa48("5524"), "taskId")))) || (stryMutAct_9fa48("5526") ? key !== "status" : stryMutAct_9fa48("5525") ? false : (stryCov_9fa48("5525", "5526"), key === (stryMutAct_9fa48("5527") ? "" : (stryCov_9fa48("5527"), "status")))))) || (stryMutAct_9fa48("5529") ? STATUS_NAMES.includes(key.toLowerCase()) || loose(value) === status : stryMutAct_9fa48("5528") ? false : (stryCov_9fa48("5528", "5529"), STATUS_NAMES.includes(stryMutAct_9fa48("5530") ? key.toUpperCase() : (stryCov_9fa48("5530"), key.toLowerCase())) && (stryMutAct_9fa48("5532") ? loose(value) !== status : stryMutAct_9fa48("5531") ? true : (stryCov_9fa48("5531", "5532"), loose(value) === status)))))) continue;
            record[key] = value;
          }
        }
      }
    }
    return record;
  }
}