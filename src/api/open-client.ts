import type { Clock } from "../clock.js";
import { AuthError, UsageError } from "../errors.js";
import { ApiClient, checkApiKey } from "./client.js";
import { ignoredUpperHttpProxy, proxyCredentials } from "./proxy-env.js";
import { ledgerPathFor } from "./rate/file-store.js";
import type { RateLimits } from "./rate/limits.js";
import { createRateStore } from "./rate/open-store.js";
import { Scheduler, type WaitEvent } from "./rate/scheduler.js";
import { openTransport } from "./transport.js";

// How a run's API client is put together (the construction lives in api/, services.ts only
// asks for it): the checks before anything is sent (an address, a key a header can carry),
// the transport (direct or through a proxy), the shared rate budget (file ledger or Redis)
// and the scheduler that paces every request. A factory: it builds and returns what it
// found worth a warning as data; it never prints and creates no directory (the ledger's
// lock makes its own, ledger-lock.ts), so a test can build a client and look.

/** What the client needs of the resolved settings (settings/resolve.ts). */
export interface ClientSettings {
  baseUrl: string | undefined;
  profile: string;
  configDir: string;
  apiVersion: 1 | 2;
  timeoutSeconds: number | undefined;
  retries: number;
  sources: { apiKey?: string | undefined };
}

/** What the client reports while it runs (the printer, seen through what it needs). */
export interface ClientReporter {
  /** The rate store's warnings while the run goes on (a Redis store that went away). */
  warn(text: string): void;
  /** --verbose: one line per request, answer and wait; undefined without --verbose. */
  trace: ((line: string) => void) | undefined;
  /** A secret (proxy credentials) never to be shown. */
  redact(secret: string): void;
}

/** The client, and the warnings its settings deserve (plain http, an ignored proxy variable). */
export interface OpenedClient {
  client: ApiClient;
  warnings: string[];
}

export interface OpenClientOptions {
  settings: ClientSettings;
  apiKey: string | undefined;
  env: Record<string, string | undefined>;
  clock: Clock;
  signal: AbortSignal;
  /** --sandbox: the in-process sandbox is reached directly whatever the proxy variables say. */
  sandbox: boolean;
  /** SIMADMIN_RATE_LIMITS, read once the address and key are known to be there. */
  limits: () => Promise<RateLimits>;
  reporter: ClientReporter;
  /** Every wait of the scheduler (rate budget, retry back-off). */
  onWait(event: WaitEvent): void;
  /**
   * The longest one request may take, budget waits and retries included (default 10 min): a
   * server answering people keeps it short and says "try again shortly" instead.
   */
  deadlineMs?: number | undefined;
  /** Registers what must be closed when the command ends (connections, the budget store). */
  addCleanup(cleanup: () => Promise<void>): void;
}

/** A positive whole number of bytes from the environment, else the built-in default. */
function byteLimit(value: string | undefined): number | undefined {
  const bytes = Number(value);
  return value && Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

export async function openApiClient(options: OpenClientOptions): Promise<OpenedClient> {
  const { settings, apiKey, env, clock, signal, reporter } = options;
  const warnings: string[] = [];
  // (--out and the format were checked by the runner before the command ran: output-plan.ts.)
  if (!settings.baseUrl) {
    throw new UsageError(
      "no service address: pass --base-url <url>, set SIMADMIN_BASE_URL, or run `simadmin config set baseUrl <url>`",
    );
  }
  if (!apiKey) {
    throw new AuthError(`no API key for profile '${settings.profile}'`, {
      hint: "run `simadmin auth login` or set SIMADMIN_API_KEY",
    });
  }
  const url = new URL(settings.baseUrl);
  const loopback = ["localhost", "127.0.0.1", "[::1]", "::1"].includes(url.hostname) || url.hostname.startsWith("127.");
  if (url.protocol === "http:" && !loopback) {
    warnings.push(`the API key is sent over plain http:// to ${url.host}; anyone on the network path can read it — use https://`);
  }
  const limits = await options.limits();
  // A key a header cannot carry is exit 3 before anything is sent.
  checkApiKey(apiKey, settings.sources.apiKey === "env" ? "SIMADMIN_API_KEY" : "the stored API key");
  for (const secret of proxyCredentials(env)) reporter.redact(secret);
  const transport = await openTransport(settings.baseUrl, env, { direct: options.sandbox });
  if (!options.sandbox && ignoredUpperHttpProxy(settings.baseUrl, env)) {
    warnings.push(
      "HTTP_PROXY is ignored for http:// services, as curl ignores it; set http_proxy (lower case) to use that proxy",
    );
  }
  // Idle keep-alive connections would hold the process open after the command is done.
  options.addCleanup(() => transport.close());
  // SIMADMIN_RATE_STORE: the local ledger, or Redis for a fleet (rate/open-store.ts).
  const store = await createRateStore({
    setting: env.SIMADMIN_RATE_STORE,
    baseUrl: settings.baseUrl,
    limits,
    ledgerPath: ledgerPathFor(settings.configDir, settings.baseUrl),
    clock,
    signal,
    warn: (text) => reporter.warn(text),
    trace: reporter.trace,
  });
  options.addCleanup(() => store.close());
  const scheduler = new Scheduler({
    limits,
    store,
    retries: settings.retries,
    deadlineMs: options.deadlineMs,
    clock,
    signal,
    onWait: (event) => {
      reporter.trace?.(
        `… waiting ${(event.waitMs / 1000).toFixed(1)} s (${event.reason === "budget" ? `${event.group} rate budget` : `retry ${event.attempt - 1}`}) before ${event.label}`,
      );
      options.onWait(event);
    },
  });
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    apiKey,
    apiVersion: settings.apiVersion,
    timeoutSeconds: settings.timeoutSeconds,
    scheduler,
    signal,
    trace: reporter.trace,
    now: () => clock.now(),
    transport: transport.post,
    proxy: transport.proxy,
    // For tests of the size caps; see README "Development".
    maxAnswerBytes: byteLimit(env.SIMADMIN_MAX_ANSWER_BYTES),
    maxStreamBytes: byteLimit(env.SIMADMIN_MAX_REPORT_BYTES),
  });
  return { client, warnings };
}
