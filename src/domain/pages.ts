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

const TOTAL_PAGES = ["totalPages", "pageCount", "pages", "lastPage"];
const TOTAL_ITEMS = ["total", "totalCount", "totalItems", "totalResults", "totalElements"];
const HAS_MORE = ["hasMore", "hasNext", "hasNextPage", "more"];
const NEXT_PAGE = ["nextPage", "next_page"];

function isCount(value: unknown): value is number {
  // Number.isInteger is false for anything that is not a number (it does not convert).
  return Number.isInteger(value) && (value as number) >= 0;
}

function readFrom(source: JsonRecord, meta: PageMeta): void {
  for (const name of TOTAL_PAGES) if (meta.totalPages === undefined && isCount(source[name])) meta.totalPages = source[name];
  for (const name of TOTAL_ITEMS) if (meta.totalItems === undefined && isCount(source[name])) meta.totalItems = source[name];
  for (const name of HAS_MORE) if (meta.hasMore === undefined && typeof source[name] === "boolean") meta.hasMore = source[name];
  for (const name of NEXT_PAGE) {
    const value = source[name];
    // A cursor or URL string is not a page number: ignored, the other rules decide.
    if (meta.nextPage === undefined && (value === null || isCount(value))) meta.nextPage = value;
  }
}

/** Pagination metadata found in a library answer (empty when there is none, as in the spec). */
export function readPageMeta(body: JsonRecord): PageMeta {
  const meta: PageMeta = {};
  readFrom(body, meta);
  for (const value of Object.values(body)) if (isPlainObject(value)) readFrom(value, meta);
  return meta;
}

export type PageStep = { next: number } | { stop: "empty" | "short" | "metadata" };

/**
 * What to fetch after `page`, which brought `received` items (`collected` so far in all),
 * asked for with `pageSize`.
 *
 * Without metadata, a page shorter than asked ends the walk only when it is also shorter
 * than `largestPage`, the largest page seen so far: a service may cap the page size below
 * what we asked (service-notes.md documents no maximum), and then every
 * full page is "short" — its size is the service's page size, so the walk goes on until a
 * page shorter than that, or an empty one. Without `largestPage` (one page shown, no walk)
 * the short-page rule of the public documentation applies as it is.
 */
export function nextPageStep(
  step: { page: number; pageSize: number; received: number; collected: number; largestPage?: number },
  meta: PageMeta,
): PageStep {
  const next = { next: step.page + 1 };
  if (step.received === 0) return { stop: "empty" };
  // Stryker disable next-line ConditionalExpression: null > page is false too, so the next line would stop as well
  if (meta.nextPage === null) return { stop: "metadata" };
  if (meta.nextPage !== undefined) return meta.nextPage > step.page ? { next: meta.nextPage } : { stop: "metadata" };
  if (meta.hasMore !== undefined) return meta.hasMore ? next : { stop: "metadata" };
  if (meta.totalPages !== undefined) return step.page < meta.totalPages ? next : { stop: "metadata" };
  if (meta.totalItems !== undefined) return step.collected < meta.totalItems ? next : { stop: "metadata" };
  const servicePageSize = Math.min(step.pageSize, step.largestPage ?? step.pageSize);
  return step.received < servicePageSize ? { stop: "short" } : next;
}
