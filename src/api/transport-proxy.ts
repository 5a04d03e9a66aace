import { STATUS_CODES } from "node:http";
// By path, not the package index (see undici-parts.d.ts): undici's fetch and WebSocket would
// double the cost. What the index does besides, and what the proxy agent needs (its CONNECT
// goes through `dispatcher.connect`): give every dispatcher the request/connect methods.
import api from "undici/lib/api/index.js";
import Dispatcher from "undici/lib/dispatcher/dispatcher.js";
import EnvHttpProxyAgent from "undici/lib/dispatcher/env-http-proxy-agent.js";

Object.assign(Dispatcher.prototype, api);
import {
  bodyText,
  CONNECT_FAILURE_CODES,
  isCertificateCode,
  markNotSent,
  type Transport,
  type TransportResponse,
} from "./transport-common.js";
import type { ProxyChoice } from "./proxy-env.js";

// Requests through a corporate proxy (docs/cli-contract.md "Global
// options"). Imported by transport.ts only when proxy-env.ts chose a proxy for the base URL,
// so undici's ~100–200 ms of start-up is paid only then.
//
// undici's EnvHttpProxyAgent does the proxying: CONNECT tunnels for https:// services and,
// with `proxyTunnel: false`, absolute-form requests (`POST http://host/path`) for http://
// ones — what every forward proxy accepts, including those that allow CONNECT to port 443
// only. It is given the proxy that proxy-env.ts chose rather than reading process.env
// itself: its own reading differs from curl's (HTTP_PROXY for https, no domain-suffix match
// for "example.com" in NO_PROXY), and the CLI's environment is injected (tests). Credentials
// in the proxy URL become a Proxy-Authorization header inside undici; messages only ever
// show `choice.display` (scheme, host and port).

/**
 * The proxy refused: a CONNECT answered with another status than 200 ("Proxy response (407)
 * !== 200 when HTTP Tunneling"), or an absolute-form request answered 407, which undici turns
 * into an error of its own ("Proxy Authentication Required (407)") instead of an answer.
 * client.ts names it as the proxy's (proxy-answer.ts).
 */
export class ProxyRefusedError extends Error {
  constructor(
    readonly status: number,
    readonly tunnel: boolean,
    options: { cause: unknown },
  ) {
    super(`the proxy answered ${status}${tunnel ? " to CONNECT" : ""}`, options);
    this.name = "ProxyRefusedError";
  }
}

function innerCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && code !== "UND_ERR_ABORTED") return code;
    current = cause;
  }
  return undefined;
}

/** EnvHttpProxyAgent announces itself as experimental on stderr; that line is not for our users. */
function quietly<T>(make: () => T): T {
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  const filtered = (warning: string | Error, ...rest: unknown[]): void => {
    const options = rest[0];
    const code = typeof options === "object" && options ? (options as { code?: string }).code : rest[1];
    if (code === "UNDICI-EHPA") return;
    emitWarning(warning, ...rest);
  };
  process.emitWarning = filtered;
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

export function proxyTransport(choice: ProxyChoice): Transport {
  const proxyUrl = choice.url.href;
  const agent = quietly(
    () =>
      new EnvHttpProxyAgent({
        httpProxy: proxyUrl,
        httpsProxy: proxyUrl,
        // proxy-env.ts has already applied NO_PROXY to the one origin this run talks to.
        noProxy: "",
        // Not in undici 6's type declarations, but honoured by its ProxyAgent (6.22+).
        proxyTunnel: false,
      } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]),
  );
  return {
    proxy: { display: choice.display, variable: choice.variable, withCredentials: choice.withCredentials },
    async post(url, req): Promise<TransportResponse> {
      try {
        const target = new URL(url);
        const answer = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: req.method ?? "POST",
          headers: req.headers,
          body: typeof req.body === "string" ? Buffer.from(req.body, "utf8") : req.body,
          signal: req.signal,
        });
        return {
          status: answer.statusCode,
          statusText: STATUS_CODES[answer.statusCode] ?? "",
          header(name) {
            const value = answer.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(", ") : value;
          },
          body: answer.body,
          text: () => bodyText(answer.body),
          discard() {
            // undici's body stream emits RequestAbortedError when destroyed before its end: with
            // no listener that error would crash the process (a ping's answer is never read).
            answer.body.on("error", () => undefined);
            answer.body.destroy();
          },
        };
      } catch (error) {
        const message = (error as Error)?.message ?? "";
        const tunnel = /Proxy response \((\d{3})\)/.exec(message);
        if (tunnel?.[1]) throw markNotSent(new ProxyRefusedError(Number(tunnel[1]), true, { cause: error }));
        // The proxy answered 407 and did not pass the request on.
        if (/Proxy Authentication Required \(407\)/.test(message)) {
          throw markNotSent(new ProxyRefusedError(407, false, { cause: error }));
        }
        const code = innerCode(error);
        if (code && (CONNECT_FAILURE_CODES.has(code) || isCertificateCode(code))) markNotSent(error);
        throw error;
      }
    },
    close: () => agent.close(),
  };
}
