import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandsTable, END, START } from "../../scripts/commands-table.mjs";
import { commandDeclarations, DECLARATIONS, textCommandNames } from "../../src/commands/registry.js";
import { OUTPUT_FORMAT_NAMES } from "../../src/commands/output-formats.js";
import { OUTPUT_FORMATS } from "../../src/output/render.js";
import { SETTING_KEY_NAMES } from "../../src/settings/schema.js";
import { configGet } from "../../src/commands/config/command.js";

// The declarations (src/commands/<name>/command.ts) are the one list of what each command
// is and supports: help, completion scripts and the runner read them, and the README's table
// is generated from them.

const root = join(import.meta.dirname, "../..");

describe("command declarations", () => {
  it("match the README's commands table (regenerate with `node scripts/commands-table.mjs --write`)", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(table).toBe(commandsTable(DECLARATIONS));
  });

  it("are plain data: a command.ts imports no zod, no command module, nothing but data and types", () => {
    const dir = join(root, "src/commands");
    const allowed = new Set([
      "../types.js",
      "../output-formats.js",
      "../../domain/report-kinds.js",
      // Flag declarations several commands share: itself data and a type import only (below).
      "../shared/declarations.js",
    ]);
    const shared = readFileSync(join(dir, "shared", "declarations.ts"), "utf8");
    expect([...shared.matchAll(/^import (?!type )/gm)]).toEqual([]);
    const files = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        try {
          return [[entry.name, readFileSync(join(dir, entry.name, "command.ts"), "utf8")] as const];
        } catch {
          return [];
        }
      });
    // Groups declare their subcommands in one command.ts (auth, config, state, links): fewer files than declarations.
    expect(files.length).toBeGreaterThanOrEqual(DECLARATIONS.length - 14);
    for (const [name, text] of files) {
      const imports = [...text.matchAll(/^import (type )?[^;]*? from "([^"]+)";/gm)]
        .filter((m) => m[1] === undefined)
        .map((m) => m[2]);
      expect({ name, imports: imports.filter((i) => !allowed.has(i!)) }).toEqual({ name, imports: [] });
      // The command module only as a lazy import() inside load().
      expect(text).not.toMatch(/^import .* from "\.\/(?!command)/m);
    }
  });

  it("name every command once, each with a description and at least one example", () => {
    const names = DECLARATIONS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const declaration of DECLARATIONS) {
      expect(declaration.description.length, declaration.name).toBeGreaterThan(0);
      expect(declaration.examples.length, declaration.name).toBeGreaterThan(0);
    }
  });

  it("offer -o text exactly where there is one bare value to print", () => {
    expect(textCommandNames().sort()).toEqual(
      ["api", "assign", "completion-script", "config get", "config path", "link", "token"].sort(),
    );
  });

  it("load a module with an options schema and a run function for every command", async () => {
    for (const declaration of commandDeclarations()) {
      const module = await declaration.load();
      expect(typeof module.run, declaration.name).toBe("function");
      expect(typeof module.options.safeParse, declaration.name).toBe("function");
    }
  });

  it("keep their copies of the format and setting names in step with the modules that own them", () => {
    expect([...OUTPUT_FORMAT_NAMES]).toEqual([...OUTPUT_FORMATS]);
    const keys = configGet.args?.[0]?.values;
    expect(keys?.kind === "words" ? [...keys.words] : []).toEqual([...SETTING_KEY_NAMES]);
  });
});
