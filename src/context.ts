import type { Clock } from "./clock.js";
import type { IOStreams } from "./output/io.js";
import { decideColor, Messages } from "./messages.js";
import type { OutputPlan } from "./output-plan.js";
import { Printer } from "./printer.js";
import { Services, type ServiceFakes } from "./services.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions } from "./settings/resolve.js";

// What a run of simadmin is given from outside (main.ts builds it from the process; tests
// inject their own), and the two halves of a command's context built from it: services
// (services.ts: builds settings, the API client, … when asked) and the printer
// (printer.ts: stdout/--out by the output plan), with the run's stderr (messages.ts).

export interface Deps {
  io: IOStreams;
  env: Env;
  clock: Clock;
  /** Fires on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
  /** Tests only: stand-ins the services use instead of building their own (an API client). */
  fakes?: ServiceFakes;
  /**
   * Holds off the forced exit that follows Ctrl-C/SIGTERM within a second, until the returned
   * function is called (a server finishing its requests in flight). Absent in tests: nothing to hold.
   */
  holdForcedExit?: () => () => void;
}

/** A run from its start (main.ts holds it: errors are redacted and the services disposed however the run ends). */
export interface RunContext {
  services: Services;
  messages: Messages;
  /** --ping-url's monitor, told when the run started; main.ts tells it how the run ended. */
  pinger?: { finish(exitCode: number, failure?: string): Promise<void> };
}

/** What a command is given: the services and the printer, built after the output plan. */
export interface CommandContext {
  services: Services;
  printer: Printer;
}

export function createRunContext(
  deps: Deps,
  globals: GlobalOptions,
  declared: { writesSettings: boolean; title: string },
): RunContext {
  // The services write warnings and traces through the run's messages, seen as a Reporter;
  // neither knows the printer, which exists only once the output plan does (output-plan.ts).
  const messages = new Messages({
    io: deps.io,
    env: deps.env,
    globals,
    color: decideColor(globals, deps.env, deps.io),
    title: declared.title,
    clock: deps.clock,
  });
  const services: Services = new Services({
    env: deps.env,
    clock: deps.clock,
    signal: deps.signal,
    globals,
    reporter: {
      warn: (text) => messages.warn(text),
      info: (text) => messages.info(text),
      trace: (line) => messages.trace(line),
      get verbose() {
        return messages.verbose;
      },
      stderrIsTTY: deps.io.stderrIsTTY,
      redactKey: (key) => messages.redactor.addKey(key),
      redact: (secret) => messages.redactor.add(secret),
      forget: (secret) => messages.redactor.forget(secret),
    },
    writesSettings: declared.writesSettings,
    fakes: deps.fakes,
    holdForcedExit: deps.holdForcedExit,
  });
  return { services, messages };
}

/** The command's context, once the runner has decided the output plan. */
export function commandContext(run: RunContext, outputPlan: OutputPlan): CommandContext {
  return { services: run.services, printer: new Printer(run.messages, outputPlan) };
}
