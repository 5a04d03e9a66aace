import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { linkRef } from "../../domain/durable-links.js";
import type { Answer, LinkClicks } from "./clicks.js";
import { formatAddress, type ListenAddress } from "./listen.js";
import type { Metrics } from "./metrics.js";
import { notFoundPage, plainText, STYLE_HASH } from "./pages.js";

// The HTTP side of `links serve` on node:http (README "Durable links": why no framework).
// Routes: GET|HEAD|POST /l/<id>, GET /healthz, GET /metrics. Every answer carries the same
// security headers; one log line per request, with the link id shortened to its hash and
// no query string (a resume ticket) or Location (a token) ever written.

const SECURITY_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  // No script at all; the one stylesheet by hash. No form-action: the Start button's answer
  // redirects to the simulation's own address, which a form-action would have to list.
  "Content-Security-Policy": `default-src 'none'; style-src '${STYLE_HASH}'; base-uri 'none'; frame-ancestors 'none'`,
};

/** The most a POST body may hold (the Start form sends none). */
const MAX_BODY_BYTES = 8 * 1024;
/** After SIGTERM, requests still running after this long are cut. */
const DRAIN_LIMIT_MS = 30_000;

export interface LinkServerOptions {
  listen: ListenAddress;
  clicks: LinkClicks;
  metrics: Metrics;
  /** One line per request (stderr). */
  log: (line: string) => void;
  now: () => number;
}

export interface LinkServer {
  /** `http://127.0.0.1:8080` */
  readonly url: string;
  /** Stops accepting, lets the requests in flight finish, then resolves. */
  stop(): Promise<void>;
}

const LINK_PATH = /^\/l\/([^/?#]*)\/?$/;

function methodLabel(method: string | undefined): string {
  return method === "GET" || method === "HEAD" || method === "POST" ? method : "OTHER";
}

function logPath(pathname: string): string {
  const link = LINK_PATH.exec(pathname);
  if (link) return `/l/#${linkRef(link[1]!)}`;
  return pathname.length > 64 ? `${pathname.slice(0, 64)}…` : pathname;
}

async function drainBody(request: IncomingMessage): Promise<boolean> {
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return false;
  }
  return true;
}

export async function startLinkServer(options: LinkServerOptions): Promise<LinkServer> {
  const { clicks, metrics, log, now } = options;
  let stopping = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;

  const answer = (request: IncomingMessage, response: ServerResponse, result: Answer): void => {
    const headers: Record<string, string> = { ...SECURITY_HEADERS };
    if (stopping) headers.Connection = "close";
    let body: string;
    if ("location" in result) {
      headers.Location = result.location;
      headers["Content-Type"] = "text/plain; charset=utf-8";
      body = "Opening the simulation…\n";
    } else {
      Object.assign(headers, { "Content-Type": "text/html; charset=utf-8" }, result.headers);
      body = result.html;
    }
    headers["Content-Length"] = String(Buffer.byteLength(body));
    response.writeHead(result.status, headers);
    response.end(request.method === "HEAD" ? undefined : body);
  };

  const route = async (request: IncomingMessage): Promise<Answer> => {
    const url = new URL(request.url ?? "/", "http://link.invalid");
    const method = request.method ?? "GET";
    const link = LINK_PATH.exec(url.pathname);
    if (link) {
      const id = link[1]!;
      if (method === "GET" || method === "HEAD") {
        const ticket = url.searchParams.get("resume");
        return method === "GET" && ticket !== null ? clicks.resume(id, ticket) : clicks.view(id);
      }
      if (method === "POST") {
        if (!(await drainBody(request))) return { ...plainText(413, "request too large\n"), note: "body too large" };
        return clicks.click(id);
      }
      return {
        ...plainText(405, "method not allowed\n"),
        headers: { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD, POST" },
      };
    }
    if (url.pathname === "/healthz" && (method === "GET" || method === "HEAD")) {
      return stopping ? plainText(503, "stopping\n") : plainText(200, "ok\n");
    }
    if (url.pathname === "/metrics" && method === "GET") {
      return { ...plainText(200, metrics.text()), headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" } };
    }
    return notFoundPage();
  };

  const server: Server = createServer((request, response) => {
    inFlight++;
    const started = now();
    const method = methodLabel(request.method);
    const pathname = (request.url ?? "/").split("?")[0]!;
    void route(request)
      .catch((error: unknown): Answer => ({ ...plainText(500, "internal error\n"), note: `internal error: ${String(error)}` }))
      .then((result) => {
        answer(request, response, result);
        metrics.response(method, result.status);
        const note = result.note ? ` ${result.note}` : "";
        log(`${new Date(started).toISOString()} ${method} ${logPath(pathname)} ${result.status} ${now() - started}ms${note}`);
      })
      .finally(() => {
        inFlight--;
        if (stopping && inFlight === 0) drained?.();
      });
  });
  // Slow clients may not hold connections open for ever (slowloris).
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.listen.port, options.listen.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${formatAddress({ host: options.listen.host, port: address.port })}`,
    async stop() {
      stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, DRAIN_LIMIT_MS).unref();
        });
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
