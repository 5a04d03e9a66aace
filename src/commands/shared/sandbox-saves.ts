import type { CommandContext } from "../../context.js";

/**
 * Under --sandbox nothing is saved (docs/cli-contract.md, Sandbox): say so plainly instead of
 * "Set …" over a throw-away store. `config` and `auth` both refuse.
 */
export function refuseToSaveUnderSandbox({ services, printer }: CommandContext, what: string): boolean {
  if (!services.globals.sandbox) return false;
  printer.warn(
    `nothing saved: --sandbox never saves settings or keys (${what}); run the command without --sandbox to change a profile`,
  );
  return true;
}
