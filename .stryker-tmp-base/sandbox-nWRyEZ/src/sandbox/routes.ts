// @ts-nocheck
import { assignment, completionData, deepLinks, library, userToken } from "./handlers/simulations.js";
import { reportHandler } from "./handlers/reports.js";
import { bulkImport, createUser, importStatus } from "./handlers/users.js";
import { REPORT_KINDS } from "./reports.js";
import type { Route } from "./types.js";

// The whole surface of the service (docs/service-spec.md §4 and §9): v2 everywhere, v1 only for the
// reports, deep-links and completion-data.

const ACCESS = "/access-api";

type RouteSpec = Omit<Route, "path" | "version"> & { tail: string; inV1: boolean };

const SPECS: RouteSpec[] = [
  ...REPORT_KINDS.map((kind): RouteSpec => ({
    tail: `/report/${kind}`,
    inV1: true,
    group: "reports",
    body: "json",
    handle: reportHandler(kind),
  })),
  { tail: `${ACCESS}/simulation/deep-links`, inV1: true, group: "access", body: "json", handle: deepLinks },
  { tail: `${ACCESS}/simulation/completion-data`, inV1: true, group: "access", body: "json", handle: completionData },
  { tail: `${ACCESS}/simulation/library`, inV1: false, group: "access", body: "json", handle: library },
  { tail: `${ACCESS}/simulation/assignment`, inV1: false, group: "access", body: "json", handle: assignment },
  { tail: `${ACCESS}/user/token`, inV1: false, group: "access", body: "json", handle: userToken },
  { tail: `${ACCESS}/user/create`, inV1: false, group: "access", body: "json", handle: createUser },
  { tail: `${ACCESS}/user/bulk-import`, inV1: false, group: "access", body: "multipart", handle: bulkImport },
  { tail: `${ACCESS}/user/bulk-import/status`, inV1: false, group: "access", body: "json", handle: importStatus },
];

export const ROUTES: ReadonlyMap<string, Route> = new Map(
  SPECS.flatMap(({ tail, inV1, ...rest }) => {
    const v2: [string, Route] = [`/v2${tail}`, { ...rest, path: `/v2${tail}`, version: 2 }];
    return inV1 ? [[tail, { ...rest, path: tail, version: 1 }] as [string, Route], v2] : [v2];
  }),
);

/** v1 spellings of v2-only endpoints, so their 404 can say why. */
export const V2_ONLY_TAILS: ReadonlySet<string> = new Set(SPECS.filter((s) => !s.inV1).map((s) => s.tail));
