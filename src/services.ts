import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// What every command that calls the service needs is imported here, statically: it loads
// as one chunk of the bundle with the runner, where a dynamic import per module made
// `simadmin token` load some forty files (README, Start-up). What only some runs need —
// the sandbox, the OS keychain, a proxy, Redis, conf for writing settings — stays behind a
// dynamic import, in those modules or below.
import { ApiClient, checkApiKey } from "./api/client.js";
import { ignoredUpperHttpProxy, proxyCredentials } from "./api/proxy-env.js";
import { ledgerPathFor } from "./api/rate-ledger.js";
import { parseRateLimits, type RateLimits } from "./api/rate-limits.js";
import { createRateStore } from "./api/rate-store.js";
import { describeWait, Scheduler, type WaitEvent } from "./api/scheduler.js";
import { openTransport } from "./api/transport.js";
import type { Clock } from "./clock.js";
import { AuthError, UsageError } from "./errors.js";
import type { Printer } from "./printer.js";
import { configDir, type Env } from "./settings/paths.js";
import { resolveSettings, type GlobalOptions, type ResolvedSettings, type SandboxOverride } from "./settings/resolve.js";
import { firstIssue, ProfileName } from "./settings/schema.js";
import { SettingsStore } from "./settings/store.js";

// The half of a command's context that builds things (gh's Factory): settings, the API
// client, the in-process sandbox, the organization, the profile store, the rate budgets.
// Each is built the first time a command asks and then kept, so `config path` loads no
// API client and `--help` none of this at all. The other half (printer.ts) writes.

export interface ServicesOptions {
  env: Env;
  clock: Clock;
  /** Fires on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
  globals: GlobalOptions;
  /** Traces, warnings and the redaction of the API key. */
  printer: Printer;
  /** The command may change the settings file (its declaration says writesSettings). */
  writesSettings: boolean;
}

/** A positive whole number of bytes from the environment, else the built-in default. */
function byteLimit(value: string | undefined): number | undefined {
  const bytes = Number(value);
  return value && Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/**
 * Under --sandbox a STARTED attempt completes this long after its first completion-data
 * request, so the README's `completion --wait` example finishes (issue 15 item 6).
 */
const SANDBOX_ATTEMPT_COMPLETES_MS = 45_000;

/** Under --sandbox pairs without attempts progress in steps of this long (`progress`, issue 25). */
const SANDBOX_SCRIPTED_STEP_MS = 30_000;

export class Services {
  readonly env: Env;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** The global options as given (raw strings); settings() validates them. */
  readonly globals: GlobalOptions;
  private readonly printer: Printer;
  private readonly writesSettings: boolean;
  private settingsPromise: Promise<ResolvedSettings> | undefined;
  private resolved: ResolvedSettings | undefined;
  private apiPromise: Promise<ApiClient> | undefined;
  private apiKeyPromise: Promise<string | undefined> | undefined;
  private rateLimitsPromise: Promise<RateLimits> | undefined;
  private readonly waitListeners = new Set<(event: WaitEvent) => void>();
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(options: ServicesOptions) {
    this.env = options.env;
    this.clock = options.clock;
    this.signal = options.signal;
    this.globals = options.globals;
    this.printer = options.printer;
    this.writesSettings = options.writesSettings;
  }

  settings(): Promise<ResolvedSettings> {
    this.settingsPromise ??= this.loadSettings();
    return this.settingsPromise;
  }

  private async loadSettings(): Promise<ResolvedSettings> {
    const sandbox = this.globals.sandbox ? await this.startSandbox() : undefined;
    const settings = resolveSettings(this.globals, this.env, sandbox, { warn: (text) => this.printer.warn(text) });
    this.printer.redactor.addKey(settings.apiKey);
    this.resolved = settings;
    return { ...settings, store: this.guard(settings.store) };
  }

  /**
   * --sandbox: an in-process sandbox on a free loopback port and a throw-away settings dir.
   * Its state is kept between runs of the same user (docs/cli-contract.md, Sandbox).
   */
  private async startSandbox(): Promise<SandboxOverride> {
    const [{ startSandbox }, { openSandboxState, sandboxStateDir }, { dialectFromEnv }] = await Promise.all([
      import("./sandbox/server.js"),
      import("./sandbox/persist.js"),
      import("./sandbox/dialects.js"),
    ]);
    const dialect = dialectFromEnv(this.env);
    const saved = await openSandboxState(sandboxStateDir(this.env));
    if (saved.warning) this.printer.warn(saved.warning);
    if (saved.notKept) this.printer.warn(saved.notKept);
    const sandbox = await startSandbox({
      host: "127.0.0.1",
      port: 0,
      now: () => this.clock.now(),
      ...(saved.snapshot ? { snapshot: saved.snapshot } : {}),
      attemptCompletesAfterMs: SANDBOX_ATTEMPT_COMPLETES_MS,
      scriptedAttemptStepMs: SANDBOX_SCRIPTED_STEP_MS,
      dialect,
    });
    const dir = await mkdtemp(join(tmpdir(), "simadmin-sandbox-"));
    this.cleanups.push(async () => {
      await sandbox.close();
      await saved.close(sandbox.state.snapshot());
      await rm(dir, { recursive: true, force: true });
    });
    return { baseUrl: sandbox.baseUrl, apiKey: sandbox.keys.full, org: sandbox.org, configDir: dir };
  }

  /**
   * Only commands that declare `writesSettings` may change the settings file; any other gets
   * a store that refuses writes, so a command cannot start writing settings unannounced.
   */
  private guard(store: SettingsStore): SettingsStore {
    if (this.writesSettings) return store;
    return Object.create(store, {
      updateProfile: {
        value: () => Promise.reject(new Error("this command does not declare writesSettings; it may not change settings")),
      },
    }) as SettingsStore;
  }

  /**
   * The profile's name and settings store for the commands that read or write settings
   * directly (auth login, config): unlike settings(), the profile need not exist yet. Under
   * --sandbox it is the throw-away store, never the user's.
   */
  async profileStore(): Promise<{ profile: string; store: SettingsStore }> {
    if (this.globals.sandbox) {
      const { profile, store } = await this.settings();
      return { profile, store };
    }
    const parsed = ProfileName.safeParse(this.globals.profile ?? this.env.SIMADMIN_PROFILE ?? "default");
    if (!parsed.success) throw new UsageError(`--profile: ${firstIssue(parsed.error)}`);
    return {
      profile: parsed.data,
      store: this.guard(new SettingsStore(configDir(this.env), { warn: (text) => this.printer.warn(text) })),
    };
  }

  /**
   * A command's error, with a next step that fits where the settings came from: a key from
   * SIMADMIN_API_KEY that the service refuses is not mended by `auth login` (issue 15 item 5).
   */
  explain(error: unknown): unknown {
    if (!(error instanceof AuthError) || !this.resolved || !/\(401\)/.test(error.message)) return error;
    const { profile, sources } = this.resolved;
    if (sources.apiKey === "env") {
      return new AuthError(error.message, {
        hint: "the key came from SIMADMIN_API_KEY in the environment: check its value, or unset it to use the stored key",
        cause: error.cause,
      });
    }
    // Which profile's key was refused (issue 26 item 6): with several, the fix is that one's.
    if (sources.apiKey === "stored" || sources.apiKey === "profile") {
      const flag = profile === "default" ? "" : ` --profile ${profile}`;
      return new AuthError(error.message, {
        hint: `the key of the profile '${profile}' was refused: run \`simadmin${flag} auth login\` to store a new one, or set SIMADMIN_API_KEY`,
        cause: error.cause,
      });
    }
    return error;
  }

  /** The organizationId for access calls; missing is a usage error naming --org. */
  async org(): Promise<string> {
    const { org } = await this.settings();
    if (!org) {
      throw new UsageError("no organization: pass --org <id>, set SIMADMIN_ORG, or run `simadmin config set org <id>`");
    }
    return org;
  }

  /**
   * The API key: SIMADMIN_API_KEY, else the stored one — from the OS keychain when it is
   * kept there (the keychain module loads only here), else from the settings file. Warns,
   * once a day, when the stored key is older than 90 days (settings/key-age.ts).
   */
  apiKey(): Promise<string | undefined> {
    this.apiKeyPromise ??= this.loadApiKey();
    return this.apiKeyPromise;
  }

  private async loadApiKey(): Promise<string | undefined> {
    const settings = await this.settings();
    let key = settings.apiKey;
    if (settings.keychainAccount !== undefined) {
      const { openKeychain } = await import("./settings/keychain.js");
      try {
        key = (await openKeychain(this.env)).get(settings.keychainAccount);
      } catch (error) {
        throw new AuthError(
          `cannot read the API key of profile '${settings.profile}' from the OS keychain (${(error as Error).message})`,
          { hint: "unlock the keychain, set SIMADMIN_API_KEY, or run `simadmin auth login` again" },
        );
      }
      if (key === undefined) {
        throw new AuthError(`the API key of profile '${settings.profile}' is no longer in the OS keychain`, {
          hint: "run `simadmin auth login` again, or set SIMADMIN_API_KEY",
        });
      }
      this.printer.redactor.addKey(key);
    }
    if (key !== undefined && settings.sources.apiKey === "stored") {
      const { keyAgeWarning } = await import("./settings/key-age.js");
      const warning = keyAgeWarning({
        configDir: settings.configDir,
        profile: settings.profile,
        createdAt: settings.apiKeyCreatedAt,
        now: this.clock.now(),
      });
      if (warning) this.printer.warn(warning);
    }
    return key;
  }

  /** SIMADMIN_RATE_LIMITS, parsed once for the client's scheduler and the commands that pace polls. */
  rateLimits(): Promise<RateLimits> {
    this.rateLimitsPromise ??= Promise.resolve().then(() => parseRateLimits(this.env.SIMADMIN_RATE_LIMITS));
    return this.rateLimitsPromise;
  }

  /** Every wait of the scheduler (rate budget, retry back-off), for progress lines. */
  onWait(listener: (event: WaitEvent) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  api(): Promise<ApiClient> {
    this.apiPromise ??= this.buildApi();
    return this.apiPromise;
  }

  private async buildApi(): Promise<ApiClient> {
    const settings = await this.settings();
    // (--out and the format were checked by the runner before the command ran: output-plan.ts.)
    if (!settings.baseUrl) {
      throw new UsageError(
        "no service address: pass --base-url <url>, set SIMADMIN_BASE_URL, or run `simadmin config set baseUrl <url>`",
      );
    }
    const apiKey = await this.apiKey();
    if (!apiKey) {
      throw new AuthError(`no API key for profile '${settings.profile}'`, {
        hint: "run `simadmin auth login` or set SIMADMIN_API_KEY",
      });
    }
    return this.clientFor({
      baseUrl: settings.baseUrl,
      apiKey,
      keySource: settings.sources.apiKey === "env" ? "SIMADMIN_API_KEY" : "the stored API key",
      apiVersion: settings.apiVersion,
      timeoutSeconds: settings.timeoutSeconds,
      retries: settings.retries,
      configDir: settings.configDir,
    });
  }

  /**
   * A client for the given service and key (api() gives the one of the settings). `auth
   * login` checks a key with it before storing it, when the profile may not exist yet.
   */
  async clientFor(target: {
    baseUrl: string;
    apiKey: string;
    keySource: string;
    apiVersion: 1 | 2;
    timeoutSeconds: number | undefined;
    retries: number;
    configDir: string;
  }): Promise<ApiClient> {
    const settings = target;
    const apiKey = target.apiKey;
    const { printer } = this;
    const url = new URL(settings.baseUrl);
    const loopback = ["localhost", "127.0.0.1", "[::1]", "::1"].includes(url.hostname) || url.hostname.startsWith("127.");
    if (url.protocol === "http:" && !loopback) {
      printer.warn(
        `the API key is sent over plain http:// to ${url.host}; anyone on the network path can read it — use https://`,
      );
    }
    const limits = await this.rateLimits();
    // A key a header cannot carry is exit 3 before anything is sent (issue 13 item 3).
    checkApiKey(apiKey, target.keySource);
    for (const secret of proxyCredentials(this.env)) printer.redactor.add(secret);
    // The in-process sandbox is reached directly whatever the proxy variables say.
    const transport = await openTransport(settings.baseUrl, this.env, { direct: this.globals.sandbox === true });
    if (this.globals.sandbox !== true && ignoredUpperHttpProxy(settings.baseUrl, this.env)) {
      printer.warn(
        "HTTP_PROXY is ignored for http:// services, as curl ignores it; set http_proxy (lower case) to use that proxy",
      );
    }
    // Idle keep-alive connections would hold the process open after the command is done.
    this.addCleanup(() => transport.close());
    mkdirSync(settings.configDir, { recursive: true, mode: 0o700 });
    // SIMADMIN_RATE_STORE: the local ledger, or Redis for a fleet (issue 17; rate-store.ts).
    const store = await createRateStore({
      setting: this.env.SIMADMIN_RATE_STORE,
      baseUrl: settings.baseUrl,
      limits,
      ledgerPath: ledgerPathFor(settings.configDir, settings.baseUrl),
      clock: this.clock,
      signal: this.signal,
      warn: (text) => printer.warn(text),
      trace: printer.verbose ? (line) => printer.trace(line) : undefined,
    });
    this.addCleanup(() => store.close());
    const scheduler = new Scheduler({
      limits,
      store,
      retries: settings.retries,
      clock: this.clock,
      signal: this.signal,
      onWait: (event) => {
        if (printer.verbose) {
          printer.trace(
            `… waiting ${(event.waitMs / 1000).toFixed(1)} s (${event.reason === "budget" ? `${event.group} rate budget` : `retry ${event.attempt - 1}`}) before ${event.label}`,
          );
        }
        for (const listener of this.waitListeners) listener(event);
        // A command without its own progress display still says what a long wait is for,
        // on a terminal (issue 12 item 10; docs/cli-contract.md "Progress").
        if (this.waitListeners.size === 0 && !printer.verbose && event.waitMs >= 2_000 && printer.io.stderrIsTTY) {
          printer.info(describeWait(event));
        }
      },
    });
    return new ApiClient({
      baseUrl: settings.baseUrl,
      apiKey,
      apiVersion: settings.apiVersion,
      timeoutSeconds: settings.timeoutSeconds,
      scheduler,
      signal: this.signal,
      trace: printer.verbose ? (line) => printer.trace(line) : undefined,
      now: () => this.clock.now(),
      transport: transport.post,
      proxy: transport.proxy,
      // For tests of the size caps (issue 13 item 4); see README "Development".
      maxAnswerBytes: byteLimit(this.env.SIMADMIN_MAX_ANSWER_BYTES),
      maxStreamBytes: byteLimit(this.env.SIMADMIN_MAX_REPORT_BYTES),
    });
  }

  /** Runs when the command ends, whatever happened (sandbox shutdown, temp dirs). */
  addCleanup(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  async dispose(): Promise<void> {
    for (const cleanup of this.cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Cleanup must never hide the command's own outcome.
      }
    }
    this.cleanups.length = 0;
  }
}
