import type { RunContext } from "./context.js";
import { checkPingUrl, displayPingUrl, sendPing, type PingEvent } from "./api/ping.js";
import { escapeForLine } from "./text/sanitize.js";
import type { Env } from "./settings/paths.js";

// --ping-url around one run (docs/ci-and-cron.md): the start before the command sends
// anything, then success or the exit code (with the error line) when main.ts knows how the
// run ended; api/ping.ts knows each monitor's rules.
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
  const ping = async (event: PingEvent, what: string): Promise<void> => {
    const problem = await sendPing(url, event, env);
    if (problem !== undefined)
      printer.warn(`--ping-url: the ${what} ping to ${displayPingUrl(url)} failed (${problem}); the run goes on`);
  };
  await ping({ kind: "start" }, "start");
  return {
    finish: (exitCode, failure) =>
      exitCode === 0
        ? ping({ kind: "success" }, "success")
        : ping(
            // The error line as stderr showed it: one line, the API key and tokens redacted.
            { kind: "failure", exitCode, line: failure && printer.redactor.apply(escapeForLine(failure)) },
            "failure",
          ),
  };
}
