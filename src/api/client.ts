import { AuthError, CliError, InterruptedError, ServiceError, UsageError } from "../errors.js";
import {
  answerTooLarge,
  checkedStream,
  consumeBody,
  ConsumerFailure,
  DEFAULT_MAX_ANSWER_BYTES,
  DEFAULT_MAX_REPORT_BYTES,
  ERROR_BODY_BYTES,
  parseAnswer,
  parseErrorBody,
  readCapped,
} from "./answers.js";
import { networkCode, networkFailure, statusError } from "./failures.js";
import { proxyAnswerError } from "./proxy-answer.js";
import type { ProxyInfo } from "./proxy-env.js";
import type { RequestGroup } from "./rate/limits.js";
import type { RetryClass, Scheduler } from "./rate/scheduler.js";
import { wasNotSent, type Post, type TransportResponse } from "./transport-common.js";
import { post } from "./transport.js";

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
// Sending lives here; reading the answer (caps, JSON checks) in answers.ts, and turning a
// failure into the contract's typed error in failures.ts.

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
  /**
   * Its error answers are data, read whole up to the answer cap: a bulk import's 400 lists
   * every rejected row of a batch of 750 (docs/import-safety.md), far more than a message.
   */
  errorsAreData?: boolean;
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
   * export must stay under 200 MiB. Runs inside the scheduler like every request:
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
        const cap = endpoint.errorsAreData ? this.maxAnswerBytes : ERROR_BODY_BYTES;
        text = await readCapped(response, cap, "truncate", () => new Error("unreachable"));
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
      const failure = networkFailure(endpoint, url, error, this.options.proxy);
      const what = failure.status ? `${failure.status} from the proxy` : (networkCode(error) ?? "network error");
      trace?.(`← ${what} after ${now() - started} ms`);
      throw failure;
    }
    trace?.(`← ${response.status} ${response.statusText} ${now() - started} ms`);
    if (consumed) return consumed.value;

    const ok = response.status >= 200 && response.status < 300;
    if (ok) return parseAnswer(endpoint, response, text);
    const parsed = parseErrorBody(text);
    // A page the proxy made is the proxy's refusal, never the key's (proxy-answer.ts).
    const byProxy = proxyAnswerError(
      endpoint.label,
      url,
      { status: response.status, header: (name) => response.header(name), body: parsed },
      this.options.proxy,
    );
    if (byProxy) throw byProxy;
    throw statusError(endpoint, response, parsed, now(), url);
  }

  private get maxAnswerBytes(): number {
    return this.options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  }

  private get maxStreamBytes(): number {
    return this.options.maxStreamBytes ?? DEFAULT_MAX_REPORT_BYTES;
  }
}
