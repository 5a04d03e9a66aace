import { STATUS_CODES } from "node:http";
import { ServiceError } from "../errors.js";
import { escapeForLine } from "../text/sanitize.js";
import type { ProxyInfo } from "./proxy-env.js";

// Answers made by a proxy, not by the service (docs/cli-contract.md "The
// service's words": "An answer made by a proxy (407, or a 401/403/5xx page from the proxy) is
// named as the proxy's, is never blamed on the API key, and a 407 is not retried";
// docs/proxies.md). Pure: client.ts asks `proxyAnswerError` about every error answer, and
// turns a refused tunnel or undici's 407 into `proxyRefusal`.
//
// Which answers are the proxy's, by shape (nothing here trusts a single product's wording):
// - a 407 always — only a proxy sends it;
// - through a proxy in absolute form (an http:// service; an https:// one is tunnelled, and a
//   proxy cannot answer inside the tunnel), a 401, 403 or 5xx that carries a proxy's marks:
//   an X-Squid-Error or Proxy-Authenticate header, a Server header naming a proxy product
//   (squid, tinyproxy, privoxy…), or a Via header on an HTML page (the service answers JSON;
//   a proxy's error page is HTML, and Via says a proxy handled the answer).

/** What is known of an error answer: its status, headers and body (parsed JSON or text). */
export interface AnswerShape {
  status: number;
  header(name: string): string | undefined;
  body: unknown;
}

const PROXY_PRODUCTS = /\b(squid|tinyproxy|privoxy|polipo|ziproxy|traffic server|proxysg|bluecoat|zscaler)\b/i;
/** squid's codes for "could not connect to the service at all" (ERR_CONNECT_FAIL 111): nothing was sent on. */
const NOT_FORWARDED = /^ERR_(CONNECT_FAIL|DNS_FAIL|CANNOT_FORWARD)\b/;

function looksLikeHtml(answer: AnswerShape): boolean {
  if (/html|xml/i.test(answer.header("content-type") ?? "")) return true;
  return typeof answer.body === "string" && /^\s*(<!doctype html|<html|<\?xml)/i.test(answer.body.slice(0, 512));
}

/** Whether an error answer was made by the proxy (see above). */
export function isProxyAnswer(answer: AnswerShape, proxy: ProxyInfo | undefined, targetUrl: string): boolean {
  if (answer.status === 407) return true;
  if (!proxy || new URL(targetUrl).protocol !== "http:") return false;
  if (!(answer.status === 401 || answer.status === 403 || answer.status >= 500)) return false;
  if (answer.header("x-squid-error") || answer.header("proxy-authenticate")) return true;
  if (PROXY_PRODUCTS.test(answer.header("server") ?? "")) return true;
  return answer.header("via") !== undefined && looksLikeHtml(answer);
}

export interface ProxyRefusalDetails {
  label: string;
  /** The service's origin, "http://api.example.com". */
  origin: string;
  proxy: ProxyInfo | undefined;
  status: number;
  /** A CONNECT the proxy refused (https:// services), rather than an answer to the request itself. */
  tunnel: boolean;
  /** squid's X-Squid-Error ("ERR_ACCESS_DENIED 0"), when it sent one. */
  proxyCode?: string | undefined;
  /** The transport's own error, shown with --verbose. */
  cause?: unknown;
}

/**
 * The error for an answer the proxy made. Exit 8 (ServiceError): the service could not be
 * reached through the proxy — neither the key (3, 4) nor the data (6) is at fault. Never
 * retried but for a 5xx (the proxy could not reach the service: that may pass), and never
 * "may have been accepted" when the proxy refused it (it did not pass it on).
 */
export function proxyRefusal(details: ProxyRefusalDetails): ServiceError {
  const { label, origin, proxy, status, tunnel } = details;
  const proxyName = proxy ? `the proxy ${proxy.display}` : "a proxy";
  const variable = proxy?.variable ?? (origin.startsWith("https:") ? "HTTPS_PROXY" : "http_proxy");
  const reason = STATUS_CODES[status] ?? "";
  const code = details.proxyCode ? escapeForLine(details.proxyCode.trim().split(/\s+/)[0] ?? "") : "";
  const said = `${status}${reason ? ` ${reason}` : ""}${code ? ` (${code})` : ""}`;
  const what = tunnel ? `a tunnel to ${origin}` : `the request to ${origin}`;
  const server = status >= 500;
  const where = proxy ? proxy.display.replace(/^[a-z]+:\/\//, "") : "host:port";
  let hint: string;
  if (status === 407 || status === 401) {
    hint = proxy?.withCredentials
      ? `the proxy did not accept the user name and password in ${variable}; correct them there (${variable}=http://user:password@${where})`
      : `set credentials in ${variable}=http://user:password@${where}`;
  } else if (server) {
    hint = "the proxy could not get an answer from the service; try again later, or ask whoever runs the proxy";
  } else {
    const host = new URL(origin).host;
    hint = tunnel
      ? `the proxy's rules do not allow a tunnel to ${host} (many allow CONNECT to port 443 only); ask whoever runs the proxy, or add the host to NO_PROXY if it can be reached directly`
      : `the proxy's rules do not allow ${host}; ask whoever runs the proxy, or add the host to NO_PROXY if it can be reached directly`;
  }
  const notForwarded = tunnel || !server || NOT_FORWARDED.test(details.proxyCode?.trim() ?? "");
  return new ServiceError(
    server
      ? `${label}: ${proxyName} could not pass on ${what}: ${said}`
      : `${label}: ${proxyName} refused ${what}: ${said}; the API key was not checked`,
    {
      status,
      delivery: notForwarded ? "not-sent" : "maybe-received",
      retryable: server,
      hint,
      ...(details.cause === undefined ? {} : { cause: details.cause }),
    },
  );
}

/** The error for an answer the proxy made, or undefined when the service made it. */
export function proxyAnswerError(
  label: string,
  targetUrl: string,
  answer: AnswerShape,
  proxy: ProxyInfo | undefined,
): ServiceError | undefined {
  if (!isProxyAnswer(answer, proxy, targetUrl)) return undefined;
  return proxyRefusal({
    label,
    origin: new URL(targetUrl).origin,
    proxy,
    status: answer.status,
    tunnel: false,
    proxyCode: answer.header("x-squid-error"),
  });
}
