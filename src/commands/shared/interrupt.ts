import { InterruptedError } from "../../errors.js";

// What Ctrl-C leaves behind and how to go on (docs/cli-contract.md "Exit codes": 130): a command that
// has something worth keeping says so on the error it ends with, and report-error.ts prints
// it after "interrupted". No state on the printer: the note travels with the error.

/** The error a run ends with, as an InterruptedError carrying `note` when Ctrl-C stopped it. */
export function noteInterrupt(error: unknown, signal: AbortSignal, note: string): unknown {
  if (error instanceof InterruptedError || signal.aborted) return new InterruptedError({ note });
  return error;
}
