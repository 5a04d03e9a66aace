import { UsageError } from "../errors.js";
import { flattenRecord, type JsonRecord } from "../domain/records.js";

// --fields: one check for every format. The known names come from the data: they are
// checked against the first batch that has records (a report's first non-empty window),
// before anything of it is written; later records may still bring new columns. A result
// with no record is checked against the fields the command declares (knownFields); with
// none declared it cannot be checked and passes (docs/cli-contract.md, "Records of unknown
// shape": `--fields` is checked against the columns the service sent).

/** Checks --fields against the columns the data (or the command) knows: exit 2 listing them. */
export function checkFields(fields: string[] | undefined, known: Iterable<string>): void {
  if (!fields) return;
  const knownSet = new Set(known);
  if (knownSet.size === 0) return; // nothing to check against (e.g. an empty report)
  const unknown = fields.filter((field) => !knownSet.has(field));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown field${unknown.length > 1 ? "s" : ""} for --fields: ${unknown.join(", ")}; known fields: ${[...knownSet].join(", ")}`,
    );
  }
}

/** For JSON with --fields: keep the named (possibly dotted) fields, in order. */
export function pickFields(record: JsonRecord, fields: string[]): JsonRecord {
  const flat = flattenRecord(record);
  const out: JsonRecord = {};
  for (const field of fields) out[field] = field in record ? record[field] : (flat[field] ?? null);
  return out;
}

/** The one --fields check: once, against the first batch that has records (or at the end). */
export class FieldsGate {
  private checked = false;

  constructor(
    private readonly fields: string[] | undefined,
    private readonly knownFields: string[] | undefined,
    /** json can also pick a whole nested object by its top-level key. */
    private readonly topLevelKeys: boolean,
  ) {}

  check(records: readonly JsonRecord[]): void {
    if (this.checked || !this.fields || records.length === 0) return;
    this.checked = true;
    const known = new Set(this.knownFields ?? []);
    for (const record of records) {
      if (this.topLevelKeys) for (const key of Object.keys(record)) known.add(key);
      for (const key of Object.keys(flattenRecord(record))) known.add(key);
    }
    checkFields(this.fields, known);
  }

  /** No record came: only the command's declared fields can be checked. */
  finish(): void {
    if (this.checked || !this.fields) return;
    this.checked = true;
    checkFields(this.fields, this.knownFields ?? []);
  }
}

/**
 * A result that knows `fields` too (a command's every field, checked before it ran): a
 * field another of its results has prints empty instead of failing after the work.
 */
export function withKnownFields<R extends { kind: string; knownFields?: string[] }>(result: R, fields: readonly string[]): R {
  if (result.kind !== "records" && result.kind !== "object") return result;
  return { ...result, knownFields: [...new Set([...(result.knownFields ?? []), ...fields])] };
}
