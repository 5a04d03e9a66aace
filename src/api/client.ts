import {
  AuthError,
  CliError,
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
import { serviceWords } from "./error-words.js";
import { parseRetryAfter } from "./backoff.js";
import { proxyAnswerError, proxyRefusal } from "./proxy-answer.js";
import type { ProxyInfo } from "./proxy-env.js";
import type { RequestGroup } from "./rate-limits.js";
import type { RetryClass, Scheduler } from "./scheduler.js";
import { CONNECT_FAILURE_CODES, isCertificateCode, post, wasNotSent, type Post, type TransportResponse } from "./transport.js";

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
// Transport: node:http(s) directly, undici behind a proxy (transport.ts says why).
//
// What comes back is untrusted (issue 13): answers are read up to a cap and no further
// (an endless body must not grow the process), an empty, `null`, non-JSON or absurdly
// nested answer is exit 8 naming what came back, a redirect is reported with its Location
// and never followed (the key must not travel to another host), and a failure that a retry
// cannot mend (certificate, answer too large, a key a header cannot carry) is not retried.

/** Buffered answers (every call but report windows): far above any real one. */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** One report window, streamed to disk: generous, but a runaway answer must end. */
export const DEFAULT_MAX_REPORT_BYTES = 1024 * 1024 * 1024;
/** What is read of an error answer: enough for the service's message. */
const ERROR_BODY_BYTES = 64 * 1024;
/** Real answers nest a few levels; deeper would overflow the stack of whoever walks them. */
export const MAX_JSON_DEPTH = 256;

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
  /** A JSON `null` answer is an answer (`simadmin api` prints it); elsewhere it is exit 8. */
  acceptsNull?: boolean;
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
  transport?: Post | undefined;
  /** The proxy the transport goes through, for messages and for telling its answers apart. */
  proxy?: ProxyInfo | undefined;
  /** Cap on a buffered answer (default DEFAULT_MAX_ANSWER_BYTES). */
  maxAnswerBytes?: number | undefined;
  /** Cap on a streamed answer, a report window (default DEFAULT_MAX_REPORT_BYTES). */
  maxStreamBytes?: number | undefined;
  /** Where the key came from ("SIMADMIN_API_KEY", "the stored key"), for messages about it. */
  apiKeySource?: string | undefined;
}

/**
 * An HTTP header carries visible ASCII only in practice (RFC 9110 §5.5 allows obs-text, which
 * Node and undici treat differently). A key holding anything else — a line break, a
 * typographic quote from a copy-paste — is refused before anything is sent.
 */
export function checkApiKey(key: string, source = "the API key"): void {
  let position = 0;
  for (const ch of key) {
    position++;
    if (/^[\x21-\x7e]$/.test(ch)) continue;
    const code = ch.codePointAt(0) ?? 0;
    const what = ch === " " ? "a space" : code < 0x20 || code === 0x7f ? "a control character" : "a character outside ASCII";
    throw new AuthError(
      `${source} holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, "0")} at position ${position}) that an HTTP header cannot carry; nothing was sent`,
      {
        hint: "copy the key again without spaces, line breaks or typographic quotes; then run `simadmin auth login` or set SIMADMIN_API_KEY",
      },
    );
  }
}

/** Byte counts for messages: "4 MiB", "1 GiB", "512 bytes". */
function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

function answerTooLarge(label: string, limit: number, declared?: number): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `${label}: answer too large (${declared !== undefined ? `${formatBytes(declared)} announced` : "more than"}${declared !== undefined ? `, over ` : " "}${formatBytes(limit)}); it was not read further and not retried`,
    {
      hint: "the service (or a proxy in between) sent far more than such an answer holds; try again later or tell the service operator",
    },
  );
}

/** Reads a body up to `limit` bytes; past it, drops the connection and throws `tooLarge()`, or stops quietly. */
async function readCapped(
  response: TransportResponse,
  limit: number,
  onOver: "throw" | "truncate",
  tooLarge: () => Error,
): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) {
      response.discard();
      if (onOver === "throw") throw tooLarge();
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength - (total - limit)));
      break;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The deepest nesting of brackets in JSON text, counted without parsing (stops past `max`). */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A short, terminal-safe excerpt of what came back: `"<html><head>…"`. */
function excerpt(text: string, length = 80): string {
  const line = escapeForLine(text.trim());
  return `"${line.length > length ? `${line.slice(0, length - 1)}…` : line}"`;
}

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

/** What a certificate error code means, in words. */
function certificateProblem(code: string): string {
  if (code === "DEPTH_ZERO_SELF_SIGNED_CERT") return "a self-signed certificate";
  if (code === "SELF_SIGNED_CERT_IN_CHAIN") return "signed by a CA this machine does not trust";
  if (code.startsWith("UNABLE_TO_")) return "signed by an unknown CA";
  if (code === "CERT_HAS_EXPIRED") return "the certificate has expired";
  if (code === "CERT_NOT_YET_VALID") return "the certificate is not valid yet";
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH") return "issued for another host name";
  return "the certificate was refused";
}

/**
 * Redirects that say the request was not processed but belongs elsewhere (RFC 9110 §15.4:
 * 301, 302, 307, 308): an upload answered so was not imported and may be sent again (issue
 * 22 item 6). 303 See Other is how a server points at the result of a POST it *did* process,
 * so it and the rest stay "may have been received".
 */
const NOT_PROCESSED_REDIRECTS: ReadonlySet<number> = new Set([301, 302, 307, 308]);

/**
 * 3xx: never followed — the Authorization header would travel to wherever the service
 * points (docs/cli-contract.md "Retries"). The message names the Location and, when it is
 * the same endpoint at another address (http:// → https://, a moved host), the --base-url
 * that would reach it.
 */
function redirectError(endpoint: Endpoint, response: TransportResponse, url: string): UnexpectedResponseError {
  const status = response.status;
  const location = response.header("location");
  let where = "without saying where (no Location)";
  let hint = "check --base-url; redirects are not followed, so that the API key is never sent to another address";
  if (location) {
    let target: URL | undefined;
    try {
      target = new URL(location, url);
    } catch {
      // Not a URL: shown escaped as it came.
    }
    const shown = target ? target.href : location;
    where = `to ${escapeForLine(shown.length > 200 ? `${shown.slice(0, 199)}…` : shown)}`;
    const requested = new URL(url).pathname;
    if (target && target.pathname.endsWith(requested) && target.href !== url) {
      const base = `${target.origin}${target.pathname.slice(0, -requested.length)}`.replace(/\/v2$/, "");
      hint = `if that address is the service's, use --base-url ${escapeForLine(base)}; redirects are not followed, so that the API key is never sent to another address`;
    }
  }
  return new UnexpectedResponseError(
    `${endpoint.label}: the service answered ${status}${response.statusText ? ` ${escapeForLine(response.statusText)}` : ""}, a redirect ${where}`,
    { status, hint, delivery: NOT_PROCESSED_REDIRECTS.has(status) ? "not-sent" : "maybe-received" },
  );
}

/**
 * The body of a successful streamed answer (a report window), checked on the way: more than
 * `limit` bytes ends the read with "answer too large", and an answer that turns out empty
 * or `null` fails at its end — so the consumer never commits an empty export.
 */
async function* checkedStream(
  response: TransportResponse,
  limit: number,
  label: string,
  status: number,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  // The first non-whitespace bytes, enough to tell "null" from the start of a document.
  let head = "";
  let significant = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > limit) {
      response.discard();
      throw answerTooLarge(label, limit);
    }
    if (significant < 5) {
      for (const byte of chunk) {
        if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
        if (++significant > 4) break;
        head += String.fromCharCode(byte);
      }
    }
    yield chunk;
  }
  const what = significant === 0 ? "an empty body" : significant === 4 && head === "null" ? "`null`" : undefined;
  if (what) {
    throw new UnexpectedResponseError(`${label}: the service answered ${status} with ${what} where JSON was expected`, {
      status,
      hint: "nothing was written; try again later, and if it persists tell the service operator",
    });
  }
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

  /**
   * `simadmin api`: POSTs JSON text to a path under the base URL exactly as given (its version
   * prefix included, so `endpoint.versions` is not consulted), through the same scheduler,
   * headers and status mapping as every other request.
   */
  postRawJson(endpoint: Endpoint, bodyText: string): Promise<unknown> {
    const url = `${this.baseUrl}${endpoint.path}`;
    const raw = { ...endpoint, acceptsNull: true };
    return this.options.scheduler.run({ group: endpoint.group, retry: endpoint.retry, label: endpoint.label }, (attempt) =>
      this.send(raw, url, { body: bodyText, contentType: "application/json" }, attempt),
    );
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
    trace?.(
      `→ POST ${path}${attempt > 1 ? ` (retry ${attempt - 1})` : ""}${this.options.proxy ? ` via ${this.options.proxy.display}` : ""}`,
    );

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
      const maxBytes = consume && ok ? this.maxStreamBytes : this.maxAnswerBytes;
      const declared = Number(response.header("content-length"));
      if (ok && Number.isFinite(declared) && declared > maxBytes) {
        response.discard();
        throw answerTooLarge(endpoint.label, maxBytes, declared);
      }
      if (consume && ok) {
        const checked = checkedStream(response, maxBytes, endpoint.label, response.status);
        consumed = { value: await consumeBody(checked, consume) };
      } else if (ok) {
        text = await readCapped(response, maxBytes, "throw", () => answerTooLarge(endpoint.label, maxBytes));
      } else {
        // An error answer is read for its message only: an endless one must not grow the process.
        text = await readCapped(response, ERROR_BODY_BYTES, "truncate", () => new Error("unreachable"));
      }
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error.error;
      if (runSignal.aborted) throw new InterruptedError();
      if (error instanceof CliError) {
        trace?.(`← ${error.message}`);
        throw error;
      }
      if (timeoutSignal.aborted) {
        trace?.(`← timeout after ${now() - started} ms`);
        throw new ServiceError(`${endpoint.label}: no answer within ${timeoutMs / 1000} s`, {
          hint: "the service may be slow; raise --timeout or try again later",
          delivery: wasNotSent(error) ? "not-sent" : "maybe-received",
          cause: error,
        });
      }
      const failure = this.networkFailure(endpoint, url, error);
      const what = failure.status ? `${failure.status} from the proxy` : (networkCode(error) ?? "network error");
      trace?.(`← ${what} after ${now() - started} ms`);
      throw failure;
    }
    trace?.(`← ${response.status} ${response.statusText} ${now() - started} ms`);
    if (consumed) return consumed.value;

    const ok = response.status >= 200 && response.status < 300;
    if (ok) return this.parseAnswer(endpoint, response, text);
    let parsed: unknown = null;
    if (text.trim() !== "") {
      try {
        parsed = jsonDepthExceeds(text, MAX_JSON_DEPTH) ? text : JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    // A page the proxy made is the proxy's refusal, never the key's (proxy-answer.ts).
    const byProxy = proxyAnswerError(
      endpoint.label,
      url,
      { status: response.status, header: (name) => response.header(name), body: parsed },
      this.options.proxy,
    );
    if (byProxy) throw byProxy;
    throw this.errorFor(endpoint, response, parsed, now(), url);
  }

  private get maxAnswerBytes(): number {
    return this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  }

  private get maxStreamBytes(): number {
    return this.options.maxStreamBytes ?? DEFAULT_MAX_REPORT_BYTES;
  }

  /** A 2xx answer's JSON; anything else is exit 8 naming what came back, never an empty result. */
  private parseAnswer(endpoint: Endpoint, response: TransportResponse, text: string): unknown {
    const status = response.status;
    const unexpected = (what: string): UnexpectedResponseError =>
      new UnexpectedResponseError(`${endpoint.label}: the service answered ${status} with ${what} where JSON was expected`, {
        status,
        hint: "nothing was written; try again later, and if it persists tell the service operator (a proxy or gateway in between may be answering instead)",
      });
    if (text.trim() === "") {
      // 204 says "no content" on purpose: the callers that accept no answer get null.
      if (status === 204) return null;
      throw unexpected("an empty body");
    }
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw unexpected(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      const type = response.header("content-type")?.split(";")[0]?.trim();
      throw unexpected(`${type ? `${escapeForLine(type)} ` : ""}${excerpt(text)}`);
    }
    if (parsed === null && !endpoint.acceptsNull) throw unexpected("`null`");
    return parsed;
  }

  /** A failure below HTTP (connection, TLS, proxy) as the contract's exit 8, or 11 for a certificate file. */
  private networkFailure(endpoint: Endpoint, url: string, error: unknown): ServiceError {
    const code = networkCode(error) ?? "network error";
    const origin = new URL(url).origin;
    const proxy = this.options.proxy;
    const notSent = wasNotSent(error) || CONNECT_FAILURE_CODES.has(code);
    const delivery = notSent ? "not-sent" : "maybe-received";
    if (isCertificateCode(code)) {
      return new ServiceError(
        `${endpoint.label}: the TLS certificate of ${origin} is not trusted (${code}: ${certificateProblem(code)}); not retried`,
        {
          delivery: "not-sent",
          retryable: false,
          cause: error,
          hint:
            code === "ERR_TLS_CERT_ALTNAME_INVALID" || code === "HOSTNAME_MISMATCH"
              ? "check --base-url: the certificate belongs to another host name"
              : "if the service (or a TLS-inspecting proxy) uses a private CA, point NODE_EXTRA_CA_CERTS at its PEM certificate file and run again",
        },
      );
    }
    if (code === "EPROTO" || code.startsWith("ERR_SSL_")) {
      return new ServiceError(`${endpoint.label}: the TLS handshake with ${origin} failed (${code}); not retried`, {
        delivery: "not-sent",
        retryable: false,
        cause: error,
        hint: "check --base-url: an https:// address pointing at a plain-http port fails like this",
      });
    }
    if (code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
      return new ServiceError(`${endpoint.label}: a request header holds a character HTTP cannot carry; nothing was sent`, {
        delivery: "not-sent",
        retryable: false,
        cause: error,
        hint: "check SIMADMIN_API_KEY or the stored key for stray characters",
      });
    }
    if (error instanceof Error && error.name === "ProxyRefusedError") {
      const { status, tunnel } = error as Error & { status: number; tunnel: boolean };
      return proxyRefusal({ label: endpoint.label, origin, proxy, status, tunnel, cause: error });
    }
    const viaProxy = proxy && notSent ? `the proxy ${proxy.display}` : origin;
    return new ServiceError(
      `${endpoint.label}: cannot reach ${viaProxy}${proxy && !notSent ? ` (via the proxy ${proxy.display})` : ""} (${code})`,
      {
        hint: proxy
          ? "check the proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and your network"
          : "check --base-url and your network",
        delivery,
        cause: error,
      },
    );
  }

  private errorFor(endpoint: Endpoint, response: TransportResponse, body: unknown, now: number, url: string): Error {
    const said = serviceWords(body);
    const detail = said ? `: ${said}` : "";
    const status = response.status;
    if (status >= 300 && status < 400) return redirectError(endpoint, response, url);
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
