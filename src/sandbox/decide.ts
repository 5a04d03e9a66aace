import type { IncomingMessage } from "node:http";
import type { Dialect } from "./dialects.js";
import { SandboxHttpError, styledError } from "./http-error.js";
import { retryAfterSeconds, type RateLimiter } from "./rate-limit.js";
import { MAX_BODY_BYTES, parseJsonObject, type RequestBody } from "./request-body.js";
import { V2_ONLY_TAILS } from "./routes.js";
import type { SandboxState } from "./state.js";
import type { HandlerContext, HandlerResult, RecordedRequest, Route, RouteGroup } from "./types.js";

// What the sandbox answers a request that reached it (faults aside): routing, auth, rate
// limit, permission, then the handler — in that order (README.md).

export interface Decision {
  result: HandlerResult;
  /** The handler ran (its side effects happened): only then can a drop-after-accept fault fire. */
  performed: boolean;
}

export interface DecideDeps {
  state: SandboxState;
  limiters: Record<RouteGroup, RateLimiter>;
  dialect: Dialect;
  now: () => number;
  reportRecordsPerDay: number;
  /** 429 answers carry Retry-After. */
  retryAfterHeader: boolean;
}

export type Decide = (
  req: IncomingMessage,
  route: Route | undefined,
  body: RequestBody,
  recorded: RecordedRequest,
) => Promise<Decision>;

export function createDecide(deps: DecideDeps): Decide {
  const { state, limiters, dialect, now } = deps;
  const fail = (error: SandboxHttpError): Decision => ({
    result: { status: error.status, ...error.answer(dialect.errors) },
    performed: false,
  });

  return async (req, route, body, recorded) => {
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
          deps.retryAfterHeader ? { "retry-after": String(seconds) } : {},
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
        reportRecordsPerDay: deps.reportRecordsPerDay,
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
  };
}

function bearerKey(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}
