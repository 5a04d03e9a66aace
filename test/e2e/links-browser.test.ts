import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext } from "playwright-core";
import { CHROMIUM, launchChromium } from "../helpers/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveLinks, type ServingLinks } from "../helpers/link-serve.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// A durable link in a real browser (docs/cli-contract.md "Durable links"): Debian's chromium,
// driven by playwright-core, opens the link, sees the Start page (no script, the CSP
// respected), presses Start, and lands on the app's address with a fresh token. The app is a
// small server on loopback, the sandbox's app address.
// Skipped only where chromium is absent and not under CI (.ci/run installs it).

const present = existsSync(CHROMIUM);
if (!present && process.env.CI) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does it)`);

describe.skipIf(!present)("a durable link in chromium", () => {
  let t: TestEnv;
  let serving: ServingLinks;
  let browser: BrowserContext;
  let profile: string;
  let env: Record<string, string>;
  let app: Server;
  let appUrl: string;
  const errors: string[] = [];

  beforeAll(async () => {
    app = createServer((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end("<!doctype html><title>App</title><h1>Simulation</h1>");
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    t = await startTestEnv({ appUrl, rateLimits: { access: { limit: 1000, windowMs: 1000 } } });
    env = { ...t.env, SIMADMIN_LINKS_KEY: "browser-test-link-key-0123456789abcdef", SIMADMIN_RATE_LIMITS: "access=1000/1s" };
    serving = await serveLinks(["--listen", ":0"], env);
    env.SIMADMIN_LINKS_URL = serving.url;
    profile = await mkdtemp(join(tmpdir(), "simadmin-chromium-"));
    browser = await launchChromium(profile);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serving?.stop();
    await t?.close();
    app?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it("opens the link, shows Start, and after the click is at the app with a fresh token", async () => {
    const made = await t.run(["link", "--user", "user-demo", "--sim", "sim-008", "--durable", "-o", "text"], { env });
    expect(made.exitCode, made.stderr).toBe(0);
    const page = await browser.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const before = t.sandbox.requests.length;
    await page.goto(made.stdout.trim());
    expect(await page.title()).toBe("Start simulation sim-008");
    const start = page.getByRole("button", { name: "Start" });
    await expect.poll(() => start.isVisible()).toBe(true);
    // Opening the page asked the service nothing.
    expect(t.sandbox.requests.length).toBe(before);
    // The stylesheet applied under the CSP (its hash matches): the button is styled, not grey.
    expect(
      await start.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el)
            .backgroundColor,
      ),
    ).toBe("rgb(11, 87, 208)");

    await Promise.all([page.waitForURL((url) => url.href.startsWith(appUrl)), start.click()]);
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(`${appUrl}/org-demo/simulation/sim-008`);
    const token = landed.searchParams.get("token")!;
    expect(t.sandbox.state.verifyUserToken(token)).toMatchObject({ valid: true, userId: "user-demo" });
    expect(await page.locator("h1").textContent()).toBe("Simulation");
    expect(errors).toEqual([]);
  });
});
