import { fetchReport } from "../../api/endpoints.js";
import { AuthError, CliError, InterruptedError, PermissionError, UsageError } from "../../errors.js";
import type { SettingsStore } from "../../settings/store.js";
import { promptHidden, readAllStdin } from "../../output/prompt.js";
import { maskSecret } from "../../output/redact.js";
import { BaseUrl, firstIssue, OrgId, type ProfileSettings } from "../../settings/schema.js";
import { refuseToSaveUnderSandbox } from "../shared/sandbox-saves.js";
import { defineRun, type CommandInput } from "../types.js";
import { LoginOptions, NoOptions } from "./options.js";
import { showPath } from "../../messages.js";

// auth login | status | logout (docs/cli-contract.md). There is no --api-key flag on purpose:
// argv is visible to every local user (ps), so keys come from a prompt, stdin or the env.

function checkKey(raw: string): string {
  const key = raw.trim();
  if (key === "") throw new UsageError("no API key given; paste it at the prompt or pipe it to `simadmin auth login --with-key`");
  if (/\s/.test(key)) throw new UsageError("the API key contains whitespace; check what was pasted or piped");
  return key;
}

export const login = defineRun(LoginOptions, async ({ options, ...ctx }) => {
  // The sandbox has its own demo key; asking for one it would not keep helps nobody.
  if (refuseToSaveUnderSandbox(ctx, "the sandbox uses its own demo key")) return { kind: "none" };
  // Login is how a new profile is created, so the profile need not exist yet.
  const { profile, store } = await ctx.services.profileStore();
  // Validate everything before asking for the key.
  const baseUrl = ctx.services.globals.baseUrl === undefined ? undefined : BaseUrl.safeParse(ctx.services.globals.baseUrl);
  if (baseUrl && !baseUrl.success) throw new UsageError(`--base-url: ${firstIssue(baseUrl.error)}`);
  const org = ctx.services.globals.org === undefined ? undefined : OrgId.safeParse(ctx.services.globals.org);
  if (org && !org.success) throw new UsageError(`--org: ${firstIssue(org.error)}`);

  let raw: string;
  if (options.withKey) raw = await readAllStdin(ctx.printer.io);
  else if (ctx.printer.io.stdinIsTTY) raw = await promptHidden(ctx.printer.io, `API key for profile '${profile}': `);
  else throw new UsageError("no terminal to prompt on; pipe the key in with `simadmin auth login --with-key`");
  const key = checkKey(raw);
  ctx.printer.redactor.add(key);
  if (options.verify !== false && !ctx.services.globals.sandbox) {
    await verifyKey(ctx, key, profile, store, baseUrl?.success ? baseUrl.data : undefined);
  }

  // The OS keychain when there is one (never under --sandbox: nothing of a throw-away run
  // belongs in the user's keychain), else the 0600 settings file with a notice. The keychain
  // is written under the settings lock, then the file: of two logins at
  // once, the keychain and the file both end up with the later one, and "Stored" is said
  // only once both are written.
  let account: string | undefined;
  let fallbackReason: string | undefined;
  const keychainModule = ctx.services.globals.sandbox ? undefined : await import("../../settings/keychain.js");
  if (!keychainModule) fallbackReason = "--sandbox keeps everything in its throw-away settings";
  const createdAt = new Date(ctx.services.clock.now()).toISOString();
  await store.updateProfile(profile, async (current) => {
    if (keychainModule) {
      const { openKeychain, keychainAccount, KeychainUnavailable } = keychainModule;
      try {
        const keychain = await openKeychain(ctx.services.env);
        account = keychainAccount(profile, store.dir);
        keychain.set(account, key);
      } catch (error) {
        if (!(error instanceof KeychainUnavailable)) throw error;
        account = undefined;
        fallbackReason = error.message;
      }
    }
    // One place for the key: a login into the keychain removes a key left in the file.
    const { apiKey: _file, keychainAccount: _keychain, ...rest } = current;
    return {
      ...rest,
      ...(account !== undefined ? { keychainAccount: account } : { apiKey: key }),
      apiKeyCreatedAt: createdAt,
      ...(baseUrl?.success ? { baseUrl: baseUrl.data } : {}),
      ...(org?.success ? { org: org.data } : {}),
    };
  });
  if (account !== undefined) {
    ctx.printer.info(
      `Stored key ${maskSecret(key)} for profile '${profile}' in the OS keychain (settings in ${showPath(store.path)})`,
    );
  } else {
    ctx.printer.warn(`no OS keychain (${fallbackReason}): the key is stored in ${showPath(store.path)}, readable by you only`);
    ctx.printer.info(`Stored key ${maskSecret(key)} for profile '${profile}' in ${showPath(store.path)}`);
  }
  if (ctx.services.env.SIMADMIN_API_KEY)
    ctx.printer.warn("SIMADMIN_API_KEY is set and wins over the stored key while it stays set");
  return { kind: "none" };
});

/**
 * `auth login` checks the key before storing it with the cheapest call that
 * proves it and that every key can make: a one-day report of \`syms\` (yesterday) — one
 * request of the reports budget, no organization needed, API versions 1 and 2. A 401 stores
 * nothing (exit 3); a 403 means the service knows the key (it may not read reports); a
 * service that cannot be reached only warns: the key is stored unchecked.
 */
async function verifyKey(
  ctx: Omit<CommandInput<never>, "options" | "args">,
  key: string,
  profile: string,
  store: SettingsStore,
  flagBaseUrl: string | undefined,
): Promise<void> {
  const stored = store.getProfile(profile);
  const baseUrl = flagBaseUrl ?? ctx.services.env.SIMADMIN_BASE_URL ?? stored?.baseUrl;
  if (!baseUrl) {
    ctx.printer.info("the key is not checked: no service address yet (--base-url or SIMADMIN_BASE_URL)");
    return;
  }
  const version = ctx.services.globals.apiVersion ?? ctx.services.env.SIMADMIN_API_VERSION;
  let client;
  try {
    client = await ctx.services.clientFor({
      baseUrl,
      apiKey: key,
      apiVersion: version === "1" ? 1 : version === "2" ? 2 : (stored?.apiVersion ?? 2),
      timeoutSeconds: undefined,
      retries: 0,
      configDir: store.dir,
    });
  } catch (error) {
    // The settings directory cannot hold the rate ledger: storing the key meets the same
    // problem next and names it (exit 11), so it is not checked here.
    if ((error as NodeJS.ErrnoException).code !== undefined && !(error instanceof CliError)) return;
    throw error;
  }
  const day = new Date(ctx.services.clock.now() - 86_400_000).toISOString().slice(0, 10);
  try {
    await fetchReport(client, "syms", { startDate: day, endDate: day });
  } catch (error) {
    if (error instanceof AuthError && /\(401\)/.test(error.message)) {
      throw new AuthError(`the service refused the key for profile '${profile}' (${error.message}); it was not stored`, {
        hint: "copy the key again and run `simadmin auth login`; --no-verify stores a key without checking it",
      });
    }
    if (error instanceof PermissionError) {
      ctx.printer.info("the service knows the key (it may not read reports: 403)");
      return;
    }
    if (error instanceof CliError && !(error instanceof InterruptedError)) {
      ctx.printer.warn(`the key could not be checked (${error.message}); it is stored unchecked`);
      return;
    }
    throw error;
  }
}

const LOCATIONS = { env: "environment", sandbox: "sandbox" } as const;

export const status = defineRun(NoOptions, async (ctx) => {
  const s = await ctx.services.settings();
  // The masked key needs the key itself: from the keychain when it is there. An unreadable
  // keychain still shows the rest, then ends with its error (exit 3).
  let apiKey: string | undefined;
  let keyError: Error | undefined;
  try {
    apiKey = await ctx.services.apiKey();
  } catch (error) {
    keyError = error instanceof Error ? error : new Error(String(error));
  }
  const source = s.sources.apiKey;
  const location =
    source === "env" || source === "sandbox"
      ? LOCATIONS[source]
      : source === "stored"
        ? s.keychainAccount !== undefined
          ? "keychain"
          : "settings file"
        : null;
  const value = {
    profile: s.profile,
    baseUrl: s.baseUrl ?? null,
    baseUrlSource: s.sources.baseUrl ?? null,
    org: s.org ?? null,
    orgSource: s.sources.org ?? null,
    apiVersion: s.apiVersion,
    apiKey: apiKey ? maskSecret(apiKey) : null,
    apiKeySource: source ?? null,
    apiKeyLocation: location,
    apiKeyCreatedAt: s.apiKeyCreatedAt ?? null,
    settingsFile: s.store.path,
  };
  // The status is printed either way; an unreadable keychain or a missing key then decides the exit code.
  const failure =
    keyError ??
    (apiKey
      ? undefined
      : new AuthError(`no API key for profile '${s.profile}'`, { hint: "run `simadmin auth login` or set SIMADMIN_API_KEY" }));
  return { kind: "object", value, ...(failure ? { failure } : {}) };
});

/** Removes the stored key from the settings file and from the OS keychain. */
export const logout = defineRun(NoOptions, async (ctx) => {
  if (refuseToSaveUnderSandbox(ctx, "no stored key was touched")) return { kind: "none" };
  // A profile that was never created has no key to remove: that is not a usage error
  // (README: `simadmin --profile staging auth logout`).
  const { profile, store } = await ctx.services.profileStore();
  let removedFromKeychain = false;
  let inFile = false;
  // The keychain entry is removed under the settings lock, then the file:
  // a login running at the same moment lands wholly before or wholly after, never leaving a
  // keychain entry that the file no longer names.
  const removeKey = async (stored: ProfileSettings | undefined): Promise<ProfileSettings | undefined> => {
    if (!ctx.services.globals.sandbox) {
      const { openKeychain, keychainAccount } = await import("../../settings/keychain.js");
      const accounts = new Set([stored?.keychainAccount, keychainAccount(profile, store.dir)]);
      try {
        const keychain = await openKeychain(ctx.services.env);
        for (const account of accounts) if (account !== undefined && keychain.remove(account)) removedFromKeychain = true;
      } catch (error) {
        // No keychain: nothing of ours can be in it — unless the settings say the key is there.
        if (stored?.keychainAccount !== undefined) {
          ctx.printer.warn(
            `could not remove the key from the OS keychain (${(error as Error).message}); remove the entry "simadmin" / "${stored.keychainAccount}" by hand`,
          );
        }
      }
    }
    if (stored === undefined) return undefined;
    inFile = stored.apiKey !== undefined;
    const { apiKey, keychainAccount: account, apiKeyCreatedAt, ...rest } = stored;
    // A profile without a stored key is left as it is (nothing written).
    return apiKey === undefined && account === undefined && apiKeyCreatedAt === undefined ? undefined : rest;
  };
  // No settings file: nothing to lock or write (and no settings directory is created).
  if (store.exists()) await store.updateProfile(profile, (current) => removeKey(current));
  else await removeKey(undefined);
  const where = [removedFromKeychain ? "the OS keychain" : undefined, inFile ? "the settings file" : undefined].filter(Boolean);
  if (where.length === 0) ctx.printer.info(`No stored key for profile '${profile}'; nothing to remove`);
  else ctx.printer.info(`Removed the stored key of profile '${profile}' from ${where.join(" and ")}`);
  if (ctx.services.env.SIMADMIN_API_KEY) ctx.printer.warn("SIMADMIN_API_KEY is still set in this environment and is still used");
  return { kind: "none" };
});
