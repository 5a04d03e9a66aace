import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyLinkId } from "../../src/domain/durable-links.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// link --durable (docs/cli-contract.md "Durable links"): a signed link made without any
// request to the service, bound to the service and organization, with its expiry.

const LINKS_URL = "https://links.example.com/training";
const KEY = "0123456789abcdef0123456789abcdef-test-key";

let t: TestEnv;
beforeAll(async () => {
  t = await startTestEnv();
});
afterAll(async () => {
  await t.close();
});

const scope = () => ({ service: t.sandbox.baseUrl, organizationId: "org-demo" });

describe("link --durable", () => {
  it("prints <links-url>/l/<id> bound to user, simulation, service and org, for 30 days, sending nothing", async () => {
    const r = await t.capture(["link", "--user", "user-demo", "--sim", "sim-001", "--durable", "-o", "json"], {
      env: { SIMADMIN_LINKS_URL: LINKS_URL, SIMADMIN_LINKS_KEY: KEY },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.sent).toEqual([]);
    const out = JSON.parse(r.stdout);
    expect(out.link.startsWith(`${LINKS_URL}/l/`)).toBe(true);
    const check = verifyLinkId(Buffer.from(KEY), scope(), out.link.slice(`${LINKS_URL}/l/`.length));
    if (!check.ok) throw new Error(`does not verify: ${check.reason}`);
    expect(check.claims).toMatchObject({ userId: "user-demo", simulationId: "sim-001" });
    expect(check.claims.expiresAt - check.claims.issuedAt).toBe(30 * 86_400_000);
    expect(out.expiresAt).toBe(new Date(check.claims.expiresAt).toISOString());
  });

  it("makes the link key in the settings directory on first use, owner-only, and reuses it", async () => {
    const args = ["link", "--user", "user-demo", "--sim", "sim-002", "--durable", "-o", "text", "--links-url", LINKS_URL];
    const first = await t.capture(args);
    const second = await t.capture(args);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/made a new link key/);
    expect(second.stderr).not.toMatch(/made a new link key/);
    // In the state store under the settings directory (docs/state.md): <tenant>/links.json.
    const [dir] = readdirSync(join(t.configDir, "state"));
    const keyFile = join(t.configDir, "state", dir!, "links.json");
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    const file = JSON.parse(readFileSync(keyFile, "utf8")) as { entries: { key: { value: { key: string } } } };
    const stored = Buffer.from(file.entries.key.value.key, "base64url");
    expect(stored).toHaveLength(32);
    // Both links verify with the one key kept: the second run did not make another.
    for (const r of [first, second]) {
      expect(verifyLinkId(stored, scope(), r.stdout.trim().slice(`${LINKS_URL}/l/`.length)).ok).toBe(true);
    }
  });

  it("takes the links URL from the profile's linksUrl (config set accepts it)", async () => {
    const set = await t.capture(["config", "set", "linksUrl", `${LINKS_URL}/`]);
    expect(set.exitCode, set.stderr).toBe(0);
    const got = await t.capture(["config", "get", "linksUrl"]);
    expect(got.stdout.trim()).toBe(LINKS_URL);
    const r = await t.capture(["link", "--user", "user-demo", "--sim", "sim-001", "--durable", "-o", "text"], {
      env: { SIMADMIN_LINKS_KEY: KEY },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${LINKS_URL}/l/[A-Za-z0-9_-]+\\n$`));
    await t.capture(["config", "unset", "linksUrl"]);
  });

  it("--valid-for 2w and --valid-until set the expiry", async () => {
    const env = { SIMADMIN_LINKS_URL: LINKS_URL, SIMADMIN_LINKS_KEY: KEY };
    const r = await t.capture(["link", "--user", "u", "--sim", "s", "--durable", "--valid-for", "2w", "-o", "json"], { env });
    expect(r.exitCode, r.stderr).toBe(0);
    const { link } = JSON.parse(r.stdout);
    const check = verifyLinkId(Buffer.from(KEY), scope(), link.slice(`${LINKS_URL}/l/`.length));
    expect(check.ok && check.claims.expiresAt - check.claims.issuedAt).toBe(14 * 86_400_000);
  });

  it.each([
    [["--durable"], {}, /links-url/],
    [["--durable", "--valid-for", "400d"], { SIMADMIN_LINKS_URL: LINKS_URL }, /365 days/],
    [["--valid-for", "2d"], { SIMADMIN_LINKS_URL: LINKS_URL }, /--valid-for applies only with --durable/],
    [["--durable", "--assign"], { SIMADMIN_LINKS_URL: LINKS_URL }, /--assign cannot go with --durable/],
    [["--durable", "--valid-until", "2020-01-01"], { SIMADMIN_LINKS_URL: LINKS_URL }, /has passed/],
    [["--durable"], { SIMADMIN_LINKS_URL: "ftp://x" }, /SIMADMIN_LINKS_URL/],
  ])("refuses %j with exit 2 and sends nothing", async (extra, env, message) => {
    const r = await t.capture(["link", "--user", "user-demo", "--sim", "sim-001", ...extra], { env });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.sent).toEqual([]);
  });
});
