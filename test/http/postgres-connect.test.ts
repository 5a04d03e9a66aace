import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres } from "../../src/db/postgres-connect.js";
import { postgresAvailable, startPostgres, type TestPostgres } from "../helpers/postgres.js";

// The one PostgreSQL connection of simadmin (src/db/postgres-connect.ts) against real servers:
// PostgreSQL 15 with TLS (a self-signed certificate from openssl, a server of its own), the
// run's shared one without, and a "black hole" that accepts TCP and never answers. What psql
// does with each sslmode is the oracle.

const HOME = { HOME: "/nonexistent-home" };
let tls: TestPostgres;
let plain: TestPostgres;
let hole: Server;
let holeUrl: string;
const held: Socket[] = [];

async function encrypted(url: string): Promise<boolean> {
  const session = await connectPostgres(url, { timeoutMs: 10_000, env: HOME });
  try {
    const [row] = await session.query<{ ssl: boolean }>("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
    return row!.ssl;
  } finally {
    await session.close();
  }
}

describe.runIf(postgresAvailable() || process.env.CI)("connectPostgres", () => {
  beforeAll(async () => {
    [tls, plain] = await Promise.all([startPostgres({ tls: true }), startPostgres()]);
    hole = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => hole.listen(0, "127.0.0.1", resolve));
    const address = hole.address();
    holeUrl = `postgres://simadmin:hole-pw@127.0.0.1:${typeof address === "object" && address ? address.port : 0}/postgres`;
  }, 60_000);
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    hole?.close();
    await Promise.all([tls?.stop(), plain?.stop()]);
  });

  it("encrypts by default where the server offers TLS (libpq's prefer) and without it where it does not", async () => {
    expect(await encrypted(tls.url)).toBe(true);
    expect(await encrypted(plain.url)).toBe(false);
  });

  it("sslmode=require encrypts without verifying a self-signed certificate; disable stays plaintext", async () => {
    expect(await encrypted(`${tls.url}?sslmode=require`)).toBe(true);
    expect(await encrypted(`${tls.url}?sslmode=disable`)).toBe(false);
  });

  it("verify-full connects with the server's certificate as root, and refuses the same server without it (exit 11)", async () => {
    expect(await encrypted(`${tls.url.replace("127.0.0.1", "localhost")}?sslmode=verify-full&sslrootcert=${tls.certFile}`)).toBe(
      true,
    );
    await expect(encrypted(`${tls.url}?sslmode=verify-full&sslrootcert=system`)).rejects.toMatchObject({
      exitCode: 11,
      message: expect.stringContaining("sslmode=verify-full"),
    });
  });

  it("sslmode=require against a server without TLS fails as psql does (exit 11)", async () => {
    await expect(encrypted(`${plain.url}?sslmode=require`)).rejects.toMatchObject({ exitCode: 11 });
  });

  it("gives up on a server that accepts the connection and never answers, after --timeout, naming it without the password", async () => {
    const error = await connectPostgres(holeUrl, { timeoutMs: 300, env: HOME }).then(
      () => undefined,
      (e: unknown) => e as { exitCode: number; message: string },
    );
    expect(error?.exitCode).toBe(11);
    expect(error?.message).toContain("postgres://simadmin:***@127.0.0.1:");
    expect(error?.message).toContain("no answer within");
    expect(error?.message).not.toContain("hole-pw");
  });

  it("cancels a statement longer than --timeout (exit 11, never 8)", async () => {
    const session = await connectPostgres(plain.url, { timeoutMs: 500, env: HOME });
    try {
      await expect(session.query("SELECT pg_sleep(5)")).rejects.toMatchObject({
        exitCode: 11,
        message: expect.stringContaining("longer than"),
      });
    } finally {
      await session.close();
    }
  });

  it("names the object and the missing right when the role may not create tables (exit 11)", async () => {
    const admin = await connectPostgres(plain.url, { timeoutMs: 10_000, env: HOME });
    // Roles belong to the server, which other files share: a name of this process's.
    const role = `no_create_${process.pid}`;
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.close();
    const session = await connectPostgres(plain.url.replace("simadmin@", `${role}@`), { timeoutMs: 10_000, env: HOME });
    try {
      await expect(session.query("CREATE TABLE t (x int)")).rejects.toMatchObject({
        exitCode: 11,
        message: expect.stringMatching(/permission denied for schema public.*CREATE/),
      });
    } finally {
      await session.close();
    }
  });
});
