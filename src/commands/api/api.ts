import { ENDPOINTS } from "../../api/endpoints.js";
import { readFile } from "node:fs/promises";
import type { CommandContext } from "../../context.js";
import { LocalFileError, UsageError } from "../../errors.js";
import type { Endpoint } from "../../api/client.js";
import { readAllStdin } from "../../output/prompt.js";
import { defineRun } from "../types.js";
import { ApiOptions } from "./options.js";

// `simadmin api <path> [--data <json> | --input <file|->]` (docs/cli-contract.md, Commands):
// a raw POST for the endpoints simadmin has no command for yet, and for
// support cases — with the profile's key and base URL, the shared rate budgets and the same
// retry rules as every other request (docs/cli-contract.md, "Rate limits", "Retries").
//
// - The path is appended to the base URL as given, version prefix included
//   (`/v2/access-api/user/token`; version 1 paths have none): what you type is what is sent.
//   Only a path is accepted — never a URL — so the key goes to the configured service only.
// - Budget: `…/report/…` paths use the reports budget, everything else the access budget.
// - Retries: a path known to be safe to repeat (reads, idempotent assignment, create that
//   returns the existing user: the list in api/endpoints.ts) is retried after timeouts, resets
//   and 5xx; any other path — bulk-import, and every path simadmin does not know — is
//   repeated only when the service cannot have received it (429, refused connection), so an
//   unknown operation is never performed twice by a retry.
// - The body must be valid JSON (checked before anything is sent, exit 2); no body sends {}.
// - The answer is printed as JSON (whatever the terminal), or with -o by shape: table, csv
//   and ndjson take its records (docs/cli-contract.md, "Records of unknown shape"); --query
//   applies to the answer itself.

const PATH_SHAPE = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

/** The path as it is sent: leading slash, no URL, no `..`, no query or fragment. */
export function normalizeApiPath(raw: string): string {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new UsageError(`api: give a path, not a URL (${JSON.stringify(text.slice(0, 80))})`, {
      hint: "the base URL comes from --base-url, SIMADMIN_BASE_URL or the profile; e.g. simadmin api /v2/access-api/user/token",
    });
  }
  const path = text.startsWith("/") ? text : `/${text}`;
  if (path === "/" || !PATH_SHAPE.test(path) || path.includes("//")) {
    throw new UsageError(`api: ${JSON.stringify(text.slice(0, 80))} is not an endpoint path`, {
      hint: "e.g. /v2/access-api/simulation/library or /report/users (no query string)",
    });
  }
  if (path.split("/").some((segment) => segment === ".." || segment === ".")) {
    throw new UsageError(`api: the path may not contain '.' or '..' segments (${JSON.stringify(text.slice(0, 80))})`);
  }
  return path;
}

/** The endpoint description for a raw path: its budget group and whether repeating it is safe. */
export async function classifyApiPath(path: string): Promise<Endpoint> {
  const bare = path.replace(/^\/v2(?=\/)/, "").replace(/\/+$/, "");
  const isReport = /^\/report\/[^/]+$/.test(bare);
  const known = Object.values(ENDPOINTS).find((endpoint) => endpoint.path === bare);
  const safe = isReport || known?.retry === "safe";
  return {
    path,
    group: isReport || bare.startsWith("/report/") ? "reports" : "access",
    retry: safe ? "safe" : "upload",
    versions: [1, 2],
    label: `api ${path}`,
    slow: bare.startsWith("/report/"),
  };
}

async function readBody(ctx: CommandContext, options: ApiOptions): Promise<string> {
  const { data, input } = options;
  let text: string;
  let from: string;
  if (data !== undefined) {
    text = data;
    from = "--data";
  } else if (input === "-") {
    text = await readAllStdin(ctx.printer.io);
    from = "--input - (stdin)";
  } else if (input !== undefined) {
    try {
      text = await readFile(input, "utf8");
    } catch (error) {
      throw LocalFileError.fromSystem(error, input, "read");
    }
    from = `--input ${input}`;
  } else {
    return "{}";
  }
  try {
    JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from} is not valid JSON (${(error as Error).message}); nothing was sent`);
  }
  return text;
}

export const run = defineRun(ApiOptions, async ({ options, args, ...ctx }) => {
  const path = normalizeApiPath(args[0] ?? "");
  const body = await readBody(ctx, options);
  const endpoint = await classifyApiPath(path);
  // --query and -o are checked by the runner before this runs; the printer applies them.
  const api = await ctx.services.api();
  return { kind: "answer", value: await api.postRawJson(endpoint, body) };
});
