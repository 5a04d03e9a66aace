import { bashScript } from "./bash-script.js";
import type { CommandSpec } from "./command-tree.js";
import { fishScript } from "./fish-script.js";
import { zshScript } from "./zsh-script.js";

// Shell completion scripts as text, from a description of the command tree (built from the
// commander program by commands/completion-script/completion-script.ts). Pure: no I/O, no commander. Each
// script is static text: completing never runs simadmin (or Node), which keeps a TAB instant.
// One file per shell (bash-script.ts, zsh-script.ts, fish-script.ts); bash and zsh share the
// case tables of case-tables.ts; the tree and its walks are in command-tree.ts.

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, root: CommandSpec): string {
  switch (shell) {
    case "bash":
      return bashScript(root);
    case "zsh":
      return zshScript(root);
    case "fish":
      return fishScript(root);
  }
}
