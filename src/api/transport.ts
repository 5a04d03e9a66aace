import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

// One POST over node:http(s). Why not fetch or the undici package (the stack's first
// choice): on Node 20 the first fetch costs ~190 ms of CPU to initialise and importing
// undici ~110–170 ms, while node:http is part of Node's start-up snapshot; `token` must
// start within 2.5× of `node -e 0` (issue 8, measured by bench/startup.mjs). Everything
// else — statuses, retries, budgets — lives in client.ts and the scheduler.

export interface TransportResponse {
  status: number;
  statusText: string;
  header(name: string): string | undefined;
  /** The body as bytes, streamed; read it once, either here or through text(). */
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

export interface TransportRequest {
  headers: Record<string, string>;
  body: string | Uint8Array;
  signal: AbortSignal;
}

// Keep-alive: a multi-window report or a batched import reuses one connection.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Closes idle keep-alive connections so the process can exit at once. Only the idle ones: a
 * finished run has no other, and a connection still carrying a request belongs to another run
 * in the same process (the in-process tests run several at once).
 */
export function closeConnections(): void {
  for (const agent of [agents.http, agents.https]) {
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
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

/**
 * Sends the request and resolves once the answer's status and headers arrive. Errors are
 * Node's own (with `code`: ECONNREFUSED, ECONNRESET, ABORT_ERR…) for client.ts to classify.
 */
export function post(url: string, request: TransportRequest): Promise<TransportResponse> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const body = typeof request.body === "string" ? Buffer.from(request.body, "utf8") : request.body;
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        headers: { ...request.headers, "content-length": String(body.byteLength) },
        signal: request.signal,
      },
      (response) => resolve(wrap(response)),
    );
    req.once("error", reject);
    req.end(body);
  });
}
