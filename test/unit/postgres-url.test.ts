import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPostgresUrl, redactPostgresUrl } from "../../src/db/postgres-url.js";

// postgres:// URLs read as libpq reads them (docs/cli-contract.md, Warehouse rules): the
// default is prefer (TLS without verification, then plaintext), require encrypts without
// verifying, verify-ca checks the CA only, verify-full the host too.

let dir: string;
let ca: string;
const HOME = { HOME: "/nonexistent-home" };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "simadmin-pgurl-"));
  ca = join(dir, "root.crt");
  await writeFile(ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const tlsOf = (config: { ssl?: unknown }) =>
  config.ssl as { rejectUnauthorized?: boolean; ca?: string; checkServerIdentity?: unknown };

describe("readPostgresUrl", () => {
  it("prefers TLS without verifying and falls back to plaintext when no sslmode is given (libpq's default)", () => {
    const url = readPostgresUrl("postgres://u@db.example:5433/w", HOME);
    expect(url.sslMode).toBe("prefer");
    expect(tlsOf(url.config).rejectUnauthorized).toBe(false);
    expect(url.fallback?.ssl).toBe(false);
    expect(url.config).toMatchObject({ host: "db.example", port: 5433, database: "w", user: "u" });
  });

  it("takes PGSSLMODE from the environment when the URL has no sslmode, and the URL's over it", () => {
    expect(readPostgresUrl("postgres://u@h/w", { ...HOME, PGSSLMODE: "disable" }).config.ssl).toBe(false);
    expect(readPostgresUrl("postgres://u@h/w?sslmode=require", { ...HOME, PGSSLMODE: "disable" }).sslMode).toBe("require");
  });

  it.each([
    ["disable", false, undefined],
    ["require", true, false],
  ])("sslmode=%s: TLS %s, certificate verified: %s", (mode, tls, verified) => {
    const url = readPostgresUrl(`postgres://u@h/w?sslmode=${mode}`, HOME);
    expect(url.fallback).toBeUndefined();
    if (!tls) return expect(url.config.ssl).toBe(false);
    expect(tlsOf(url.config).rejectUnauthorized).toBe(verified);
  });

  it("verify-ca checks the chain but not the host name; verify-full both", () => {
    const caOnly = tlsOf(readPostgresUrl(`postgres://u@h/w?sslmode=verify-ca&sslrootcert=${ca}`, HOME).config);
    expect(caOnly.ca).toContain("BEGIN CERTIFICATE");
    expect(caOnly.rejectUnauthorized).not.toBe(false);
    expect(typeof caOnly.checkServerIdentity).toBe("function");
    const full = tlsOf(readPostgresUrl(`postgres://u@h/w?sslmode=verify-full&sslrootcert=${ca}`, HOME).config);
    expect(full.ca).toContain("BEGIN CERTIFICATE");
    expect(full.checkServerIdentity).toBeUndefined();
    expect(full.rejectUnauthorized).not.toBe(false);
  });

  it("require with a root certificate verifies the CA, as libpq does", () => {
    const url = tlsOf(readPostgresUrl(`postgres://u@h/w?sslmode=require&sslrootcert=${ca}`, HOME).config);
    expect(url.ca).toContain("BEGIN CERTIFICATE");
    expect(url.rejectUnauthorized).not.toBe(false);
  });

  it("refuses verify-full without a root certificate file, naming libpq's default path (exit 11)", () => {
    expect(() => readPostgresUrl("postgres://u@h/w?sslmode=verify-full", HOME)).toThrow(
      expect.objectContaining({ exitCode: 11, message: expect.stringContaining("/nonexistent-home/.postgresql/root.crt") }),
    );
  });

  it("names a missing sslrootcert file with exit 11", () => {
    expect(() => readPostgresUrl(`postgres://u@h/w?sslmode=verify-ca&sslrootcert=${join(dir, "nope.crt")}`, HOME)).toThrow(
      expect.objectContaining({ exitCode: 11, message: expect.stringContaining("nope.crt") }),
    );
  });

  it("refuses an sslmode libpq does not know (exit 2), without the password", () => {
    expect(() => readPostgresUrl("postgres://u:hunter2@h/w?sslmode=no-verify", HOME)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.not.stringContaining("hunter2") }),
    );
  });

  it("sslrootcert=system verifies against the machine's CAs with the host name", () => {
    const url = readPostgresUrl("postgres://u@h/w?sslrootcert=system", HOME);
    expect(url.sslMode).toBe("verify-full");
    expect(tlsOf(url.config).ca).toBeUndefined();
    expect(tlsOf(url.config).rejectUnauthorized).not.toBe(false);
  });
});

describe("redactPostgresUrl", () => {
  it.each([
    ["postgres://u:p%40ss@h:5432/db", "postgres://u:***@h:5432/db"],
    ["postgresql://u:pw@h/db?sslmode=require", "postgresql://u:***@h/db?sslmode=require"],
    ["postgres://u@h/db?password=pw&sslmode=disable", "postgres://u@h/db?password=***&sslmode=disable"],
    ["postgres://h/db", "postgres://h/db"],
  ])("%s → %s", (url, shown) => {
    expect(redactPostgresUrl(url)).toBe(shown);
  });
});
