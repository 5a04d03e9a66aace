import { UsageError } from "../../errors.js";
import { firstIssue, SETTING_KEY_NAMES, SETTING_KEYS, type SettingKey } from "../../settings/schema.js";
import { parseStateLocation } from "../../state/location.js";
import { NoOptions } from "../shared/flags.js";
import { refuseToSaveUnderSandbox } from "../shared/sandbox-saves.js";
import { defineRun } from "../types.js";

// config list | get | set | unset | path — the profile's settings, validated with zod.
// The API key is not a setting here: `auth login`/`logout` own it, so it is never printed.

/** A setting as shown: a state URL's password is never printed (docs/state.md). */
function shown(key: SettingKey, value: unknown): unknown {
  return key === "state" && typeof value === "string" ? parseStateLocation(value).display : value;
}

function settingKey(raw: string | undefined): SettingKey {
  const match = SETTING_KEY_NAMES.find((key) => key.toLowerCase() === (raw ?? "").toLowerCase());
  if (!match) throw new UsageError(`unknown setting '${raw ?? ""}'; settings are: ${SETTING_KEY_NAMES.join(", ")}`);
  return match;
}

export const list = defineRun(NoOptions, async ({ services }) => {
  const { profile, store } = await services.profileStore();
  const stored = store.getProfile(profile);
  if (!stored && profile !== "default") await services.settings(); // reports the unknown profile
  return {
    kind: "records",
    records: SETTING_KEY_NAMES.map((key) => ({ key, value: shown(key, stored?.[key] ?? null) })),
    tableColumns: ["key", "value"],
  };
});

export const get = defineRun(NoOptions, async ({ args, services }) => {
  const key = settingKey(args[0]);
  const { profile, store } = await services.profileStore();
  const stored = store.getProfile(profile)?.[key];
  const value = shown(key, stored);
  if (stored === undefined)
    throw new UsageError(`'${key}' is not set in profile '${profile}'`, {
      hint: `set it with \`simadmin config set ${key} <value>\``,
    });
  return { kind: "object", value: { key, value }, text: String(value) };
});

export const set = defineRun(NoOptions, async ({ args, services, printer }) => {
  const key = settingKey(args[0]);
  const parsed = SETTING_KEYS[key].safeParse(args[1]);
  if (!parsed.success) throw new UsageError(`${key}: ${firstIssue(parsed.error)} (got '${args[1] ?? ""}')`);
  if (refuseToSaveUnderSandbox({ services, printer }, `${key} is unchanged`)) return { kind: "none" };
  const { profile, store } = await services.profileStore();
  await store.updateProfile(profile, (current) => ({ ...current, [key]: parsed.data }));
  printer.info(`Set ${key} for profile '${profile}'`);
  return { kind: "none" };
});

export const unset = defineRun(NoOptions, async ({ args, services, printer }) => {
  const key = settingKey(args[0]);
  if (refuseToSaveUnderSandbox({ services, printer }, `${key} is unchanged`)) return { kind: "none" };
  const { profile, store } = await services.profileStore();
  await store.updateProfile(profile, (current) => {
    const next = { ...current };
    delete next[key];
    return next;
  });
  printer.info(`Unset ${key} for profile '${profile}'`);
  return { kind: "none" };
});

export const path = defineRun(NoOptions, async ({ services }) => {
  const { store } = await services.profileStore();
  return { kind: "object", value: { path: store.path }, text: store.path };
});
