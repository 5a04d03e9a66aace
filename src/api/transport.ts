import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";
import { hasProxyVariable, proxyFor, type ProxyChoice } from "./proxy-env.js";
import { bodyText, markNotSent, type Post, type Transport, type TransportResponse } from "./transport-common.js";

// One POST, two ways behind one interface:
// - direct: node:http(s). Why not fetch or undici here: on Node 20 the first fetch costs
//   ~190 ms of CPU to initialise and importing undici ~110–170 ms, while node:http is part of
//   Node's start-up snapshot; `token` must start within 2.5× of `node -e 0` (bench/startup.mjs).
// - through a proxy (HTTPS_PROXY/HTTP_PROXY/NO_PROXY, docs/cli-contract.md "Global options"):
//   undici's EnvHttpProxyAgent (transport-proxy.ts), imported only when a proxy applies.
// Everything else — statuses, retries, budgets, size caps — lives in client.ts and the scheduler.

// Keep-alive: a multi-window report or a batched import reuses one connection.
const httpAgent = new HttpAgent({ keepAlive: true });
let httpsAgent: HttpsAgent | undefined;

// node:https (and tls and crypto behind it) loads only for an https:// URL: an http:// one,
// e.g. a sandbox or a service on loopback, starts without it (docs/architecture.md, Start-up).
const https = (): typeof import("node:https") => process.getBuiltinModule("node:https");

/**
 * Closes idle keep-alive connections so the process can exit at once. Only the idle ones: a
 * finished run has no other, and a connection still carrying a request belongs to another run
 * in the same process (the in-process tests run several at once).
 */
export function closeConnections(): void {
  for (const agent of httpsAgent ? [httpAgent, httpsAgent] : [httpAgent]) {
    for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }
}

function wrap(response: IncomingMessage): TransportResponse {
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    header(name) {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    body: response,
    text: () => bodyText(response),
    discard() {
      response.destroy();
    },
  };
}

/**
 * Sends the request directly and resolves once the answer's status and headers arrive.
 * Errors are Node's own (with `code`: ECONNREFUSED, ECONNRESET, ABORT_ERR…) for client.ts to
 * classify; those raised before the connection was up are marked as not sent.
 */
export const post: Post = (url, request) => {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const body = typeof request.body === "string" ? Buffer.from(request.body, "utf8") : request.body;
  return new Promise((resolve, reject) => {
    let connected = false;
    const fail = (error: unknown): void => {
      const failure = error instanceof Error ? error : new Error(String(error));
      reject(connected ? failure : markNotSent(failure));
    };
    try {
      const req = (secure ? https().request : httpRequest)(
        target,
        {
          method: request.method ?? "POST",
          agent: secure ? (httpsAgent ??= new (https().Agent)({ keepAlive: true })) : httpAgent,
          headers: { ...request.headers, "content-length": String(body.byteLength) },
          signal: request.signal,
        },
        (response) => resolve(wrap(response)),
      );
      req.once("socket", (socket: Socket) => {
        // A kept-alive socket is already up: what fails on it may have been received.
        if (!socket.connecting) connected = true;
        else socket.once(secure ? "secureConnect" : "connect", () => (connected = true));
      });
      req.once("error", fail);
      req.end(body);
    } catch (error) {
      // Node validates headers synchronously (ERR_INVALID_CHAR): nothing was written.
      fail(error);
    }
  });
};

const direct: Transport = {
  post,
  proxy: undefined,
  close: async () => closeConnections(),
};

/**
 * The transport for requests to `baseUrl`: through the proxy the environment names for it
 * (curl's rules, proxy-env.ts), else direct. undici is imported only in the first case, so
 * a run without proxy variables starts as fast as before.
 */
export async function openTransport(
  baseUrl: string,
  env: Record<string, string | undefined>,
  options: { direct?: boolean } = {},
): Promise<Transport> {
  if (options.direct || !hasProxyVariable(env)) return direct;
  const choice: ProxyChoice | undefined = proxyFor(baseUrl, env);
  if (!choice) return direct;
  const { proxyTransport } = await import("./transport-proxy.js");
  return proxyTransport(choice);
}
