import { UsageError } from "../errors.js";
import { openTransport } from "./transport.js";

// --ping-url: a healthchecks.io-style monitor for cron (docs/ci-and-cron.md). `<url>/start`
// when the run starts, `<url>` when it succeeds, `<url>/<exit code>` when it fails. The
// pings go through the same proxy rules as the service (transport.ts), carry no header of
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

/** `<url>/<suffix>` keeping the query (healthchecks' `?rid=` and `?create=1`). */
export function pingTarget(url: URL, suffix: string | undefined): string {
  if (suffix === undefined) return url.href;
  const target = new URL(url.href);
  target.pathname = `${target.pathname.replace(/\/+$/, "")}/${suffix}`;
  return target.href;
}

/** The URL as messages show it: scheme, host and port only (the path is the check's secret). */
export function displayPingUrl(url: URL): string {
  return url.origin;
}

/**
 * Sends one ping (a POST with an empty body, which healthchecks.io and its clones accept like
 * a GET); resolves with an error message when it failed, undefined when it was answered 2xx.
 */
export async function sendPing(
  url: URL,
  suffix: string | undefined,
  env: Record<string, string | undefined>,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<string | undefined> {
  const target = pingTarget(url, suffix);
  let transport: Awaited<ReturnType<typeof openTransport>> | undefined;
  try {
    transport = await openTransport(target, env);
    const response = await transport.post(target, {
      headers: { "user-agent": "simadmin", "content-type": "text/plain" },
      body: "",
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
