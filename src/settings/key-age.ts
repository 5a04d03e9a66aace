import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

// "Rotate API keys every 90 days" (the service's advice): a stored key older
// than that gets a warning, at most once a day per profile and settings directory, so a cron
// job's mail says it once and a busy terminal is not nagged on every command. The settings
// file keeps the key's creation time (never the key); the day of the last warning is kept
// beside it in key-age-warned.json. The key from SIMADMIN_API_KEY is not ours to age.

export const KEY_MAX_AGE_DAYS = 90;
const DAY_MS = 86_400_000;
export const WARNED_FILE = "key-age-warned.json";

/** Whole days since `createdAt`, or undefined for a missing or unreadable time. */
export function keyAgeDays(createdAt: string | undefined, now: number): number | undefined {
  if (createdAt === undefined) return undefined;
  const at = Date.parse(createdAt);
  return Number.isNaN(at) ? undefined : Math.floor((now - at) / DAY_MS);
}

function readWarned(path: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/**
 * The warning to show now, or undefined: the key is young enough, its age is unknown, or
 * today's warning was given. Records today's warning; a state file that cannot be written
 * only means the warning may come again (never a failed command).
 */
export function keyAgeWarning(options: {
  configDir: string;
  profile: string;
  createdAt: string | undefined;
  now: number;
}): string | undefined {
  const days = keyAgeDays(options.createdAt, options.now);
  if (days === undefined || days <= KEY_MAX_AGE_DAYS) return undefined;
  const path = join(options.configDir, WARNED_FILE);
  const today = new Date(options.now).toISOString().slice(0, 10);
  const warned = readWarned(path);
  if (warned[options.profile] === today) return undefined;
  try {
    mkdirSync(options.configDir, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ ...warned, [options.profile]: today })}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // Best effort (read-only settings dir): the warning may repeat.
  }
  return `the stored API key of profile '${options.profile}' is ${days} days old; the service advises a new key every ${KEY_MAX_AGE_DAYS} days: create one, then run \`simadmin auth login\``;
}
