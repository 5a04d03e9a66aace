import { describe, expect, it } from "vitest";
import type * as z from "zod";
import {
  ApiVersion,
  BaseUrl,
  OrgId,
  OutputSetting,
  ProfileName,
  SettingsFile,
  StateSetting,
  TimeoutSeconds,
} from "../../src/settings/schema.js";
import {
  readApiVersion,
  readBaseUrl,
  readOrgId,
  readOutputSetting,
  readProfileName,
  readSettingsFile,
  readStateSetting,
  readTimeoutSeconds,
  type SettingReader,
} from "../../src/settings/values.js";

// Every command reads its settings by hand (values.ts) and asks the zod schema only for what
// that refuses (start-up): a value the reader takes must be the schema's value for it, and a
// value the schema refuses must never be taken (its issue is the message).
function agrees<T>(read: SettingReader<T>, schema: z.ZodType<T>, value: unknown): void {
  const parsed = schema.safeParse(value);
  const got = read(value);
  if (!parsed.success) expect(got, JSON.stringify(value)).toBeUndefined();
  else if (got !== undefined) expect(got, JSON.stringify(value)).toStrictEqual(parsed.data);
}

const odd = [undefined, null, true, 0, 1, -1, 2, 1.5, NaN, Infinity, "", " ", "\t", [], {}, ["a"]];

describe("settings read by hand agree with their schemas", () => {
  it.each<[string, SettingReader<unknown>, z.ZodType<unknown>, unknown[]]>([
    ["profile", readProfileName, ProfileName, ["default", "ci_2", "-x", "a b", "x".repeat(64), "x".repeat(65), "é"]],
    [
      "base URL",
      readBaseUrl,
      BaseUrl,
      [
        "https://api.example.com",
        " https://api.example.com/v2/// ",
        "http://127.0.0.1:8787",
        "ftp://x",
        "https://u:p@x",
        "https://x/?q=1",
        "https://x/#f",
        "not a url",
        "HTTPS://API.EXAMPLE.COM",
      ],
    ],
    ["organization", readOrgId, OrgId, ["org-demo", "  org  ", " "]],
    ["API version", readApiVersion, ApiVersion, ["1", "2", "3", " 2", "2.0"]],
    ["output", readOutputSetting, OutputSetting, ["table", "json", "csv", "ndjson", "text", "xlsx", "TABLE"]],
    ["timeout", readTimeoutSeconds, TimeoutSeconds, ["30", " 30 ", "0", "3600", "3601", "1e3", "0x10", "abc", 0.5, 3600, 3600.5]],
    [
      "state",
      readStateSetting,
      StateSetting,
      ["/var/state", " ./s ", "postgres://h/db", "POSTGRESQL://h/db", "redis://h", "c:\\x"],
    ],
  ])("%s", (_name, read, schema, values) => {
    for (const value of [...values, ...odd]) agrees(read, schema, value);
  });

  it.each<[string, unknown]>([
    ["empty", {}],
    ["no profiles", { other: 1 }],
    [
      "a full profile",
      {
        profiles: {
          default: {
            baseUrl: "https://api.example.com/",
            org: " org ",
            apiVersion: 1,
            output: "csv",
            timeout: 30,
            linksUrl: "https://links.example.com/p",
            state: "postgres://h/db",
            apiKey: "sk_x",
            keychainAccount: "default",
            apiKeyCreatedAt: "2026-11-28T01:02:03.004Z",
            unknown: "dropped",
          },
          other: {},
        },
      },
    ],
    ["a value left undefined", { profiles: { p: { org: undefined } } }],
    ["a bad base URL", { profiles: { p: { baseUrl: "ftp://x" } } }],
    ["an empty key", { profiles: { p: { apiKey: "" } } }],
    ["a time that is not one", { profiles: { p: { apiKeyCreatedAt: "2026-02-30T00:00:00.000Z" } } }],
    ["a time without milliseconds", { profiles: { p: { apiKeyCreatedAt: "2026-11-28T01:02:03Z" } } }],
    ["a profile that is not an object", { profiles: { p: "x" } }],
    ["profiles that are a list", { profiles: [] }],
    ["not an object", []],
  ])("the settings file: %s", (_name, value) => agrees(readSettingsFile, SettingsFile, value));

  // Else every start would load zod after all.
  it("takes, by hand, the values a start meets", () => {
    expect(readProfileName("default")).toBe("default");
    expect(readBaseUrl("https://api.example.com/v2/")).toBe("https://api.example.com/v2");
    expect(readOrgId(" org-demo ")).toBe("org-demo");
    expect(readApiVersion("1")).toBe(1);
    expect(readOutputSetting("json")).toBe("json");
    expect(readTimeoutSeconds("30")).toBe(30);
    expect(readStateSetting("postgres://h/db")).toBe("postgres://h/db");
    const file = { profiles: { default: { baseUrl: "https://x", apiKeyCreatedAt: "2026-11-28T01:02:03.004Z", apiVersion: 2 } } };
    expect(readSettingsFile(file)).toEqual(file);
  });
});
