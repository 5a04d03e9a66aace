import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ClientConfig } from "pg";
import { parse } from "pg-connection-string";
import { isErrnoError, LocalFileError, UsageError } from "../errors.js";

// postgres:// URLs read as libpq (and so psql) reads them (docs/cli-contract.md, Warehouse
// rules; docs/postgres.md): `sslmode` disable / allow / prefer (the default) / require /
// verify-ca / verify-full, `sslrootcert` (a file, or `system` for the machine's CAs),
// PGSSLMODE and PGSSLROOTCERT from the environment when the URL has none. pg's own reading
// differs: no sslmode is plaintext, and `require` verifies the certificate. pg-connection-
// string's libpq mode does the rest (sslcert, sslkey, host and port parameters, sockets).

export type SslMode = "disable" | "allow" | "prefer" | "require" | "verify-ca" | "verify-full";
const SSL_MODES: readonly SslMode[] = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"];

export interface PostgresUrl {
  /** The URL with its password replaced by `***`: what every message shows. */
  readonly location: string;
  readonly sslMode: SslMode;
  /** pg's configuration for the first attempt (TLS unless disable/allow). */
  readonly config: ClientConfig;
  /** prefer / allow: the configuration of the second attempt (plaintext, resp. TLS), when the first is refused. */
  readonly fallback: ClientConfig | undefined;
  /** The password, so that no message repeats it (pg's errors never should, but a hostname can hold anything). */
  readonly password: string | undefined;
}

/** `postgres://user:***@host:5432/db?sslmode=require`: the URL without its password, for messages and logs. */
export function redactPostgresUrl(url: string): string {
  let text = url.replace(/^(postgres(?:ql)?:\/\/[^:@/?#]*):[^@/?#]*@/i, "$1:***@");
  text = text.replace(/([?&]password=)[^&#]*/gi, "$1***");
  return text;
}

/** Reads a postgres:// URL with libpq's rules. `env` supplies PGSSLMODE / PGSSLROOTCERT (never process.env directly). */
export function readPostgresUrl(url: string, env: Readonly<Record<string, string | undefined>> = {}): PostgresUrl {
  const location = redactPostgresUrl(url);
  const [base, query = ""] = splitQuery(url);
  const params = new URLSearchParams(query);
  params.delete("uselibpqcompat");
  const modeText = params.get("sslmode") ?? env.PGSSLMODE ?? "prefer";
  if (!(SSL_MODES as readonly string[]).includes(modeText)) {
    throw new UsageError(`${location}: sslmode ${JSON.stringify(modeText)} is not one of ${SSL_MODES.join(", ")}`, {
      hint: "use a libpq sslmode, e.g. ?sslmode=require",
    });
  }
  let sslMode = modeText as SslMode;
  let rootCert = params.get("sslrootcert") ?? env.PGSSLROOTCERT;
  const systemRoots = rootCert === "system";
  if (systemRoots) {
    // libpq: the system's CAs make sense only with the host checked as well.
    if (params.has("sslmode") && sslMode !== "verify-full") {
      throw new UsageError(`${location}: sslrootcert=system needs sslmode=verify-full (libpq refuses ${sslMode})`);
    }
    sslMode = "verify-full";
    rootCert = undefined;
  } else if (rootCert === undefined) {
    // libpq's default root file: required by verify-*, and it makes `require` verify the CA.
    const home = env.HOME ?? homedir();
    const fallbackRoot = join(home, ".postgresql", "root.crt");
    if (sslMode === "verify-ca" || sslMode === "verify-full") {
      if (!existsSync(fallbackRoot)) {
        throw new LocalFileError(
          `${location}: sslmode=${sslMode} needs the server's root certificate, and ${fallbackRoot} does not exist`,
          { path: fallbackRoot, hint: "give it with ?sslrootcert=<file>, or sslrootcert=system for the machine's CAs" },
        );
      }
      rootCert = fallbackRoot;
    } else if (sslMode === "require" && existsSync(fallbackRoot)) rootCert = fallbackRoot;
  }
  params.delete("sslrootcert");
  params.delete("sslmode");
  // The TLS attempt, read by pg-connection-string's libpq mode; prefer is read as require
  // (encrypt, never verify) — the plaintext retry is ours.
  const tlsMode = sslMode === "disable" || sslMode === "allow" || sslMode === "prefer" ? "require" : sslMode;
  const tlsParams = new URLSearchParams(params);
  tlsParams.set("sslmode", tlsMode);
  if (rootCert !== undefined && sslMode !== "prefer" && sslMode !== "allow") tlsParams.set("sslrootcert", rootCert);
  const tls = parseWithFiles(`${base}?${tlsParams.toString()}`, location);
  const plainParams = new URLSearchParams(params);
  plainParams.set("sslmode", "disable");
  const plain = parseWithFiles(`${base}?${plainParams.toString()}`, location);
  const password = typeof tls.password === "string" && tls.password !== "" ? tls.password : undefined;
  switch (sslMode) {
    case "disable":
      return { location, sslMode, config: plain, fallback: undefined, password };
    case "allow":
      return { location, sslMode, config: plain, fallback: tls, password };
    case "prefer":
      return { location, sslMode, config: tls, fallback: plain, password };
    default:
      return { location, sslMode, config: tls, fallback: undefined, password };
  }
}

function splitQuery(url: string): [string, string | undefined] {
  const hash = url.indexOf("#");
  const whole = hash >= 0 ? url.slice(0, hash) : url;
  const at = whole.indexOf("?");
  return at >= 0 ? [whole.slice(0, at), whole.slice(at + 1)] : [whole, undefined];
}

/** pg-connection-string reads sslrootcert/sslcert/sslkey files itself; a missing one is exit 11 naming it. */
function parseWithFiles(url: string, location: string): ClientConfig {
  try {
    const parsed = parse(url, { useLibpqCompat: true });
    const config: ClientConfig = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (value === null || value === undefined || value === "") continue;
      if (key === "port") config.port = Number(value);
      else (config as Record<string, unknown>)[key] = value;
    }
    return config;
  } catch (error) {
    if (isErrnoError(error)) {
      const path = (error as NodeJS.ErrnoException).path ?? "?";
      throw LocalFileError.fromSystem(error, path, "read", `the certificate file named in ${location}`);
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${location} is not a PostgreSQL URL libpq reads: ${reason.split("\n")[0]}`);
  }
}
