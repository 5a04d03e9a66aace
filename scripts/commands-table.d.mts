// Types of commands-table.mjs for the test that checks the README's commands list against the declarations.
import type { Declaration } from "../src/commands/types.js";

export const START: string;
export const END: string;
export function commandsTable(declarations: readonly Declaration[]): string;
export function withTable(readme: string, table: string): string;
