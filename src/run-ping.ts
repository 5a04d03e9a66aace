import type { RunContext } from "./context.js";
import { checkPingUrl, displayPingUrl, sendPing } from "./api/ping.js";
import type { Env } from "./settings/paths.js";

// --ping-url around one run (docs/ci-and-cron.md): `/start` before the command sends
// anything, then `<url>` or `<url>/<exit code>` when main.ts knows how the run ended.
// Loaded only when the flag is given.

export async function startRunPing(raw: string, context: RunContext, env: Env): Promise<RunContext["pinger"]> {
  const { services, messages: printer } = context;
  // The key as far as it is known without the keychain (env, settings file): a URL that
  // carries it is refused before anything is sent. Settings that cannot be resolved are the
  // command's to report.
  const key = await services.settings().then(
    (settings) => settings.apiKey,
    () => undefined,
  );
  const url = checkPingUrl(
    raw,
    [key, env.SIMADMIN_API_KEY].filter((k): k is string => Boolean(k)),
  );
  const ping = async (suffix: string | undefined, what: string): Promise<void> => {
    const problem = await sendPing(url, suffix, env);
    if (problem !== undefined)
      printer.warn(`--ping-url: the ${what} ping to ${displayPingUrl(url)} failed (${problem}); the run goes on`);
  };
  await ping("start", "start");
  return {
    finish: (exitCode) => (exitCode === 0 ? ping(undefined, "success") : ping(String(exitCode), "failure")),
  };
}
