import type { Clock } from "./clock.js";
import type { IOStreams } from "./output/io.js";
import { Printer } from "./printer.js";
import { Services, type ServiceFakes } from "./services.js";
import type { Env } from "./settings/paths.js";
import type { GlobalOptions } from "./settings/resolve.js";

// What a run of simadmin is given from outside (main.ts builds it from the process; tests
// inject their own), and the two halves of a command's context built from it: services
// (services.ts: builds settings, the API client, … when asked) and the printer
// (printer.ts: stdout/--out, stderr, redaction).

export interface Deps {
  io: IOStreams;
  env: Env;
  clock: Clock;
  /** Fires on Ctrl-C: every wait and request stops at once. */
  signal: AbortSignal;
  /** Tests only: stand-ins the services use instead of building their own (an API client). */
  fakes?: ServiceFakes;
}

export interface CommandContext {
  services: Services;
  printer: Printer;
  /** --ping-url's monitor, told when the run started; main.ts tells it how the run ended. */
  pinger?: { finish(exitCode: number): Promise<void> };
}

export function createContext(deps: Deps, globals: GlobalOptions, declared: { writesSettings: boolean }): CommandContext {
  // The services write warnings and traces through the printer, seen as a Reporter; the
  // printer never calls the services (its output plan comes from the runner: output-plan.ts).
  const printer: Printer = new Printer(deps.io, deps.env, globals, deps.clock);
  const services: Services = new Services({
    env: deps.env,
    clock: deps.clock,
    signal: deps.signal,
    globals,
    reporter: {
      warn: (text) => printer.warn(text),
      info: (text) => printer.info(text),
      trace: (line) => printer.trace(line),
      get verbose() {
        return printer.verbose;
      },
      stderrIsTTY: deps.io.stderrIsTTY,
      redactKey: (key) => printer.redactor.addKey(key),
      redact: (secret) => printer.redactor.add(secret),
    },
    writesSettings: declared.writesSettings,
    fakes: deps.fakes,
  });
  return { services, printer };
}
