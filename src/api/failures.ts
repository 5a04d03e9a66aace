import {
  AuthError,
  InvalidDataError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServiceError,
  UnexpectedResponseError,
} from "../errors.js";
import { escapeForLine } from "../text/sanitize.js";
import { serviceWords } from "./error-words.js";
import { proxyRefusal } from "./proxy-answer.js";
import type { ProxyInfo } from "./proxy-env.js";
import { parseRetryAfter } from "./rate/backoff.js";
import { CONNECT_FAILURE_CODES, isCertificateCode, wasNotSent, type TransportResponse } from "./transport-common.js";

// Error mapping (client.ts sends, answers.ts reads): every failure — below HTTP (connection,
// TLS, proxy) or an HTTP error answer — becomes a typed error with the contract's exit code
// (docs/cli-contract.md "Exit codes"). A redirect is reported with its Location and never
// followed (the key must not travel to another host); a failure that a retry cannot mend
// (certificate, a key a header cannot carry) is marked not retryable.

/** What the messages need to know of the endpoint. */
interface Labelled {
  label: string;
}

/** The innermost error code (ECONNREFUSED…), else the innermost message. */
export function networkCode(error: unknown): string | undefined {
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
function redirectError(endpoint: Labelled, response: TransportResponse, url: string): UnexpectedResponseError {
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

/** A failure below HTTP (connection, TLS, proxy) as the contract's exit 8, or 11 for a certificate file. */
export function networkFailure(endpoint: Labelled, url: string, error: unknown, proxy: ProxyInfo | undefined): ServiceError {
  const code = networkCode(error) ?? "network error";
  const origin = new URL(url).origin;
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

/** An HTTP error answer (3xx, 4xx, 5xx) as the typed error with the contract's exit code. */
export function statusError(endpoint: Labelled, response: TransportResponse, body: unknown, now: number, url: string): Error {
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
