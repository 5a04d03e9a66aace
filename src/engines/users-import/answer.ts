import type { ManifestBatch, ManifestRowError } from "../../domain/users-csv/import-manifest.js";
import type { UploadAnswer } from "../../domain/users-csv/import-response.js";

// What an upload's answer says about its rows (docs/service-spec.md §4.8), as the journal
// records it, and whether it can be believed (docs/import-safety.md "Answers").

export function answerCounts(answer: UploadAnswer): Partial<ManifestBatch> {
  const out: Partial<ManifestBatch> = {};
  if (answer.validUsersCount !== undefined) out.validUsersCount = answer.validUsersCount;
  if (answer.invalidUsersCount !== undefined) out.invalidUsersCount = answer.invalidUsersCount;
  return out;
}

export function rowErrorsOf(answer: UploadAnswer): ManifestRowError[] {
  return answer.rowErrors.map((e) => ({
    row: e.row ?? null,
    batchRow: e.batchRow ?? null,
    field: e.field ?? null,
    messages: e.messages,
  }));
}

/**
 * Why an answer that carries a task cannot be taken as saying which rows were imported, or
 * undefined when it can: its counts do not add up to the batch, or its invalid count is not
 * the number of rows its errors name. Counts the answer leaves out are not checked.
 */
export function answerDisagreement(answer: UploadAnswer, rows: number): string | undefined {
  const { validUsersCount: valid, invalidUsersCount: invalid } = answer;
  const named = new Set(answer.rowErrors.map((e) => e.batchRow ?? e.row)).size;
  if (valid !== undefined && invalid !== undefined && valid + invalid !== rows)
    return `the answer counts ${valid} valid and ${invalid} invalid users for a batch of ${rows}`;
  if (invalid !== undefined && invalid !== named)
    return `the answer counts ${invalid} invalid users but names ${named} rejected rows`;
  // (With both counts given, the two checks above already make rows - valid the named count.)
  if (valid !== undefined && rows - valid !== named)
    return `the answer counts ${valid} valid users of ${rows} but names ${named} rejected rows`;
  return undefined;
}
