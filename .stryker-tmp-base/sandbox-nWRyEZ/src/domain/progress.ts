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
import { classifyAttempt, completedAtMs, summarizeAttempts, type AttemptLike } from "./simulation-attempts.js";

// `progress --from-csv` (docs/cli-contract.md "Progress"; issue 25): the pure rules — the
// assignment file's rows, a pair's state from its attempts, the order pairs are asked in,
// and the time the access budget needs. No network, clock or files here.

export const PROGRESS_STATES = ["completed", "in-progress", "not-started", "overdue"] as const;
export type ProgressState = (typeof PROGRESS_STATES)[number];

/** The columns every record has, in this order; the file's other columns follow. */
export const PROGRESS_COLUMNS = ["userId", "simulationId", "state", "completedAt", "bestScore", "attempts", "dueDate"] as const;
export interface ProgressRow {
  /** Spreadsheet row number (header = 1). */
  row: number;
  userId: string;
  simulationId: string;
  /** YYYY-MM-DD, or undefined when the file has no dueDate column or the cell is empty. */
  dueDate: string | undefined;
  /** Every other column of the file, by its header name, as read. */
  extra: Record<string, string>;
}
export interface ProgressProblem {
  row: number;
  field: string;
  message: string;
}
export interface ProgressHeader {
  userId: number;
  simulationId: number;
  /** -1 when the file has no dueDate column. */
  dueDate: number;
  /** Header names in file order. */
  names: string[];
}
const DAY_MS = 86_400_000;

/** Milliseconds of 00:00 UTC of a real calendar date `YYYY-MM-DD`, else undefined. */
export function parseDueDate(text: string): number | undefined {
  if (stryMutAct_9fa48("3180")) {
    {}
  } else {
    stryCov_9fa48("3180");
    const m = (stryMutAct_9fa48("3188") ? /^(\d{4})-(\d{2})-(\D{2})$/ : stryMutAct_9fa48("3187") ? /^(\d{4})-(\d{2})-(\d)$/ : stryMutAct_9fa48("3186") ? /^(\d{4})-(\D{2})-(\d{2})$/ : stryMutAct_9fa48("3185") ? /^(\d{4})-(\d)-(\d{2})$/ : stryMutAct_9fa48("3184") ? /^(\D{4})-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("3183") ? /^(\d)-(\d{2})-(\d{2})$/ : stryMutAct_9fa48("3182") ? /^(\d{4})-(\d{2})-(\d{2})/ : stryMutAct_9fa48("3181") ? /(\d{4})-(\d{2})-(\d{2})$/ : (stryCov_9fa48("3181", "3182", "3183", "3184", "3185", "3186", "3187", "3188"), /^(\d{4})-(\d{2})-(\d{2})$/)).exec(text);
    if (stryMutAct_9fa48("3191") ? false : stryMutAct_9fa48("3190") ? true : stryMutAct_9fa48("3189") ? m : (stryCov_9fa48("3189", "3190", "3191"), !m)) return undefined;
    const [y, mo, d] = stryMutAct_9fa48("3192") ? [] : (stryCov_9fa48("3192"), [Number(m[1]), Number(m[2]), Number(m[3])]);
    const ms = Date.UTC(y, stryMutAct_9fa48("3193") ? mo + 1 : (stryCov_9fa48("3193"), mo - 1), d);
    const day = new Date(ms);
    if (stryMutAct_9fa48("3196") ? (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1) && day.getUTCDate() !== d : stryMutAct_9fa48("3195") ? false : stryMutAct_9fa48("3194") ? true : (stryCov_9fa48("3194", "3195", "3196"), (stryMutAct_9fa48("3198") ? day.getUTCFullYear() !== y && day.getUTCMonth() !== mo - 1 : stryMutAct_9fa48("3197") ? false : (stryCov_9fa48("3197", "3198"), (stryMutAct_9fa48("3200") ? day.getUTCFullYear() === y : stryMutAct_9fa48("3199") ? false : (stryCov_9fa48("3199", "3200"), day.getUTCFullYear() !== y)) || (stryMutAct_9fa48("3202") ? day.getUTCMonth() === mo - 1 : stryMutAct_9fa48("3201") ? false : (stryCov_9fa48("3201", "3202"), day.getUTCMonth() !== (stryMutAct_9fa48("3203") ? mo + 1 : (stryCov_9fa48("3203"), mo - 1)))))) || (stryMutAct_9fa48("3205") ? day.getUTCDate() === d : stryMutAct_9fa48("3204") ? false : (stryCov_9fa48("3204", "3205"), day.getUTCDate() !== d)))) return undefined;
    return ms;
  }
}

/**
 * Checks rows in order, like the bulk files (domain/bulk-rows.ts): both ids present, the
 * row as wide as the header, a real YYYY-MM-DD dueDate when one is given, each pair once.
 * Blank rows are skipped.
 */
export class ProgressRowChecker {
  readonly rows: ProgressRow[] = stryMutAct_9fa48("3206") ? ["Stryker was here"] : (stryCov_9fa48("3206"), []);
  readonly problems: ProgressProblem[] = stryMutAct_9fa48("3207") ? ["Stryker was here"] : (stryCov_9fa48("3207"), []);
  private readonly seen = new Map<string, number>();
  constructor(private readonly header: ProgressHeader) {}
  add(cells: readonly string[], row: number): void {
    if (stryMutAct_9fa48("3208")) {
      {}
    } else {
      stryCov_9fa48("3208");
      if (stryMutAct_9fa48("3211") ? cells.some(c => c.trim() === "") : stryMutAct_9fa48("3210") ? false : stryMutAct_9fa48("3209") ? true : (stryCov_9fa48("3209", "3210", "3211"), cells.every(stryMutAct_9fa48("3212") ? () => undefined : (stryCov_9fa48("3212"), c => stryMutAct_9fa48("3215") ? c.trim() !== "" : stryMutAct_9fa48("3214") ? false : stryMutAct_9fa48("3213") ? true : (stryCov_9fa48("3213", "3214", "3215"), (stryMutAct_9fa48("3216") ? c : (stryCov_9fa48("3216"), c.trim())) === (stryMutAct_9fa48("3217") ? "Stryker was here!" : (stryCov_9fa48("3217"), ""))))))) return;
      const before = this.problems.length;
      const {
        header
      } = this;
      if (stryMutAct_9fa48("3220") ? cells.length === header.names.length : stryMutAct_9fa48("3219") ? false : stryMutAct_9fa48("3218") ? true : (stryCov_9fa48("3218", "3219", "3220"), cells.length !== header.names.length)) {
        if (stryMutAct_9fa48("3221")) {
          {}
        } else {
          stryCov_9fa48("3221");
          this.problems.push(stryMutAct_9fa48("3222") ? {} : (stryCov_9fa48("3222"), {
            row,
            field: stryMutAct_9fa48("3223") ? "" : (stryCov_9fa48("3223"), "(row)"),
            message: stryMutAct_9fa48("3224") ? `` : (stryCov_9fa48("3224"), `has ${cells.length} cells, the header has ${header.names.length}`)
          }));
        }
      }
      const userId = stryMutAct_9fa48("3225") ? cells[header.userId] ?? "" : (stryCov_9fa48("3225"), (stryMutAct_9fa48("3226") ? cells[header.userId] && "" : (stryCov_9fa48("3226"), cells[header.userId] ?? (stryMutAct_9fa48("3227") ? "Stryker was here!" : (stryCov_9fa48("3227"), "")))).trim());
      const simulationId = stryMutAct_9fa48("3228") ? cells[header.simulationId] ?? "" : (stryCov_9fa48("3228"), (stryMutAct_9fa48("3229") ? cells[header.simulationId] && "" : (stryCov_9fa48("3229"), cells[header.simulationId] ?? (stryMutAct_9fa48("3230") ? "Stryker was here!" : (stryCov_9fa48("3230"), "")))).trim());
      const due = (stryMutAct_9fa48("3234") ? header.dueDate < 0 : stryMutAct_9fa48("3233") ? header.dueDate > 0 : stryMutAct_9fa48("3232") ? false : stryMutAct_9fa48("3231") ? true : (stryCov_9fa48("3231", "3232", "3233", "3234"), header.dueDate >= 0)) ? stryMutAct_9fa48("3235") ? cells[header.dueDate] ?? "" : (stryCov_9fa48("3235"), (stryMutAct_9fa48("3236") ? cells[header.dueDate] && "" : (stryCov_9fa48("3236"), cells[header.dueDate] ?? (stryMutAct_9fa48("3237") ? "Stryker was here!" : (stryCov_9fa48("3237"), "")))).trim()) : stryMutAct_9fa48("3238") ? "Stryker was here!" : (stryCov_9fa48("3238"), "");
      if (stryMutAct_9fa48("3241") ? userId !== "" : stryMutAct_9fa48("3240") ? false : stryMutAct_9fa48("3239") ? true : (stryCov_9fa48("3239", "3240", "3241"), userId === (stryMutAct_9fa48("3242") ? "Stryker was here!" : (stryCov_9fa48("3242"), "")))) this.problems.push(stryMutAct_9fa48("3243") ? {} : (stryCov_9fa48("3243"), {
        row,
        field: stryMutAct_9fa48("3244") ? "" : (stryCov_9fa48("3244"), "userId"),
        message: stryMutAct_9fa48("3245") ? "" : (stryCov_9fa48("3245"), "is empty")
      }));
      if (stryMutAct_9fa48("3248") ? simulationId !== "" : stryMutAct_9fa48("3247") ? false : stryMutAct_9fa48("3246") ? true : (stryCov_9fa48("3246", "3247", "3248"), simulationId === (stryMutAct_9fa48("3249") ? "Stryker was here!" : (stryCov_9fa48("3249"), "")))) this.problems.push(stryMutAct_9fa48("3250") ? {} : (stryCov_9fa48("3250"), {
        row,
        field: stryMutAct_9fa48("3251") ? "" : (stryCov_9fa48("3251"), "simulationId"),
        message: stryMutAct_9fa48("3252") ? "" : (stryCov_9fa48("3252"), "is empty")
      }));
      if (stryMutAct_9fa48("3255") ? due !== "" || parseDueDate(due) === undefined : stryMutAct_9fa48("3254") ? false : stryMutAct_9fa48("3253") ? true : (stryCov_9fa48("3253", "3254", "3255"), (stryMutAct_9fa48("3257") ? due === "" : stryMutAct_9fa48("3256") ? true : (stryCov_9fa48("3256", "3257"), due !== (stryMutAct_9fa48("3258") ? "Stryker was here!" : (stryCov_9fa48("3258"), "")))) && (stryMutAct_9fa48("3260") ? parseDueDate(due) !== undefined : stryMutAct_9fa48("3259") ? true : (stryCov_9fa48("3259", "3260"), parseDueDate(due) === undefined)))) {
        if (stryMutAct_9fa48("3261")) {
          {}
        } else {
          stryCov_9fa48("3261");
          this.problems.push(stryMutAct_9fa48("3262") ? {} : (stryCov_9fa48("3262"), {
            row,
            field: stryMutAct_9fa48("3263") ? "" : (stryCov_9fa48("3263"), "dueDate"),
            message: stryMutAct_9fa48("3264") ? `` : (stryCov_9fa48("3264"), `${JSON.stringify(stryMutAct_9fa48("3265") ? due : (stryCov_9fa48("3265"), due.slice(0, 30)))} is not a date YYYY-MM-DD (e.g. 2026-12-31)`)
          }));
        }
      }
      if (stryMutAct_9fa48("3268") ? userId !== "" || simulationId !== "" : stryMutAct_9fa48("3267") ? false : stryMutAct_9fa48("3266") ? true : (stryCov_9fa48("3266", "3267", "3268"), (stryMutAct_9fa48("3270") ? userId === "" : stryMutAct_9fa48("3269") ? true : (stryCov_9fa48("3269", "3270"), userId !== (stryMutAct_9fa48("3271") ? "Stryker was here!" : (stryCov_9fa48("3271"), "")))) && (stryMutAct_9fa48("3273") ? simulationId === "" : stryMutAct_9fa48("3272") ? true : (stryCov_9fa48("3272", "3273"), simulationId !== (stryMutAct_9fa48("3274") ? "Stryker was here!" : (stryCov_9fa48("3274"), "")))))) {
        if (stryMutAct_9fa48("3275")) {
          {}
        } else {
          stryCov_9fa48("3275");
          const key = JSON.stringify(stryMutAct_9fa48("3276") ? [] : (stryCov_9fa48("3276"), [userId, simulationId]));
          const first = this.seen.get(key);
          if (stryMutAct_9fa48("3279") ? first === undefined : stryMutAct_9fa48("3278") ? false : stryMutAct_9fa48("3277") ? true : (stryCov_9fa48("3277", "3278", "3279"), first !== undefined)) {
            if (stryMutAct_9fa48("3280")) {
              {}
            } else {
              stryCov_9fa48("3280");
              this.problems.push(stryMutAct_9fa48("3281") ? {} : (stryCov_9fa48("3281"), {
                row,
                field: stryMutAct_9fa48("3282") ? "" : (stryCov_9fa48("3282"), "(row)"),
                message: stryMutAct_9fa48("3283") ? `` : (stryCov_9fa48("3283"), `repeats the pair ${userId} / ${simulationId} of row ${first}`)
              }));
            }
          } else this.seen.set(key, row);
        }
      }
      if (stryMutAct_9fa48("3286") ? this.problems.length === before : stryMutAct_9fa48("3285") ? false : stryMutAct_9fa48("3284") ? true : (stryCov_9fa48("3284", "3285", "3286"), this.problems.length !== before)) return;
      const extra: Record<string, string> = {};
      header.names.forEach((name, i) => {
        if (stryMutAct_9fa48("3287")) {
          {}
        } else {
          stryCov_9fa48("3287");
          if (stryMutAct_9fa48("3290") ? i !== header.userId && i !== header.simulationId || i !== header.dueDate : stryMutAct_9fa48("3289") ? false : stryMutAct_9fa48("3288") ? true : (stryCov_9fa48("3288", "3289", "3290"), (stryMutAct_9fa48("3292") ? i !== header.userId || i !== header.simulationId : stryMutAct_9fa48("3291") ? true : (stryCov_9fa48("3291", "3292"), (stryMutAct_9fa48("3294") ? i === header.userId : stryMutAct_9fa48("3293") ? true : (stryCov_9fa48("3293", "3294"), i !== header.userId)) && (stryMutAct_9fa48("3296") ? i === header.simulationId : stryMutAct_9fa48("3295") ? true : (stryCov_9fa48("3295", "3296"), i !== header.simulationId)))) && (stryMutAct_9fa48("3298") ? i === header.dueDate : stryMutAct_9fa48("3297") ? true : (stryCov_9fa48("3297", "3298"), i !== header.dueDate)))) extra[name] = stryMutAct_9fa48("3299") ? cells[i] && "" : (stryCov_9fa48("3299"), cells[i] ?? (stryMutAct_9fa48("3300") ? "Stryker was here!" : (stryCov_9fa48("3300"), "")));
        }
      });
      this.rows.push(stryMutAct_9fa48("3301") ? {} : (stryCov_9fa48("3301"), {
        row,
        userId,
        simulationId,
        dueDate: (stryMutAct_9fa48("3304") ? due !== "" : stryMutAct_9fa48("3303") ? false : stryMutAct_9fa48("3302") ? true : (stryCov_9fa48("3302", "3303", "3304"), due === (stryMutAct_9fa48("3305") ? "Stryker was here!" : (stryCov_9fa48("3305"), "")))) ? undefined : due,
        extra
      }));
    }
  }
}

/** What completion-data told about one pair (or what the cache kept of a completed one). */
export interface PairFacts {
  completed: boolean;
  /** Attempts neither completed nor null-null inconsistent: started or interrupted ones. */
  incomplete: number;
  attempts: number;
  /** The first completion (earliest completedAt). */
  completedAt: string | null;
  bestScore: number | null;
}

/** The facts of one pair from its attempts (docs/service-spec.md §2: completed = both completedAt and completionTime). */
export function pairFacts(attempts: readonly AttemptLike[]): PairFacts {
  if (stryMutAct_9fa48("3306")) {
    {}
  } else {
    stryCov_9fa48("3306");
    const summary = summarizeAttempts(attempts);
    let first: {
      at: number;
      text: string;
    } | undefined;
    for (const attempt of attempts) {
      if (stryMutAct_9fa48("3307")) {
        {}
      } else {
        stryCov_9fa48("3307");
        if (stryMutAct_9fa48("3310") ? classifyAttempt(attempt) === "completed" : stryMutAct_9fa48("3309") ? false : stryMutAct_9fa48("3308") ? true : (stryCov_9fa48("3308", "3309", "3310"), classifyAttempt(attempt) !== (stryMutAct_9fa48("3311") ? "" : (stryCov_9fa48("3311"), "completed")))) continue;
        const at = stryMutAct_9fa48("3312") ? completedAtMs(attempt) && Number.POSITIVE_INFINITY : (stryCov_9fa48("3312"), completedAtMs(attempt) ?? Number.POSITIVE_INFINITY);
        if (stryMutAct_9fa48("3315") ? !first && at < first.at : stryMutAct_9fa48("3314") ? false : stryMutAct_9fa48("3313") ? true : (stryCov_9fa48("3313", "3314", "3315"), (stryMutAct_9fa48("3316") ? first : (stryCov_9fa48("3316"), !first)) || (stryMutAct_9fa48("3319") ? at >= first.at : stryMutAct_9fa48("3318") ? at <= first.at : stryMutAct_9fa48("3317") ? false : (stryCov_9fa48("3317", "3318", "3319"), at < first.at)))) first = stryMutAct_9fa48("3320") ? {} : (stryCov_9fa48("3320"), {
          at,
          text: (stryMutAct_9fa48("3323") ? typeof attempt.completedAt !== "string" : stryMutAct_9fa48("3322") ? false : stryMutAct_9fa48("3321") ? true : (stryCov_9fa48("3321", "3322", "3323"), typeof attempt.completedAt === (stryMutAct_9fa48("3324") ? "" : (stryCov_9fa48("3324"), "string")))) ? attempt.completedAt : stryMutAct_9fa48("3325") ? "Stryker was here!" : (stryCov_9fa48("3325"), "")
        });
      }
    }
    return stryMutAct_9fa48("3326") ? {} : (stryCov_9fa48("3326"), {
      completed: stryMutAct_9fa48("3330") ? summary.completed <= 0 : stryMutAct_9fa48("3329") ? summary.completed >= 0 : stryMutAct_9fa48("3328") ? false : stryMutAct_9fa48("3327") ? true : (stryCov_9fa48("3327", "3328", "3329", "3330"), summary.completed > 0),
      incomplete: stryMutAct_9fa48("3331") ? summary.incomplete - summary.inconsistent : (stryCov_9fa48("3331"), summary.incomplete + summary.inconsistent),
      attempts: summary.attempts,
      completedAt: stryMutAct_9fa48("3332") ? first?.text && null : (stryCov_9fa48("3332"), (stryMutAct_9fa48("3333") ? first.text : (stryCov_9fa48("3333"), first?.text)) ?? null),
      bestScore: summary.bestScore
    });
  }
}

/**
 * completed when a completed attempt exists; otherwise overdue past the due date (the
 * whole due day counts: overdue from 00:00 UTC the day after); otherwise in-progress when
 * attempts exist — under version 1, which returns completed attempts only (docs/service-spec.md
 * §9.4), nothing shows an attempt in progress, so the pair is not-started.
 */
export function pairState(facts: PairFacts | undefined, dueDate: string | undefined, nowMs: number, apiVersion: 1 | 2): ProgressState {
  if (stryMutAct_9fa48("3334")) {
    {}
  } else {
    stryCov_9fa48("3334");
    if (stryMutAct_9fa48("3337") ? facts.completed : stryMutAct_9fa48("3336") ? false : stryMutAct_9fa48("3335") ? true : (stryCov_9fa48("3335", "3336", "3337"), facts?.completed)) return stryMutAct_9fa48("3338") ? "" : (stryCov_9fa48("3338"), "completed");
    if (stryMutAct_9fa48("3340") ? false : stryMutAct_9fa48("3339") ? true : (stryCov_9fa48("3339", "3340"), isOverdue(dueDate, nowMs))) return stryMutAct_9fa48("3341") ? "" : (stryCov_9fa48("3341"), "overdue");
    if (stryMutAct_9fa48("3344") ? facts && apiVersion === 2 || facts.attempts > 0 : stryMutAct_9fa48("3343") ? false : stryMutAct_9fa48("3342") ? true : (stryCov_9fa48("3342", "3343", "3344"), (stryMutAct_9fa48("3346") ? facts || apiVersion === 2 : stryMutAct_9fa48("3345") ? true : (stryCov_9fa48("3345", "3346"), facts && (stryMutAct_9fa48("3348") ? apiVersion !== 2 : stryMutAct_9fa48("3347") ? true : (stryCov_9fa48("3347", "3348"), apiVersion === 2)))) && (stryMutAct_9fa48("3351") ? facts.attempts <= 0 : stryMutAct_9fa48("3350") ? facts.attempts >= 0 : stryMutAct_9fa48("3349") ? true : (stryCov_9fa48("3349", "3350", "3351"), facts.attempts > 0)))) return stryMutAct_9fa48("3352") ? "" : (stryCov_9fa48("3352"), "in-progress");
    return stryMutAct_9fa48("3353") ? "" : (stryCov_9fa48("3353"), "not-started");
  }
}
export function isOverdue(dueDate: string | undefined, nowMs: number): boolean {
  if (stryMutAct_9fa48("3354")) {
    {}
  } else {
    stryCov_9fa48("3354");
    const due = (stryMutAct_9fa48("3357") ? dueDate !== undefined : stryMutAct_9fa48("3356") ? false : stryMutAct_9fa48("3355") ? true : (stryCov_9fa48("3355", "3356", "3357"), dueDate === undefined)) ? undefined : parseDueDate(dueDate);
    return stryMutAct_9fa48("3360") ? due !== undefined || nowMs >= due + DAY_MS : stryMutAct_9fa48("3359") ? false : stryMutAct_9fa48("3358") ? true : (stryCov_9fa48("3358", "3359", "3360"), (stryMutAct_9fa48("3362") ? due === undefined : stryMutAct_9fa48("3361") ? true : (stryCov_9fa48("3361", "3362"), due !== undefined)) && (stryMutAct_9fa48("3365") ? nowMs < due + DAY_MS : stryMutAct_9fa48("3364") ? nowMs > due + DAY_MS : stryMutAct_9fa48("3363") ? true : (stryCov_9fa48("3363", "3364", "3365"), nowMs >= (stryMutAct_9fa48("3366") ? due - DAY_MS : (stryCov_9fa48("3366"), due + DAY_MS)))));
  }
}

/** Due within `days` days from now (and not yet overdue). */
export function isDueSoon(dueDate: string | undefined, nowMs: number, days: number): boolean {
  if (stryMutAct_9fa48("3367")) {
    {}
  } else {
    stryCov_9fa48("3367");
    const due = (stryMutAct_9fa48("3370") ? dueDate !== undefined : stryMutAct_9fa48("3369") ? false : stryMutAct_9fa48("3368") ? true : (stryCov_9fa48("3368", "3369", "3370"), dueDate === undefined)) ? undefined : parseDueDate(dueDate);
    return stryMutAct_9fa48("3373") ? due !== undefined && !isOverdue(dueDate, nowMs) || due + DAY_MS - nowMs <= days * DAY_MS : stryMutAct_9fa48("3372") ? false : stryMutAct_9fa48("3371") ? true : (stryCov_9fa48("3371", "3372", "3373"), (stryMutAct_9fa48("3375") ? due !== undefined || !isOverdue(dueDate, nowMs) : stryMutAct_9fa48("3374") ? true : (stryCov_9fa48("3374", "3375"), (stryMutAct_9fa48("3377") ? due === undefined : stryMutAct_9fa48("3376") ? true : (stryCov_9fa48("3376", "3377"), due !== undefined)) && (stryMutAct_9fa48("3378") ? isOverdue(dueDate, nowMs) : (stryCov_9fa48("3378"), !isOverdue(dueDate, nowMs))))) && (stryMutAct_9fa48("3381") ? due + DAY_MS - nowMs > days * DAY_MS : stryMutAct_9fa48("3380") ? due + DAY_MS - nowMs < days * DAY_MS : stryMutAct_9fa48("3379") ? true : (stryCov_9fa48("3379", "3380", "3381"), (stryMutAct_9fa48("3382") ? due + DAY_MS + nowMs : (stryCov_9fa48("3382"), (stryMutAct_9fa48("3383") ? due - DAY_MS : (stryCov_9fa48("3383"), due + DAY_MS)) - nowMs)) <= (stryMutAct_9fa48("3384") ? days / DAY_MS : (stryCov_9fa48("3384"), days * DAY_MS)))));
  }
}

/**
 * The order pairs are asked in: overdue first, then due soon (earliest due date first),
 * then the rest in file order — a run stopped by Ctrl-C or the budget has learned the
 * answers that matter most (issue 25).
 */
export function askOrder<T extends {
  row: number;
  dueDate: string | undefined;
}>(rows: readonly T[], nowMs: number, dueSoonDays: number): T[] {
  if (stryMutAct_9fa48("3385")) {
    {}
  } else {
    stryCov_9fa48("3385");
    const rank = stryMutAct_9fa48("3386") ? () => undefined : (stryCov_9fa48("3386"), (() => {
      const rank = (r: T): number => isOverdue(r.dueDate, nowMs) ? 0 : isDueSoon(r.dueDate, nowMs, dueSoonDays) ? 1 : 2;
      return rank;
    })());
    return stryMutAct_9fa48("3387") ? [...rows] : (stryCov_9fa48("3387"), (stryMutAct_9fa48("3388") ? [] : (stryCov_9fa48("3388"), [...rows])).sort((a, b) => {
      if (stryMutAct_9fa48("3389")) {
        {}
      } else {
        stryCov_9fa48("3389");
        const byRank = stryMutAct_9fa48("3390") ? rank(a) + rank(b) : (stryCov_9fa48("3390"), rank(a) - rank(b));
        if (stryMutAct_9fa48("3393") ? byRank === 0 : stryMutAct_9fa48("3392") ? false : stryMutAct_9fa48("3391") ? true : (stryCov_9fa48("3391", "3392", "3393"), byRank !== 0)) return byRank;
        if (stryMutAct_9fa48("3397") ? rank(a) >= 2 : stryMutAct_9fa48("3396") ? rank(a) <= 2 : stryMutAct_9fa48("3395") ? false : stryMutAct_9fa48("3394") ? true : (stryCov_9fa48("3394", "3395", "3396", "3397"), rank(a) < 2)) {
          if (stryMutAct_9fa48("3398")) {
            {}
          } else {
            stryCov_9fa48("3398");
            const byDue = stryMutAct_9fa48("3399") ? (parseDueDate(a.dueDate ?? "") ?? 0) + (parseDueDate(b.dueDate ?? "") ?? 0) : (stryCov_9fa48("3399"), (stryMutAct_9fa48("3400") ? parseDueDate(a.dueDate ?? "") && 0 : (stryCov_9fa48("3400"), parseDueDate(stryMutAct_9fa48("3401") ? a.dueDate && "" : (stryCov_9fa48("3401"), a.dueDate ?? (stryMutAct_9fa48("3402") ? "Stryker was here!" : (stryCov_9fa48("3402"), "")))) ?? 0)) - (stryMutAct_9fa48("3403") ? parseDueDate(b.dueDate ?? "") && 0 : (stryCov_9fa48("3403"), parseDueDate(stryMutAct_9fa48("3404") ? b.dueDate && "" : (stryCov_9fa48("3404"), b.dueDate ?? (stryMutAct_9fa48("3405") ? "Stryker was here!" : (stryCov_9fa48("3405"), "")))) ?? 0)));
            if (stryMutAct_9fa48("3408") ? byDue === 0 : stryMutAct_9fa48("3407") ? false : stryMutAct_9fa48("3406") ? true : (stryCov_9fa48("3406", "3407", "3408"), byDue !== 0)) return byDue;
          }
        }
        return stryMutAct_9fa48("3409") ? a.row + b.row : (stryCov_9fa48("3409"), a.row - b.row);
      }
    }));
  }
}

/**
 * The least time `requests` requests take within a budget of `limit` per `windowMs` that
 * is still unused: the first `limit` go at once, each further `limit` one window later
 * (plus the scheduler's safety margin). 0 when they fit in one window.
 */
export function minimumBudgetMs(requests: number, limit: number, windowMs: number, marginMs = 0): number {
  if (stryMutAct_9fa48("3410")) {
    {}
  } else {
    stryCov_9fa48("3410");
    if (stryMutAct_9fa48("3414") ? requests > limit : stryMutAct_9fa48("3413") ? requests < limit : stryMutAct_9fa48("3412") ? false : stryMutAct_9fa48("3411") ? true : (stryCov_9fa48("3411", "3412", "3413", "3414"), requests <= limit)) return 0;
    return stryMutAct_9fa48("3415") ? Math.floor((requests - 1) / limit) / (windowMs + marginMs) : (stryCov_9fa48("3415"), Math.floor(stryMutAct_9fa48("3416") ? (requests - 1) * limit : (stryCov_9fa48("3416"), (stryMutAct_9fa48("3417") ? requests + 1 : (stryCov_9fa48("3417"), requests - 1)) / limit)) * (stryMutAct_9fa48("3418") ? windowMs - marginMs : (stryCov_9fa48("3418"), windowMs + marginMs)));
  }
}
export interface ProgressCounts {
  completed: number;
  inProgress: number;
  notStarted: number;
  overdue: number;
}
export function countStates(states: readonly ProgressState[]): ProgressCounts {
  if (stryMutAct_9fa48("3419")) {
    {}
  } else {
    stryCov_9fa48("3419");
    const counts: ProgressCounts = stryMutAct_9fa48("3420") ? {} : (stryCov_9fa48("3420"), {
      completed: 0,
      inProgress: 0,
      notStarted: 0,
      overdue: 0
    });
    for (const s of states) {
      if (stryMutAct_9fa48("3421")) {
        {}
      } else {
        stryCov_9fa48("3421");
        if (stryMutAct_9fa48("3424") ? s !== "completed" : stryMutAct_9fa48("3423") ? false : stryMutAct_9fa48("3422") ? true : (stryCov_9fa48("3422", "3423", "3424"), s === (stryMutAct_9fa48("3425") ? "" : (stryCov_9fa48("3425"), "completed")))) stryMutAct_9fa48("3426") ? counts.completed-- : (stryCov_9fa48("3426"), counts.completed++);else if (stryMutAct_9fa48("3429") ? s !== "in-progress" : stryMutAct_9fa48("3428") ? false : stryMutAct_9fa48("3427") ? true : (stryCov_9fa48("3427", "3428", "3429"), s === (stryMutAct_9fa48("3430") ? "" : (stryCov_9fa48("3430"), "in-progress")))) stryMutAct_9fa48("3431") ? counts.inProgress-- : (stryCov_9fa48("3431"), counts.inProgress++);else if (stryMutAct_9fa48("3434") ? s !== "not-started" : stryMutAct_9fa48("3433") ? false : stryMutAct_9fa48("3432") ? true : (stryCov_9fa48("3432", "3433", "3434"), s === (stryMutAct_9fa48("3435") ? "" : (stryCov_9fa48("3435"), "not-started")))) stryMutAct_9fa48("3436") ? counts.notStarted-- : (stryCov_9fa48("3436"), counts.notStarted++);else stryMutAct_9fa48("3437") ? counts.overdue-- : (stryCov_9fa48("3437"), counts.overdue++);
      }
    }
    return counts;
  }
}

/** "60 pairs: 20 done, 10 in progress, 25 not started, 5 overdue" */
export function formatCounts(counts: ProgressCounts): string {
  if (stryMutAct_9fa48("3438")) {
    {}
  } else {
    stryCov_9fa48("3438");
    const total = stryMutAct_9fa48("3439") ? counts.completed + counts.inProgress + counts.notStarted - counts.overdue : (stryCov_9fa48("3439"), (stryMutAct_9fa48("3440") ? counts.completed + counts.inProgress - counts.notStarted : (stryCov_9fa48("3440"), (stryMutAct_9fa48("3441") ? counts.completed - counts.inProgress : (stryCov_9fa48("3441"), counts.completed + counts.inProgress)) + counts.notStarted)) + counts.overdue);
    return stryMutAct_9fa48("3442") ? `` : (stryCov_9fa48("3442"), `${total} pair${(stryMutAct_9fa48("3445") ? total !== 1 : stryMutAct_9fa48("3444") ? false : stryMutAct_9fa48("3443") ? true : (stryCov_9fa48("3443", "3444", "3445"), total === 1)) ? stryMutAct_9fa48("3446") ? "Stryker was here!" : (stryCov_9fa48("3446"), "") : stryMutAct_9fa48("3447") ? "" : (stryCov_9fa48("3447"), "s")}: ${counts.completed} done, ${counts.inProgress} in progress, ${counts.notStarted} not started, ${counts.overdue} overdue`);
  }
}

/**
 * A file name for one --split-by value: letters, digits, `.`, `_` and `-` kept, anything
 * else (path separators, spaces, `..`) turned into `_`, at most 80 characters; an empty
 * value is `(none)` → `_none_`. Names already taken get `-2`, `-3`… (case-insensitively, for
 * file systems that ignore case).
 */
export function splitFileNames(values: readonly string[]): Map<string, string> {
  if (stryMutAct_9fa48("3448")) {
    {}
  } else {
    stryCov_9fa48("3448");
    const names = new Map<string, string>();
    const taken = new Set<string>();
    for (const value of values) {
      if (stryMutAct_9fa48("3449")) {
        {}
      } else {
        stryCov_9fa48("3449");
        if (stryMutAct_9fa48("3451") ? false : stryMutAct_9fa48("3450") ? true : (stryCov_9fa48("3450", "3451"), names.has(value))) continue;
        let base = stryMutAct_9fa48("3452") ? (value.trim() === "" ? "_none_" : value.trim()).normalize("NFC").replace(/[^\p{L}\p{N}._-]+/gu, "_") : (stryCov_9fa48("3452"), ((stryMutAct_9fa48("3455") ? value.trim() !== "" : stryMutAct_9fa48("3454") ? false : stryMutAct_9fa48("3453") ? true : (stryCov_9fa48("3453", "3454", "3455"), (stryMutAct_9fa48("3456") ? value : (stryCov_9fa48("3456"), value.trim())) === (stryMutAct_9fa48("3457") ? "Stryker was here!" : (stryCov_9fa48("3457"), "")))) ? stryMutAct_9fa48("3458") ? "" : (stryCov_9fa48("3458"), "_none_") : stryMutAct_9fa48("3459") ? value : (stryCov_9fa48("3459"), value.trim())).normalize(stryMutAct_9fa48("3460") ? "" : (stryCov_9fa48("3460"), "NFC")).replace(stryMutAct_9fa48("3464") ? /[^\p{L}\P{N}._-]+/gu : stryMutAct_9fa48("3463") ? /[^\P{L}\p{N}._-]+/gu : stryMutAct_9fa48("3462") ? /[\p{L}\p{N}._-]+/gu : stryMutAct_9fa48("3461") ? /[^\p{L}\p{N}._-]/gu : (stryCov_9fa48("3461", "3462", "3463", "3464"), /[^\p{L}\p{N}._-]+/gu), stryMutAct_9fa48("3465") ? "" : (stryCov_9fa48("3465"), "_")).slice(0, 80));
        if (stryMutAct_9fa48("3468") ? /^\.+$/.test(base) && base.startsWith(".") : stryMutAct_9fa48("3467") ? false : stryMutAct_9fa48("3466") ? true : (stryCov_9fa48("3466", "3467", "3468"), (stryMutAct_9fa48("3471") ? /^\.$/ : stryMutAct_9fa48("3470") ? /^\.+/ : stryMutAct_9fa48("3469") ? /\.+$/ : (stryCov_9fa48("3469", "3470", "3471"), /^\.+$/)).test(base) || (stryMutAct_9fa48("3472") ? base.endsWith(".") : (stryCov_9fa48("3472"), base.startsWith(stryMutAct_9fa48("3473") ? "" : (stryCov_9fa48("3473"), ".")))))) base = stryMutAct_9fa48("3474") ? `` : (stryCov_9fa48("3474"), `_${base}`);
        let name = base;
        for (let n = 2; stryMutAct_9fa48("3475") ? false : (stryCov_9fa48("3475"), taken.has(stryMutAct_9fa48("3476") ? name.toUpperCase() : (stryCov_9fa48("3476"), name.toLowerCase()))); stryMutAct_9fa48("3477") ? n-- : (stryCov_9fa48("3477"), n++)) name = stryMutAct_9fa48("3478") ? `` : (stryCov_9fa48("3478"), `${base}-${n}`);
        taken.add(stryMutAct_9fa48("3479") ? name.toUpperCase() : (stryCov_9fa48("3479"), name.toLowerCase()));
        names.set(value, name);
      }
    }
    return names;
  }
}