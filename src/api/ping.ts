import { UsageError } from "../errors.js";
import { openTransport } from "./transport.js";

// --ping-url: a monitor for cron (docs/ci-and-cron.md): healthchecks.io and its clones,
// Cronitor and Uptime Kuma, each pinged by its own rules (pingRequest). The pings go through the same proxy rules as the service (transport.ts), carry no header of
// ours but a user agent and never the API key, and a ping that fails only warns: the
// monitor must not break the job it watches.

/** How long one ping may take: a monitor that hangs must not hold the run. */
export const PING_TIMEOUT_MS = 10_000;

/**
 * The ping URL, checked: http(s) only, and never one that carries the API key (a monitor
 * is a third party, and its URLs end up in its logs and dashboards).
 */
export function checkPingUrl(raw: string, secrets: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--ping-url: '${raw}' is not a URL`, {
      hint: "give the check's ping URL, e.g. https://hc-ping.com/<uuid>",
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`--ping-url: ${url.protocol} is not http: or https:`, { hint: "give the check's http(s) ping URL" });
  }
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A stray % sign: the raw text is checked as it is.
  }
  if (secrets.some((secret) => secret.length >= 8 && (raw.includes(secret) || decoded.includes(secret)))) {
    throw new UsageError("--ping-url carries the API key; a monitoring URL must never hold it", {
      hint: "use the monitor's own ping URL (the key stays in SIMADMIN_API_KEY or the keychain)",
    });
  }
  return url;
}

/** When a ping is sent: the run starts, it ends with exit 0, or with another exit code. */
export type PingEvent = { kind: "start" } | { kind: "success" } | { kind: "failure"; exitCode: number; line?: string };

/** One ping as it goes out: undefined when the monitor has no such event (Uptime Kuma's start). */
export interface PingRequest {
  method: "GET" | "POST";
  url: string;
  body: string;
}

/** The longest error line a ping carries (Cronitor keeps 2,000 characters of a message). */
const MESSAGE_LIMIT = 1_000;

/**
 * Which monitor the URL belongs to, by its own rules (docs/ci-and-cron.md):
 * - Uptime Kuma push monitors (self-hosted, so known by the path `/api/push/<token>`): one GET
 *   `?status=up|down&msg=…` per run, no start ping (Kuma has none: an "up" at the start would
 *   hide a run that never ends);
 * - Cronitor (`cronitor.link`): a GET with `?state=run|complete|fail` (`/p/<key>/<monitor>`),
 *   or the legacy `/<code>/run|complete|fail`, with `status_code` and `message` on failure;
 * - anything else is healthchecks.io and its clones: POST `<url>/start`, `<url>`,
 *   `<url>/<exit code>` keeping the query (`?rid=`, `?create=1`), the error line as the body.
 */
export function pingRequest(url: URL, event: PingEvent): PingRequest | undefined {
  const line = event.kind === "failure" && event.line ? event.line.slice(0, MESSAGE_LIMIT) : undefined;
  const target = new URL(url.href);
  if (/\/api\/push\/[^/]+\/?$/.test(target.pathname)) {
    if (event.kind === "start") return undefined;
    target.searchParams.set("status", event.kind === "success" ? "up" : "down");
    target.searchParams.set("msg", event.kind === "success" ? "OK" : (line ?? `exit ${event.exitCode}`));
    // Kuma reads `ping` as a response time in ms; the copied URL carries it empty.
    target.searchParams.delete("ping");
    return { method: "GET", url: target.href, body: "" };
  }
  if (/(^|\.)cronitor\.(link|io)$/.test(target.hostname)) {
    const state = event.kind === "start" ? "run" : event.kind === "success" ? "complete" : "fail";
    if (/^\/p\//.test(target.pathname)) target.searchParams.set("state", state);
    else target.pathname = `${target.pathname.replace(/\/+$/, "")}/${state}`;
    if (event.kind === "failure") {
      target.searchParams.set("status_code", String(event.exitCode));
      if (line) target.searchParams.set("message", line);
    }
    return { method: "GET", url: target.href, body: "" };
  }
  const suffix = event.kind === "start" ? "start" : event.kind === "failure" ? String(event.exitCode) : undefined;
  if (suffix !== undefined) target.pathname = `${target.pathname.replace(/\/+$/, "")}/${suffix}`;
  // healthchecks keeps a ping's body (up to 100 kB) and shows it in the check's log.
  return { method: "POST", url: target.href, body: line ?? "" };
}

/** The URL as messages show it: scheme, host and port only (the path is the check's secret). */
export function displayPingUrl(url: URL): string {
  return url.origin;
}

/**
 * Sends one ping; resolves with an error message when it failed, undefined when it was
 * answered 2xx (or the monitor has no such event).
 */
export async function sendPing(
  url: URL,
  event: PingEvent,
  env: Record<string, string | undefined>,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<string | undefined> {
  const ping = pingRequest(url, event);
  if (ping === undefined) return undefined;
  let transport: Awaited<ReturnType<typeof openTransport>> | undefined;
  try {
    transport = await openTransport(ping.url, env);
    const response = await transport.post(ping.url, {
      method: ping.method,
      headers: { "user-agent": "simadmin", "content-type": "text/plain; charset=utf-8" },
      body: ping.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    response.discard();
    if (response.status < 200 || response.status >= 300) return `answered ${response.status}`;
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((error as Error).name === "TimeoutError" || code === "ABORT_ERR") return `no answer within ${timeoutMs / 1000} s`;
    return code ?? (error instanceof Error ? error.message : String(error));
  } finally {
    // A proxy's agent is the ping's own; the direct agents are shared with the service's requests.
    if (transport?.proxy !== undefined) await transport.close();
  }
}
