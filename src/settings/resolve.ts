import type * as z from "zod";
import { UsageError } from "../errors.js";
import type { OutputFormat } from "../output/render.js";
import { configDir, type Env } from "./paths.js";
import { join } from "node:path";
import { parsePositiveDuration } from "../domain/durations.js";
import {
  ApiVersion,
  BaseUrl,
  firstIssue,
  LinksUrl,
  OrgId,
  OutputSetting,
  ProfileName,
  StateSetting,
  TimeoutSeconds,
} from "./schema.js";
import { SettingsStore, type SettingsStoreOptions } from "./store.js";
import {
  readApiVersion,
  readBaseUrl,
  readOrgId,
  readOutputSetting,
  readProfileName,
  readStateSetting,
  readTimeoutSeconds,
  type SettingReader,
} from "./values.js";

// Precedence: flag > environment > profile setting > built-in default (docs/cli-contract.md).

/** The global options as commander hands them over (raw strings, not yet validated). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  org?: string;
  apiVersion?: string;
  output?: string;
  out?: string;
  fields?: string;
  query?: string;
  bom?: boolean;
  delimiter?: string;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  timeout?: string;
  retries?: string;
  sandbox?: boolean;
  pingUrl?: string;
  junit?: string;
  linksUrl?: string;
  state?: string;
  lockTimeout?: string;
}

export type Source = "flag" | "env" | "profile" | "default" | "sandbox" | "stored";

export interface ResolvedSettings {
  profile: string;
  configDir: string;
  store: SettingsStore;
  baseUrl: string | undefined;
  org: string | undefined;
  apiVersion: 1 | 2;
  /** Output format from flag or profile; undefined means "table on a terminal, json otherwise". */
  output: OutputFormat | undefined;
  /** --timeout or the profile's timeout, seconds; undefined means the per-kind default (30, reports 120). */
  timeoutSeconds: number | undefined;
  retries: number;
  /** Where the state store is (--state, SIMADMIN_STATE, the profile's state, else `<settings>/state`): a path or a postgres:// URL. */
  state: string;
  /** --lock-timeout in milliseconds (default 60 s): how long a run waits for a state lock. */
  lockTimeoutMs: number;
  /** The key when it is at hand without the keychain (env, settings file, sandbox); see Context.apiKey(). */
  apiKey: string | undefined;
  /** A stored key in the OS keychain: its account there (read only when a command needs the key). */
  keychainAccount: string | undefined;
  /** When the stored key was stored (ISO time), if known. */
  apiKeyCreatedAt: string | undefined;
  /** The link service's public address, for durable links; undefined when none is set. */
  linksUrl: string | undefined;
  sources: Partial<Record<"baseUrl" | "org" | "apiVersion" | "output" | "timeout" | "apiKey" | "linksUrl" | "state", Source>>;
}

/** Sandbox mode replaces where and as whom we call; it never reads or writes stored settings. */
export interface SandboxOverride {
  baseUrl: string;
  apiKey: string;
  org: string;
  configDir: string;
  /** Where the sandbox keeps what lasts between runs: the default state store goes under it. */
  stateDir?: string;
}

/** --lock-timeout: a duration (90s, 2m), or bare seconds (60) as `reports sync` took it before it was global. */
function parseLockTimeout(text: string): number {
  const value = text.trim();
  if (/^\d+(\.\d+)?$/.test(value) && Number(value) > 0) return Number(value) * 1000;
  return parsePositiveDuration(value, "--lock-timeout");
}

/** A setting read by hand (values.ts), or by its schema — loaded only then — whose first issue is the error. */
function check<T>(read: SettingReader<T>, schema: () => z.ZodType<T>, value: unknown, what: string): T {
  const known = read(value);
  if (known !== undefined) return known;
  const parsed = schema().safeParse(value);
  if (!parsed.success) throw new UsageError(`${what} ${firstIssue(parsed.error)}`);
  return parsed.data;
}

function pick<T>(
  candidates: [Source, string, unknown][],
  read: SettingReader<T>,
  schema: () => z.ZodType<T>,
): { value: T | undefined; source: Source | undefined } {
  for (const [source, label, raw] of candidates) {
    if (raw === undefined || raw === "") continue;
    return { value: check(read, schema, raw, `${label}:`), source };
  }
  return { value: undefined, source: undefined };
}

export function resolveSettings(
  globals: GlobalOptions,
  env: Env,
  sandbox?: SandboxOverride,
  storeOptions?: SettingsStoreOptions,
): ResolvedSettings {
  const profile = check(readProfileName, () => ProfileName, globals.profile ?? env.SIMADMIN_PROFILE ?? "default", "--profile:");
  const dir = sandbox?.configDir ?? configDir(env);
  const store = new SettingsStore(dir, storeOptions);
  // In sandbox mode the user's stored settings are never consulted (docs/cli-contract.md, Sandbox).
  const stored = sandbox ? undefined : store.getProfile(profile);
  if (!sandbox && !stored && profile !== "default") {
    const known = store.profileNames();
    throw new UsageError(`unknown profile '${profile}'${known.length ? ` (known: ${known.join(", ")})` : ""}`, {
      hint: `create it with \`simadmin --profile ${profile} auth login\` or \`simadmin --profile ${profile} config set baseUrl <url>\``,
    });
  }

  const baseUrl = pick(
    sandbox
      ? [["sandbox", "sandbox", sandbox.baseUrl]]
      : [
          ["flag", "--base-url", globals.baseUrl],
          ["env", "SIMADMIN_BASE_URL", env.SIMADMIN_BASE_URL],
          ["profile", `profile '${profile}' baseUrl`, stored?.baseUrl],
        ],
    readBaseUrl,
    () => BaseUrl,
  );
  const org = pick(
    [
      ["flag", "--org", globals.org],
      // Under --sandbox an exported SIMADMIN_ORG (meant for the real service) is ignored.
      ["env", "SIMADMIN_ORG", sandbox ? undefined : env.SIMADMIN_ORG],
      ["profile", `profile '${profile}' org`, stored?.org],
      ["sandbox", "sandbox", sandbox?.org],
    ],
    readOrgId,
    () => OrgId,
  );
  const apiVersion = pick(
    [
      ["flag", "--api-version", globals.apiVersion],
      ["env", "SIMADMIN_API_VERSION", env.SIMADMIN_API_VERSION],
      ["profile", `profile '${profile}' apiVersion`, stored?.apiVersion],
    ],
    readApiVersion,
    () => ApiVersion,
  );
  const output = pick(
    [
      // text and xlsx are never a profile's setting (schema.ts), only this run's -o.
      ["flag", "--output", globals.output === "text" || globals.output === "xlsx" ? undefined : globals.output],
      ["profile", `profile '${profile}' output`, stored?.output],
    ],
    readOutputSetting,
    () => OutputSetting,
  );
  const timeout = pick(
    [
      ["flag", "--timeout", globals.timeout],
      ["profile", `profile '${profile}' timeout`, stored?.timeout],
    ],
    readTimeoutSeconds,
    () => TimeoutSeconds,
  );
  // Under --sandbox too: the link service is the user's own, not the service's.
  const linksUrl = pick(
    [
      ["flag", "--links-url", globals.linksUrl],
      ["env", "SIMADMIN_LINKS_URL", env.SIMADMIN_LINKS_URL],
      ["profile", `profile '${profile}' linksUrl`, stored?.linksUrl],
    ],
    readBaseUrl,
    () => LinksUrl,
  );
  const retries = globals.retries === undefined ? 5 : Number(globals.retries);
  if (!Number.isInteger(retries) || retries < 0 || retries > 20) {
    throw new UsageError(`--retries: must be a whole number from 0 to 20, got '${globals.retries}'`);
  }
  const state = pick(
    [
      ["flag", "--state", globals.state],
      ["env", "SIMADMIN_STATE", env.SIMADMIN_STATE],
      ["profile", `profile '${profile}' state`, stored?.state],
    ],
    readStateSetting,
    () => StateSetting,
  );
  const lockTimeoutMs = globals.lockTimeout === undefined ? 60_000 : parseLockTimeout(globals.lockTimeout);
  const envKey = env.SIMADMIN_API_KEY?.trim();
  const apiKey = sandbox ? sandbox.apiKey : envKey || stored?.apiKey;
  // A keychain entry wins over a key left in the file (auth login moves it; see auth.ts).
  const keychainAccount = sandbox || envKey ? undefined : stored?.keychainAccount;
  const apiKeySource: Source | undefined = sandbox
    ? "sandbox"
    : envKey
      ? "env"
      : stored?.apiKey || keychainAccount
        ? "stored"
        : undefined;

  return {
    profile,
    configDir: dir,
    store,
    baseUrl: baseUrl.value,
    org: org.value,
    apiVersion: apiVersion.value ?? 2,
    output: globals.output === "text" || globals.output === "xlsx" ? globals.output : output.value,
    timeoutSeconds: timeout.value,
    retries,
    // Under --sandbox the default store sits in the sandbox's own directory, never the user's.
    state: state.value ?? join(sandbox?.stateDir ?? dir, "state"),
    lockTimeoutMs,
    apiKey: keychainAccount ? undefined : apiKey,
    keychainAccount,
    apiKeyCreatedAt: apiKeySource === "stored" ? stored?.apiKeyCreatedAt : undefined,
    linksUrl: linksUrl.value,
    sources: {
      linksUrl: linksUrl.source,
      baseUrl: baseUrl.source,
      org: org.source,
      apiVersion: apiVersion.source ?? "default",
      output: output.source ?? "default",
      timeout: timeout.source ?? "default",
      apiKey: apiKeySource,
      state: state.source ?? "default",
    },
  };
}
