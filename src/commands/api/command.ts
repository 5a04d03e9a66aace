import { TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// api <path>: a raw POST with the profile's key, budgets and retry rules. Plain data: see ../types.ts.

export const api: CommandDeclaration = {
  kind: "command",
  name: "api",
  args: [
    {
      name: "path",
      description: "endpoint path under the base URL, version prefix included, e.g. /v2/access-api/user/token",
    },
  ],
  description: "a raw POST to any endpoint with the profile's key, rate budgets and retry rules; prints the answer as JSON",
  flags: [
    { flags: "--data <json>", description: "the request body (JSON)" },
    { flags: "--input <file>", description: "read the JSON body from a file, or - for stdin", values: { kind: "files" } },
  ],
  help: `The budget follows the path (report/… uses the reports budget, the rest the access budget).
Paths known to be safe to repeat are retried after timeouts and 5xx; any other path only when
the service cannot have received it. Without --data or --input the body is {}.`,
  examples: [
    `simadmin api /v2/access-api/user/token --data '{"organizationId":"org-42","userId":"u-123"}'`,
    "simadmin api /v2/report/users --input range.json -o csv",
    'echo \'{"organizationId":"org-42","taskId":"t-1"}\' | simadmin api /v2/access-api/user/bulk-import/status --input -',
  ],
  // The path names its version; the answer is printed by shape, text included (one value a line).
  api: [1, 2],
  outputs: TEXT_AND_DATA_FORMATS,
  ownFormat: "json",
  writesSettings: false,
  needsOrg: false,
  fields: true,
  load: async () => (await import("./api.js")).run,
};
