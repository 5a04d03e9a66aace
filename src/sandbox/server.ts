import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createDecide } from "./decide.js";
import { FaultController, type FaultInjector } from "./faults.js";
import { resolveDialect, type Dialect, type DialectChoice } from "./dialects.js";
import { parseBulkImportForm } from "./multipart.js";
import { createLimiters, type RateLimitRule, type RateWindowKind } from "./rate-limit.js";
import { DEFAULT_RECORDS_PER_DAY } from "./reports.js";
import { describeBody, readBody } from "./request-body.js";
import { sendFault, sendResult } from "./responses.js";
import { ROUTES } from "./routes.js";
import { loadSeed } from "./seed.js";
import { SandboxState, type SandboxSnapshot } from "./state.js";
import type { RecordedRequest } from "./types.js";

// The sandbox's HTTP server: options, start-up, the request log, faults, and shutdown. What
// a request is answered is decided in decide.ts; bodies are read in request-body.ts and
// answers written in responses.ts.

export type { FaultInjector } from "./faults.js";
export { SandboxState } from "./state.js";
export type { RecordedRequest } from "./types.js";

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
  /** Serve https with this key and certificate (PEM): tests of certificate handling. */
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

export const DEFAULT_APP_URL = "https://app.sandbox.simadmin.test";
export const DEFAULT_IMPORT_STEP_MS = 1000;
export const SANDBOX_ORG = "org-demo";
export const SANDBOX_KEYS = { full: "sk_sandbox_full_0000000000demo", readOnly: "sk_sandbox_readonly_00000000demo" } as const;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const dialect = resolveDialect(options.dialect);
  const limiters = createLimiters(options.rateScale ?? 1, options.rateLimits, options.rateWindowKind ?? "sliding");
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
  const decide = createDecide({
    state,
    limiters,
    dialect,
    now,
    reportRecordsPerDay: options.reportRecordsPerDay ?? DEFAULT_RECORDS_PER_DAY,
    retryAfterHeader: options.retryAfterHeader ?? true,
  });
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
      return finish(sendFault(res, fault, dialect.errors));
    }

    const answer = await decide(req, route, body, recorded);
    if (answer.performed && faults.takeDropAfterAccept(path)) return drop();
    if (answer.performed && "body" in answer.result)
      answer.result = { ...answer.result, body: faults.takeMiscount(path, answer.result.body) };
    finish(answer.result.status);
    await sendResult(res, answer.result);
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
