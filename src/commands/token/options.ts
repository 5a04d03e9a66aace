import type { OptionsSchema } from "../types.js";

// token's one flag, checked by hand rather than with zod as the other commands' are: `token`
// is the command scripts call in a loop, and loading zod and building a schema cost more than
// the rest of its own work (docs/architecture.md, Start-up). Same result and the same issue
// as `z.object({ user: z.string() })` (test/unit/token-options.test.ts compares them).

/** zod's name for the type of what it was given, as its messages say it. */
const received = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : typeof value === "number" && Number.isNaN(value)
        ? "NaN"
        : typeof value;

const invalid = (path: string[], expected: string, value: unknown) =>
  ({
    success: false,
    error: {
      issues: [{ code: "invalid_type", path, message: `Invalid input: expected ${expected}, received ${received(value)}` }],
    },
  }) as const;

export const TokenOptions: OptionsSchema<{ user: string }> = {
  safeParse(input) {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return invalid([], "object", input);
    const { user } = input as { user?: unknown };
    return typeof user === "string" ? { success: true, data: { user } } : invalid(["user"], "string", user);
  },
};
