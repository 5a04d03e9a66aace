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
import { isPlainObject, type JsonRecord } from "./records.js";

// `library --all` walks pages (docs/service-spec.md §4.4: "pagination metadata … not shown"; the public
// documentation says "continue until results.length < pageSize"). When an answer does carry
// metadata, it is read by shape — at the top level or in one nested object such as
// `pagination` or `meta` — and preferred over the short-page rule, because a service that
// silently caps pageSize below what we asked for would otherwise look "short" on page 1
// and we would stop with most of the library missing.

export interface PageMeta {
  totalPages?: number;
  totalItems?: number;
  hasMore?: boolean;
  /** null: the service says there is no next page. */
  nextPage?: number | null;
}
const TOTAL_PAGES = stryMutAct_9fa48("3063") ? [] : (stryCov_9fa48("3063"), [stryMutAct_9fa48("3064") ? "" : (stryCov_9fa48("3064"), "totalPages"), stryMutAct_9fa48("3065") ? "" : (stryCov_9fa48("3065"), "pageCount"), stryMutAct_9fa48("3066") ? "" : (stryCov_9fa48("3066"), "pages"), stryMutAct_9fa48("3067") ? "" : (stryCov_9fa48("3067"), "lastPage")]);
const TOTAL_ITEMS = stryMutAct_9fa48("3068") ? [] : (stryCov_9fa48("3068"), [stryMutAct_9fa48("3069") ? "" : (stryCov_9fa48("3069"), "total"), stryMutAct_9fa48("3070") ? "" : (stryCov_9fa48("3070"), "totalCount"), stryMutAct_9fa48("3071") ? "" : (stryCov_9fa48("3071"), "totalItems"), stryMutAct_9fa48("3072") ? "" : (stryCov_9fa48("3072"), "totalResults"), stryMutAct_9fa48("3073") ? "" : (stryCov_9fa48("3073"), "totalElements")]);
const HAS_MORE = stryMutAct_9fa48("3074") ? [] : (stryCov_9fa48("3074"), [stryMutAct_9fa48("3075") ? "" : (stryCov_9fa48("3075"), "hasMore"), stryMutAct_9fa48("3076") ? "" : (stryCov_9fa48("3076"), "hasNext"), stryMutAct_9fa48("3077") ? "" : (stryCov_9fa48("3077"), "hasNextPage"), stryMutAct_9fa48("3078") ? "" : (stryCov_9fa48("3078"), "more")]);
const NEXT_PAGE = stryMutAct_9fa48("3079") ? [] : (stryCov_9fa48("3079"), [stryMutAct_9fa48("3080") ? "" : (stryCov_9fa48("3080"), "nextPage"), stryMutAct_9fa48("3081") ? "" : (stryCov_9fa48("3081"), "next_page")]);
function isCount(value: unknown): value is number {
  if (stryMutAct_9fa48("3082")) {
    {}
  } else {
    stryCov_9fa48("3082");
    return stryMutAct_9fa48("3085") ? typeof value === "number" && Number.isInteger(value) || value >= 0 : stryMutAct_9fa48("3084") ? false : stryMutAct_9fa48("3083") ? true : (stryCov_9fa48("3083", "3084", "3085"), (stryMutAct_9fa48("3087") ? typeof value === "number" || Number.isInteger(value) : stryMutAct_9fa48("3086") ? true : (stryCov_9fa48("3086", "3087"), (stryMutAct_9fa48("3089") ? typeof value !== "number" : stryMutAct_9fa48("3088") ? true : (stryCov_9fa48("3088", "3089"), typeof value === (stryMutAct_9fa48("3090") ? "" : (stryCov_9fa48("3090"), "number")))) && Number.isInteger(value))) && (stryMutAct_9fa48("3093") ? value < 0 : stryMutAct_9fa48("3092") ? value > 0 : stryMutAct_9fa48("3091") ? true : (stryCov_9fa48("3091", "3092", "3093"), value >= 0)));
  }
}
function readFrom(source: JsonRecord, meta: PageMeta): void {
  if (stryMutAct_9fa48("3094")) {
    {}
  } else {
    stryCov_9fa48("3094");
    for (const name of TOTAL_PAGES) if (stryMutAct_9fa48("3097") ? meta.totalPages === undefined || isCount(source[name]) : stryMutAct_9fa48("3096") ? false : stryMutAct_9fa48("3095") ? true : (stryCov_9fa48("3095", "3096", "3097"), (stryMutAct_9fa48("3099") ? meta.totalPages !== undefined : stryMutAct_9fa48("3098") ? true : (stryCov_9fa48("3098", "3099"), meta.totalPages === undefined)) && isCount(source[name]))) meta.totalPages = source[name];
    for (const name of TOTAL_ITEMS) if (stryMutAct_9fa48("3102") ? meta.totalItems === undefined || isCount(source[name]) : stryMutAct_9fa48("3101") ? false : stryMutAct_9fa48("3100") ? true : (stryCov_9fa48("3100", "3101", "3102"), (stryMutAct_9fa48("3104") ? meta.totalItems !== undefined : stryMutAct_9fa48("3103") ? true : (stryCov_9fa48("3103", "3104"), meta.totalItems === undefined)) && isCount(source[name]))) meta.totalItems = source[name];
    for (const name of HAS_MORE) if (stryMutAct_9fa48("3107") ? meta.hasMore === undefined || typeof source[name] === "boolean" : stryMutAct_9fa48("3106") ? false : stryMutAct_9fa48("3105") ? true : (stryCov_9fa48("3105", "3106", "3107"), (stryMutAct_9fa48("3109") ? meta.hasMore !== undefined : stryMutAct_9fa48("3108") ? true : (stryCov_9fa48("3108", "3109"), meta.hasMore === undefined)) && (stryMutAct_9fa48("3111") ? typeof source[name] !== "boolean" : stryMutAct_9fa48("3110") ? true : (stryCov_9fa48("3110", "3111"), typeof source[name] === (stryMutAct_9fa48("3112") ? "" : (stryCov_9fa48("3112"), "boolean")))))) meta.hasMore = source[name];
    for (const name of NEXT_PAGE) {
      if (stryMutAct_9fa48("3113")) {
        {}
      } else {
        stryCov_9fa48("3113");
        const value = source[name];
        // A cursor or URL string is not a page number: ignored, the other rules decide.
        if (stryMutAct_9fa48("3116") ? meta.nextPage === undefined || value === null || isCount(value) : stryMutAct_9fa48("3115") ? false : stryMutAct_9fa48("3114") ? true : (stryCov_9fa48("3114", "3115", "3116"), (stryMutAct_9fa48("3118") ? meta.nextPage !== undefined : stryMutAct_9fa48("3117") ? true : (stryCov_9fa48("3117", "3118"), meta.nextPage === undefined)) && (stryMutAct_9fa48("3120") ? value === null && isCount(value) : stryMutAct_9fa48("3119") ? true : (stryCov_9fa48("3119", "3120"), (stryMutAct_9fa48("3122") ? value !== null : stryMutAct_9fa48("3121") ? false : (stryCov_9fa48("3121", "3122"), value === null)) || isCount(value))))) meta.nextPage = value;
      }
    }
  }
}

/** Pagination metadata found in a library answer (empty when there is none, as in the spec). */
export function readPageMeta(body: JsonRecord): PageMeta {
  if (stryMutAct_9fa48("3123")) {
    {}
  } else {
    stryCov_9fa48("3123");
    const meta: PageMeta = {};
    readFrom(body, meta);
    for (const value of Object.values(body)) if (stryMutAct_9fa48("3125") ? false : stryMutAct_9fa48("3124") ? true : (stryCov_9fa48("3124", "3125"), isPlainObject(value))) readFrom(value, meta);
    return meta;
  }
}
export type PageStep = {
  next: number;
} | {
  stop: "empty" | "short" | "metadata";
};

/**
 * What to fetch after `page`, which brought `received` items (`collected` so far in all),
 * asked for with `pageSize`.
 *
 * Without metadata, a page shorter than asked ends the walk only when it is also shorter
 * than `largestPage`, the largest page seen so far: a service may cap the page size below
 * what we asked (service-notes.md documents no maximum; issue 21 item 3), and then every
 * full page is "short" — its size is the service's page size, so the walk goes on until a
 * page shorter than that, or an empty one. Without `largestPage` (one page shown, no walk)
 * the short-page rule of the public documentation applies as it is.
 */
export function nextPageStep(step: {
  page: number;
  pageSize: number;
  received: number;
  collected: number;
  largestPage?: number;
}, meta: PageMeta): PageStep {
  if (stryMutAct_9fa48("3126")) {
    {}
  } else {
    stryCov_9fa48("3126");
    const next = stryMutAct_9fa48("3127") ? {} : (stryCov_9fa48("3127"), {
      next: stryMutAct_9fa48("3128") ? step.page - 1 : (stryCov_9fa48("3128"), step.page + 1)
    });
    if (stryMutAct_9fa48("3131") ? step.received !== 0 : stryMutAct_9fa48("3130") ? false : stryMutAct_9fa48("3129") ? true : (stryCov_9fa48("3129", "3130", "3131"), step.received === 0)) return stryMutAct_9fa48("3132") ? {} : (stryCov_9fa48("3132"), {
      stop: stryMutAct_9fa48("3133") ? "" : (stryCov_9fa48("3133"), "empty")
    });
    if (stryMutAct_9fa48("3136") ? meta.nextPage !== null : stryMutAct_9fa48("3135") ? false : stryMutAct_9fa48("3134") ? true : (stryCov_9fa48("3134", "3135", "3136"), meta.nextPage === null)) return stryMutAct_9fa48("3137") ? {} : (stryCov_9fa48("3137"), {
      stop: stryMutAct_9fa48("3138") ? "" : (stryCov_9fa48("3138"), "metadata")
    });
    if (stryMutAct_9fa48("3141") ? meta.nextPage === undefined : stryMutAct_9fa48("3140") ? false : stryMutAct_9fa48("3139") ? true : (stryCov_9fa48("3139", "3140", "3141"), meta.nextPage !== undefined)) return (stryMutAct_9fa48("3145") ? meta.nextPage <= step.page : stryMutAct_9fa48("3144") ? meta.nextPage >= step.page : stryMutAct_9fa48("3143") ? false : stryMutAct_9fa48("3142") ? true : (stryCov_9fa48("3142", "3143", "3144", "3145"), meta.nextPage > step.page)) ? stryMutAct_9fa48("3146") ? {} : (stryCov_9fa48("3146"), {
      next: meta.nextPage
    }) : stryMutAct_9fa48("3147") ? {} : (stryCov_9fa48("3147"), {
      stop: stryMutAct_9fa48("3148") ? "" : (stryCov_9fa48("3148"), "metadata")
    });
    if (stryMutAct_9fa48("3151") ? meta.hasMore === undefined : stryMutAct_9fa48("3150") ? false : stryMutAct_9fa48("3149") ? true : (stryCov_9fa48("3149", "3150", "3151"), meta.hasMore !== undefined)) return meta.hasMore ? next : stryMutAct_9fa48("3152") ? {} : (stryCov_9fa48("3152"), {
      stop: stryMutAct_9fa48("3153") ? "" : (stryCov_9fa48("3153"), "metadata")
    });
    if (stryMutAct_9fa48("3156") ? meta.totalPages === undefined : stryMutAct_9fa48("3155") ? false : stryMutAct_9fa48("3154") ? true : (stryCov_9fa48("3154", "3155", "3156"), meta.totalPages !== undefined)) return (stryMutAct_9fa48("3160") ? step.page >= meta.totalPages : stryMutAct_9fa48("3159") ? step.page <= meta.totalPages : stryMutAct_9fa48("3158") ? false : stryMutAct_9fa48("3157") ? true : (stryCov_9fa48("3157", "3158", "3159", "3160"), step.page < meta.totalPages)) ? next : stryMutAct_9fa48("3161") ? {} : (stryCov_9fa48("3161"), {
      stop: stryMutAct_9fa48("3162") ? "" : (stryCov_9fa48("3162"), "metadata")
    });
    if (stryMutAct_9fa48("3165") ? meta.totalItems === undefined : stryMutAct_9fa48("3164") ? false : stryMutAct_9fa48("3163") ? true : (stryCov_9fa48("3163", "3164", "3165"), meta.totalItems !== undefined)) return (stryMutAct_9fa48("3169") ? step.collected >= meta.totalItems : stryMutAct_9fa48("3168") ? step.collected <= meta.totalItems : stryMutAct_9fa48("3167") ? false : stryMutAct_9fa48("3166") ? true : (stryCov_9fa48("3166", "3167", "3168", "3169"), step.collected < meta.totalItems)) ? next : stryMutAct_9fa48("3170") ? {} : (stryCov_9fa48("3170"), {
      stop: stryMutAct_9fa48("3171") ? "" : (stryCov_9fa48("3171"), "metadata")
    });
    const servicePageSize = stryMutAct_9fa48("3172") ? Math.max(step.pageSize, step.largestPage ?? step.pageSize) : (stryCov_9fa48("3172"), Math.min(step.pageSize, stryMutAct_9fa48("3173") ? step.largestPage && step.pageSize : (stryCov_9fa48("3173"), step.largestPage ?? step.pageSize)));
    return (stryMutAct_9fa48("3177") ? step.received >= servicePageSize : stryMutAct_9fa48("3176") ? step.received <= servicePageSize : stryMutAct_9fa48("3175") ? false : stryMutAct_9fa48("3174") ? true : (stryCov_9fa48("3174", "3175", "3176", "3177"), step.received < servicePageSize)) ? stryMutAct_9fa48("3178") ? {} : (stryCov_9fa48("3178"), {
      stop: stryMutAct_9fa48("3179") ? "" : (stryCov_9fa48("3179"), "short")
    }) : next;
  }
}