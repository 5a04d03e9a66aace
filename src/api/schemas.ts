import * as z from "zod";
import { JsonNumber } from "../domain/exact-json.js";
import { REPORT_KINDS } from "../domain/report-kinds.js";

// One schema per request and response the spec shows; `type X = z.infer<typeof X>` under the
// same name (after trigger.dev). Where the spec says "not shown", the schema is z.unknown()
// and the shape is handled by src/domain/records.ts — never a guessed field name.
// Objects are loose: the service may add fields (docs/service-spec.md §9.3), and they are kept for JSON output.
// The bundle runs this module (and zod) on the first use of one of its schemas, not at start
// (scripts/bundle.mjs, lazy modules): a `token` run whose answer passes readUserToken never does.

export { REPORT_KINDS };

/**
 * A number field the tool computes with: a number kept as its text (answers.ts reads them
 * exactly, exact-json.ts) is taken as its nearest double, as JSON.parse would have read it.
 */
function serviceNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value instanceof JsonNumber ? Number(value.text) : value), schema);
}
export const ReportKind = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof ReportKind>;

export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const ReportRequest = z.object({ startDate: IsoDate, endDate: IsoDate });
export type ReportRequest = z.infer<typeof ReportRequest>;

export const Simulation = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  type: z.string().optional(),
  duration: z.string().optional(),
  description: z.string().optional(),
});
export type Simulation = z.infer<typeof Simulation>;
export const Simulations = z.array(Simulation);

export const AssignResponse = z.looseObject({
  success: z.boolean(),
  simulationId: z.string().optional(),
  deepLink: z.string().url(),
});
export type AssignResponse = z.infer<typeof AssignResponse>;

/** §4.6 shows expiresIn, but a service may leave it out: §5.5/§8 say tokens live 3600 s (see token.ts). */
export const UserToken = z.looseObject({
  token: z.string().min(1),
  expiresIn: serviceNumber(z.number().int().positive()).optional(),
});
export type UserToken = z.infer<typeof UserToken>;

export const CompletionRecord = z.looseObject({
  executionId: z.string(),
  completedAt: z.string().nullable().optional(),
  completionTime: serviceNumber(z.number().nullable()).optional(),
  score: serviceNumber(z.number().nullable()).optional(),
  status: z.string().nullable().optional(),
});
export type CompletionRecord = z.infer<typeof CompletionRecord>;
export const CompletionRecords = z.array(CompletionRecord);

export const CreateUserRequest = z.looseObject({
  organizationId: z.string().min(1),
  email: z.string().min(1),
  username: z.string().min(1),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;
