import { CliError, InvalidDataError, NotFoundError } from "../errors.js";

// What the service says about one item of a run — one row of a bulk file, one pair of
// `progress`: an unknown user or simulation (404) or ids it refuses (400). Such an answer is
// that item's outcome and the run goes on; any other failure (the key, the budget, the
// service down) stops the run (docs/cli-contract.md "Bulk", "Progress").

/** A 404 or 400 about the item itself. */
export function isItemRejection(error: unknown): error is CliError {
  return error instanceof NotFoundError || error instanceof InvalidDataError;
}

/** One line for the item's error column: the service's sentence, without our "label: " prefix. */
export function rejectionText(error: CliError): string {
  return error.message.replace(/^[a-z -]+: /i, "");
}
