import { UnexpectedResponseError } from "../errors.js";
import { isPlainObject, type JsonRecord } from "../domain/records.js";
import type { ApiClient, Endpoint } from "./client.js";
import { deepLinkIn, listInAnswer } from "../domain/answer-shapes.js";
import {
  AssignResponse,
  CompletionRecords,
  Simulations,
  UserToken,
  type CompletionRecord,
  type Simulation,
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
  bulkImport: {
    path: "/access-api/user/bulk-import",
    group: "access",
    retry: "upload",
    versions: V2,
    label: "bulk import",
    // Its 400 "no valid row" answer names every row of the batch.
    errorsAreData: true,
  },
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
 * and its parsed copy at once (a year of a busy organisation's reports, docs/development.md).
 */
export function streamReport<T>(
  client: ApiClient,
  kind: ReportKind,
  range: ReportRequest,
  consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
): Promise<T> {
  return client.postJsonStreaming(reportEndpoint(kind), { startDate: range.startDate, endDate: range.endDate }, consume);
}

/**
 * The deep-links answer's field name is not shown (docs/service-spec.md §4.2): a bare URL, an object
 * with one URL-valued field, or the public documentation's list of `{simulationId, deepLink}`
 * entries, of which the asked simulation's is taken (domain/answer-shapes.ts).
 */
export function deepLinkFromAnswer(body: unknown, simulationId: string): string {
  const found = deepLinkIn(body, simulationId);
  if ("url" in found) return found.url;
  throw new UnexpectedResponseError(`deep-links: the service answered something unexpected (${found.problem})`);
}

/** @public link.ts takes this module from `Promise.all([…, import(…)])`, which knip does not follow. */
export async function getDeepLink(client: ApiClient, ref: SimulationRef): Promise<string> {
  const body = await client.postJson(ENDPOINTS.deepLinks, {
    organizationId: ref.organizationId,
    userId: ref.userId,
    simulationId: ref.simulationId,
  });
  return deepLinkFromAnswer(body, ref.simulationId);
}

export async function getCompletionData(client: ApiClient, ref: SimulationRef): Promise<CompletionRecord[]> {
  const body = await client.postJson(ENDPOINTS.completionData, {
    organizationId: ref.organizationId,
    userId: ref.userId,
    simulationId: ref.simulationId,
  });
  // §4.3 names `completionData`; a bare array or another key is read by shape.
  const found = listInAnswer(body, "completionData");
  if ("problem" in found) {
    throw new UnexpectedResponseError(`completion-data: the service answered something unexpected (${found.problem})`);
  }
  return parseWith(CompletionRecords, found.list, "completion-data");
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
): Promise<{ simulations: Simulation[]; body: JsonRecord }> {
  const request: Record<string, unknown> = { organizationId: query.organizationId, userId: query.userId };
  if (query.tags && query.tags.length > 0) request.tags = query.tags;
  if (query.searchTerm !== undefined) request.searchTerm = query.searchTerm;
  if (query.page !== undefined) request.page = query.page;
  if (query.pageSize !== undefined) request.pageSize = query.pageSize;
  // §4.4 names `simulations`; `{results}`, `{data}` or a bare array are read by shape, and
  // page metadata (if any) stays in `body` for domain/pages.ts.
  const answer = await client.postJson(ENDPOINTS.library, request);
  const found = listInAnswer(answer, "simulations");
  if ("problem" in found)
    throw new UnexpectedResponseError(`library: the service answered something unexpected (${found.problem})`);
  const simulations = parseWith(Simulations, found.list, "library");
  return { simulations, body: isPlainObject(answer) ? answer : {} };
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

/**
 * docs/service-spec.md §5.5 and §8: a user token is valid for 3600 seconds. §4.6 shows `expiresIn`,
 * but a service that leaves it out has not said anything else, so the spec's lifetime is taken
 * (docs/sandbox-dialects.md): better than refusing a usable token.
 */
export const USER_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * A user token answer that UserToken takes as it is, checked by hand: `token` is the command
 * scripts call in a loop, and building the schema (and loading zod) cost more than the rest of
 * its own work (docs/architecture.md, Start-up). Anything else goes to the schema, whose issue
 * says what is wrong. test/unit/endpoints.test.ts holds the two to agreement.
 */
export function readUserToken(body: unknown): UserToken | undefined {
  if (!isPlainObject(body)) return undefined;
  const { token, expiresIn } = body;
  const fits =
    typeof token === "string" &&
    token !== "" &&
    (expiresIn === undefined || (Number.isSafeInteger(expiresIn) && (expiresIn as number) > 0));
  return fits ? ({ ...body } as UserToken) : undefined;
}

export async function getUserToken(client: ApiClient, ref: UserRef): Promise<UserToken & { expiresIn: number }> {
  const body = await client.postJson(ENDPOINTS.userToken, { organizationId: ref.organizationId, userId: ref.userId });
  const token = readUserToken(body) ?? parseWith(UserToken, body, "user token");
  return { ...token, expiresIn: token.expiresIn ?? USER_TOKEN_LIFETIME_SECONDS };
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
