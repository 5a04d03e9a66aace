import * as z from "zod";
import { OUTPUT_FORMATS } from "../output/render.js";

// Settings are user input like any other: validated with zod when set, when read from the
// file and when they come from the environment (house style: "schemas are the types").

export const ProfileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, "a profile name is letters, digits, '-' and '_' (at most 64)");

export const BaseUrl = z
  .string()
  .trim()
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.search && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, "must be an http(s) URL without query, fragment or credentials, e.g. https://api.example.com")
  .transform((text) => text.replace(/\/+$/, ""));

/** The public address of the link service (docs/cli-contract.md "Durable links"); a path is kept (a reverse proxy's prefix). */
export const LinksUrl = BaseUrl;

export const OrgId = z.string().trim().min(1, "must not be empty");
export const ApiVersion = z
  .union([z.literal("1"), z.literal("2"), z.literal(1), z.literal(2)], { error: "must be 1 or 2" })
  .transform((v) => Number(v) as 1 | 2);
// text and xlsx are for one run, never a profile's default: text suits two commands only, and
// xlsx needs --out (a default of xlsx would make every command to a terminal fail).
export const OutputSetting = z.enum(
  OUTPUT_FORMATS.filter((f) => f !== "text" && f !== "xlsx") as ["table", "json", "csv", "ndjson"],
);
export const TimeoutSeconds = z.coerce
  .number({ message: "must be a number of seconds" })
  .positive("must be more than 0 seconds")
  .max(3600, "must be at most 3600 seconds");

/** Where the state store is (docs/state.md): a directory, or a postgres:// URL. */
export const StateSetting = z
  .string()
  .trim()
  .min(1, "must be a directory or a postgres:// URL")
  .refine((text) => {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return true;
    return /^postgres(ql)?:\/\//i.test(text);
  }, "must be a directory or a postgres:// (postgresql://) URL");

/** The keys `config set` accepts, each with its validator. */
export const SETTING_KEYS = {
  baseUrl: BaseUrl,
  org: OrgId,
  apiVersion: ApiVersion,
  output: OutputSetting,
  timeout: TimeoutSeconds,
  linksUrl: LinksUrl,
  state: StateSetting,
} as const;
export type SettingKey = keyof typeof SETTING_KEYS;
export const SETTING_KEY_NAMES = Object.keys(SETTING_KEYS) as SettingKey[];

export const ProfileSettings = z.object({
  baseUrl: BaseUrl.optional(),
  org: OrgId.optional(),
  apiVersion: ApiVersion.optional(),
  output: OutputSetting.optional(),
  timeout: TimeoutSeconds.optional(),
  linksUrl: LinksUrl.optional(),
  state: StateSetting.optional(),
  apiKey: z.string().min(1).optional(),
  /** The key is in the OS keychain under this account (service "simadmin"), not in this file. */
  keychainAccount: z.string().min(1).optional(),
  /** When `auth login` stored the key (ISO time): the key's age, never the key. */
  apiKeyCreatedAt: z.iso.datetime().optional(),
});
export type ProfileSettings = z.infer<typeof ProfileSettings>;

export const SettingsFile = z.object({
  profiles: z.record(z.string(), ProfileSettings).default({}),
});
export type SettingsFile = z.infer<typeof SettingsFile>;

/** First issue of a zod error as a short sentence. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid value";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}
