import { isAbsolute, resolve } from "node:path";
import { redactPostgresUrl } from "../db/postgres-url.js";

// Where the state store is (docs/state.md): a directory, or a PostgreSQL URL (libpq URL rules,
// `postgres://` or `postgresql://`). A URL may carry a password — in its user part or as a
// `password=` parameter; everything that names the store (messages, `state show`, errors)
// uses `display`, where it is replaced by `***`, and the password itself is handed to the
// reporter to be redacted from anything else that might quote it (a driver's error).

export type StateLocation =
  | { kind: "directory"; path: string; display: string; secrets: string[] }
  | { kind: "postgres"; url: string; display: string; secrets: string[] };

const POSTGRES = /^postgres(ql)?:\/\//i;

export function isPostgresUrl(spec: string): boolean {
  return POSTGRES.test(spec.trim());
}

/** `spec` (a path or a postgres URL) as a location; a relative path is taken from `cwd`. */
export function parseStateLocation(spec: string, cwd = process.cwd()): StateLocation {
  const text = spec.trim();
  if (!isPostgresUrl(text)) {
    const path = isAbsolute(text) ? text : resolve(cwd, text);
    return { kind: "directory", path, display: path, secrets: [] };
  }
  const secrets: string[] = [];
  let display = text;
  try {
    const url = new URL(text);
    if (url.password) {
      secrets.push(url.password, decodeURIComponent(url.password));
    }
    const param = url.searchParams.get("password");
    if (param) {
      secrets.push(param, encodeURIComponent(param));
    }
    display = redactPostgresUrl(text);
  } catch {
    // Not a URL node can read: show the scheme only, never the rest (it may hold the password).
    display = `${text.split("//")[0]}//…`;
    secrets.push(text);
  }
  return { kind: "postgres", url: text, display, secrets: [...new Set(secrets.filter((s) => s.length > 0))] };
}
