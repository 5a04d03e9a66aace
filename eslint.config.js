// `npm run check`: type-aware lint rules on sources, tests and benchmarks' TypeScript.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Layers import downwards only (docs/architecture.md): text, errors/clock ← domain ← api, settings,
// output, sandbox, db, state ← engines ← services/printer/context ← commands ← runner/program/main. Each entry
// names what the files of a layer may not import; `import type` counts too, since a type
// that two layers share belongs in the lower one.
const above = {
  entry: ["runner", "program", "main"],
  commands: ["commands"],
  context: ["services", "printer", "context", "messages"],
  engines: ["engines"],
  adapters: ["api", "settings", "output", "sandbox", "db", "state"],
};
const forbid = (names, why) => ({
  regex: `^(\\.{1,2}/)+(${names.join("|")})(/|\\.js$)`,
  message: `${why} (docs/architecture.md: layers import downwards only)`,
});
const layer = (files, names, why, extra = []) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [forbid(names, why), ...extra] }] },
});
const layers = [
  // text/ is the bottom: pure text rules (escaping, CSV formula guards) that every layer shares.
  layer(
    ["src/text/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, ...above.engines, ...above.adapters, "domain"],
    "text is the bottom layer",
  ),
  layer(
    ["src/domain/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, ...above.engines, ...above.adapters],
    "domain is pure rules",
  ),
  layer(
    ["src/api/**/*.ts", "src/settings/**/*.ts", "src/output/**/*.ts", "src/sandbox/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, ...above.engines],
    "api, settings, output and sandbox know nothing of engines, commands or their context",
  ),
  // state/ sits beside settings/ (docs/state.md): it may use text, domain, output, settings and api helpers.
  layer(
    ["src/state/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, ...above.engines, "sandbox"],
    "the state store knows nothing of engines, commands or their context",
  ),
  // Engines are libraries that commands share (docs/architecture.md "Engines"): they return data,
  // never CLI wording, and reach the service, settings, output and state only as given to them.
  layer(
    ["src/engines/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, "sandbox"],
    "engines are libraries: they know nothing of commands, their context or the sandbox",
  ),
  // db/: connections to the databases simadmin keeps data in (reports sync, the state store).
  layer(
    ["src/db/**/*.ts"],
    [...above.entry, ...above.commands, ...above.context, ...above.engines],
    "db knows nothing of commands or their context",
  ),
  layer(
    ["src/services.ts", "src/printer.ts", "src/context.ts", "src/messages.ts"],
    [...above.entry, ...above.commands],
    "the context serves commands, it does not know them",
  ),
  layer(["src/commands/*.ts"], above.entry, "commands are run by the runner, they do not import it"),
  ...commandFolders(),
];

/**
 * A command never imports another command (house style: what two commands share moves into
 * an engine or `src/commands/shared/`, as gh's pkg/cmd/<noun>/shared), nor the sandbox: only
 * the `--sandbox` wiring (services.ts → sandbox/for-run.ts) and the `sandbox` command itself,
 * which serves it, reach src/sandbox/. One block per command folder, since a folder may import
 * itself and shared/ and nothing else beside it.
 */
function commandFolders() {
  const folders = readdirSync(new URL("./src/commands", import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  return folders.map((folder) => {
    const allowed = [folder, "shared"];
    const patterns = [
      forbid(above.entry, "commands are run by the runner, they do not import it"),
      {
        regex: `^\\.\\./(?!(${allowed.join("|")})/)[^./][^/]*/`,
        message: "a command never imports another command: move what both need into src/engines/ or src/commands/shared/",
      },
    ];
    if (folder !== "sandbox" && !allowed.includes("sandbox"))
      patterns.push({
        regex: "^(\\.\\./)+sandbox/",
        message: "only the --sandbox wiring (services.ts) and the sandbox command reach src/sandbox/",
      });
    // The same rules for `await import(…)`, which no-restricted-imports does not see.
    const dynamic = patterns.map((p) => ({
      selector: `ImportExpression[source.value=/${p.regex.replaceAll("/", "\\/")}/]`,
      message: p.message,
    }));
    return {
      files: [`src/commands/${folder}/**/*.ts`],
      rules: { "no-restricted-imports": ["error", { patterns }], "no-restricted-syntax": ["error", ...dynamic] },
    };
  });
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "fixtures/**", ".stryker-tmp*/**", "reports/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Promises must be awaited or explicitly voided: a dropped one loses its error.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      // Responses of unknown shape are `unknown` on purpose and narrowed by hand.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // Async functions that implement a Promise-returning interface (sinks, fakes) need no await.
      "@typescript-eslint/require-await": "off",
      // Commander hands option values over as `unknown`-typed strings; String() is the intended
      // conversion there, and every other value printed is a string or number already.
      "@typescript-eslint/no-base-to-string": "off",
    },
  },
  ...layers,
  {
    // The launcher is CommonJS (bin/package.json, docs/architecture.md "Start-up"): require is its import.
    files: ["bin/simadmin.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", process: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read JSON answers by shape and assert on them; typing every answer would add
    // casts, not safety.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Plain-JS scripts (launcher, benchmarks, bundling) are not part of the TypeScript project.
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        Buffer: "readonly",
        performance: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        fetch: "readonly",
        TextDecoder: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
  },
);
