import { describe, expect, it } from "vitest";
import { nextPageStep, readPageMeta, type PageMeta } from "../../src/domain/pages.js";

describe("readPageMeta", () => {
  it("finds nothing in the spec's shape", () => {
    expect(readPageMeta({ simulations: [] })).toEqual({});
  });

  it.each<[string, Record<string, unknown>, PageMeta]>([
    ["top-level totalPages", { simulations: [], totalPages: 4 }, { totalPages: 4 }],
    ["top-level total", { simulations: [], total: 120 }, { totalItems: 120 }],
    ["hasMore", { simulations: [], hasMore: false }, { hasMore: false }],
    ["nextPage null", { simulations: [], nextPage: null }, { nextPage: null }],
    [
      "nested pagination",
      { simulations: [], pagination: { page: 1, totalPages: 3, totalCount: 25 } },
      { totalPages: 3, totalItems: 25 },
    ],
    ["a cursor string is not a page number", { simulations: [], nextPage: "abc" }, {}],
  ])("reads %s", (_name, body, meta) => {
    expect(readPageMeta(body)).toEqual(meta);
  });
});

describe("nextPageStep", () => {
  const at = (page: number, received: number, collected: number) => ({ page, pageSize: 10, received, collected });

  it.each<[string, ReturnType<typeof at>, PageMeta, ReturnType<typeof nextPageStep>]>([
    ["a full page without metadata continues", at(1, 10, 10), {}, { next: 2 }],
    ["a short page without metadata stops", at(3, 2, 22), {}, { stop: "short" }],
    ["an empty page stops whatever the metadata says", at(2, 0, 10), { hasMore: true }, { stop: "empty" }],
    ["hasMore=false stops a full page", at(1, 10, 10), { hasMore: false }, { stop: "metadata" }],
    ["hasMore=true continues after a short page (a capped page size)", at(1, 5, 5), { hasMore: true }, { next: 2 }],
    ["totalPages continues below the last page", at(2, 5, 10), { totalPages: 3 }, { next: 3 }],
    ["totalPages stops on the last page", at(3, 10, 30), { totalPages: 3 }, { stop: "metadata" }],
    ["total items continue until collected", at(1, 5, 5), { totalItems: 12 }, { next: 2 }],
    ["total items stop once collected", at(3, 2, 12), { totalItems: 12 }, { stop: "metadata" }],
    ["nextPage jumps to the page named", at(1, 10, 10), { nextPage: 2 }, { next: 2 }],
    ["nextPage null stops", at(1, 10, 10), { nextPage: null }, { stop: "metadata" }],
    ["nextPage not ahead stops (no loop)", at(2, 10, 20), { nextPage: 2 }, { stop: "metadata" }],
  ])("%s", (_name, step, meta, expected) => {
    expect(nextPageStep(step, meta)).toEqual(expected);
  });

  // A walk (library --all) passes the largest page seen: the service's own page size when it caps ours.
  it.each<[string, Parameters<typeof nextPageStep>[0], ReturnType<typeof nextPageStep>]>([
    [
      "a page capped below the asked size continues",
      { page: 1, pageSize: 50, received: 10, collected: 10, largestPage: 10 },
      { next: 2 },
    ],
    [
      "another page of the capped size continues",
      { page: 3, pageSize: 50, received: 10, collected: 30, largestPage: 10 },
      { next: 4 },
    ],
    [
      "a page shorter than the capped size stops",
      { page: 6, pageSize: 50, received: 7, collected: 57, largestPage: 10 },
      { stop: "short" },
    ],
    [
      "a full page of the asked size continues",
      { page: 1, pageSize: 10, received: 10, collected: 10, largestPage: 10 },
      { next: 2 },
    ],
  ])("walk: %s", (_name, step, expected) => {
    expect(nextPageStep(step, {})).toEqual(expected);
  });
});

describe("readPageMeta: which value counts", () => {
  it.each<[string, Record<string, unknown>, PageMeta]>([
    ["each alias of the page count", { pageCount: 2, pages: 3, lastPage: 4 }, { totalPages: 2 }],
    ["the last alias alone", { lastPage: 4 }, { totalPages: 4 }],
    ["each alias of the item count", { totalCount: 7, totalItems: 8, totalResults: 9, totalElements: 10 }, { totalItems: 7 }],
    ["totalElements alone", { totalElements: 10 }, { totalItems: 10 }],
    ["each alias of hasMore", { hasNext: true, hasNextPage: false, more: false }, { hasMore: true }],
    ["more alone", { more: true }, { hasMore: true }],
    ["next_page alone", { next_page: 3 }, { nextPage: 3 }],
    ["nextPage (null too) before next_page", { nextPage: null, next_page: 3 }, { nextPage: null }],
    ["a zero count", { totalPages: 0, total: 0 }, { totalPages: 0, totalItems: 0 }],
    ["no negative, fractional or text counts", { totalPages: -1, total: 2.5, pageCount: "3", nextPage: -2 }, {}],
    ["no hasMore that is not a boolean", { hasMore: "yes", hasNext: 1 }, {}],
    [
      "the top level before a nested object",
      { totalPages: 4, meta: { totalPages: 9, hasMore: true } },
      { totalPages: 4, hasMore: true },
    ],
    ["the first nested object that has it", { a: { total: 5 }, b: { total: 6 } }, { totalItems: 5 }],
    ["no metadata inside a list", { simulations: [{ totalPages: 9 }], pages: [1, 2] }, {}],
    ["no metadata inside null", { pagination: null }, {}],
  ])("%s", (_name, body, meta) => {
    expect(readPageMeta(body)).toEqual(meta);
  });
});

describe("nextPageStep: metadata wins in a fixed order", () => {
  const step = { page: 2, pageSize: 10, received: 10, collected: 20 };

  it.each<[string, PageMeta, ReturnType<typeof nextPageStep>]>([
    ["nextPage jumps ahead to the page named", { nextPage: 5 }, { next: 5 }],
    ["nextPage behind stops", { nextPage: 1 }, { stop: "metadata" }],
    ["nextPage before hasMore", { nextPage: 3, hasMore: false }, { next: 3 }],
    ["hasMore before totalPages", { hasMore: true, totalPages: 2 }, { next: 3 }],
    ["hasMore=false before totalPages", { hasMore: false, totalPages: 9 }, { stop: "metadata" }],
    ["totalPages before totalItems", { totalPages: 2, totalItems: 100 }, { stop: "metadata" }],
    ["totalPages ahead before totalItems", { totalPages: 3, totalItems: 20 }, { next: 3 }],
    ["totalItems before the short-page rule", { totalItems: 30 }, { next: 3 }],
  ])("%s", (_name, meta, expected) => {
    expect(nextPageStep(step, meta)).toEqual(expected);
  });

  it("a short page stops on its own only without metadata; a full one goes on", () => {
    expect(nextPageStep({ ...step, received: 9 }, {})).toEqual({ stop: "short" });
    expect(nextPageStep({ ...step, received: 9 }, { hasMore: true })).toEqual({ next: 3 });
  });

  it("a walk whose largest page exceeds the asked size still uses the asked size", () => {
    expect(nextPageStep({ page: 1, pageSize: 10, received: 10, collected: 10, largestPage: 20 }, {})).toEqual({ next: 2 });
    expect(nextPageStep({ page: 2, pageSize: 10, received: 9, collected: 19, largestPage: 20 }, {})).toEqual({ stop: "short" });
  });
});
