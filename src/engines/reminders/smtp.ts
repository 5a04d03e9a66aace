import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { createSecureContext, rootCertificates } from "node:tls";
import type { Delivery, DeliveryOutcome, OutgoingMail } from "./delivery.js";

// Delivery through an SMTP relay with nodemailer (docs/reminders.md "Delivery"), loaded only
// here, so no other command pays for it at start-up. STARTTLS whenever the server offers it
// (nodemailer's default on smtp://), implicit TLS with smtps://, the URL's user and password
// for AUTH, a pool of a few connections reused for many messages, and pacing by the pool's
// own rate limit (rateLimit messages per rateDelta) so that a 2,000-message run stays within
// what relays accept from one client. A private CA comes from NODE_EXTRA_CA_CERTS (read from
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
export function classifySmtpFailure(error: NodemailerError): DeliveryOutcome {
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

export async function openSmtpDelivery(options: SmtpOptions): Promise<Delivery> {
  const { createTransport } = await import("nodemailer");
  // One TLS context for the whole run: given as `ca`, the ~150 roots plus the private CA would
  // be parsed again at every STARTTLS — each pooled connection, a new one every 100 messages —
  // which cost more CPU than the messages themselves (bench/notify.mjs, docs/reminders.md "Pacing").
  const secureContext = options.extraCaFile
    ? createSecureContext({ ca: [...rootCertificates, readFileSync(options.extraCaFile, "utf8")] })
    : undefined;
  const secure = options.url.protocol === "smtps:";
  const timeoutMs = options.timeoutSeconds * 1000;
  const host = options.url.hostname.replace(/^\[|\]$/g, "");
  const transport = createTransport({
    pool: true,
    host,
    port: Number(options.url.port) || (secure ? 465 : 587),
    secure,
    auth: options.url.username
      ? { user: decodeURIComponent(options.url.username), pass: decodeURIComponent(options.url.password) }
      : undefined,
    maxConnections: options.connections,
    // Relays often close a connection after about 100 messages; the pool opens the next one.
    maxMessages: 100,
    ...(options.perMinute > 0 ? { rateDelta: 60_000, rateLimit: options.perMinute } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // SNI carries names only (RFC 6066); an address is checked against the certificate's IP entries.
    tls: { ...(isIP(host) === 0 ? { servername: host } : {}), ...(secureContext ? { secureContext } : {}) },
  });
  return {
    describe: describeSmtpUrl(options.url),
    concurrency: options.connections,
    async verify() {
      await transport.verify();
    },
    async send(mail: OutgoingMail): Promise<DeliveryOutcome> {
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { "X-Simadmin-Kind": mail.kind, "Auto-Submitted": "auto-generated" },
        });
        if (info.rejected.length > 0) return { status: "refused", reason: String(info.response) };
        return { status: "sent", response: String(info.response) };
      } catch (error) {
        return classifySmtpFailure(error as NodemailerError);
      }
    },
    async close() {
      transport.close();
    },
  };
}
