// @ts-nocheck
// The seven report kinds of docs/service-spec.md §4.1, in the spec's order. Kept free of imports
// so that program.ts (help, completion) can use it without loading zod at start-up.
export const REPORT_KINDS = ["syms-result", "user-results", "training-plan-result", "modules-results", "syms", "users", "teams-result"] as const;