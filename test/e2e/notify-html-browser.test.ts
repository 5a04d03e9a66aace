import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHROMIUM, launchChromium } from "../helpers/chromium.js";
import { expect, it } from "vitest";
import type { ProgressRow } from "../../src/domain/progress.js";
import { groupDigests, groupReminders } from "../../src/domain/reminders/grouping.js";
import { BUILT_IN_TEMPLATES, renderMail } from "../../src/domain/reminders/templates.js";

// The HTML part of a reminder and of a digest in a real browser (docs/reminders.md
// "Templates"): headless Chromium renders them, the page's text must show every pair and the
// hostile names as text — no script runs — and a screenshot is kept in a temp directory.
// .ci/run installs chromium.

const HOSTILE = "<script>window.pwned = 1</script> & Sons \u202Eevil";
const DAY = Date.parse("2026-11-30T00:00:00Z") / 86_400_000;

const row = (n: number, userId: string, simulationId: string, email: string): ProgressRow => ({
  row: n,
  userId,
  simulationId,
  dueDate: "2026-11-27",
  extra: { email },
});

it.runIf(existsSync(CHROMIUM) || process.env.CI)(
  "the HTML parts render in headless Chromium with every pair's text and the hostile names as text",
  async () => {
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
    const browser = await launchChromium(join(dir, "profile"));
    try {
      const page = await browser.newPage();
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
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);
