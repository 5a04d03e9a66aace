import { UnexpectedResponseError } from "../errors.js";
import { isPlainObject, type JsonRecord } from "../domain/records.js";
import type { ApiClient, Endpoint } from "./client.js";
import {
  AssignResponse,
  CompletionResponse,
  LibraryResponse,
  UserToken,
  type CompletionRecord,
  type CreateUserRequest,
  type ReportKind,
  type ReportRequest,
} from "./schemas.js";
import type * as z from "zod";

// One typed function per endpoint of docs/service-spec.md §4. Each sends exactly the fields the
// spec names and parses the answer with its schema, or by shape where the spec shows none.

const BOTH = [1, 2] as const;
const V2 = [2] as const;

export function reportEndpoint(kind: ReportKind): Endpoint {
  return { path: `/report/${kind}`, group: "reports", retry: "safe", versions: BOTH, label: `report ${kind}`, slow: true };
}

export const ENDPOINTS = {
  deepLinks: { path: "/access-api/simulation/deep-links", group: "access", retry: "safe", versions: BOTH, label: "deep-links" },
  completionData: {
    path: "/access-api/simulation/completion-data",
    group: "access",
    retry: "safe",
    versions: BOTH,
    label: "completion-data",
  },
  library: { path: "/access-api/simulation/library", group: "access", retry: "safe", versions: V2, label: "library" },
  // Assignment is idempotent by nature (assigning twice leaves it assigned), so safe to repeat.
  assignment: { path: "/access-api/simulation/assignment", group: "access", retry: "safe", versions: V2, label: "assignment" },
  userToken: { path: "/access-api/user/token", group: "access", retry: "safe", versions: V2, label: "user token" },
  // Create returns the existing user when it exists (docs/service-spec.md §4.7), so a repeat is harmless.
  userCreate: { path: "/access-api/user/create", group: "access", retry: "safe", versions: V2, label: "user create" },
  // An upload that may have been accepted must not be repeated: it would import twice.
  bulkImport: { path: "/access-api/user/bulk-import", group: "access", retry: "upload", versions: V2, label: "bulk import" },
  bulkImportStatus: {
    path: "/access-api/user/bulk-import/status",
    group: "access",
    retry: "safe",
    versions: V2,
    label: "bulk import status",
  },
} as const satisfies Record<string, Endpoint>;

function parseWith<T extends z.ZodType>(schema: T, body: unknown, label: string): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnexpectedResponseError(
      `${label}: the service answered something unexpected (${issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "invalid"})`,
    );
  }
  return parsed.data;
}

export interface UserRef {
  organizationId: string;
  userId: string;
}
export interface SimulationRef extends UserRef {
  simulationId: string;
}

/** A report window's answer, untouched: its fields are "not shown" (docs/service-spec.md §4.1). */
export function fetchReport(client: ApiClient, kind: ReportKind, range: ReportRequest): Promise<unknown> {
  return client.postJson(reportEndpoint(kind), { startDate: range.startDate, endDate: range.endDate });
}

/**
 * A report window's answer as a stream of bytes, for windows too large to hold as one string
 * and its parsed copy at once (a year of a busy organisation's reports: issue 5).
 */
export function streamReport<T>(
  client: ApiClient,
  kind: ReportKind,
  range: ReportRequest,
  consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
): Promise<T> {
  return client.postJsonStreaming(reportEndpoint(kind), { startDate: range.startDate, endDate: range.endDate }, consume);
}

function isUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The deep-links answer's field name is not shown (docs/service-spec.md §4.2): accept a bare URL string, or
 * an object with exactly one URL-valued field (searched one level deep).
 */
export function deepLinkFromAnswer(body: unknown): string {
  if (isUrl(body)) return body;
  if (isPlainObject(body)) {
    const urls = Object.values(body).filter(isUrl);
    if (urls.length === 1 && urls[0]) return urls[0];
    if (urls.length === 0) {
      const nested = Object.values(body)
        .filter(isPlainObject)
        .flatMap((o) => Object.values(o).filter(isUrl));
      if (nested.length === 1 && nested[0]) return nested[0];
    }
  }
  throw new UnexpectedResponseError(
    "deep-links: the service answered something unexpected (no single deep-link URL in the answer)",
  );
}

/** @public link.ts takes this module from `Promise.all([…, import(…)])`, which knip does not follow. */
export async function getDeepLink(client: ApiClient, ref: SimulationRef): Promise<string> {
  const body = await client.postJson(ENDPOINTS.deepLinks, {
    organizationId: ref.organizationId,
    userId: ref.userId,
    simulationId: ref.simulationId,
  });
  return deepLinkFromAnswer(body);
}

export async function getCompletionData(client: ApiClient, ref: SimulationRef): Promise<CompletionRecord[]> {
  const body = await client.postJson(ENDPOINTS.completionData, {
    organizationId: ref.organizationId,
    userId: ref.userId,
    simulationId: ref.simulationId,
  });
  return parseWith(CompletionResponse, body, "completion-data").completionData;
}

export interface LibraryQuery extends UserRef {
  tags?: string[] | undefined;
  searchTerm?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

export async function listLibrary(
  client: ApiClient,
  query: LibraryQuery,
): Promise<{ simulations: LibraryResponse["simulations"]; body: JsonRecord }> {
  const request: Record<string, unknown> = { organizationId: query.organizationId, userId: query.userId };
  if (query.tags && query.tags.length > 0) request.tags = query.tags;
  if (query.searchTerm !== undefined) request.searchTerm = query.searchTerm;
  if (query.page !== undefined) request.page = query.page;
  if (query.pageSize !== undefined) request.pageSize = query.pageSize;
  const body = parseWith(LibraryResponse, await client.postJson(ENDPOINTS.library, request), "library");
  return { simulations: body.simulations, body };
}

export async function assignSimulation(client: ApiClient, ref: SimulationRef): Promise<AssignResponse> {
  const body = await client.postJson(ENDPOINTS.assignment, { ...pickRef(ref), assign: true });
  return parseWith(AssignResponse, body, "assignment");
}

/** assign=false answers "a success status" of unshown shape; returned as-is for display. */
export async function unassignSimulation(client: ApiClient, ref: SimulationRef): Promise<unknown> {
  return client.postJson(ENDPOINTS.assignment, { ...pickRef(ref), assign: false });
}

function pickRef(ref: SimulationRef): Record<string, string> {
  return { organizationId: ref.organizationId, userId: ref.userId, simulationId: ref.simulationId };
}

export async function getUserToken(client: ApiClient, ref: UserRef): Promise<UserToken> {
  const body = await client.postJson(ENDPOINTS.userToken, { organizationId: ref.organizationId, userId: ref.userId });
  return parseWith(UserToken, body, "user token");
}

/** The create answer is "not shown" (docs/service-spec.md §4.7): returned by shape. */
export async function createUser(client: ApiClient, request: CreateUserRequest): Promise<unknown> {
  return client.postJson(ENDPOINTS.userCreate, request);
}

/** Uploads one CSV file; the answer (taskId, counts, row errors) is parsed by the caller by shape. */
export async function uploadUsersCsv(
  client: ApiClient,
  upload: { organizationId: string; csv: string; fileName: string },
): Promise<unknown> {
  return client.postMultipart(ENDPOINTS.bulkImport, () => {
    const form = new FormData();
    form.set("organizationId", upload.organizationId);
    form.set("file", new Blob([upload.csv], { type: "text/csv" }), upload.fileName);
    return form;
  });
}

export async function getImportStatus(client: ApiClient, ref: { organizationId: string; taskId: string }): Promise<unknown> {
  return client.postJson(ENDPOINTS.bulkImportStatus, { organizationId: ref.organizationId, taskId: ref.taskId });
}
