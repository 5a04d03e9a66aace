import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgressRow } from "../../src/domain/progress.js";
import { groupDigests, groupReminders } from "../../src/domain/reminders/grouping.js";
import { BUILT_IN_TEMPLATES, renderMail } from "../../src/domain/reminders/templates.js";
import { CHROMIUM, launchChromium } from "../helpers/chromium.js";
import { serveLinks, type ServingLinks } from "../helpers/link-serve.js";
import { startTestEnv, type TestEnv } from "../helpers/in-process.js";

// What a real browser shows: Debian's chromium, driven by playwright-core, one browser for the
// file (a launch is ~0.7 s of CPU: docs/development.md, "How long the suite takes").
// - The HTML part of a reminder and of a digest (docs/reminders.md "Templates"): the page's
//   text shows every pair and the hostile names as text — no script runs — and a screenshot
//   is kept in a temp directory.
// - A durable link (docs/cli-contract.md "Durable links"): the browser opens the link, sees
//   the Start page (no script, the CSP respected), presses Start, and lands on the app's
//   address with a fresh token. The app is a small server on loopback, the sandbox's app address.
// Skipped only where chromium is absent and not under CI (.ci/run installs it).

const present = existsSync(CHROMIUM);
if (!present && process.env.CI) throw new Error(`${CHROMIUM} is missing: apt-get install chromium (.ci/run does it)`);

let browser: BrowserContext;
let profile: string | undefined;
beforeAll(async () => {
  if (!present) return;
  profile = await mkdtemp(join(tmpdir(), "simadmin-chromium-"));
  browser = await launchChromium(profile);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

const HOSTILE = "<script>window.pwned = 1</script> & Sons \u202Eevil";
const DAY = Date.parse("2026-11-30T00:00:00Z") / 86_400_000;

const row = (n: number, userId: string, simulationId: string, email: string): ProgressRow => ({
  row: n,
  userId,
  simulationId,
  dueDate: "2026-11-27",
  extra: { email },
});

it.runIf(present)("the HTML parts render in headless Chromium with every pair's text and the hostile names as text", async () => {
  const pairs = [
    {
      row: row(2, "user-emma", "sim-004", "emma@example.test"),
      state: "overdue" as const,
      attempts: 0,
      link: "https://links.example.test/l/abc",
    },
    { row: row(3, "user-emma", HOSTILE, "emma@example.test"), state: "overdue" as const, attempts: 1 },
  ];
  const [reminder] = groupReminders(pairs.map((pair) => ({ pair, to: "emma@example.test", step: -3 })));
  const [digest] = groupDigests(
    pairs.map((pair) => ({ pair, manager: "dana@example.test" })),
    DAY,
  );
  const dir = await mkdtemp(join(tmpdir(), "simadmin-browser-"));
  let page: Page | undefined;
  try {
    page = await browser.newPage();
    for (const [name, message] of [
      ["reminder", reminder!],
      ["digest", digest!],
    ] as const) {
      const mail = renderMail(message, BUILT_IN_TEMPLATES, DAY);
      await page.setContent(mail.html, { waitUntil: "load" });
      const text = await page.evaluate<string>("document.body.innerText");
      expect(text).toContain("sim-004");
      expect(text).toContain("<script>window.pwned = 1</script> & Sons \u202Eevil");
      expect(await page.evaluate("typeof window.pwned")).toBe("undefined");
      const png = join(dir, `${name}.png`);
      await page.screenshot({ path: png, fullPage: true });
      const bytes = await readFile(png);
      expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    }
    // The link is a plain anchor to the durable link, no remote image anywhere.
    const html = renderMail(reminder!, BUILT_IN_TEMPLATES, DAY).html;
    expect(html).toContain('href="https://links.example.test/l/abc"');
    expect(html).not.toMatch(/<img|src=/i);
  } finally {
    await page?.close();
    await rm(dir, { recursive: true, force: true });
  }
});

describe.skipIf(!present)("a durable link in chromium", () => {
  let t: TestEnv;
  let serving: ServingLinks;
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
  }, 60_000);
  afterAll(async () => {
    await serving?.stop();
    await t?.close();
    app?.close();
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
