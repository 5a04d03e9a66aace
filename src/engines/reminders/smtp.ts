import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import { Readable } from "node:stream";
import { composeMail, type ComposedMail } from "./compose.js";
import type { Delivery, DeliveryOutcome, OutgoingMail } from "./delivery.js";
import { SmtpPool, type PooledConnection } from "./smtp-pool.js";

// Delivery through an SMTP relay with nodemailer (docs/reminders.md "Delivery"), loaded only
// here, so no other command pays for it at start-up. STARTTLS whenever the server offers it
// (nodemailer's default on smtp://), implicit TLS with smtps://, the URL's user and password
// for AUTH, a pool of a few connections reused for many messages (smtp-pool.ts), and message
// starts paced evenly so that a 2,000-message run stays within what relays accept from one
// client. A private CA comes from NODE_EXTRA_CA_CERTS (read from
// the run's environment, so tests can give one), added to Node's own roots.

export interface SmtpOptions {
  /** smtp:// or smtps:// with optional user:password@ (already checked). */
  url: URL;
  /** Messages per minute; 0: as fast as the server takes them. */
  perMinute: number;
  /** Connections in the pool. */
  connections: number;
  /** NODE_EXTRA_CA_CERTS, when set. */
  extraCaFile: string | undefined;
  /** Seconds before a connection or answer counts as lost. */
  timeoutSeconds: number;
}

/** The server as messages name it: scheme, host and port, never the credentials. */
export function describeSmtpUrl(url: URL): string {
  const port = url.port || (url.protocol === "smtps:" ? "465" : "587");
  return `${url.protocol}//${url.hostname}:${port}`;
}

interface NodemailerError extends Error {
  code?: string;
  originalCode?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  rejected?: string[];
}

/** Codes of failures that happen before a connection exists: nothing can have been sent. */
const NOT_CONNECTED = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET_BEFORE_GREETING",
]);

/** What a nodemailer failure means for the ledger. */
export function classifySmtpFailure(error: NodemailerError): {
  status: "refused" | "ambiguous" | "unreachable";
  reason: string;
} {
  const words = error.response ?? error.message;
  // The server answered the envelope or the message with an error code: it did not take it.
  if (error.code === "EENVELOPE" && error.command === "RCPT TO") return { status: "refused", reason: words };
  if (error.code === "EMESSAGE" && error.responseCode !== undefined) return { status: "refused", reason: words };
  if (error.code === "EENVELOPE" && error.command === "MAIL FROM")
    return { status: "unreachable", reason: `sender refused: ${words}` };
  if (error.code === "EAUTH" || error.code === "ETLS" || error.code === "EDNS") return { status: "unreachable", reason: words };
  if (error.originalCode !== undefined && NOT_CONNECTED.has(error.originalCode))
    return { status: "unreachable", reason: error.message };
  if (error.code === "ECONNECTION" && error.command === "CONN" && /ECONNREFUSED|ENOTFOUND/.test(error.message)) {
    return { status: "unreachable", reason: error.message };
  }
  // Anything else broke a transaction under way (connection dropped, timeout, garbled answer):
  // the server may or may not have taken the message.
  return { status: "ambiguous", reason: error.message };
}

/** Failures of a reused connection that the server ended while it sat idle: try a fresh one. */
const TRANSIENT = new Set(["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EPROTOCOL"]);

export async function openSmtpDelivery(options: SmtpOptions): Promise<Delivery> {
  // One TLS context for the whole run: given as `ca`, the ~150 roots plus the private CA would
  // be parsed again at every STARTTLS — each pooled connection, a new one every 100 messages —
  // which cost more CPU than the messages themselves (bench/notify.mjs, docs/reminders.md "Pacing").
  const secureContext = options.extraCaFile
    ? createSecureContext({ ca: [...rootCertificates, readFileSync(options.extraCaFile, "utf8")] })
    : undefined;
  const secure = options.url.protocol === "smtps:";
  const host = options.url.hostname.replace(/^\[|\]$/g, "");
  const pool = await SmtpPool.create({
    host,
    port: Number(options.url.port) || (secure ? 465 : 587),
    secure,
    ...(options.url.username
      ? { auth: { user: decodeURIComponent(options.url.username), pass: decodeURIComponent(options.url.password) } }
      : {}),
    // SNI carries names only (RFC 6066); an address is checked against the certificate's IP entries.
    tls: { ...(isIP(host) === 0 ? { servername: host } : {}), ...(secureContext ? { secureContext } : {}) },
    timeoutMs: options.timeoutSeconds * 1000,
    // Relays often close a connection after about 100 messages; the pool opens the next one.
    maxMessages: 100,
  });
  // Pacing: message starts spread evenly, perMinute a minute across all connections.
  const interval = options.perMinute > 0 ? 60_000 / options.perMinute : 0;
  let nextStart = 0;
  const pace = async (): Promise<void> => {
    const now = performance.now();
    const wait = nextStart - now;
    nextStart = Math.max(now, nextStart) + interval;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };

  type Attempt =
    | { kind: "withheld"; cause: unknown }
    | { kind: "failed"; error: NodemailerError; began: boolean }
    | { kind: "answered"; response: string; rejected: boolean };
  /** One attempt on one connection; `began`: beforeData was called (a claim may exist). */
  const attempt = (pooled: PooledConnection, composed: ComposedMail, beforeData: () => Promise<void>): Promise<Attempt> =>
    new Promise((resolve) => {
      let began = false;
      let withheld: { cause: unknown } | undefined;
      // Read only once the server answered DATA with 354: the claim is made then, and the data
      // (whole, in one chunk) follows only once it is written.
      const data = new Readable({
        read() {
          if (began) return;
          began = true;
          beforeData().then(
            () => {
              this.push(composed.raw);
              this.push(null);
            },
            (cause: unknown) => {
              withheld = { cause };
              this.destroy(cause instanceof Error ? cause : new Error(String(cause)));
            },
          );
        },
      });
      pooled.messages++;
      pooled.connection.send(composed.envelope, data, (error, info) => {
        if (withheld !== undefined) resolve({ kind: "withheld", cause: withheld.cause });
        else if (error) resolve({ kind: "failed", error: error, began });
        else resolve({ kind: "answered", response: String(info?.response ?? ""), rejected: (info?.rejected.length ?? 0) > 0 });
      });
    });

  return {
    describe: describeSmtpUrl(options.url),
    concurrency: options.connections,
    async verify() {
      // The first connection of the run: kept for its first message.
      pool.release(await pool.acquire());
    },
    async send(mail: OutgoingMail, beforeData: () => Promise<void>): Promise<DeliveryOutcome> {
      const composed = await composeMail(mail);
      await pace();
      for (let tries = 0; ; tries++) {
        let pooled: PooledConnection;
        try {
          pooled = await pool.acquire();
        } catch (error) {
          return { status: "unreachable", reason: classifySmtpFailure(error as NodemailerError).reason };
        }
        const reused = pooled.messages > 0;
        const result = await attempt(pooled, composed, beforeData);
        if (result.kind === "withheld") {
          // No claim: the transaction is abandoned mid-DATA, without its end.
          pool.drop(pooled);
          return { status: "withheld", cause: result.cause };
        }
        if (result.kind === "answered") {
          pool.release(pooled);
          return result.rejected ? { status: "refused", reason: result.response } : { status: "sent", response: result.response };
        }
        const outcome = classifySmtpFailure(result.error);
        if (outcome.status === "refused") {
          // That session ends (QUIT); the next message opens another.
          pool.drop(pooled, true);
          return outcome;
        }
        pool.drop(pooled);
        if (result.began) return outcome;
        // Before the data nothing can have been taken: never ambiguous. A reused connection the
        // server had ended while idle is replaced once; otherwise the server is not reachable.
        if (reused && tries === 0 && TRANSIENT.has(result.error.code ?? "")) continue;
        return { status: "unreachable", reason: outcome.reason };
      }
    },
    async close() {
      pool.close();
    },
  };
}
