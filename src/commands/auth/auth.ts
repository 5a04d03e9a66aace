import type { Context } from "../../context.js";
import { AuthError, UsageError } from "../../errors.js";
import { promptHidden, readAllStdin } from "../../output/prompt.js";
import { maskSecret } from "../../output/redact.js";
import type { CommandResult } from "../../output/render.js";
import type { CommandOptions } from "../../program.js";
import { BaseUrl, firstIssue, OrgId } from "../../settings/schema.js";
import { refuseToSaveUnderSandbox } from "../config/config.js";

// auth login | status | logout (docs/cli-contract.md). There is no --api-key flag on purpose:
// argv is visible to every local user (ps), so keys come from a prompt, stdin or the env.

function checkKey(raw: string): string {
  const key = raw.trim();
  if (key === "") throw new UsageError("no API key given; paste it at the prompt or pipe it to `simadmin auth login --with-key`");
  if (/\s/.test(key)) throw new UsageError("the API key contains whitespace; check what was pasted or piped");
  return key;
}

export async function runAuthLogin(ctx: Context, options: CommandOptions): Promise<CommandResult> {
  // The sandbox has its own demo key; asking for one it would not keep helps nobody.
  if (refuseToSaveUnderSandbox(ctx, "the sandbox uses its own demo key")) return { kind: "none" };
  // Login is how a new profile is created, so the profile need not exist yet.
  const { profile, store } = await ctx.profileStore();
  // Validate everything before asking for the key.
  const baseUrl = ctx.globals.baseUrl === undefined ? undefined : BaseUrl.safeParse(ctx.globals.baseUrl);
  if (baseUrl && !baseUrl.success) throw new UsageError(`--base-url: ${firstIssue(baseUrl.error)}`);
  const org = ctx.globals.org === undefined ? undefined : OrgId.safeParse(ctx.globals.org);
  if (org && !org.success) throw new UsageError(`--org: ${firstIssue(org.error)}`);

  let raw: string;
  if (options.withKey) raw = await readAllStdin(ctx.io);
  else if (ctx.io.stdinIsTTY) raw = await promptHidden(ctx.io, `API key for profile '${profile}': `);
  else throw new UsageError("no terminal to prompt on; pipe the key in with `simadmin auth login --with-key`");
  const key = checkKey(raw);
  ctx.redactor.add(key);

  await store.updateProfile(profile, (current) => ({
    ...current,
    apiKey: key,
    ...(baseUrl?.success ? { baseUrl: baseUrl.data } : {}),
    ...(org?.success ? { org: org.data } : {}),
  }));
  ctx.info(`Stored key ${maskSecret(key)} for profile '${profile}' in ${store.path}`);
  if (ctx.env.SIMADMIN_API_KEY) ctx.warn("SIMADMIN_API_KEY is set and wins over the stored key while it stays set");
  return { kind: "none" };
}

export async function runAuthStatus(ctx: Context): Promise<CommandResult> {
  const s = await ctx.settings();
  const value = {
    profile: s.profile,
    baseUrl: s.baseUrl ?? null,
    baseUrlSource: s.sources.baseUrl ?? null,
    org: s.org ?? null,
    orgSource: s.sources.org ?? null,
    apiVersion: s.apiVersion,
    apiKey: s.apiKey ? maskSecret(s.apiKey) : null,
    apiKeySource: s.sources.apiKey ?? null,
    settingsFile: s.store.path,
  };
  await ctx.print({ kind: "object", value });
  if (!s.apiKey) {
    throw new AuthError(`no API key for profile '${s.profile}'`, { hint: "run `simadmin auth login` or set SIMADMIN_API_KEY" });
  }
  return { kind: "none" };
}

export async function runAuthLogout(ctx: Context): Promise<CommandResult> {
  if (refuseToSaveUnderSandbox(ctx, "no stored key was touched")) return { kind: "none" };
  // A profile that was never created has no key to remove: that is not a usage error
  // (README: `simadmin --profile staging auth logout`).
  const { profile, store } = await ctx.profileStore();
  const stored = store.getProfile(profile);
  if (!stored?.apiKey) {
    ctx.info(`No stored key for profile '${profile}'; nothing to remove`);
  } else {
    await store.updateProfile(profile, ({ apiKey: _removed, ...rest }) => rest);
    ctx.info(`Removed the stored key of profile '${profile}'`);
  }
  if (ctx.env.SIMADMIN_API_KEY) ctx.warn("SIMADMIN_API_KEY is still set in this environment and is still used");
  return { kind: "none" };
}
