import { OUTPUT_FORMATS } from "../output/render.js";
import type { ProfileSettings, SettingsFile } from "./schema.js";

// The settings as schema.ts's zod schemas read them, checked by hand: every command that sends
// a request reads the settings file and the environment before it starts, and loading zod and
// building those schemas cost more than the rest of a short command's own work
// (docs/architecture.md, Start-up). Each reader returns what the schema would return for a value
// it is sure of, and undefined for anything else — the caller then asks the schema, whose issue
// says what is wrong (the bundle loads schema.ts only then). test/unit/settings-values.test.ts
// holds each reader to its schema.

/** A reader of one setting: the schema's value, or undefined to ask the schema. */
export type SettingReader<T> = (value: unknown) => T | undefined;

export const readProfileName: SettingReader<string> = (value) =>
  typeof value === "string" && /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(value) ? value : undefined;

export const readBaseUrl: SettingReader<string> = (value) => {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  try {
    const url = new URL(text);
    const fits = (url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash && !url.username;
    return fits ? text.replace(/\/+$/, "") : undefined;
  } catch {
    return undefined;
  }
};

export const readOrgId: SettingReader<string> = (value) => {
  const text = typeof value === "string" ? value.trim() : "";
  return text === "" ? undefined : text;
};

export const readApiVersion: SettingReader<1 | 2> = (value) =>
  value === 1 || value === 2 || value === "1" || value === "2" ? (Number(value) as 1 | 2) : undefined;

type OutputSetting = Exclude<(typeof OUTPUT_FORMATS)[number], "text" | "xlsx">;
export const readOutputSetting: SettingReader<OutputSetting> = (value) =>
  typeof value === "string" && value !== "text" && value !== "xlsx" && (OUTPUT_FORMATS as readonly string[]).includes(value)
    ? (value as OutputSetting)
    : undefined;

/** Seconds, as a number or as text that is one number (the schema coerces). */
export const readTimeoutSeconds: SettingReader<number> = (value) => {
  if (typeof value !== "number" && typeof value !== "string") return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds > 0 && seconds <= 3600 ? seconds : undefined;
};

export const readStateSetting: SettingReader<string> = (value) => {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^postgres(ql)?:\/\//i.test(text) ? text : undefined;
};

const readNonEmpty: SettingReader<string> = (value) => (typeof value === "string" && value !== "" ? value : undefined);

/** An ISO time as `auth login` writes it (Date#toISOString), a real date. */
const readStoredTime: SettingReader<string> = (value) =>
  typeof value === "string" &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
  new Date(value).toISOString() === value
    ? value
    : undefined;

const PROFILE_READERS: { [K in keyof ProfileSettings]-?: SettingReader<NonNullable<ProfileSettings[K]>> } = {
  baseUrl: readBaseUrl,
  org: readOrgId,
  apiVersion: readApiVersion,
  output: readOutputSetting,
  timeout: readTimeoutSeconds,
  linksUrl: readBaseUrl,
  state: readStateSetting,
  apiKey: readNonEmpty,
  keychainAccount: readNonEmpty,
  apiKeyCreatedAt: readStoredTime,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function readProfile(value: unknown): ProfileSettings | undefined {
  if (!isObject(value)) return undefined;
  const profile: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(PROFILE_READERS) as [string, SettingReader<unknown>][]) {
    if (!(key in value)) continue;
    const raw = value[key];
    const got = raw === undefined ? undefined : read(raw);
    if (raw !== undefined && got === undefined) return undefined;
    profile[key] = got;
  }
  return profile;
}

/** The settings file's JSON as SettingsFile reads it (unknown keys left out), or undefined to ask the schema. */
export function readSettingsFile(value: unknown): SettingsFile | undefined {
  if (!isObject(value)) return undefined;
  if (value.profiles === undefined) return { profiles: {} };
  if (!isObject(value.profiles)) return undefined;
  const profiles: Record<string, ProfileSettings> = {};
  for (const [name, raw] of Object.entries(value.profiles)) {
    const profile = readProfile(raw);
    if (!profile) return undefined;
    profiles[name] = profile;
  }
  return { profiles };
}
