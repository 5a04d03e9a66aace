import {
  countStates,
  formatCounts,
  pairState,
  PROGRESS_COLUMNS,
  type ProgressRow,
  type ProgressState,
} from "../../domain/progress.js";
import type { JsonRecord } from "../../domain/records.js";
import type { ProgressFile } from "../../engines/progress/input.js";
import type { PairLink, PairResult } from "../../engines/progress/pair-asker.js";

// The answer of `progress` (docs/cli-contract.md "Progress"): one record per row of the file,
// in file order — the pair's state, its facts, the file's other columns, the service's refusal
// and the link when asked — and the summary line under the table.

/**
 * The table's columns: with ids of about 12 characters they fit 80 columns, completedAt
 * taking what is left (bestScore, attempts and the file's columns: -o json/csv, or --fields).
 */
const TABLE_COLUMNS = ["userId", "simulationId", "state", "dueDate", "completedAt"];

export interface ProgressTable {
  kind: "records";
  records: JsonRecord[];
  tableColumns: string[];
  flexColumn: string;
  wholeColumn?: string;
  knownFields: string[];
  note: string;
}

export interface ProgressAnswers {
  results: ReadonlyMap<ProgressRow, PairResult>;
  links: ReadonlyMap<ProgressRow, PairLink> | undefined;
  /** When the last answer came: states are as of then. */
  doneAt: number;
  apiVersion: 1 | 2;
  /** "12 requests in 3s", for the summary line. */
  requests: string;
}

/**
 * Every field a progress record can have, known once the file is read: --fields is checked
 * against them before the service is asked (progress.ts). `error` is always one (empty when
 * the service refused no pair), so that the check cannot depend on the answers.
 */
export function progressFields(file: ProgressFile, links: boolean): string[] {
  const extraColumns = file.header.names.filter(
    (n, i) => i !== file.header.userId && i !== file.header.simulationId && i !== file.header.dueDate,
  );
  return [...PROGRESS_COLUMNS, ...extraColumns, "error", ...(links ? ["link", "linkExpiresAt"] : [])];
}

/** The records and summary, how many pairs the service refused and how many its answer could not settle. */
export function progressTable(
  file: ProgressFile,
  answers: ProgressAnswers,
): { table: ProgressTable; refused: number; unsettled: number } {
  const { results, links } = answers;
  const records: JsonRecord[] = [];
  const states: ProgressState[] = [];
  let refused = 0;
  let unsettled = 0;
  for (const row of file.rows) {
    const result = results.get(row);
    const facts = result?.facts;
    const state = result?.error ? "unknown" : pairState(facts, row.dueDate, answers.doneAt, answers.apiVersion);
    if (state !== "unknown") states.push(state);
    else if (result?.unsettled) unsettled++;
    else refused++;
    const record: JsonRecord = {
      userId: row.userId,
      simulationId: row.simulationId,
      state,
      completedAt: facts?.completedAt ?? null,
      bestScore: facts?.bestScore ?? null,
      attempts: facts?.attempts ?? 0,
      dueDate: row.dueDate ?? null,
    };
    for (const [name, value] of Object.entries(row.extra)) record[name in record ? `file.${name}` : name] = value;
    if (result?.error) record.error = result.error;
    if (links) {
      const link = links.get(row);
      record.link = link?.link ?? "";
      record.linkExpiresAt = link?.expiresAt ?? "";
    }
    records.push(record);
  }
  const summary =
    formatCounts(countStates(states)) +
    (refused > 0 ? `, ${refused} refused by the service` : "") +
    (unsettled > 0 ? `, ${unsettled} unsettled (the answer could not be read)` : "");
  const known = progressFields(file, links !== undefined);
  const table: ProgressTable = {
    kind: "records",
    records,
    tableColumns: [...TABLE_COLUMNS, ...(links ? ["link"] : [])],
    flexColumn: "completedAt",
    // A link is copied whole or not at all: under the table when the table cannot hold it.
    ...(links ? { wholeColumn: "link" } : {}),
    knownFields: known,
    note: `${summary} (${answers.requests})`,
  };
  return { table, refused, unsettled };
}
