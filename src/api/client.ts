import {
  AuthError,
  InterruptedError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceError,
  UnexpectedResponseError,
  UsageError,
} from "../errors.js";
import { escapeForLine } from "../output/sanitize.js";
import { parseRetryAfter } from "./backoff.js";
import type { RequestGroup } from "./rate-limits.js";
import type { RetryClass, Scheduler } from "./scheduler.js";
import { post, type TransportResponse } from "./transport.js";

/**
 * multipart/form-data through the built-in Response: it writes a correct body and boundary.
 * It initialises Node's fetch machinery, which only `users import` pays for.
 */
async function encodeForm(form: FormData): Promise<{ bytes: Uint8Array; contentType: string | undefined }> {
  const encoded = new Response(form);
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") ?? undefined };
}

// The one place that knows URLs, headers and status codes. Every request goes through the
// scheduler (budgets, retries); every outcome becomes a typed error with the contract's exit
// code. Commands never build URLs or headers (house style).
//
// Transport: node:http(s) (see transport.ts for why not fetch or the undici package).

export interface Endpoint {
  /** Path without the version prefix, e.g. "/report/users". */
  path: string;
  group: RequestGroup;
  retry: RetryClass;
  /** Versions in which the endpoint exists (docs/service-spec.md §4: "both" or "version 2 only"). */
  versions: readonly (1 | 2)[];
  /** Name for messages and traces, e.g. "report users". */
  label: string;
  /** Reports may take long to compute (contract: --timeout default 30 s, reports 120 s). */
  slow?: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  apiVersion: 1 | 2;
  /** Seconds from --timeout/profile; undefined = 30 s, reports 120 s. */
  timeoutSeconds: number | undefined;
  scheduler: Scheduler;
  signal: AbortSignal;
  /** --verbose: one line per request and answer; the caller redacts secrets. */
  trace?: ((line: string) => void) | undefined;
  now?: () => number;
  /** The HTTP exchange; tests wrap it to watch every attempt. */
  transport?: typeof post;
}

/** Extracts the service's own error sentence from an error body of unknown shape. */
export function serviceMessage(body: unknown): string | undefined {
  const candidates: unknown[] = [];
  if (typeof body === "string") candidates.push(body);
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const error = b.error;
    if (error && typeof error === "object") candidates.push((error as Record<string, unknown>).message);
    candidates.push(error, b.message, b.detail, b.title);
    if (Array.isArray(b.errors) && b.errors[0]) {
      const first = b.errors[0] as unknown;
      candidates.push(typeof first === "string" ? first : (first as Record<string, unknown>)?.message);
    }
  }
  const text = candidates.find((c): c is string => typeof c === "string" && c.trim() !== "");
  if (!text) return undefined;
  const line = escapeForLine(text.trim());
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The innermost error code (ECONNREFUSED…), else the innermost message. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  let message: string | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    const { code, cause, message: text } = current as { code?: unknown; cause?: unknown; message?: unknown };
    if (typeof code === "string") return code;
    if (typeof text === "string" && text !== "") message = text;
    current = cause;
  }
  return message;
}

/** Wraps what a streaming consumer threw, so that only transport failures become ServiceError. */
class ConsumerFailure extends Error {
  constructor(readonly error: unknown) {
    super("streaming consumer failed");
  }
}

/** Runs `consume` over the answer's body; a failure to read the body stays a transport failure. */
async function consumeBody(
  body: AsyncIterable<Uint8Array>,
  consume: (body: AsyncIterable<Uint8Array>) => Promise<unknown>,
): Promise<unknown> {
  let readFailed = false;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) yield chunk;
    } catch (error) {
      readFailed = true;
      throw error;
    }
  }
  try {
    return await consume(chunks());
  } catch (error) {
    if (readFailed) throw error;
    throw new ConsumerFailure(error);
  }
}

export class ApiClient {
  readonly apiVersion: 1 | 2;
  private readonly baseUrl: string;

  constructor(private readonly options: ApiClientOptions) {
    this.apiVersion = options.apiVersion;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  /** The full URL of an endpoint in the selected version (v1: no prefix, v2: "/v2"). */
  url(endpoint: Endpoint): string {
    if (!endpoint.versions.includes(this.apiVersion)) {
      // Commands check this before sending; reaching here is a usage error all the same.
      throw new UsageError(`${endpoint.label} is not available in API version ${this.apiVersion}; use --api-version 2`);
    }
    return `${this.baseUrl}${this.apiVersion === 2 ? "/v2" : ""}${endpoint.path}`;
  }

  /** POSTs a JSON body and returns the parsed JSON answer (null for an empty body). */
  postJson(endpoint: Endpoint, body: Record<string, unknown>): Promise<unknown> {
    return this.post(endpoint, () => ({ body: JSON.stringify(body), contentType: "application/json" }));
  }

  /** POSTs multipart/form-data; the form is rebuilt for every attempt (a body is single-use). */
  postMultipart(endpoint: Endpoint, buildForm: () => FormData): Promise<unknown> {
    return this.post(endpoint, () => ({ body: buildForm(), contentType: undefined }));
  }

  /**
   * POSTs a JSON body and hands a successful answer's body to `consume` as a stream of bytes
   * instead of one string: a report window can be tens of megabytes, and a million-record
   * export must stay under 200 MiB (issue 5). Runs inside the scheduler like every request:
   * a connection lost while reading is retried, and `consume` then starts again from the
   * first byte (it must drop what a failed attempt gave it). Error answers are read and
   * mapped as for postJson; an error thrown by `consume` itself is passed through as it is.
   */
  postJsonStreaming<T>(
    endpoint: Endpoint,
    body: Record<string, unknown>,
    consume: (body: AsyncIterable<Uint8Array>) => Promise<T>,
  ): Promise<T> {
    return this.post(endpoint, () => ({ body: JSON.stringify(body), contentType: "application/json" }), consume) as Promise<T>;
  }

  private post(
    endpoint: Endpoint,
    makeBody: () => { body: string | FormData; contentType: string | undefined },
    consume?: (body: AsyncIterable<Uint8Array>) => Promise<unknown>,
  ): Promise<unknown> {
    const url = this.url(endpoint);
    return this.options.scheduler.run({ group: endpoint.group, retry: endpoint.retry, label: endpoint.label }, (attempt) =>
      this.send(endpoint, url, makeBody(), attempt, consume),
    );
  }

  private async send(
    endpoint: Endpoint,
    url: string,
    { body, contentType }: { body: string | FormData; contentType: string | undefined },
    attempt: number,
    consume?: (body: AsyncIterable<Uint8Array>) => Promise<unknown>,
  ): Promise<unknown> {
    const { signal: runSignal, trace } = this.options;
    const now = this.options.now ?? Date.now;
    if (runSignal.aborted) throw new InterruptedError();
    const timeoutMs = (this.options.timeoutSeconds ?? (endpoint.slow ? 120 : 30)) * 1000;
    const timeoutSignal = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([runSignal, timeoutSignal]);
    const path = new URL(url).pathname;
    const started = now();
    trace?.(`→ POST ${path}${attempt > 1 ? ` (retry ${attempt - 1})` : ""}`);

    let response: TransportResponse;
    let text = "";
    let consumed: { value: unknown } | undefined;
    try {
      const payload = typeof body === "string" ? { bytes: body, contentType } : await encodeForm(body);
      response = await (this.options.transport ?? post)(url, {
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: "application/json",
          "user-agent": "simadmin",
          ...(payload.contentType ? { "content-type": payload.contentType } : {}),
        },
        body: payload.bytes,
        signal,
      });
      const ok = response.status >= 200 && response.status < 300;
      if (consume && ok) consumed = { value: await consumeBody(response.body, consume) };
      else text = await response.text();
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error.error;
      if (runSignal.aborted) throw new InterruptedError();
      if (timeoutSignal.aborted) {
        trace?.(`← timeout after ${now() - started} ms`);
        throw new ServiceError(`${endpoint.label}: no answer within ${timeoutMs / 1000} s`, {
          hint: "the service may be slow; raise --timeout or try again later",
          delivery: "maybe-received",
          cause: error,
        });
      }
      const code = networkCode(error) ?? "network error";
      trace?.(`← ${code} after ${now() - started} ms`);
      throw new ServiceError(`${endpoint.label}: cannot reach ${new URL(url).origin} (${code})`, {
        hint: "check --base-url and your network",
        delivery: NOT_SENT_CODES.has(code) ? "not-sent" : "maybe-received",
        cause: error,
      });
    }
    trace?.(`← ${response.status} ${response.statusText} ${now() - started} ms`);
    if (consumed) return consumed.value;

    let parsed: unknown = null;
    if (text.trim() !== "") {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = response.status >= 200 && response.status < 300 ? undefined : text;
      }
    }
    if (response.status >= 200 && response.status < 300) {
      if (parsed === undefined) {
        throw new UnexpectedResponseError(`${endpoint.label}: the service answered something unexpected (not JSON)`);
      }
      return parsed;
    }
    throw this.errorFor(endpoint, response, parsed, now());
  }

  private errorFor(endpoint: Endpoint, response: TransportResponse, body: unknown, now: number): Error {
    const said = serviceMessage(body);
    const detail = said ? `: ${said}` : "";
    const status = response.status;
    switch (status) {
      case 400:
        return new InvalidDataError(`${endpoint.label}: the service rejected the request (400)${detail}`, { body });
      case 401:
        return new AuthError(`${endpoint.label}: the API key was refused (401)${detail}`, {
          hint: "check the key: run `simadmin auth login` or set SIMADMIN_API_KEY",
        });
      case 403:
        return new PermissionError(`${endpoint.label}: this API key lacks permission (403)${detail}`, {
          hint: "ask the service operator's support for a key with access to this operation",
        });
      case 404:
        return new NotFoundError(`${endpoint.label}: not found (404)${detail}`, {
          hint: "check the ids given with --org, --user, --sim or --task",
        });
      case 429:
        return new RateLimitError(`${endpoint.label}: rate limit still exceeded after the retries (429)${detail}`, {
          retryAfterMs: parseRetryAfter(response.header("retry-after"), now, response.header("date")),
          hint: "another client may share this address's budget; try again later",
        });
      default:
        if (status >= 500) {
          return new ServiceError(`${endpoint.label}: the service failed (${status})${detail}`, {
            status,
            delivery: "maybe-received",
            hint: "try again later",
          });
        }
        return new UnexpectedResponseError(`${endpoint.label}: the service answered ${status} unexpectedly${detail}`, { status });
    }
  }
}
