// @ts-nocheck
import { daysBetween, parseIsoDate } from "./dates.js";
import { badRequest } from "./http-error.js";

export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * Collects every problem of a request body before answering, so one 400 names all the
 * bad fields (message) and lists them (details.fields).
 */
export class FieldReader {
  readonly problems: FieldProblem[] = [];

  constructor(readonly body: Record<string, unknown>) {}

  private fail(field: string, problem: string): undefined {
    this.problems.push({ field, problem });
    return undefined;
  }

  has(name: string): boolean {
    return this.body[name] !== undefined && this.body[name] !== null;
  }

  requireString(name: string): string {
    const value = this.body[name];
    if (value === undefined || value === null) return this.fail(name, "is required") ?? "";
    if (typeof value !== "string") return this.fail(name, "must be a string") ?? "";
    if (value.trim() === "") return this.fail(name, "must not be empty") ?? "";
    return value;
  }

  optionalString(name: string): string | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") return this.fail(name, "must be a string");
    return value;
  }

  requireBoolean(name: string): boolean {
    const value = this.body[name];
    if (value === undefined || value === null) return this.fail(name, "is required") ?? false;
    if (typeof value !== "boolean") return this.fail(name, "must be a boolean (true or false)") ?? false;
    return value;
  }

  optionalInteger(name: string, min: number, max: number, fallback: number): number {
    const value = this.body[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      return this.fail(name, `must be an integer from ${min} to ${max}`) ?? fallback;
    }
    return value;
  }

  optionalStringArray(name: string): string[] | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      return this.fail(name, "must be an array of strings");
    }
    return value;
  }

  /** A real calendar date `YYYY-MM-DD`; returns its UTC midnight in ms. */
  requireDate(name: string): number | undefined {
    const value = this.body[name];
    if (value === undefined || value === null) return this.fail(name, "is required");
    if (typeof value !== "string") return this.fail(name, "must be a string in the form YYYY-MM-DD");
    const ms = parseIsoDate(value);
    if (ms === undefined) return this.fail(name, `must be a real date in the form YYYY-MM-DD (got ${JSON.stringify(value)})`);
    return ms;
  }

  problem(field: string, problem: string): void {
    this.fail(field, problem);
  }

  /** Throws the 400 when anything was wrong. */
  done(): void {
    if (this.problems.length === 0) return;
    const message = this.problems.map((p) => `${p.field} ${p.problem}`).join("; ");
    throw badRequest(message, { fields: this.problems });
  }
}

/** Spec §8: at most 30 days, counted inclusively — endDate − startDate ≤ 29 days. */
export const MAX_REPORT_DAYS = 30;

export function readReportRange(body: Record<string, unknown>): { startDate: string; endDate: string } {
  const fields = new FieldReader(body);
  const start = fields.requireDate("startDate");
  const end = fields.requireDate("endDate");
  if (start !== undefined && end !== undefined) {
    const days = daysBetween(start, end);
    if (days < 0) fields.problem("endDate", "must not be before startDate");
    else if (days + 1 > MAX_REPORT_DAYS) {
      fields.problem(
        "endDate",
        `makes a range of ${days + 1} days; at most ${MAX_REPORT_DAYS} days (endDate − startDate ≤ ${MAX_REPORT_DAYS - 1}) are allowed — split longer ranges`,
      );
    }
  }
  fields.done();
  return { startDate: body["startDate"] as string, endDate: body["endDate"] as string };
}
