import { listLibrary } from "../../api/endpoints.js";
import type { Simulation } from "../../api/schemas.js";
import { formatDuration } from "../../domain/durations.js";
import { nextPageStep, readPageMeta } from "../../domain/pages.js";
import type { CommandResult } from "../../output/render.js";
import { flattenRecord, type JsonRecord } from "../../domain/records.js";
import { tableHint } from "../../output/table-columns.js";
import { UnexpectedResponseError } from "../../errors.js";
import { explainNotFound } from "../shared/access.js";
import { defineRun } from "../types.js";
import { LibraryOptions } from "./options.js";

// library --user [--tag]… [--search] [--page] [--page-size] [--all] (docs/service-spec.md §4.4, version 2).

/**
 * --all without --page-size: 50 a page. The spec shows no maximum page size; 50 is well
 * inside what services of this kind accept (the sandbox takes up to 100) and walks a library
 * of a few hundred simulations in a handful of requests of the access budget (100 / 5 min).
 */
export const DEFAULT_ALL_PAGE_SIZE = 50;
/** The page size taken as the service's default when --page-size is not given (see run). */
const ASSUMED_DEFAULT_PAGE_SIZE = 10;
/** A walk that has not ended after this many pages is a service that never says "last page". */
export const MAX_PAGES = 1000;

const TABLE_COLUMNS = ["id", "title", "type", "duration", "description"];

export const run = defineRun(LibraryOptions, async ({ options, services, printer }) => {
  const { user: userId, tag: tags, search: searchTerm, all, page, pageSize } = options;
  const organizationId = await services.org();

  const api = await services.api();
  const query = { organizationId, userId, tags, searchTerm };
  const fetchPage = async (pageNumber: number | undefined, size: number | undefined) => {
    try {
      return await listLibrary(api, { ...query, page: pageNumber, pageSize: size });
    } catch (error) {
      throw explainNotFound(error, { org: organizationId, user: userId });
    }
  };
  const result = (records: Simulation[], note: string | undefined): CommandResult => {
    const hint = leftOutHint(records);
    const notes = [note, hint].filter((n): n is string => n !== undefined);
    return {
      kind: "records",
      records,
      tableColumns: TABLE_COLUMNS,
      knownFields: TABLE_COLUMNS,
      flexColumn: "description",
      ...(notes.length > 0 ? { note: notes.join("\n") } : {}),
    };
  };
  /** A table shows five columns; the others the service sent are named, as reports names them. */
  const leftOutHint = (records: Simulation[]): string | undefined => {
    if (printer.outputPlan.format !== "table" || printer.outputPlan.fields) return undefined;
    const hidden = [...new Set(records.flatMap((r) => Object.keys(flattenRecord(r as JsonRecord))))].filter(
      (column) => !TABLE_COLUMNS.includes(column),
    );
    return hidden.length > 0 ? tableHint("library", { shown: TABLE_COLUMNS, hidden }, undefined) : undefined;
  };

  if (!all) {
    const { simulations, body } = await fetchPage(page, pageSize);
    const shown = page ?? 1;
    const meta = readPageMeta(body);
    // Without --page-size the service's default page size is not known (not shown in the
    // spec): a page shorter than the smallest default we know of (10, the sandbox's) is taken
    // as the last, so "more may follow" is said only after a full page.
    const size = pageSize ?? ASSUMED_DEFAULT_PAGE_SIZE;
    // With `total` (or a page count) the service says where the list ends: the items before
    // this page count too, so the last page is not followed by "--page N+1".
    const step = nextPageStep(
      {
        page: shown,
        pageSize: size,
        received: simulations.length,
        collected: (shown - 1) * (pageSize ?? Math.max(simulations.length, ASSUMED_DEFAULT_PAGE_SIZE)) + simulations.length,
      },
      meta,
    );
    const pastEnd =
      simulations.length === 0 && shown > 1
        ? `page ${shown} is past the end of the library${meta.totalItems !== undefined ? ` (${meta.totalItems} simulation${meta.totalItems === 1 ? "" : "s"}${meta.totalPages !== undefined ? ` on ${meta.totalPages} page${meta.totalPages === 1 ? "" : "s"}` : ""})` : meta.totalPages !== undefined ? ` (${meta.totalPages} page${meta.totalPages === 1 ? "" : "s"})` : ""}; ask for an earlier --page, or --all`
        : undefined;
    const note =
      pastEnd ??
      ("next" in step
        ? `page ${shown}: ${simulations.length} simulation${simulations.length === 1 ? "" : "s"}; more ${meta.totalItems !== undefined || meta.totalPages !== undefined ? "follow" : "may follow"}: --page ${step.next}, or --all for every page`
        : undefined);
    return result(simulations, note);
  }

  const size = pageSize ?? DEFAULT_ALL_PAGE_SIZE;
  const progress = await printer.progress();
  const collected: Simulation[] = [];
  const seen = new Set<string>();
  let current = 1;
  let pagesFetched = 0;
  let previousPageIds: string | undefined;
  let largestPage = 0;
  let failure: UnexpectedResponseError | undefined;
  const stopListening = services.onWait((event) => {
    progress.update(
      `library: ${collected.length} simulations from ${pagesFetched} pages; page ${current} waits ${formatDuration(event.waitMs)} (${event.reason === "budget" ? "access rate budget" : `retry ${event.attempt - 1}`})`,
    );
  });
  try {
    for (;;) {
      if (pagesFetched >= MAX_PAGES) {
        printer.warn(
          `library --all: stopped after ${MAX_PAGES} pages (${collected.length} simulations) without reaching the last page; the list may be incomplete — use --page to continue from page ${current}`,
        );
        break;
      }
      progress.update(`library: page ${current} · ${collected.length} simulations so far`);
      const { simulations, body } = await fetchPage(current, size);
      pagesFetched += 1;
      // A service that ignores `page` answers page 1 again: whether the list is complete
      // cannot be known then, so the simulations seen are printed and the run ends with
      // exit 8 (the service answered something unusable; docs/sandbox-dialects.md). A later
      // page repeating its predecessor is a service answering the last page past the end:
      // nothing new, the walk is over (below).
      const pageIds = simulations.map((s) => s.id).join("\u0000");
      if (current === 2 && simulations.length > 0 && pageIds === previousPageIds) {
        failure = new UnexpectedResponseError(
          `library --all: page ${current} repeated page ${current - 1}: the service seems to ignore \`page\`, so whether these ${collected.length} simulations are all of them cannot be known`,
          { hint: "try a larger --page-size, or ask the service operator how the library is paged" },
        );
        break;
      }
      previousPageIds = pageIds;
      largestPage = Math.max(largestPage, simulations.length);
      const fresh = simulations.filter((s) => !seen.has(s.id)).length;
      // A simulation added while we walk shifts later pages by one: keep each id once.
      for (const simulation of simulations) {
        if (seen.has(simulation.id)) continue;
        seen.add(simulation.id);
        collected.push(simulation);
      }
      // A page of nothing new (a service that answers the last page again past the end) ends the walk.
      if (simulations.length > 0 && fresh === 0) break;
      const step = nextPageStep(
        { page: current, pageSize: size, received: simulations.length, collected: collected.length, largestPage },
        readPageMeta(body),
      );
      if ("stop" in step) break;
      current = step.next;
    }
  } finally {
    stopListening();
    progress.done();
  }
  const walked = result(
    collected,
    `${collected.length} simulation${collected.length === 1 ? "" : "s"} from ${pagesFetched} page${pagesFetched === 1 ? "" : "s"}${largestPage < size && collected.length > largestPage ? ` (the service sent at most ${largestPage} a page of the ${size} asked)` : ` (up to ${size} a page)`}`,
  );
  return failure ? { ...walked, failure } : walked;
});
