import type { CommandContext } from "../../context.js";
import { shellWord } from "../../output/table-columns.js";
import type { UsersSyncOptions } from "./options.js";

/**
 * The command of this run without --plan/--dry-run, every word quoted for the shell, so that
 * the hint can be pasted back as it is (a hint must itself work, docs/cli-contract.md): the roster
 * path and every flag that changes what is planned (--map, --encoding, --max-deactivate, --max-changes,
 * --skip-invalid, --assume-existing, --yes) and the global flags that choose the service and
 * the organization. Output flags (-o, --out, --fields, --query, …) are left out: they shape
 * what is printed, not what is sent. Values are written in their parsed form (`--map
 * firstName=First Name`, `--max-deactivate 10%`), which parses to the same options.
 */
export function followUp(ctx: CommandContext, options: UsersSyncOptions, rosterPath: string): string {
  const words: string[] = ["simadmin"];
  const g = ctx.services.globals;
  if (g.profile !== undefined) words.push("--profile", g.profile);
  if (g.sandbox === true) words.push("--sandbox");
  if (g.baseUrl !== undefined) words.push("--base-url", g.baseUrl);
  if (g.org !== undefined) words.push("--org", g.org);
  if (g.apiVersion !== undefined) words.push("--api-version", g.apiVersion);
  if (g.timeout !== undefined) words.push("--timeout", g.timeout);
  if (g.retries !== undefined) words.push("--retries", g.retries);
  // A path starting with "-" would be read as a flag: ./ keeps it a path.
  words.push("users", "sync", rosterPath.startsWith("-") ? `./${rosterPath}` : rosterPath);
  for (const [column, header] of options.map ?? []) words.push("--map", `${column}=${header}`);
  if (options.encoding !== undefined) words.push("--encoding", options.encoding);
  const limit = options.maxDeactivate;
  if (limit !== undefined) words.push("--max-deactivate", limit.kind === "percent" ? `${limit.value}%` : String(limit.value));
  const changes = options.maxChanges;
  if (changes !== undefined)
    words.push("--max-changes", changes.kind === "percent" ? `${changes.value}%` : String(changes.value));
  if (options.skipInvalid) words.push("--skip-invalid");
  if (options.assumeExisting) words.push("--assume-existing");
  if (options.yes) words.push("--yes");
  return words.map(shellWord).join(" ");
}
