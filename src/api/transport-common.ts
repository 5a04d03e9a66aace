import type { ProxyInfo } from "./proxy-env.js";

// What both transports (transport.ts: node:http(s); transport-proxy.ts: undici through a
// proxy) share: the interface the client sends through, and how a failure says it never left
// this machine. Apart from transport.ts, which imports the proxy transport lazily.

export interface TransportResponse {
  status: number;
  statusText: string;
  header(name: string): string | undefined;
  /** The body as bytes, streamed; read it once, here or through text(). */
  body: AsyncIterable<Uint8Array>;
  /** The whole body as text, uncapped: for tests and tools (the client reads `body` with a cap). */
  text(): Promise<string>;
  /** Stops reading and drops the connection (an answer too large, or not worth reading). */
  discard(): void;
}

export interface TransportRequest {
  /** POST unless said otherwise: the service takes POSTs only; monitors' push URLs (ping.ts) take GETs. */
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body: string | Uint8Array;
  signal: AbortSignal;
}

export type Post = (url: string, request: TransportRequest) => Promise<TransportResponse>;

export interface Transport {
  post: Post;
  /** The proxy (never its credentials) when requests go through one. */
  readonly proxy: ProxyInfo | undefined;
  /** Closes idle keep-alive connections so the process can exit at once. */
  close(): Promise<void>;
}

// Errors raised before a single byte of the request left this machine (connection refused,
// TLS handshake failed, a header Node refused to write). A bulk-import upload that failed
// so is "not sent" whatever the error code (contract: "Retries").
const notSent = new WeakSet<object>();

export function markNotSent<T>(error: T): T {
  if (error && typeof error === "object") notSent.add(error);
  return error;
}

/** True when the transport knows that nothing of the request reached the network. */
export function wasNotSent(error: unknown): boolean {
  return Boolean(error && typeof error === "object" && notSent.has(error));
}

/**
 * Errors that end a request before it reached the service (connecting, resolving the name,
 * a connect timeout): never received, so always safe to send again.
 */
export const CONNECT_FAILURE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Node's codes for a certificate the machine does not trust or that does not fit the host. */
export function isCertificateCode(code: string): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH/.test(code);
}

export async function bodyText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
