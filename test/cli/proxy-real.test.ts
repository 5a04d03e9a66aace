import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startTestEnv, tempDir, type TestEnv } from "../helpers/in-process.js";
import {
  squidAvailable,
  startSquid,
  startTinyproxy,
  tinyproxyAvailable,
  type TestSquid,
  type TestTinyproxy,
} from "../helpers/real-proxies.js";

// A real squid between simadmin and the sandbox (issue 22 item 4; docs/cli-contract.md "The
// service's words"; docs/proxies.md): its 407 and its deny page are named as the proxy's
// (exit 8), never blamed on the API key, never retried, and an upload it refused is not
// "may have been accepted". Without squid installed the tests are skipped, except under CI.

const TOKEN = ["token", "--user", "user-demo", "-o", "json", "--verbose"];
const skip = !process.env.CI && !squidAvailable();

describe.skipIf(skip)("through squid", () => {
  let squid: TestSquid;
  let t: TestEnv;
  beforeAll(async () => {
    [squid, t] = await Promise.all([startSquid({ users: { alice: "right-pa55" } }), startTestEnv()]);
  });
  afterAll(async () => {
    await Promise.all([squid?.stop(), t?.close()]);
  });

  const posts = (stderr: string): number => stderr.split("\n").filter((line) => line.includes("→ POST")).length;

  it("the right credentials: the request goes through squid to the service", async () => {
    const before = squid.accessLog().length;
    const r = await t.capture(TOKEN, { env: { http_proxy: squid.withCredentials("alice", "right-pa55") } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty("token");
    expect(r.sent).toHaveLength(1);
    expect(r.stderr).toContain(`via ${squid.url}`);
    expect(r.stderr).not.toContain("right-pa55");
    expect(squid.accessLog().slice(before).join("\n")).toMatch(
      /TCP_MISS\/200 .*POST http:\/\/127\.0\.0\.1:\d+\/v2\/access-api\/user\/token alice/,
    );
  });

  it("no credentials: squid's 407 is named as the proxy's, with where to put them; exit 8, not retried", async () => {
    const r = await t.capture(TOKEN, { env: { http_proxy: squid.url } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(
      `error: user token: the proxy ${squid.url} refused the request to ${t.env.SIMADMIN_BASE_URL}: 407 Proxy Authentication Required; the API key was not checked`,
    );
    expect(r.stderr).toContain(`set credentials in http_proxy=http://user:password@${squid.url.slice("http://".length)}`);
    expect(r.stderr).not.toMatch(/UND_ERR|API key was refused|lacks permission|cannot reach/);
    expect(posts(r.stderr)).toBe(1);
    expect(r.sent).toEqual([]);
  });

  it("wrong credentials: 407 named, the password never shown; exit 8, not retried", async () => {
    const r = await t.capture(TOKEN, { env: { http_proxy: squid.withCredentials("alice", "wrong-pa55") } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`the proxy ${squid.url} refused the request to ${t.env.SIMADMIN_BASE_URL}: 407`);
    expect(r.stderr).toContain("the proxy did not accept the user name and password in http_proxy");
    expect(r.stderr).not.toContain("wrong-pa55");
    expect(posts(r.stderr)).toBe(1);
    expect(r.sent).toEqual([]);
  });

  it("a deny rule: squid's 403 page is the proxy's, not 'this API key lacks permission' (exit 8, not 4)", async () => {
    const port = new URL(t.env.SIMADMIN_BASE_URL ?? "").port;
    const base = `http://localhost:${port}`;
    const r = await t.capture(TOKEN, {
      env: { http_proxy: squid.withCredentials("alice", "right-pa55"), SIMADMIN_BASE_URL: base },
    });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`the proxy ${squid.url} refused the request to ${base}: 403 Forbidden (ERR_ACCESS_DENIED)`);
    expect(r.stderr).toContain("the proxy's rules do not allow localhost:");
    expect(r.stderr).not.toMatch(/lacks permission|API key was refused/);
    expect(posts(r.stderr)).toBe(1);
    expect(r.sent).toEqual([]);
  });

  it("an https:// service: squid's 407 to CONNECT is named and not retried", async () => {
    const base = `https://127.0.0.1:${await closedPort()}`;
    const r = await t.capture(TOKEN, { env: { HTTPS_PROXY: squid.withCredentials("alice", "nope"), SIMADMIN_BASE_URL: base } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`the proxy ${squid.url} refused a tunnel to ${base}: 407 Proxy Authentication Required`);
    expect(r.stderr).toContain("in HTTPS_PROXY");
    expect(posts(r.stderr)).toBe(1);
  });

  it("--ping-url through squid: the start and end pings go through it, and the run is not crashed by their unread answers", async () => {
    const pinged: string[] = [];
    const monitor = createServer((req, res) => {
      // Squid names itself in Via on what it forwards: proof each ping went through it, read
      // from the request itself (squid's access log is written when it is done, maybe later).
      pinged.push(`${req.method} ${req.url} ${/simadmin-test/.test(String(req.headers.via)) ? "via squid" : "direct"}`);
      res.end("OK".repeat(10_000));
    });
    await new Promise<void>((resolve) => monitor.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(monitor.address() as AddressInfo).port}/check`;
      const r = await t.capture([...TOKEN, "--ping-url", url], {
        env: { http_proxy: squid.withCredentials("alice", "right-pa55") },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).not.toContain("--ping-url");
      expect(pinged).toEqual(["POST /check/start via squid", "POST /check via squid"]);
    } finally {
      await new Promise((resolve) => monitor.close(resolve));
    }
  });

  it("an upload squid refused is pending, not 'may have been accepted'; the next run sends it", async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, "staff.csv");
      await writeFile(
        file,
        "firstName,lastName,username,email,role,teamName,status,action\nAda,Lovelace,ada@example.com,ada@example.com,trainee,,ACTIVE,Add\n",
      );
      const refused = await t.capture(["users", "import", file, "--yes"], { env: { http_proxy: squid.url } });
      expect(refused.exitCode).toBe(8);
      expect(refused.stderr).toContain("407 Proxy Authentication Required");
      expect(refused.stderr).toContain("was not received");
      expect(refused.stderr).not.toContain("may have been accepted");
      const manifest = JSON.parse(await readFile(join(dir.path, "staff.import.json"), "utf8")) as {
        batches: { state: string }[];
      };
      expect(manifest.batches.map((b) => b.state)).toEqual(["pending"]);

      const next = await t.capture(["users", "import", file, "--yes", "--resume"], {
        env: { http_proxy: squid.withCredentials("alice", "right-pa55") },
      });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(next.sent.filter((r) => r.path.endsWith("/user/bulk-import"))).toHaveLength(1);
    } finally {
      await dir.remove();
    }
  });
});

describe.skipIf(!process.env.CI && !tinyproxyAvailable())("through tinyproxy", () => {
  let proxy: TestTinyproxy;
  let t: TestEnv;
  beforeAll(async () => {
    [proxy, t] = await Promise.all([startTinyproxy({ user: "bob", password: "right-pa55" }), startTestEnv()]);
  });
  afterAll(async () => {
    await Promise.all([proxy?.stop(), t?.close()]);
  });

  const posts = (stderr: string): number => stderr.split("\n").filter((line) => line.includes("→ POST")).length;

  it("the right credentials pass", async () => {
    const r = await t.capture(TOKEN, { env: { http_proxy: proxy.withCredentials("bob", "right-pa55") } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
  });

  it("its 401 to wrong credentials is the proxy's, not 'the API key was refused' (exit 8, not 3)", async () => {
    const r = await t.capture(TOKEN, { env: { http_proxy: proxy.withCredentials("bob", "wrong") } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`the proxy ${proxy.url} refused the request to ${t.env.SIMADMIN_BASE_URL}: 401 Unauthorized`);
    expect(r.stderr).toContain("the proxy did not accept the user name and password in http_proxy");
    expect(r.stderr).not.toContain("API key was refused");
    expect(posts(r.stderr)).toBe(1);
    expect(r.sent).toEqual([]);
  });

  it("its 401 to CONNECT is not retried", async () => {
    const base = `https://127.0.0.1:${await closedPort()}`;
    const r = await t.capture(TOKEN, { env: { HTTPS_PROXY: proxy.withCredentials("bob", "wrong"), SIMADMIN_BASE_URL: base } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toContain(`the proxy ${proxy.url} refused a tunnel to ${base}: 401 Unauthorized`);
    expect(posts(r.stderr)).toBe(1);
  });
});
