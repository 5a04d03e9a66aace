// What every command that calls the service needs is imported here, statically: it loads
// as one chunk of the bundle with the runner, where a dynamic import per module made
// `simadmin token` load some forty files (README, Start-up). What only some runs need —
// the sandbox, the OS keychain, a proxy, Redis, conf for writing settings — stays behind a
// dynamic import, in those modules or below.
import { mkdirSync } from "node:fs";
import type { ApiClient } from "./api/client.js";
import { openApiClient, type ClientSettings } from "./api/open-client.js";
import { BudgetTimes } from "./api/rate/least-time.js";
import { parseRateLimits, type RateLimits } from "./api/rate/limits.js";
import { describeWait, type WaitEvent } from "./api/rate/scheduler.js";
import { UserTokens } from "./api/user-tokens.js";
import { systemClock, type Clock } from "./clock.js";
import { tenantService } from "./domain/tenant.js";
import { AuthError, UsageError } from "./errors.js";
import { formatDuration } from "./domain/durations.js";
import { configDir, type Env } from "./settings/paths.js";
import { resolveSettings, type GlobalOptions, type ResolvedSettings, type SandboxOverride } from "./settings/resolve.js";
import { firstIssue, ProfileName } from "./settings/schema.js";
import { SettingsStore } from "./settings/store.js";
import type { StateKind, StateLock, StateStore, Tenant } from "./state/store.js";
import { showPath } from "./messages.js";

// The half of a command's context that builds things (gh's cmdutil.Factory): settings, the
// API client, the in-process sandbox, the organization, the profile store, the rate budgets,
// and the policies several commands share — user tokens (userTokens(): api/user-tokens.ts),
// the time a budget needs (budget(): api/rate/least-time.ts), which service and
// organization a run's state belongs to (tenant(), stateDir()). Build functions only: each
// thing is built the first time a command asks and then kept, so `config path` loads no API
// client and `--help` none of this at all. How the client is put together lives in
// api/open-client.ts, the sandbox start-up in sandbox/for-run.ts. The other half
// (printer.ts) writes; the services see it only as a Reporter (below), and the printer knows
// nothing of the services. Tests hand in fakes (ServicesOptions.fakes).

/** Where the services' warnings, notices and traces go, and which secrets are never shown (context.ts: the printer). */
export interface Reporter {
  warn(text: string): void;
  info(text: string): void;
  trace(line: string): void;
  readonly verbose: boolean;
  readonly stderrIsTTY: boolean;
  /** The API key: redacted from messages and from data. */
  redactKey(key: string | undefined): void;
  /** Another secret (proxy credentials, user tokens): redacted from messages. */
  redact(secret: string): void;
  /** A secret redact() was given that can no longer be used (an expired user token). */
  forget(secret: string): void;
}

export interface ServicesOptions {
  env: Env;
  clock: Clock;
  /** Fires on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
  globals: GlobalOptions;
  /** Traces, warnings and the redaction of the API key. */
  reporter: Reporter;
  /** See Deps.holdForcedExit (context.ts). */
  holdForcedExit?: (() => () => void) | undefined;
  /** The command may change the settings file (its declaration says writesSettings). */
  writesSettings: boolean;
  /** Stand-ins for tests: given, they are used instead of building the real thing. */
  fakes?: ServiceFakes | undefined;
}

export interface ServiceFakes {
  api?: ApiClient;
  /**
   * For a fake `api`: given the function the real client's scheduler calls for each budget or
   * retry wait, so the fake can announce waits of its own to the command's progress line.
   */
  waits?: (announce: (event: WaitEvent) => void) => void;
  /** A state store (tests of the commands that keep state). */
  state?: StateStore;
}

export class Services {
  readonly env: Env;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /** The global options as given (raw strings); settings() validates them. */
  readonly globals: GlobalOptions;
  private readonly reporter: Reporter;
  private readonly writesSettings: boolean;
  private readonly forcedExitHold: (() => () => void) | undefined;
  private settingsPromise: Promise<ResolvedSettings> | undefined;
  private resolved: ResolvedSettings | undefined;
  private apiPromise: Promise<ApiClient> | undefined;
  private apiKeyPromise: Promise<string | undefined> | undefined;
  private rateLimitsPromise: Promise<RateLimits> | undefined;
  private userTokensInstance: UserTokens | undefined;
  private readonly fakes: ServiceFakes;
  private statePromise: Promise<StateStore> | undefined;
  private readonly waitListeners = new Set<(event: WaitEvent) => void>();
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(options: ServicesOptions) {
    this.env = options.env;
    this.clock = options.clock;
    this.signal = options.signal;
    this.globals = options.globals;
    this.reporter = options.reporter;
    this.writesSettings = options.writesSettings;
    this.fakes = options.fakes ?? {};
    this.forcedExitHold = options.holdForcedExit;
    this.fakes.waits?.((event) => this.announceWait(event));
  }

  /**
   * A server that stops on SIGTERM by finishing what is in flight (links serve) holds off the
   * forced exit that otherwise follows Ctrl-C within a second; it calls the returned function
   * once it has stopped.
   */
  holdForcedExit(): () => void {
    return this.forcedExitHold?.() ?? (() => undefined);
  }

  settings(): Promise<ResolvedSettings> {
    this.settingsPromise ??= this.loadSettings();
    return this.settingsPromise;
  }

  private async loadSettings(): Promise<ResolvedSettings> {
    const sandbox = this.globals.sandbox ? await this.startSandbox() : undefined;
    const settings = resolveSettings(this.globals, this.env, sandbox, { warn: (text) => this.reporter.warn(text) });
    this.reporter.redactKey(settings.apiKey);
    this.resolved = settings;
    return { ...settings, store: this.guard(settings.store) };
  }

  /**
   * --sandbox: an in-process sandbox on a free loopback port and a throw-away settings dir.
   * Its state is kept between runs of the same user (docs/cli-contract.md, Sandbox).
   */
  private async startSandbox(): Promise<SandboxOverride> {
    const { startRunSandbox } = await import("./sandbox/for-run.js");
    const { override, close } = await startRunSandbox({
      env: this.env,
      clock: this.clock,
      warn: (text) => this.reporter.warn(text),
    });
    this.cleanups.push(close);
    return override;
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
      store: this.guard(new SettingsStore(configDir(this.env), { warn: (text) => this.reporter.warn(text) })),
    };
  }

  /**
   * A command's error, with a next step that fits where the settings came from: a key from
   * SIMADMIN_API_KEY that the service refuses is not mended by `auth login`.
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
    // Which profile's key was refused: with several, the fix is that one's.
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
      this.reporter.redactKey(key);
    }
    if (key !== undefined && settings.sources.apiKey === "stored") {
      const { keyAgeWarning } = await import("./settings/key-age.js");
      const warning = keyAgeWarning({
        configDir: settings.configDir,
        profile: settings.profile,
        createdAt: settings.apiKeyCreatedAt,
        now: this.clock.now(),
      });
      if (warning) this.reporter.warn(warning);
    }
    return key;
  }

  /** SIMADMIN_RATE_LIMITS, parsed once for the client's scheduler and the commands that pace polls. */
  rateLimits(): Promise<RateLimits> {
    this.rateLimitsPromise ??= Promise.resolve().then(() => parseRateLimits(this.env.SIMADMIN_RATE_LIMITS));
    return this.rateLimitsPromise;
  }

  /** The least time requests need under the run's budgets, the time left, and how both are written. */
  async budget(): Promise<BudgetTimes> {
    return new BudgetTimes(await this.rateLimits());
  }

  /**
   * User tokens for this run: minted on first ask, redacted at once, reused while ten
   * minutes of them remain, never stored (api/user-tokens.ts). `client`: the one they are
   * minted through (`links serve` passes its server client); the first call decides.
   */
  userTokens(options: { client?: ApiClient } = {}): UserTokens {
    const { client } = options;
    this.userTokensInstance ??= new UserTokens({
      client: client ? () => Promise.resolve(client) : () => this.api(),
      clock: this.clock,
      redact: (secret) => this.reporter.redact(secret),
      forget: (secret) => this.reporter.forget(secret),
    });
    return this.userTokensInstance;
  }

  /**
   * Which service and organization this run's state belongs to (src/state/store.ts): the
   * normalized base URL, or "sandbox" under --sandbox (its address changes from run to run
   * while its state is kept), and the organization (--org, required).
   */
  async tenant(): Promise<Tenant> {
    const settings = await this.settings();
    return { service: tenantService(settings.baseUrl, this.isSandbox(settings)), organizationId: await this.org() };
  }

  /**
   * Where this run's local state lives: the settings directory, or under --sandbox (whose
   * settings directory is a throw-away one) beside the sandbox's own kept state.
   */
  async stateDir(): Promise<string> {
    const settings = await this.settings();
    if (!this.isSandbox(settings)) return settings.configDir;
    return (await import("./sandbox/persist.js")).sandboxStateDir(this.env);
  }

  private isSandbox(settings: ResolvedSettings): boolean {
    return this.globals.sandbox === true || settings.sources.baseUrl === "sandbox";
  }

  /** Every wait of the scheduler (rate budget, retry back-off), for progress lines. */
  onWait(listener: (event: WaitEvent) => void): () => void {
    this.waitListeners.add(listener);
    return () => this.waitListeners.delete(listener);
  }

  /** One wait of the scheduler, to the listeners (a command's progress line) or said on its own. */
  private announceWait(event: WaitEvent): void {
    for (const listener of this.waitListeners) listener(event);
    // A command without its own progress display still says what a long wait is for, on a
    // terminal (docs/cli-contract.md "Progress"); --verbose traces every wait instead.
    const reporter = this.reporter;
    if (this.waitListeners.size === 0 && !reporter.verbose && event.waitMs >= 2_000 && reporter.stderrIsTTY) {
      reporter.info(describeWait(event));
    }
  }

  api(): Promise<ApiClient> {
    this.apiPromise ??= this.buildApi();
    return this.apiPromise;
  }

  private async buildApi(): Promise<ApiClient> {
    if (this.fakes.api) return this.fakes.api;
    const settings = await this.settings();
    return this.openClient(settings, settings.baseUrl ? await this.apiKey() : undefined);
  }

  /**
   * A client for the given service and key (api() gives the one of the settings). `auth
   * login` checks a key with it before storing it, when the profile may not exist yet.
   */
  async clientFor(target: {
    baseUrl: string;
    apiKey: string;
    apiVersion: 1 | 2;
    timeoutSeconds: number | undefined;
    retries: number;
    configDir: string;
  }): Promise<ApiClient> {
    // Not this.settings(): the profile may not exist until the key is stored.
    const { apiKey, ...service } = target;
    const profile = this.globals.profile ?? this.env.SIMADMIN_PROFILE ?? "default";
    return this.openClient({ ...service, profile, sources: {} }, apiKey);
  }

  /**
   * A client of its own for a long-running server (links serve): its requests follow `signal`
   * rather than Ctrl-C — a server stopping on SIGTERM finishes the requests in flight — and
   * each takes at most `deadlineMs`, budget waits included. Same settings, key and budget.
   */
  async serverApi(options: { signal: AbortSignal; deadlineMs: number }): Promise<ApiClient> {
    if (this.fakes.api) return this.fakes.api;
    const settings = await this.settings();
    return this.openClient(settings, settings.baseUrl ? await this.apiKey() : undefined, options);
  }

  private async openClient(
    settings: ClientSettings,
    apiKey: string | undefined,
    server?: { signal: AbortSignal; deadlineMs: number },
  ): Promise<ApiClient> {
    const { reporter } = this;
    const trace = reporter.verbose ? (line: string): void => reporter.trace(line) : undefined;
    // The rate ledger lives in the settings directory: one that cannot be made (a file in the
    // way, a read-only disk) is exit 11 naming it before anything is sent. Without an address
    // or a key the client's own checks speak first. Synchronous: one call, and node:fs/promises
    // would load ~3 ms of modules for it (docs/architecture.md, Start-up).
    if (settings.baseUrl && apiKey) mkdirSync(settings.configDir, { recursive: true, mode: 0o700 });
    const { client, warnings } = await openApiClient({
      settings,
      apiKey,
      env: this.env,
      clock: this.clock,
      signal: server?.signal ?? this.signal,
      deadlineMs: server?.deadlineMs,
      sandbox: this.globals.sandbox === true,
      limits: () => this.rateLimits(),
      reporter: { warn: (text) => reporter.warn(text), trace, redact: (secret) => reporter.redact(secret) },
      onWait: (event) => this.announceWait(event),
      addCleanup: (cleanup) => this.addCleanup(cleanup),
    });
    for (const warning of warnings) reporter.warn(warning);
    return client;
  }

  /**
   * The state store (docs/state.md): opened the first time a command asks, closed when the run
   * ends. Its password (a postgres URL's) is redacted from every message from here on.
   */
  state(): Promise<StateStore> {
    this.statePromise ??= this.openState();
    return this.statePromise;
  }

  private async openState(): Promise<StateStore> {
    if (this.fakes.state) return this.fakes.state;
    const settings = await this.settings();
    const { parseStateLocation } = await import("./state/location.js");
    const location = parseStateLocation(settings.state);
    for (const secret of location.secrets) this.reporter.redact(secret);
    const { openStateStore } = await import("./state/open-store.js");
    // Waits for other processes' locks run on real time whatever clock the run was given.
    const store = await openStateStore(location, this.clock, systemClock, this.env);
    this.addCleanup(() => store.close());
    return store;
  }

  /**
   * The run lock of one kind of this tenant's state, held until the run ends (or released
   * earlier): a line after a second of waiting names the holder, --lock-timeout ends the wait
   * with exit 2 naming it.
   */
  async lockState(kind: StateKind, purpose: string): Promise<StateLock> {
    const [store, tenant, settings] = await Promise.all([this.state(), this.tenant(), this.settings()]);
    const lock = await store.lock(tenant, kind, {
      timeoutMs: settings.lockTimeoutMs,
      signal: this.signal,
      purpose,
      onWait: (holder) =>
        this.reporter.info(
          `waiting for the ${kind} state in ${showPath(store.location)}: locked by ${holder} (--lock-timeout ${formatDuration(settings.lockTimeoutMs)})`,
        ),
    });
    this.addCleanup(() => lock.release());
    return lock;
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
