import { SandboxHttpError, notFound } from "../http-error.js";
import { parseBulkImportForm } from "../multipart.js";
import { publicUser } from "../users.js";
import type { HandlerContext, HandlerResult } from "../types.js";
import { isValidEmail, parseUsersCsv, validateImportRows } from "../users-csv.js";
import { FieldReader } from "../validate.js";
import { requireOrganization } from "./lookup.js";

// Fields user/create reads itself; any other field is "accepted" (docs/service-spec.md §4.7), stored and
// answered back, except these, which the service owns.
const CREATE_FIELDS = new Set(["organizationId", "email", "username", "firstName", "lastName", "teamName", "status", "role"]);
const SERVICE_OWNED = new Set(["userId", "createdAt", "created"]);

/**
 * §4.7: creates a trainee, or returns the existing user with that email. 200 both ways;
 * `created` tells which.
 */
export function createUser(ctx: HandlerContext): HandlerResult {
  const fields = new FieldReader(ctx.body);
  const org = fields.requireString("organizationId");
  const email = fields.requireString("email");
  const username = fields.requireString("username");
  const firstName = fields.optionalString("firstName");
  const lastName = fields.optionalString("lastName");
  const teamName = fields.optionalString("teamName");
  const status = fields.optionalString("status");
  const role = fields.optionalString("role");
  if (email && !isValidEmail(email)) fields.problem("email", "must be a valid email address");
  if (email && username && email !== username) fields.problem("username", "must equal email exactly");
  if (role !== undefined && role !== "trainee") fields.problem("role", "must be trainee (only trainees can be created)");
  if (status !== undefined && status !== "ACTIVE" && status !== "INACTIVE")
    fields.problem("status", "must be ACTIVE or INACTIVE");
  fields.done();
  requireOrganization(ctx.state, org);
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(ctx.body)) {
    if (!CREATE_FIELDS.has(name) && !SERVICE_OWNED.has(name)) extra[name] = value;
  }
  const input: Parameters<typeof ctx.state.createUser>[1] = { email, fields: extra };
  if (firstName !== undefined) input.firstName = firstName;
  if (lastName !== undefined) input.lastName = lastName;
  if (teamName !== undefined && teamName !== "") input.teamName = teamName;
  if (status === "ACTIVE" || status === "INACTIVE") input.status = status;
  const { user, created } = ctx.state.createUser(org, input);
  return { status: 200, body: { ...publicUser(user), created } };
}

/**
 * §4.8 with the response names of service-notes.md. Rows are checked like the spec says,
 * plus the rules only the service can check (Add of an existing user, Update of a missing
 * one). No valid row: 400, no task. Otherwise a task of the valid rows.
 */
export async function bulkImport(ctx: HandlerContext): Promise<HandlerResult> {
  const upload = await parseBulkImportForm(ctx.contentType, ctx.rawBody);
  ctx.recordBody({ organizationId: upload.organizationId, fileName: upload.fileName, csvText: upload.csvText });
  const fields = new FieldReader({ organizationId: upload.organizationId });
  const org = fields.requireString("organizationId");
  if (upload.csvText === undefined) fields.problem("file", "is required (a CSV file part)");
  fields.done();
  requireOrganization(ctx.state, org);
  const rows = parseUsersCsv(upload.csvText ?? "");
  const { valid, errors } = validateImportRows(rows, (email) => ctx.state.getUser(org, email) !== undefined);
  const counts = { validUsersCount: valid.length, invalidUsersCount: errors.length, errors };
  if (valid.length === 0) {
    throw new SandboxHttpError(
      400,
      "INVALID_REQUEST",
      `no valid user rows: all ${errors.length} rows have errors`,
      counts,
      counts,
    );
  }
  const task = ctx.state.createImportTask(org, upload.fileName, valid);
  if (ctx.dialect.bulkImport === "brief") {
    // Brief style: the taskId alone, and the rejected rows only when there are some.
    const rejected = errors.map((e) => ({ rowNumber: e.row, messages: e.errors }));
    return { status: 200, body: rejected.length > 0 ? { taskId: task.taskId, rowErrors: rejected } : { taskId: task.taskId } };
  }
  return { status: 200, body: { taskId: task.taskId, ...counts } };
}

/** §4.9: `{taskId, status}` — the status field named as the dialect names it. */
export function importStatus(ctx: HandlerContext): HandlerResult {
  const fields = new FieldReader(ctx.body);
  const org = fields.requireString("organizationId");
  const taskId = fields.requireString("taskId");
  fields.done();
  requireOrganization(ctx.state, org);
  const task = ctx.state.getTask(org, taskId);
  if (!task) throw notFound(`import task ${JSON.stringify(taskId)} not found in organization ${JSON.stringify(org)}`, { taskId });
  return { status: 200, body: { taskId: task.taskId, [ctx.dialect.importStatusField]: task.status } };
}
