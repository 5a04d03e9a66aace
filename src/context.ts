import { mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, extname, join } from "node:path";
import type { Clock } from "./clock.js";
import { AuthError, LocalFileError, UsageError } from "./errors.js";
import type { ApiClient } from "./api/client.js";
import type { WaitEvent } from "./api/scheduler.js";
import { checkOutputPath, openAtomicFile } from "./output/atomic-file.js";
import { writeChunk, type IOStreams } from "./output/io.js";
import type { Progress } from "./output/progress.js";
import { Redactor } from "./output/redact.js";
import type { CommandResult, OutputFormat, RenderOptions } from "./output/render.js";
import { escapeControlChars, escapeForLine } from "./output/sanitize.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions, ResolvedSettings, SandboxOverride } from "./settings/resolve.js";
import type { SettingsStore } from "./settings/store.js";
import type { CompiledQuery } from "./commands/shared/query.js";

// What a command gets to work with (gh's Factory): everything costly is a function, built
// only when the command asks, so `--help` and `config path` load nothing they do not need.

export interface Deps {
  io: IOStreams;
  env: Env;
  clock: Clock;
  /** Fires on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
}

/** Where a command's data goes: stdout, or a temp file renamed into place on commit. */
export interface OutputSink {
  write(chunk: string | Uint8Array): Promise<void>;
  /** True when the bytes reach a terminal (control characters must be escaped). */
  readonly toTerminal: boolean;
  commit(): Promise<void>;
  abort(): Promise<void>;
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

/** Names of this process's stdout (docs/cli-contract.md, "Output files": never replaced). */
const STDOUT_NAMES = new Set(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", `/proc/${process.pid}/fd/1`]);

/** `--out` extensions that pick the format when -o is not given (`.jsonl`: a common alias of ndjson). */
const OUT_EXTENSIONS: Record<string, OutputFormat | undefined> = {
  ".json": "json",
  ".ndjson": "ndjson",
  ".jsonl": "ndjson",
  ".csv": "csv",
  ".xlsx": "xlsx",
  ".txt": "text",
};

/** --delimiter's words to characters (program.ts offers exactly these choices). */
const CSV_DELIMITERS: Record<string, "," | ";" | "\t" | undefined> = { ",": ",", ";": ";", tab: "\t" };

export class Context {
  readonly io: IOStreams;
  readonly env: Env;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  readonly redactor = new Redactor();
  private settingsPromise: Promise<ResolvedSettings> | undefined;
  private apiPromise: Promise<ApiClient> | undefined;
  private apiKeyPromise: Promise<string | undefined> | undefined;
  private queryPromise: Promise<CompiledQuery | undefined> | undefined;
  private readonly waitListeners = new Set<(event: WaitEvent) => void>();
  private readonly cleanups: (() => Promise<void>)[] = [];
  /**
   * Set by commands whose output holds a user token or a link carrying one (token, link):
   * a new --out file is then created 0600 (docs/cli-contract.md, "Output files").
   */
  secretOutput = false;
  private resolved: ResolvedSettings | undefined;
  private outputDirectory: string | undefined;

  constructor(
    deps: Deps,
    readonly globals: GlobalOptions,
  ) {
    this.io = deps.io;
    this.env = deps.env;
    this.clock = deps.clock;
    this.signal = deps.signal;
  }

  get quiet(): boolean {
    return this.globals.quiet === true;
  }

  get verbose(): boolean {
    return this.globals.verbose === true;
  }

  /** Colour on a stream: not with --no-color or NO_COLOR (any non-empty value, no-color.org), only on a terminal. */
  private colorOn(isTerminal: boolean): boolean {
    return this.globals.color !== false && !this.env.NO_COLOR && isTerminal;
  }

  settings(): Promise<ResolvedSettings> {
    this.settingsPromise ??= this.loadSettings();
    return this.settingsPromise;
  }

  private async loadSettings(): Promise<ResolvedSettings> {
    const { resolveSettings } = await import("./settings/resolve.js");
    const sandbox = this.globals.sandbox ? await this.startSandbox() : undefined;
    const settings = resolveSettings(this.globals, this.env, sandbox, { warn: (text) => this.warn(text) });
    this.redactor.add(settings.apiKey);
    this.resolved = settings;
    return settings;
  }

  /**
   * --sandbox: an in-process sandbox on a free loopback port and a throw-away settings dir.
   * Its state is kept between runs of the same user (docs/cli-contract.md, Sandbox).
   */
  private async startSandbox(): Promise<SandboxOverride> {
    const [{ startSandbox }, { openSandboxState, sandboxStateDir }] = await Promise.all([
      import("./sandbox/server.js"),
      import("./sandbox/persist.js"),
    ]);
    const saved = await openSandboxState(sandboxStateDir(this.env));
    if (saved.warning) this.warn(saved.warning);
    if (saved.notKept) this.warn(saved.notKept);
    const sandbox = await startSandbox({
      host: "127.0.0.1",
      port: 0,
      now: () => this.clock.now(),
      ...(saved.snapshot ? { snapshot: saved.snapshot } : {}),
      attemptCompletesAfterMs: SANDBOX_ATTEMPT_COMPLETES_MS,
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
   * The profile's name and settings store for commands that write settings (auth login,
   * config): unlike settings(), the profile need not exist yet. Under --sandbox it is the
   * throw-away store, never the user's.
   */
  async profileStore(): Promise<{ profile: string; store: SettingsStore }> {
    if (this.globals.sandbox) {
      const { profile, store } = await this.settings();
      return { profile, store };
    }
    const [{ ProfileName, firstIssue }, { configDir }, { SettingsStore }] = await Promise.all([
      import("./settings/schema.js"),
      import("./settings/paths.js"),
      import("./settings/store.js"),
    ]);
    const parsed = ProfileName.safeParse(this.globals.profile ?? this.env.SIMADMIN_PROFILE ?? "default");
    if (!parsed.success) throw new UsageError(`--profile: ${firstIssue(parsed.error)}`);
    return { profile: parsed.data, store: new SettingsStore(configDir(this.env), { warn: (text) => this.warn(text) }) };
  }

  /**
   * A command's error, with a next step that fits where the settings came from: a key from
   * SIMADMIN_API_KEY that the service refuses is not mended by `auth login` (issue 15 item 5).
   */
  explain(error: unknown): unknown {
    if (error instanceof AuthError && this.resolved?.sources.apiKey === "env" && /\(401\)/.test(error.message)) {
      return new AuthError(error.message, {
        hint: "the key came from SIMADMIN_API_KEY in the environment: check its value, or unset it to use the stored key",
        cause: error.cause,
      });
    }
    return error;
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
      this.redactor.add(key);
    }
    if (key !== undefined && settings.sources.apiKey === "stored") {
      const { keyAgeWarning } = await import("./settings/key-age.js");
      const warning = keyAgeWarning({
        configDir: settings.configDir,
        profile: settings.profile,
        createdAt: settings.apiKeyCreatedAt,
        now: this.clock.now(),
      });
      if (warning) this.warn(warning);
    }
    return key;
  }

  /** The organizationId for access calls; missing is a usage error naming --org. */
  async org(): Promise<string> {
    const { org } = await this.settings();
    if (!org) {
      throw new UsageError("no organization: pass --org <id>, set SIMADMIN_ORG, or run `simadmin config set org <id>`");
    }
    return org;
  }

  /** v2-only commands fail before anything is sent under --api-version 1 (docs/cli-contract.md). */
  async requireVersion2(command: string): Promise<void> {
    const { apiVersion } = await this.settings();
    if (apiVersion !== 2) {
      throw new UsageError(`\`${command}\` needs API version 2; it does not exist in version 1`, {
        hint: "drop --api-version 1 (or SIMADMIN_API_VERSION / the profile's apiVersion)",
      });
    }
  }

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
    // --out is checked before the first request can be sent: a token must not be minted (nor
    // a report fetched) only to fail on a missing or read-only directory (exit 11).
    // A bad --out extension or xlsx to stdout is a usage error before the first request.
    await this.format();
    if (this.globals.out) await checkOutputPath(this.globals.out);
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
    const url = new URL(settings.baseUrl);
    const loopback = ["localhost", "127.0.0.1", "[::1]", "::1"].includes(url.hostname) || url.hostname.startsWith("127.");
    if (url.protocol === "http:" && !loopback) {
      this.warn(`the API key is sent over plain http:// to ${url.host}; anyone on the network path can read it — use https://`);
    }
    const [
      { ApiClient, checkApiKey },
      { Scheduler, describeWait },
      { parseRateLimits },
      { openTransport },
      { ledgerPathFor },
      { createRateStore },
      { proxyCredentials },
    ] = await Promise.all([
      import("./api/client.js"),
      import("./api/scheduler.js"),
      import("./api/rate-limits.js"),
      import("./api/transport.js"),
      import("./api/rate-ledger.js"),
      import("./api/rate-store.js"),
      import("./api/proxy-env.js"),
    ]);
    // A key a header cannot carry is exit 3 before anything is sent (issue 13 item 3).
    checkApiKey(apiKey, settings.sources.apiKey === "env" ? "SIMADMIN_API_KEY" : "the stored API key");
    for (const secret of proxyCredentials(this.env)) this.redactor.add(secret);
    // The in-process sandbox is reached directly whatever the proxy variables say.
    const transport = await openTransport(settings.baseUrl, this.env, { direct: this.globals.sandbox === true });
    // Idle keep-alive connections would hold the process open after the command is done.
    this.addCleanup(() => transport.close());
    mkdirSync(settings.configDir, { recursive: true, mode: 0o700 });
    const limits = parseRateLimits(this.env.SIMADMIN_RATE_LIMITS);
    // SIMADMIN_RATE_STORE: the local ledger, or Redis for a fleet (issue 17; rate-store.ts).
    const store = await createRateStore({
      setting: this.env.SIMADMIN_RATE_STORE,
      baseUrl: settings.baseUrl,
      limits,
      ledgerPath: ledgerPathFor(settings.configDir, settings.profile, settings.baseUrl),
      clock: this.clock,
      signal: this.signal,
      warn: (text) => this.warn(text),
      trace: this.verbose ? (line) => this.trace(line) : undefined,
    });
    this.addCleanup(() => store.close());
    const scheduler = new Scheduler({
      limits,
      store,
      retries: settings.retries,
      clock: this.clock,
      signal: this.signal,
      onWait: (event) => {
        if (this.verbose) {
          this.trace(
            `… waiting ${(event.waitMs / 1000).toFixed(1)} s (${event.reason === "budget" ? `${event.group} rate budget` : `retry ${event.attempt - 1}`}) before ${event.label}`,
          );
        }
        for (const listener of this.waitListeners) listener(event);
        // A command without its own progress display still says what a long wait is for,
        // on a terminal (issue 12 item 10; docs/cli-contract.md "Progress").
        if (this.waitListeners.size === 0 && !this.verbose && event.waitMs >= 2_000 && this.io.stderrIsTTY) {
          this.info(describeWait(event));
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
      trace: this.verbose ? (line) => this.trace(line) : undefined,
      now: () => this.clock.now(),
      transport: transport.post,
      proxy: transport.proxy,
      // For tests of the size caps (issue 13 item 4); see README "Development".
      maxAnswerBytes: byteLimit(this.env.SIMADMIN_MAX_ANSWER_BYTES),
      maxStreamBytes: byteLimit(this.env.SIMADMIN_MAX_REPORT_BYTES),
    });
  }

  /** --verbose trace line on stderr, secrets redacted. */
  trace(line: string): void {
    this.io.stderr.write(`${this.redactor.apply(escapeForLine(line))}\n`);
  }

  /** A warning on stderr (shown even with --quiet: it may change what the user does). */
  warn(text: string): void {
    this.io.stderr.write(`warning: ${this.redactor.apply(escapeControlChars(text))}\n`);
  }

  /** Information for people on stderr; silent under --quiet. */
  info(text: string): void {
    if (!this.quiet) this.io.stderr.write(`${this.redactor.apply(escapeControlChars(text))}\n`);
  }

  async progress(): Promise<Progress> {
    const { createProgress } = await import("./output/progress.js");
    return createProgress(this.io, { quiet: this.quiet, color: this.colorOn(this.io.stderrIsTTY) });
  }

  /**
   * The output format: -o, else the --out extension, else the profile's, else table on a
   * terminal and json otherwise (docs/cli-contract.md, Global options `-o` and `--out`).
   * Usage errors, found before anything is sent (buildApi asks first): an --out extension
   * that names no format when -o is not given, and xlsx with nowhere to go but stdout.
   */
  async format(): Promise<OutputFormat> {
    const settings = await this.settings();
    const out = this.globals.out;
    let format: OutputFormat;
    if (this.globals.output) format = settings.output ?? "json";
    else if (out !== undefined && extname(out) !== "") {
      const extension = extname(out).toLowerCase();
      const fromExtension = OUT_EXTENSIONS[extension];
      if (!fromExtension) {
        throw new UsageError(`--out ${out}: the extension ${extension} names no output format`, {
          hint: "use .json, .ndjson, .csv, .xlsx or .txt, or give the format with -o",
        });
      }
      format = fromExtension;
    } else format = settings.output ?? (this.io.stdoutIsTTY && !out ? "table" : "json");
    if (format === "xlsx" && !out && !this.outputDirectory) {
      throw new UsageError("-o xlsx writes a workbook, not text for a terminal or a pipe", {
        hint: "add --out <file>.xlsx",
      });
    }
    return format;
  }

  /** A command writing files into a directory (reports --out-dir): xlsx needs no --out then. */
  useOutputDirectory(dir: string): void {
    this.outputDirectory = dir;
  }

  /**
   * Where the output format came from, as the user gave it — for messages, which must never
   * name an `-o` the user did not type (issue 15 item 5).
   */
  async formatOrigin(): Promise<string> {
    const format = await this.format();
    if (this.globals.output) return `-o ${this.globals.output}`;
    const settings = await this.settings();
    if (this.globals.out && settings.output === undefined) return `--out ${this.globals.out}`;
    if (settings.output) return `the profile's output setting '${settings.output}' (\`simadmin config unset output\`)`;
    return `the default for ${this.io.stdoutIsTTY ? "a terminal" : "a pipe"} (${format})`;
  }

  fields(): string[] | undefined {
    if (this.globals.fields === undefined) return undefined;
    const fields = this.globals.fields
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    if (fields.length === 0) throw new UsageError("--fields needs at least one field name, e.g. --fields id,title");
    const repeated = fields.filter((field, i) => fields.indexOf(field) !== i);
    if (repeated.length > 0) {
      throw new UsageError(`--fields names ${[...new Set(repeated)].join(", ")} more than once; name each column once`);
    }
    return fields;
  }

  async renderOptions(): Promise<RenderOptions> {
    return {
      format: await this.format(),
      fields: this.fields(),
      bom: this.globals.bom === true,
      delimiter: CSV_DELIMITERS[this.globals.delimiter ?? ","],
      color: this.colorOn(this.io.stdoutIsTTY && !this.globals.out),
      width: this.io.columns,
    };
  }

  /**
   * stdout, or --out written atomically: nothing is left behind if the command fails.
   * Failures of the file are LocalFileError (exit 11) naming it (output/atomic-file.ts).
   */
  async openOutput(path = this.globals.out): Promise<OutputSink> {
    // `--out /dev/stdout` names our own stdout, which may be a socket that cannot be opened
    // again (ENXIO): write to the stream we already hold, never replace the name.
    if (path && STDOUT_NAMES.has(path)) path = undefined;
    if (path) {
      const file = await openAtomicFile(path, this.secretOutput ? 0o600 : 0o644);
      return {
        toTerminal: false,
        write: async (chunk) => {
          try {
            await writeChunk(file.stream, chunk);
          } catch (error) {
            throw file.failure() ?? LocalFileError.fromSystem(error, path, "write");
          }
        },
        commit: () => file.commit(),
        abort: () => file.abort(),
      };
    }
    const toTerminal = this.io.stdoutIsTTY;
    return {
      toTerminal,
      write: (chunk) => writeChunk(this.io.stdout, chunk),
      commit: async () => {},
      abort: async () => {},
    };
  }

  /** --query compiled (main's runner asks before the command runs: a bad one sends nothing). */
  query(): Promise<CompiledQuery | undefined> {
    const expression = this.globals.query;
    this.queryPromise ??=
      expression === undefined
        ? Promise.resolve(undefined)
        : import("./commands/shared/query.js").then((m) => m.compileQuery(expression));
    return this.queryPromise;
  }

  /** Prints a complete result in the chosen format (after --query, when given). */
  async print(result: CommandResult): Promise<void> {
    if (result.kind === "none") return;
    const { writeResult, resultOfJson } = await import("./output/render.js");
    const options = await this.renderOptions();
    const query = await this.query();
    if (result.kind === "object" && result.defaultText && !this.globals.output && !query) options.format = "text";
    if (this.globals.out) options.sheetName = basename(this.globals.out, extname(this.globals.out));
    let text: string | undefined;
    let printed: CommandResult = result;
    if (query) {
      const { renderQueried, resultJson } = await import("./commands/shared/query.js");
      const queried = query.apply(resultJson(result));
      // A workbook is binary: the queried value goes through the engine as records or one object.
      if (options.format === "xlsx") printed = resultOfJson(queried);
      else text = await renderQueried(queried, options);
    }
    const sink = await this.openOutput();
    try {
      if (text === undefined) await writeResult(printed, sink, options);
      // Tables escape each cell already (and may carry colour codes of our own).
      else await sink.write(sink.toTerminal && options.format !== "table" ? escapeControlChars(text) : text);
      await sink.commit();
    } catch (error) {
      await sink.abort();
      throw error;
    }
    if (result.note) this.info(result.note);
    if (this.globals.out) this.info(`wrote ${this.globals.out}`);
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
