import { chromium, type BrowserContext } from "playwright-core";

/** Debian's chromium, installed by .ci/run (the suite never downloads a browser). */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * A headless chromium with its own profile directory and nothing that reaches the network on
 * its own (updates, sync, background fetches): the tests talk only to 127.0.0.1.
 */
export function launchChromium(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
