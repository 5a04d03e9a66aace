import type { CommandContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import type { JsonRecord } from "../../domain/records.js";
import { bulkErrorsPath } from "../../domain/bulk-rows.js";
import { readBulkFile } from "../shared/bulk-file.js";
import { invalidRowsResult } from "../shared/bulk-results.js";
import { durableLinkMaker, requireLinksUrl, sayNewKey, validityOf } from "../shared/durable-links.js";
import type { CommandOutcome } from "../types.js";

// link --from-csv <file> --durable (docs/cli-contract.md "Durable links"): one durable link
// `<links-url>/l/<id>` per row of the file, made without asking the service anything — so,
// unlike `link --from-csv`, no manifest and nothing to resume: a second run makes the file
// again. The file is read and checked by the bulk rules first (a bad row: exit 6, nothing
// made); the output has link's bulk columns, so a mail-merge that reads one reads the other.

const COLUMNS = ["userId", "simulationId", "status", "error", "link", "expiresAt"];

export async function runDurableCsv(
  ctx: CommandContext,
  options: {
    fromCsv?: string | undefined;
    dryRun?: boolean | undefined;
    encoding?: string | undefined;
    validFor?: number | undefined;
    validUntil?: string | undefined;
  },
): Promise<CommandOutcome> {
  const { services, printer } = ctx;
  const path = options.fromCsv!;
  // No links URL is exit 2 before the file is even read (docs/links.md).
  await requireLinksUrl(services);
  const file = await readBulkFile(path, options.encoding);
  for (const warning of file.warnings) printer.warn(`${path}: ${warning}`);
  const ci = await printer.ci();
  if (file.problems.length > 0) return invalidRowsResult(ctx, path, file, bulkErrorsPath(path));
  if (options.dryRun) {
    return {
      kind: "object",
      value: {
        command: "link --durable",
        file: path,
        rows: file.rows.length,
        users: new Set(file.rows.map((r) => r.userId)).size,
        simulations: new Set(file.rows.map((r) => r.simulationId)).size,
        requests: 0,
      },
      note: "dry run: nothing was made; durable links ask the service nothing",
    };
  }
  const maker = await durableLinkMaker(services, validityOf(options));
  sayNewKey(printer, maker);
  const records: JsonRecord[] = file.rows.map((row) => {
    let made;
    try {
      made = maker.make(row.userId, row.simulationId);
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`${path} row ${row.row}: ${error.message}`);
      throw error;
    }
    const { link, expiresAt } = made;
    return { userId: row.userId, simulationId: row.simulationId, status: "ok", error: "", link, expiresAt };
  });
  ci.fact("Rows", `${records.length} durable links made; nothing was sent to the service`);
  return { kind: "records", records, tableColumns: COLUMNS, knownFields: COLUMNS };
}
