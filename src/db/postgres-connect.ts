import type { Client, ClientConfig, QueryConfig } from "pg";
import { CliError, LocalFileError } from "../errors.js";
import { readPostgresUrl, type PostgresUrl } from "./postgres-url.js";

// One connection to a PostgreSQL database for any part of simadmin that keeps data there
// (`reports sync --db`, the state store's `--state`), so that every one reads URLs as libpq
// does (postgres-url.ts), bounds connecting and each statement by `--timeout`, never shows
// the password, and says what the database refused with exit 11 (docs/cli-contract.md,
// Warehouse rules: "a database that refuses … is exit 11 naming the object, never exit 8").
// pg is loaded here, on first use, so no other command pays for it (docs/architecture.md).

export interface PostgresOptions {
  /** Connect and statement timeout, milliseconds (`--timeout`). */
  timeoutMs: number;
  /** PGSSLMODE, PGSSLROOTCERT, HOME: the run's environment, not process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Shown in pg_stat_activity: which simadmin part holds the connection. */
  applicationName?: string;
}

export interface PostgresSession {
  /** pg's client, for what needs it whole (COPY streams). Errors from it go through `failure`. */
  readonly client: Client;
  /** The URL without its password: what messages name. */
  readonly location: string;
  readonly timeoutMs: number;
  /** One statement; a failure is the CliError `failure` makes of it. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** The exit-11 error for a failure of `statement` (its first words name the right it needed). */
  failure(error: unknown, statement?: string): CliError;
  close(): Promise<void>;
}

export async function connectPostgres(url: string, options: PostgresOptions): Promise<PostgresSession> {
  const target = readPostgresUrl(url, options.env);
  const { default: pg } = await import("pg");
  const attempt = async (config: ClientConfig): Promise<Client> => {
    const client = new pg.Client({
      ...config,
      connectionTimeoutMillis: options.timeoutMs,
      // Server side: no statement runs longer than --timeout (a lock held by a dashboard, a
      // server that stops answering mid-run). Sent in the start-up packet.
      statement_timeout: options.timeoutMs,
      keepAlive: true,
      application_name: options.applicationName ?? "simadmin",
    });
    // An idle connection dropped by the server must not crash the process: the next query fails.
    client.on("error", () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };
  let client: Client;
  try {
    client = await attempt(target.config);
  } catch (error) {
    // prefer: the server refused TLS, so plaintext as libpq does; allow: the other way round.
    if (target.fallback === undefined || !refusedEncryption(error, target.sslMode)) throw connectFailure(error, target, options);
    try {
      client = await attempt(target.fallback);
    } catch (second) {
      throw connectFailure(second, target, options);
    }
  }
  const failure = (error: unknown, statement?: string): CliError => statementFailure(error, target, options, statement);
  return {
    client,
    location: target.location,
    timeoutMs: options.timeoutMs,
    async query<R>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
      try {
        // Client side too, for a server that stops answering without closing the socket.
        // (pg reads query_timeout per query; its types know it on the client only.)
        const config: QueryConfig & { query_timeout: number } = {
          text: sql,
          values: [...params],
          query_timeout: options.timeoutMs + 5_000,
        };
        const result = await client.query(config);
        return result.rows as R[];
      } catch (error) {
        throw failure(error, sql);
      }
    },
    failure,
    close: () => client.end().catch(() => undefined),
  };
}

/** libpq's prefer retries in plaintext when the server says no to TLS (or its pg_hba wants none). */
function refusedEncryption(error: unknown, mode: string): boolean {
  const message = error instanceof Error ? error.message : "";
  if (mode === "prefer") return /does not support SSL|no encryption|error establishing an SSL/i.test(message);
  // allow: plaintext first; the server's pg_hba insisting on TLS ("hostssl") is code 28000.
  return sqlState(error) === "28000";
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function scrub(text: string, target: PostgresUrl): string {
  const line = text.split("\n")[0] ?? text;
  return target.password ? line.split(target.password).join("***") : line;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
]);

function connectFailure(error: unknown, target: PostgresUrl, options: PostgresOptions): CliError {
  const message = scrub(error instanceof Error ? error.message : String(error), target);
  const seconds = Math.round(options.timeoutMs / 1000);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (/timeout|timed out/i.test(message)) {
    return new LocalFileError(`cannot connect to PostgreSQL at ${target.location}: no answer within ${seconds} s`, {
      path: target.location,
      hint: "check the host and port, and that a firewall does not swallow the connection; --timeout sets the wait",
      cause: error,
    });
  }
  if (typeof code === "string" && UNREACHABLE.has(code)) {
    return new LocalFileError(`cannot connect to PostgreSQL at ${target.location}: ${message}`, {
      path: target.location,
      hint: "check the host, port and that the server accepts connections",
      cause: error,
    });
  }
  if (/certificate|self[- ]signed|SSL|TLS|altnames/i.test(message)) {
    return new LocalFileError(`cannot connect to PostgreSQL at ${target.location} (sslmode=${target.sslMode}): ${message}`, {
      path: target.location,
      hint: "give the server's CA with ?sslrootcert=<file>, or sslmode=require to encrypt without verifying",
      cause: error,
    });
  }
  return statementFailure(error, target, options, undefined, "cannot connect to");
}

/** The right a statement needs, from its first words: what a 42501 is missing. */
function rightFor(statement: string | undefined): string | undefined {
  const words = (statement ?? "").trim().toUpperCase().split(/\s+/);
  const verb = words[0] ?? "";
  if (verb === "CREATE") return "CREATE";
  if (verb === "ALTER" || verb === "DROP") return "ownership";
  if (verb === "COPY" || verb === "INSERT") return "INSERT";
  if (["DELETE", "SELECT", "UPDATE", "TRUNCATE"].includes(verb)) return verb;
  return undefined;
}

function statementFailure(
  error: unknown,
  target: PostgresUrl,
  options: PostgresOptions,
  statement?: string,
  lead = "PostgreSQL at",
): CliError {
  if (error instanceof CliError) return error;
  const message = scrub(error instanceof Error ? error.message : String(error), target);
  const state = sqlState(error);
  const at = lead === "PostgreSQL at" ? `PostgreSQL at ${target.location}` : `${lead} PostgreSQL at ${target.location}`;
  const file = (text: string, hint?: string): LocalFileError =>
    new LocalFileError(text, { path: target.location, hint, cause: error });
  const seconds = Math.round(options.timeoutMs / 1000);
  if (state === "42501") {
    const right = rightFor(statement);
    const needs =
      right === "ownership"
        ? "the role must own the object to change it"
        : right
          ? `the role lacks the ${right} right`
          : "the role lacks a right";
    return file(`${at}: ${message} (${needs})`, "grant the right to the role in the URL, or use a role that has it");
  }
  if (state === "3F000" || state === "3D000" || state === "42P01")
    return file(`${at}: ${message}`, "create it, or point the URL at a database and schema that exist");
  if (state === "28P01" || state === "28000")
    return file(`${at}: ${message}`, "check the user and password (or ~/.pgpass) and the server's pg_hba.conf");
  if (state === "25006") return file(`${at}: ${message}`, "point the URL at the primary server, not a read-only replica");
  if (state === "53100") return file(`${at}: ${message}`, "free space on the database server");
  if (state === "57014" || /Query read timeout/.test(message))
    return file(`${at}: a statement took longer than ${seconds} s and was cancelled`, "--timeout sets the limit");
  if (/Connection terminated|ECONNRESET|EPIPE/i.test(message) || UNREACHABLE.has(String((error as { code?: unknown }).code)))
    return file(`${at}: the connection was lost (${message})`, "run again once the server is back");
  return file(`${at}: ${message}${state ? ` (SQLSTATE ${state})` : ""}`);
}
