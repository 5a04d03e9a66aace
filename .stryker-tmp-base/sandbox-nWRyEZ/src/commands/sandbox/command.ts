// @ts-nocheck
import type { CommandDeclaration } from "../types.js";

// sandbox: the local emulator in the foreground. Plain data: see ../types.ts.

export const sandbox: CommandDeclaration = {
  kind: "command",
  name: "sandbox",
  description: "run the local sandbox service in the foreground; prints its base URL and demo keys",
  flags: [
    { flags: "--port <n>", description: "port (default: a free one)" },
    { flags: "--host <address>", description: "address to bind (default 127.0.0.1)" },
    { flags: "--rate-scale <x>", description: "multiply the rate-limit windows, e.g. 0.1 for fast tests" },
    { flags: "--reset", description: "forget the state that --sandbox runs keep (imports, assignments, users) and exit" },
  ],
  examples: ["simadmin sandbox --port 8787", "simadmin sandbox --rate-scale 0.1", "simadmin sandbox --reset"],
  api: "local",
  // Its connection details are lines of its own (KEY=value), printed as it starts.
  outputs: "none",
  writesSettings: false,
  needsOrg: false,
  fields: false,
  load: async () => (await import("./sandbox.js")).run,
};
