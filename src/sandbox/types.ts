import type { REPORT_KINDS } from "../domain/report-kinds.js";
import type { Dialect } from "./dialects.js";
import type { SandboxState } from "./state.js";

export type RouteGroup = "reports" | "access";

export interface HandlerContext {
  version: 1 | 2;
  /** The JSON body (an object) for JSON routes; empty for multipart ones. */
  body: Record<string, unknown>;
  rawBody: Buffer;
  contentType: string | undefined;
  state: SandboxState;
  now: () => number;
  reportRecordsPerDay: number;
  /** The shapes of what the spec leaves "not shown" (dialects.ts). */
  dialect: Dialect;
  /** Replaces what `requests` records as this request's body (bulk-import records its parts). */
  recordBody(body: unknown): void;
}

export type HandlerResult =
  | { status: number; body: unknown; headers?: Record<string, string> }
  /** A body written piece by piece with back-pressure (large reports). */
  | { status: number; chunks: Iterable<string>; headers?: Record<string, string> };

export interface Route {
  path: string;
  version: 1 | 2;
  group: RouteGroup;
  body: "json" | "multipart";
  handle(ctx: HandlerContext): HandlerResult | Promise<HandlerResult>;
}

/** One request as `Sandbox.requests` keeps it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** 0 while unanswered, and for requests answered by dropping the connection. */
  status: number;
  group: RouteGroup | "other";
  /** Parsed JSON, the raw text when it is not JSON, or for bulk-import {organizationId, fileName, csvText}. */
  body: unknown;
  at: number;
  remoteAddress: string;
}

/** One of the seven report kinds (docs/service-spec.md §4.1). */
export type ReportKind = (typeof REPORT_KINDS)[number];

/** A generated report record (report-builders.ts), in whatever dialect's shape. */
export type ReportRecord = Record<string, unknown>;
