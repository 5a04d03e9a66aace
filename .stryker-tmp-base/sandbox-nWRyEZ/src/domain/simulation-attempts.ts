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

// Completion records (docs/service-spec.md §2, §4.3): every execution attempt of a user at a simulation.
// Pure rules only — the command fetches, this file decides.

/** The fields of a completion record this file reads; the service may send more. */
export interface AttemptLike {
  executionId: string;
  completedAt?: string | null | undefined;
  completionTime?: number | null | undefined;
  score?: number | null | undefined;
  status?: string | null | undefined;
}

/**
 * Spec §2: completed when both `completedAt` and `completionTime` have values, incomplete
 * when both are null. The spec names no third case, so a record with one but not the other
 * is "inconsistent" — shown and warned about, never counted as a completion.
 */
export type AttemptState = "completed" | "incomplete" | "inconsistent";
function hasValue(value: unknown): boolean {
  if (stryMutAct_9fa48("4024")) {
    {}
  } else {
    stryCov_9fa48("4024");
    // An empty string is no timestamp; treat it like null rather than as "completed".
    return stryMutAct_9fa48("4027") ? value !== null && value !== undefined || value !== "" : stryMutAct_9fa48("4026") ? false : stryMutAct_9fa48("4025") ? true : (stryCov_9fa48("4025", "4026", "4027"), (stryMutAct_9fa48("4029") ? value !== null || value !== undefined : stryMutAct_9fa48("4028") ? true : (stryCov_9fa48("4028", "4029"), (stryMutAct_9fa48("4031") ? value === null : stryMutAct_9fa48("4030") ? true : (stryCov_9fa48("4030", "4031"), value !== null)) && (stryMutAct_9fa48("4033") ? value === undefined : stryMutAct_9fa48("4032") ? true : (stryCov_9fa48("4032", "4033"), value !== undefined)))) && (stryMutAct_9fa48("4035") ? value === "" : stryMutAct_9fa48("4034") ? true : (stryCov_9fa48("4034", "4035"), value !== (stryMutAct_9fa48("4036") ? "Stryker was here!" : (stryCov_9fa48("4036"), "")))));
  }
}
export function classifyAttempt(attempt: AttemptLike): AttemptState {
  if (stryMutAct_9fa48("4037")) {
    {}
  } else {
    stryCov_9fa48("4037");
    const at = hasValue(attempt.completedAt);
    const time = hasValue(attempt.completionTime);
    if (stryMutAct_9fa48("4040") ? at || time : stryMutAct_9fa48("4039") ? false : stryMutAct_9fa48("4038") ? true : (stryCov_9fa48("4038", "4039", "4040"), at && time)) return stryMutAct_9fa48("4041") ? "" : (stryCov_9fa48("4041"), "completed");
    if (stryMutAct_9fa48("4044") ? !at || !time : stryMutAct_9fa48("4043") ? false : stryMutAct_9fa48("4042") ? true : (stryCov_9fa48("4042", "4043", "4044"), (stryMutAct_9fa48("4045") ? at : (stryCov_9fa48("4045"), !at)) && (stryMutAct_9fa48("4046") ? time : (stryCov_9fa48("4046"), !time)))) return stryMutAct_9fa48("4047") ? "" : (stryCov_9fa48("4047"), "incomplete");
    return stryMutAct_9fa48("4048") ? "" : (stryCov_9fa48("4048"), "inconsistent");
  }
}

/** Why an attempt is inconsistent, for the warning on stderr. */
export function describeInconsistency(attempt: AttemptLike): string {
  if (stryMutAct_9fa48("4049")) {
    {}
  } else {
    stryCov_9fa48("4049");
    return hasValue(attempt.completedAt) ? stryMutAct_9fa48("4050") ? "" : (stryCov_9fa48("4050"), "it has completedAt but no completionTime") : stryMutAct_9fa48("4051") ? "" : (stryCov_9fa48("4051"), "it has completionTime but no completedAt");
  }
}
const ISO_TIMESTAMP = stryMutAct_9fa48("4076") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\D{2}))?$/i : stryMutAct_9fa48("4075") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d))?$/i : stryMutAct_9fa48("4074") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/i : stryMutAct_9fa48("4073") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\D{2}:?\d{2}))?$/i : stryMutAct_9fa48("4072") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d:?\d{2}))?$/i : stryMutAct_9fa48("4071") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[^+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4070") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\D+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4069") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4068") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+))?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4067") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\D{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4066") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d)(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4065") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4064") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\D{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4063") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d)(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4062") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\D{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4061") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4060") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))$/i : stryMutAct_9fa48("4059") ? /^(\d{4})-(\d{2})-(\D{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4058") ? /^(\d{4})-(\d{2})-(\d)(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4057") ? /^(\d{4})-(\D{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4056") ? /^(\d{4})-(\d)-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4055") ? /^(\D{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4054") ? /^(\d)-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : stryMutAct_9fa48("4053") ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?/i : stryMutAct_9fa48("4052") ? /(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i : (stryCov_9fa48("4052", "4053", "4054", "4055", "4056", "4057", "4058", "4059", "4060", "4061", "4062", "4063", "4064", "4065", "4066", "4067", "4068", "4069", "4070", "4071", "4072", "4073", "4074", "4075", "4076"), /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/i);

/**
 * --since: an ISO 8601 date (`2026-01-10`, midnight UTC) or date-time WITH a zone (`Z` or
 * `+02:00`). A date-time without a zone is refused: JavaScript would read it as local time,
 * and the service's timestamps are UTC (docs/service-spec.md §2), so the cut would move with the machine.
 * Returns milliseconds since the epoch.
 */
export function parseSince(text: string, flag = stryMutAct_9fa48("4077") ? "" : (stryCov_9fa48("4077"), "--since")): number {
  if (stryMutAct_9fa48("4078")) {
    {}
  } else {
    stryCov_9fa48("4078");
    const input = stryMutAct_9fa48("4079") ? text : (stryCov_9fa48("4079"), text.trim());
    const bad = stryMutAct_9fa48("4080") ? () => undefined : (stryCov_9fa48("4080"), (() => {
      const bad = (why: string): UsageError => new UsageError(stryMutAct_9fa48("4081") ? `` : (stryCov_9fa48("4081"), `${flag}: ${JSON.stringify(text)} ${why}; use e.g. 2026-01-10 or 2026-01-10T14:30:00Z`));
      return bad;
    })());
    const match = ISO_TIMESTAMP.exec(input);
    if (stryMutAct_9fa48("4084") ? false : stryMutAct_9fa48("4083") ? true : stryMutAct_9fa48("4082") ? match : (stryCov_9fa48("4082", "4083", "4084"), !match)) {
      if (stryMutAct_9fa48("4085")) {
        {}
      } else {
        stryCov_9fa48("4085");
        if (stryMutAct_9fa48("4087") ? false : stryMutAct_9fa48("4086") ? true : (stryCov_9fa48("4086", "4087"), (stryMutAct_9fa48("4105") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\D+)?)?$/ : stryMutAct_9fa48("4104") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d)?)?$/ : stryMutAct_9fa48("4103") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+))?$/ : stryMutAct_9fa48("4102") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\D{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4101") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d(\.\d+)?)?$/ : stryMutAct_9fa48("4100") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)$/ : stryMutAct_9fa48("4099") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\D{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4098") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4097") ? /^\d{4}-\d{2}-\d{2}T\D{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4096") ? /^\d{4}-\d{2}-\d{2}T\d:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4095") ? /^\d{4}-\d{2}-\D{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4094") ? /^\d{4}-\d{2}-\dT\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4093") ? /^\d{4}-\D{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4092") ? /^\d{4}-\d-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4091") ? /^\D{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4090") ? /^\d-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : stryMutAct_9fa48("4089") ? /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?/ : stryMutAct_9fa48("4088") ? /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/ : (stryCov_9fa48("4088", "4089", "4090", "4091", "4092", "4093", "4094", "4095", "4096", "4097", "4098", "4099", "4100", "4101", "4102", "4103", "4104", "4105"), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/)).test(input))) throw bad(stryMutAct_9fa48("4106") ? "" : (stryCov_9fa48("4106"), "has no time zone (add Z for UTC)"));
        throw bad(stryMutAct_9fa48("4107") ? "" : (stryCov_9fa48("4107"), "is not an ISO 8601 timestamp"));
      }
    }
    const [, y = stryMutAct_9fa48("4108") ? "Stryker was here!" : (stryCov_9fa48("4108"), ""), mo = stryMutAct_9fa48("4109") ? "Stryker was here!" : (stryCov_9fa48("4109"), ""), d = stryMutAct_9fa48("4110") ? "Stryker was here!" : (stryCov_9fa48("4110"), ""), h, mi, s] = match;
    const day = new Date(Date.UTC(Number(y), stryMutAct_9fa48("4111") ? Number(mo) + 1 : (stryCov_9fa48("4111"), Number(mo) - 1), Number(d)));
    // Date.parse rolls 2026-02-30 over into March; a real calendar date is required.
    if (stryMutAct_9fa48("4114") ? (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1) && day.getUTCDate() !== Number(d) : stryMutAct_9fa48("4113") ? false : stryMutAct_9fa48("4112") ? true : (stryCov_9fa48("4112", "4113", "4114"), (stryMutAct_9fa48("4116") ? day.getUTCFullYear() !== Number(y) && day.getUTCMonth() !== Number(mo) - 1 : stryMutAct_9fa48("4115") ? false : (stryCov_9fa48("4115", "4116"), (stryMutAct_9fa48("4118") ? day.getUTCFullYear() === Number(y) : stryMutAct_9fa48("4117") ? false : (stryCov_9fa48("4117", "4118"), day.getUTCFullYear() !== Number(y))) || (stryMutAct_9fa48("4120") ? day.getUTCMonth() === Number(mo) - 1 : stryMutAct_9fa48("4119") ? false : (stryCov_9fa48("4119", "4120"), day.getUTCMonth() !== (stryMutAct_9fa48("4121") ? Number(mo) + 1 : (stryCov_9fa48("4121"), Number(mo) - 1)))))) || (stryMutAct_9fa48("4123") ? day.getUTCDate() === Number(d) : stryMutAct_9fa48("4122") ? false : (stryCov_9fa48("4122", "4123"), day.getUTCDate() !== Number(d))))) {
      if (stryMutAct_9fa48("4124")) {
        {}
      } else {
        stryCov_9fa48("4124");
        throw bad(stryMutAct_9fa48("4125") ? "" : (stryCov_9fa48("4125"), "is not a real calendar date"));
      }
    }
    if (stryMutAct_9fa48("4128") ? (h !== undefined && Number(h) > 23 || mi !== undefined && Number(mi) > 59) && s !== undefined && Number(s) > 59 : stryMutAct_9fa48("4127") ? false : stryMutAct_9fa48("4126") ? true : (stryCov_9fa48("4126", "4127", "4128"), (stryMutAct_9fa48("4130") ? h !== undefined && Number(h) > 23 && mi !== undefined && Number(mi) > 59 : stryMutAct_9fa48("4129") ? false : (stryCov_9fa48("4129", "4130"), (stryMutAct_9fa48("4132") ? h !== undefined || Number(h) > 23 : stryMutAct_9fa48("4131") ? false : (stryCov_9fa48("4131", "4132"), (stryMutAct_9fa48("4134") ? h === undefined : stryMutAct_9fa48("4133") ? true : (stryCov_9fa48("4133", "4134"), h !== undefined)) && (stryMutAct_9fa48("4137") ? Number(h) <= 23 : stryMutAct_9fa48("4136") ? Number(h) >= 23 : stryMutAct_9fa48("4135") ? true : (stryCov_9fa48("4135", "4136", "4137"), Number(h) > 23)))) || (stryMutAct_9fa48("4139") ? mi !== undefined || Number(mi) > 59 : stryMutAct_9fa48("4138") ? false : (stryCov_9fa48("4138", "4139"), (stryMutAct_9fa48("4141") ? mi === undefined : stryMutAct_9fa48("4140") ? true : (stryCov_9fa48("4140", "4141"), mi !== undefined)) && (stryMutAct_9fa48("4144") ? Number(mi) <= 59 : stryMutAct_9fa48("4143") ? Number(mi) >= 59 : stryMutAct_9fa48("4142") ? true : (stryCov_9fa48("4142", "4143", "4144"), Number(mi) > 59)))))) || (stryMutAct_9fa48("4146") ? s !== undefined || Number(s) > 59 : stryMutAct_9fa48("4145") ? false : (stryCov_9fa48("4145", "4146"), (stryMutAct_9fa48("4148") ? s === undefined : stryMutAct_9fa48("4147") ? true : (stryCov_9fa48("4147", "4148"), s !== undefined)) && (stryMutAct_9fa48("4151") ? Number(s) <= 59 : stryMutAct_9fa48("4150") ? Number(s) >= 59 : stryMutAct_9fa48("4149") ? true : (stryCov_9fa48("4149", "4150", "4151"), Number(s) > 59)))))) {
      if (stryMutAct_9fa48("4152")) {
        {}
      } else {
        stryCov_9fa48("4152");
        throw bad(stryMutAct_9fa48("4153") ? "" : (stryCov_9fa48("4153"), "is not a valid time of day"));
      }
    }
    const ms = Date.parse(stryMutAct_9fa48("4154") ? input.toLowerCase() : (stryCov_9fa48("4154"), input.toUpperCase()));
    if (stryMutAct_9fa48("4156") ? false : stryMutAct_9fa48("4155") ? true : (stryCov_9fa48("4155", "4156"), Number.isNaN(ms))) throw bad(stryMutAct_9fa48("4157") ? "" : (stryCov_9fa48("4157"), "is not an ISO 8601 timestamp"));
    return ms;
  }
}

/** The time an attempt ended, when it has a readable completedAt. */
export function completedAtMs(attempt: AttemptLike): number | undefined {
  if (stryMutAct_9fa48("4158")) {
    {}
  } else {
    stryCov_9fa48("4158");
    if (stryMutAct_9fa48("4161") ? typeof attempt.completedAt !== "string" && attempt.completedAt === "" : stryMutAct_9fa48("4160") ? false : stryMutAct_9fa48("4159") ? true : (stryCov_9fa48("4159", "4160", "4161"), (stryMutAct_9fa48("4163") ? typeof attempt.completedAt === "string" : stryMutAct_9fa48("4162") ? false : (stryCov_9fa48("4162", "4163"), typeof attempt.completedAt !== (stryMutAct_9fa48("4164") ? "" : (stryCov_9fa48("4164"), "string")))) || (stryMutAct_9fa48("4166") ? attempt.completedAt !== "" : stryMutAct_9fa48("4165") ? false : (stryCov_9fa48("4165", "4166"), attempt.completedAt === (stryMutAct_9fa48("4167") ? "Stryker was here!" : (stryCov_9fa48("4167"), "")))))) return undefined;
    const ms = Date.parse(attempt.completedAt);
    return Number.isNaN(ms) ? undefined : ms;
  }
}

/**
 * --since keeps the attempts that may have happened after it: those that ended strictly
 * after it, and those that have not ended (no completedAt: nothing says when they ran, and
 * hiding an attempt in progress would hide the very thing a waiting user looks for). An
 * attempt with an unreadable completedAt is kept too — we cannot show it is older.
 */
export function filterSince<T extends AttemptLike>(attempts: readonly T[], sinceMs: number | undefined): {
  kept: T[];
  dropped: number;
} {
  if (stryMutAct_9fa48("4168")) {
    {}
  } else {
    stryCov_9fa48("4168");
    if (stryMutAct_9fa48("4171") ? sinceMs !== undefined : stryMutAct_9fa48("4170") ? false : stryMutAct_9fa48("4169") ? true : (stryCov_9fa48("4169", "4170", "4171"), sinceMs === undefined)) return stryMutAct_9fa48("4172") ? {} : (stryCov_9fa48("4172"), {
      kept: stryMutAct_9fa48("4173") ? [] : (stryCov_9fa48("4173"), [...attempts]),
      dropped: 0
    });
    const kept = stryMutAct_9fa48("4174") ? attempts : (stryCov_9fa48("4174"), attempts.filter(attempt => {
      if (stryMutAct_9fa48("4175")) {
        {}
      } else {
        stryCov_9fa48("4175");
        const ended = completedAtMs(attempt);
        return stryMutAct_9fa48("4178") ? ended === undefined && ended > sinceMs : stryMutAct_9fa48("4177") ? false : stryMutAct_9fa48("4176") ? true : (stryCov_9fa48("4176", "4177", "4178"), (stryMutAct_9fa48("4180") ? ended !== undefined : stryMutAct_9fa48("4179") ? false : (stryCov_9fa48("4179", "4180"), ended === undefined)) || (stryMutAct_9fa48("4183") ? ended <= sinceMs : stryMutAct_9fa48("4182") ? ended >= sinceMs : stryMutAct_9fa48("4181") ? false : (stryCov_9fa48("4181", "4182", "4183"), ended > sinceMs)));
      }
    }));
    return stryMutAct_9fa48("4184") ? {} : (stryCov_9fa48("4184"), {
      kept,
      dropped: stryMutAct_9fa48("4185") ? attempts.length + kept.length : (stryCov_9fa48("4185"), attempts.length - kept.length)
    });
  }
}
export interface AttemptSummary {
  attempts: number;
  completed: number;
  incomplete: number;
  inconsistent: number;
  /** Highest score of a completed attempt; null when none has one. */
  bestScore: number | null;
  /** Score of the completed attempt that ended last (latest completedAt). */
  latestScore: number | null;
  latestCompletedAt: string | null;
}
export function summarizeAttempts(attempts: readonly AttemptLike[]): AttemptSummary {
  if (stryMutAct_9fa48("4186")) {
    {}
  } else {
    stryCov_9fa48("4186");
    const summary: AttemptSummary = stryMutAct_9fa48("4187") ? {} : (stryCov_9fa48("4187"), {
      attempts: attempts.length,
      completed: 0,
      incomplete: 0,
      inconsistent: 0,
      bestScore: null,
      latestScore: null,
      latestCompletedAt: null
    });
    let latest: {
      at: number;
      attempt: AttemptLike;
    } | undefined;
    for (const attempt of attempts) {
      if (stryMutAct_9fa48("4188")) {
        {}
      } else {
        stryCov_9fa48("4188");
        const state = classifyAttempt(attempt);
        stryMutAct_9fa48("4189") ? summary[state] -= 1 : (stryCov_9fa48("4189"), summary[state] += 1);
        if (stryMutAct_9fa48("4192") ? state === "completed" : stryMutAct_9fa48("4191") ? false : stryMutAct_9fa48("4190") ? true : (stryCov_9fa48("4190", "4191", "4192"), state !== (stryMutAct_9fa48("4193") ? "" : (stryCov_9fa48("4193"), "completed")))) continue;
        const score = (stryMutAct_9fa48("4196") ? typeof attempt.score === "number" || Number.isFinite(attempt.score) : stryMutAct_9fa48("4195") ? false : stryMutAct_9fa48("4194") ? true : (stryCov_9fa48("4194", "4195", "4196"), (stryMutAct_9fa48("4198") ? typeof attempt.score !== "number" : stryMutAct_9fa48("4197") ? true : (stryCov_9fa48("4197", "4198"), typeof attempt.score === (stryMutAct_9fa48("4199") ? "" : (stryCov_9fa48("4199"), "number")))) && Number.isFinite(attempt.score))) ? attempt.score : null;
        if (stryMutAct_9fa48("4202") ? score !== null || summary.bestScore === null || score > summary.bestScore : stryMutAct_9fa48("4201") ? false : stryMutAct_9fa48("4200") ? true : (stryCov_9fa48("4200", "4201", "4202"), (stryMutAct_9fa48("4204") ? score === null : stryMutAct_9fa48("4203") ? true : (stryCov_9fa48("4203", "4204"), score !== null)) && (stryMutAct_9fa48("4206") ? summary.bestScore === null && score > summary.bestScore : stryMutAct_9fa48("4205") ? true : (stryCov_9fa48("4205", "4206"), (stryMutAct_9fa48("4208") ? summary.bestScore !== null : stryMutAct_9fa48("4207") ? false : (stryCov_9fa48("4207", "4208"), summary.bestScore === null)) || (stryMutAct_9fa48("4211") ? score <= summary.bestScore : stryMutAct_9fa48("4210") ? score >= summary.bestScore : stryMutAct_9fa48("4209") ? false : (stryCov_9fa48("4209", "4210", "4211"), score > summary.bestScore)))))) summary.bestScore = score;
        // Latest by completedAt; on a tie or an unreadable time, the later record in the answer.
        const at = stryMutAct_9fa48("4212") ? completedAtMs(attempt) && Number.NEGATIVE_INFINITY : (stryCov_9fa48("4212"), completedAtMs(attempt) ?? Number.NEGATIVE_INFINITY);
        if (stryMutAct_9fa48("4215") ? !latest && at >= latest.at : stryMutAct_9fa48("4214") ? false : stryMutAct_9fa48("4213") ? true : (stryCov_9fa48("4213", "4214", "4215"), (stryMutAct_9fa48("4216") ? latest : (stryCov_9fa48("4216"), !latest)) || (stryMutAct_9fa48("4219") ? at < latest.at : stryMutAct_9fa48("4218") ? at > latest.at : stryMutAct_9fa48("4217") ? false : (stryCov_9fa48("4217", "4218", "4219"), at >= latest.at)))) latest = stryMutAct_9fa48("4220") ? {} : (stryCov_9fa48("4220"), {
          at,
          attempt
        });
      }
    }
    if (stryMutAct_9fa48("4222") ? false : stryMutAct_9fa48("4221") ? true : (stryCov_9fa48("4221", "4222"), latest)) {
      if (stryMutAct_9fa48("4223")) {
        {}
      } else {
        stryCov_9fa48("4223");
        const score = latest.attempt.score;
        summary.latestScore = (stryMutAct_9fa48("4226") ? typeof score === "number" || Number.isFinite(score) : stryMutAct_9fa48("4225") ? false : stryMutAct_9fa48("4224") ? true : (stryCov_9fa48("4224", "4225", "4226"), (stryMutAct_9fa48("4228") ? typeof score !== "number" : stryMutAct_9fa48("4227") ? true : (stryCov_9fa48("4227", "4228"), typeof score === (stryMutAct_9fa48("4229") ? "" : (stryCov_9fa48("4229"), "number")))) && Number.isFinite(score))) ? score : null;
        summary.latestCompletedAt = (stryMutAct_9fa48("4232") ? typeof latest.attempt.completedAt !== "string" : stryMutAct_9fa48("4231") ? false : stryMutAct_9fa48("4230") ? true : (stryCov_9fa48("4230", "4231", "4232"), typeof latest.attempt.completedAt === (stryMutAct_9fa48("4233") ? "" : (stryCov_9fa48("4233"), "string")))) ? latest.attempt.completedAt : null;
      }
    }
    return summary;
  }
}
function formatScore(score: number | null): string {
  if (stryMutAct_9fa48("4234")) {
    {}
  } else {
    stryCov_9fa48("4234");
    return (stryMutAct_9fa48("4237") ? score !== null : stryMutAct_9fa48("4236") ? false : stryMutAct_9fa48("4235") ? true : (stryCov_9fa48("4235", "4236", "4237"), score === null)) ? stryMutAct_9fa48("4238") ? "" : (stryCov_9fa48("4238"), "none") : String(score);
  }
}

/** One line for stderr, e.g. "4 attempts, 2 completed — best score 91.25, latest 91.25 (2026-01-12T14:39:05Z)". */
export function formatSummary(summary: AttemptSummary, sinceText?: string): string {
  if (stryMutAct_9fa48("4239")) {
    {}
  } else {
    stryCov_9fa48("4239");
    const after = sinceText ? stryMutAct_9fa48("4240") ? `` : (stryCov_9fa48("4240"), ` after ${sinceText}`) : stryMutAct_9fa48("4241") ? "Stryker was here!" : (stryCov_9fa48("4241"), "");
    if (stryMutAct_9fa48("4244") ? summary.attempts !== 0 : stryMutAct_9fa48("4243") ? false : stryMutAct_9fa48("4242") ? true : (stryCov_9fa48("4242", "4243", "4244"), summary.attempts === 0)) return stryMutAct_9fa48("4245") ? `` : (stryCov_9fa48("4245"), `no attempts${after}`);
    const counts = stryMutAct_9fa48("4246") ? [] : (stryCov_9fa48("4246"), [stryMutAct_9fa48("4247") ? `` : (stryCov_9fa48("4247"), `${summary.attempts} attempt${(stryMutAct_9fa48("4250") ? summary.attempts !== 1 : stryMutAct_9fa48("4249") ? false : stryMutAct_9fa48("4248") ? true : (stryCov_9fa48("4248", "4249", "4250"), summary.attempts === 1)) ? stryMutAct_9fa48("4251") ? "Stryker was here!" : (stryCov_9fa48("4251"), "") : stryMutAct_9fa48("4252") ? "" : (stryCov_9fa48("4252"), "s")}${after}`), stryMutAct_9fa48("4253") ? `` : (stryCov_9fa48("4253"), `${summary.completed} completed`)]);
    if (stryMutAct_9fa48("4257") ? summary.inconsistent <= 0 : stryMutAct_9fa48("4256") ? summary.inconsistent >= 0 : stryMutAct_9fa48("4255") ? false : stryMutAct_9fa48("4254") ? true : (stryCov_9fa48("4254", "4255", "4256", "4257"), summary.inconsistent > 0)) counts.push(stryMutAct_9fa48("4258") ? `` : (stryCov_9fa48("4258"), `${summary.inconsistent} inconsistent`));
    if (stryMutAct_9fa48("4261") ? summary.completed !== 0 : stryMutAct_9fa48("4260") ? false : stryMutAct_9fa48("4259") ? true : (stryCov_9fa48("4259", "4260", "4261"), summary.completed === 0)) return counts.join(stryMutAct_9fa48("4262") ? "" : (stryCov_9fa48("4262"), ", "));
    const latestAt = summary.latestCompletedAt ? stryMutAct_9fa48("4263") ? `` : (stryCov_9fa48("4263"), ` (${summary.latestCompletedAt})`) : stryMutAct_9fa48("4264") ? "Stryker was here!" : (stryCov_9fa48("4264"), "");
    return stryMutAct_9fa48("4265") ? `` : (stryCov_9fa48("4265"), `${counts.join(stryMutAct_9fa48("4266") ? "" : (stryCov_9fa48("4266"), ", "))} — best score ${formatScore(summary.bestScore)}, latest ${formatScore(summary.latestScore)}${latestAt}`);
  }
}