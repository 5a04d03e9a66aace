import { TEXT_AND_DATA_FORMATS } from "../output-formats.js";
import type { CommandDeclaration } from "../types.js";

// completion-script bash|zsh|fish: shell completion — not simulation attempts, which are
// `completion`. Plain data: see ../types.ts.

export const completionScript: CommandDeclaration = {
  kind: "command",
  name: "completion-script",
  args: [{ name: "shell", description: "bash, zsh or fish", values: { kind: "words", words: ["bash", "zsh", "fish"] } }],
  description: "print a shell completion script",
  examples: [
    "source <(simadmin completion-script bash)",
    "simadmin completion-script fish > ~/.config/fish/completions/simadmin.fish",
  ],
  api: "local",
  // The bare script by default (text); -o json wraps it with the shell's name.
  outputs: TEXT_AND_DATA_FORMATS,
  ownFormat: "text",
  writesSettings: false,
  needsOrg: false,
  fields: true,
  load: async () => (await import("./completion-script.js")).run,
};
