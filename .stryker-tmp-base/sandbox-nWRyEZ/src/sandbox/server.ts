// @ts-nocheck
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { FaultController, type FaultInjector, type ImmediateFault } from "./faults.js";
import { resolveDialect, type Dialect, type DialectChoice } from "./dialects.js";
import { SandboxHttpError, styledError } from "./http-error.js";
import { parseBulkImportForm } from "./multipart.js";
import { RateLimiter, retryAfterSeconds, type RateLimitRule, type RateWindowKind } from "./rate-limit.js";
import { DEFAULT_RECORDS_PER_DAY } from "./reports.js";
import { ROUTES, V2_ONLY_TAILS } from "./routes.js";
import { loadSeed } from "./seed.js";
import { SandboxState, type SandboxSnapshot } from "./state.js";
import type { HandlerContext, HandlerResult, Route, RouteGroup } from "./types.js";

export type { FaultInjector } from "./faults.js";
export { SandboxState } from "./state.js";

export interface SandboxOptions {
  host?: string;
  port?: number;
  /** Multiplies rate windows: 0.1 turns 10/60 s into 10/6 s. Default 1. */
  rateScale?: number;
  /** Overrides of the spec's budgets, applied before rateScale. */
  rateLimits?: { reports?: RateLimitRule; access?: RateLimitRule };
  /** 429 answers carry Retry-After (whole seconds, rounded up). Default true. */
  retryAfterHeader?: boolean;
  rateWindowKind?: RateWindowKind;
  /** Time per bulk-import task step (SCHEDULED → STARTED → COMPLETED/FAILED). Default 1000 ms. */
  importStepMs?: number;
  appUrl?: string;
  /** e.g. "lang=en": deep links become {app_url}/<org>/simulation/<sim>?lang=en. */
  deepLinkQuery?: string;
  reportRecordsPerDay?: number;
  now?: () => number;
  log?: (line: string) => void;
  /**
   * How many requests `requests` keeps (the oldest go first). Unbounded by default, for
   * tests; the foreground `simadmin sandbox` sets a bound so that a long run stays small.
   */
  maxRecordedRequests?: number;
  /** Serve https with this key and certificate (PEM): tests of certificate handling (issue 13). */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** State saved by an earlier run (`--sandbox` keeps its state between runs). */
  snapshot?: SandboxSnapshot;
  /** See SandboxStateOptions.attemptCompletesAfterMs; off by default, so tests see the seed as it is. */
  attemptCompletesAfterMs?: number;
  /** See SandboxStateOptions.scriptedAttemptStepMs; off by default. */
  scriptedAttemptStepMs?: number;
  /**
   * The shapes of everything the spec leaves "not shown" (dialects.ts): "default" (as
   * always), "public", "terse", a seed, or overrides. `simadmin sandbox` and `--sandbox`
   * read SIMADMIN_SANDBOX_DIALECT.
   */
  dialect?: DialectChoice;
}

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

export interface Sandbox {
  baseUrl: string;
  appUrl: string;
  org: string;
  keys: { full: string; readOnly: string };
  requests: RecordedRequest[];
  faults: FaultInjector;
  state: SandboxState;
  /** The dialect it answers in (dialects.ts). */
  dialect: Dialect;
  close(): Promise<void>;
}

/** Spec §8. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RouteGroup, RateLimitRule>> = {
  reports: { limit: 10, windowMs: 60_000 },
  access: { limit: 100, windowMs: 300_000 },
};
export const DEFAULT_APP_URL = "https://app.sandbox.simadmin.test";
export const DEFAULT_IMPORT_STEP_MS = 1000;
export const SANDBOX_ORG = "org-demo";
export const SANDBOX_KEYS = { full: "sk_sandbox_full_0000000000demo", readOnly: "sk_sandbox_readonly_00000000demo" } as const;

/** Bodies beyond this are refused with 400; a 750-row CSV is far below it. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const dialect = resolveDialect(options.dialect);
  const rateScale = options.rateScale ?? 1;
  if (!(rateScale > 0)) throw new RangeError("rateScale must be > 0");
  const scaled = (group: RouteGroup): RateLimitRule => {
    const rule = options.rateLimits?.[group] ?? DEFAULT_RATE_LIMITS[group];
    return { limit: rule.limit, windowMs: rule.windowMs * rateScale };
  };
  const windowKind = options.rateWindowKind ?? "sliding";
  const limiters: Record<RouteGroup, RateLimiter> = {
    reports: new RateLimiter(scaled("reports"), windowKind),
    access: new RateLimiter(scaled("access"), windowKind),
  };
  const retryAfterHeader = options.retryAfterHeader ?? true;
  const recordsPerDay = options.reportRecordsPerDay ?? DEFAULT_RECORDS_PER_DAY;
  const appUrl = (options.appUrl ?? DEFAULT_APP_URL).replace(/\/+$/, "");
  const stateOptions: ConstructorParameters<typeof SandboxState>[1] = {
    now,
    appUrl,
    importStepMs: options.importStepMs ?? DEFAULT_IMPORT_STEP_MS,
    // A restored state keeps its secret: tokens handed out by an earlier run still verify.
    tokenSecret: options.snapshot ? Buffer.from(options.snapshot.tokenSecret, "hex") : randomBytes(32),
  };
  if (options.deepLinkQuery) stateOptions.deepLinkQuery = options.deepLinkQuery;
  if (options.attemptCompletesAfterMs !== undefined) stateOptions.attemptCompletesAfterMs = options.attemptCompletesAfterMs;
  if (options.scriptedAttemptStepMs !== undefined) stateOptions.scriptedAttemptStepMs = options.scriptedAttemptStepMs;
  const state = new SandboxState(loadSeed(), stateOptions);
  if (options.snapshot) state.restore(options.snapshot);
  const faults = new FaultController();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const delays = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closing = false;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          delays.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      delays.add(entry);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    // The raw path, not a URL parse: "//v2/…" from a sloppy base-URL join must stay a 404.
    const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
    const route = ROUTES.get(path);
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path,
      status: 0,
      group: route?.group ?? "other",
      body: undefined,
      at: now(),
      remoteAddress: clientAddress(req),
    };
    requests.push(recorded);
    if (options.maxRecordedRequests !== undefined && requests.length > options.maxRecordedRequests) {
      requests.splice(0, requests.length - options.maxRecordedRequests);
    }
    const finish = (status: number): void => {
      recorded.status = status;
      options.log?.(
        `${recorded.method} ${path} ${status === 0 ? "dropped" : status} ${Math.round(performance.now() - started)}ms`,
      );
    };
    const drop = (): void => {
      finish(0);
      req.socket.destroy();
    };

    const body = await readBody(req);
    if (body === undefined) return finish(0); // the client went away mid-request
    recorded.body = describeBody(body.bytes, req.headers["content-type"]);
    if (route?.body === "multipart") {
      // Record uploads by their parts, whatever the answer (even a fault or a 401).
      recorded.body = await parseBulkImportForm(req.headers["content-type"], body.bytes).then(
        (upload) => ({ organizationId: upload.organizationId, fileName: upload.fileName, csvText: upload.csvText }),
        () => recorded.body,
      );
    }

    const delayMs = faults.takeDelay(path);
    if (delayMs > 0) await sleep(delayMs);
    if (closing) return drop();

    const fault = faults.takeImmediate(path);
    if (fault) {
      if (fault.kind === "drop") return drop();
      return finish(sendFault(res, fault));
    }

    const answer = await decide(req, route, body, recorded);
    if (answer.performed && faults.takeDropAfterAccept(path)) return drop();
    finish(answer.result.status);
    await send(res, answer.result);
  }

  /** Routing, auth, rate limit, permission, then the handler — in that order (README.md). */
  async function decide(
    req: IncomingMessage,
    route: Route | undefined,
    body: { bytes: Buffer; tooLarge: boolean },
    recorded: RecordedRequest,
  ): Promise<{ result: HandlerResult; performed: boolean }> {
    const fail = (error: SandboxHttpError): { result: HandlerResult; performed: boolean } => ({
      result: { status: error.status, ...error.answer(dialect.errors) },
      performed: false,
    });
    if (!route) {
      const message = V2_ONLY_TAILS.has(recorded.path)
        ? `POST ${recorded.path} does not exist in version 1; it exists only as /v2${recorded.path}`
        : `no endpoint ${recorded.path}`;
      return fail(new SandboxHttpError(404, "NOT_FOUND", message));
    }
    if (req.method !== "POST") {
      return fail(
        new SandboxHttpError(
          405,
          "METHOD_NOT_ALLOWED",
          `${recorded.path} accepts only POST, not ${req.method}`,
          undefined,
          undefined,
          {
            allow: "POST",
          },
        ),
      );
    }
    const apiKey = bearerKey(req.headers.authorization);
    if (apiKey === undefined) {
      return fail(new SandboxHttpError(401, "UNAUTHORIZED", "missing API key: send the header Authorization: Bearer <API key>"));
    }
    const keyInfo = state.apiKeys.get(apiKey);
    if (!keyInfo) return fail(new SandboxHttpError(401, "UNAUTHORIZED", "the API key is not valid"));

    const limiter = limiters[route.group];
    const decision = limiter.tryAcquire(recorded.remoteAddress, now());
    if (!decision.allowed) {
      const seconds = retryAfterSeconds(decision.retryAfterMs);
      return fail(
        new SandboxHttpError(
          429,
          "RATE_LIMITED",
          `rate limit exceeded: at most ${limiter.rule.limit} ${route.group} requests per ${limiter.rule.windowMs / 1000} s; retry in ${seconds} s`,
          { group: route.group, limit: limiter.rule.limit, windowMs: limiter.rule.windowMs, retryAfterMs: decision.retryAfterMs },
          undefined,
          retryAfterHeader ? { "retry-after": String(seconds) } : {},
        ),
      );
    }
    if (!keyInfo.permissions.includes(route.group)) {
      return fail(
        new SandboxHttpError(
          403,
          "FORBIDDEN",
          `this API key may not call the ${route.group} API (it is read-only: reports only)`,
        ),
      );
    }
    try {
      if (body.tooLarge) throw new SandboxHttpError(400, "INVALID_REQUEST", `request body exceeds ${MAX_BODY_BYTES} bytes`);
      const ctx: HandlerContext = {
        version: route.version,
        body: route.body === "json" ? parseJsonObject(body.bytes, req.headers["content-type"]) : {},
        rawBody: body.bytes,
        contentType: req.headers["content-type"],
        state,
        now,
        reportRecordsPerDay: recordsPerDay,
        dialect,
        recordBody: (value) => {
          recorded.body = value;
        },
      };
      return { result: await route.handle(ctx), performed: true };
    } catch (error) {
      if (error instanceof SandboxHttpError) return { ...fail(error), performed: true };
      const message = error instanceof Error ? error.message : String(error);
      return {
        result: { status: 500, ...styledError(dialect.errors, 500, `sandbox internal error: ${message}`) },
        performed: true,
      };
    }
  }

  function sendFault(res: ServerResponse, fault: Exclude<ImmediateFault, { kind: "drop" }>): number {
    if (fault.kind === "respond") {
      writeBody(res, fault.status, fault.body, fault.headers);
      return fault.status;
    }
    const headers: Record<string, string> = {};
    if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
    const message = fault.status === 429 ? "rate limit exceeded (injected fault)" : `injected fault: HTTP ${fault.status}`;
    if (fault.body !== undefined) writeBody(res, fault.status, fault.body, headers);
    else {
      const styled = styledError(dialect.errors, fault.status, message, undefined, undefined, headers);
      writeBody(res, fault.status, styled.body, styled.headers);
    }
    return fault.status;
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    res.on("error", () => undefined);
    handle(req, res).catch(() => {
      // Only a broken socket gets here; nothing is left to answer.
      req.socket.destroy();
    });
  };
  let server: Server;
  if (options.tls) {
    const secure = (await import("node:https")).createServer({ key: options.tls.key, cert: options.tls.cert }, listener);
    // A client that refuses our certificate hangs up mid-handshake: not worth a log line.
    secure.on("tlsClientError", (_error, socket) => socket.destroy());
    server = secure;
  } else {
    server = createServer(listener);
  }
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("clientError", (_error: Error, socket: Duplex) => socket.destroy());

  server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as AddressInfo;
  // A wildcard bind is reachable through loopback; a URL with 0.0.0.0 is not portable.
  const reachable = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const hostForUrl = reachable.includes(":") ? `[${reachable}]` : reachable;

  let closed: Promise<void> | undefined;
  return {
    baseUrl: `${options.tls ? "https" : "http"}://${hostForUrl}:${address.port}`,
    appUrl,
    org: SANDBOX_ORG,
    keys: { full: SANDBOX_KEYS.full, readOnly: SANDBOX_KEYS.readOnly },
    requests,
    faults,
    state,
    dialect,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing = true;
        for (const entry of delays) {
          clearTimeout(entry.timer);
          entry.resolve();
        }
        delays.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? "unknown";
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}

function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

async function readBody(req: IncomingMessage): Promise<{ bytes: Buffer; tooLarge: boolean } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  if (!req.complete) return undefined;
  return { bytes: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge };
}

function isJsonType(contentType: string | undefined): boolean {
  return /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType ?? "");
}

function describeBody(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString("utf8");
  if (/^multipart\//i.test(contentType ?? "")) return text; // replaced by the parts once parsed
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Spec §4: JSON bodies with Content-Type application/json; an empty body counts as {}. */
function parseJsonObject(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (bytes.length === 0) return {};
  if (!isJsonType(contentType)) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", `Content-Type must be application/json, not ${contentType ?? "missing"}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SandboxHttpError(400, "INVALID_REQUEST", "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function writeBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const contentType = typeof body === "string" ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
  res.writeHead(status, { "content-type": contentType, ...lower, "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

async function send(res: ServerResponse, result: HandlerResult): Promise<void> {
  if (!("chunks" in result)) {
    writeBody(res, result.status, result.body, result.headers);
    return;
  }
  res.writeHead(result.status, { "content-type": "application/json; charset=utf-8", ...result.headers });
  for (const chunk of result.chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) {
      // Back-pressure: wait for the client to read, or stop if it went away.
      await drainOrClose(res);
    }
  }
  if (!res.destroyed) res.end();
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
